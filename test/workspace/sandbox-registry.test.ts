import { describe, expect, it } from 'vitest';
import { sandboxKindOf } from '../../src/workspace/sandbox/kinds.ts';

describe('the sandbox a person names', () => {
  it('bubblewrap by default and by name; asrt, its old name, with a notice; anything else a usage error', () => {
    const notices: string[] = [];
    const notice = (message: string): void => void notices.push(message);
    expect(sandboxKindOf(undefined, notice)).toBe('bubblewrap');
    expect(sandboxKindOf('bubblewrap', notice)).toBe('bubblewrap');
    expect(sandboxKindOf('none', notice)).toBe('none');
    expect(notices).toEqual([]);
    expect(sandboxKindOf('asrt', notice)).toBe('bubblewrap');
    expect(notices).toEqual([
      '--sandbox asrt is the old name of the bubblewrap sandbox: say bubblewrap',
    ]);
    expect(() => sandboxKindOf('docker', notice)).toThrow(
      /must be bubblewrap or none, not "docker"/,
    );
  });
});
