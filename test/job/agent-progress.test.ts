import { describe, expect, it } from 'vitest';
import { shortInput } from '../../src/job/stages/agent-progress.ts';

describe('the live line names what a tool works on', () => {
  it('a path relative to the workspace, its end kept when cut; a command cut at its end', () => {
    const ws = '/home/me/.cache/regreen/jobs/20261202T000000-abcdef/workspace';
    expect(shortInput({ path: `${ws}/src/range.js` }, ws)).toBe('src/range.js');
    const deep = shortInput(
      { path: `${ws}/packages/core/src/very/deep/folder/of/the/whole/monorepo/project/file.ts` },
      ws,
    );
    expect(deep.startsWith('…')).toBe(true);
    expect(deep.endsWith('monorepo/project/file.ts')).toBe(true);
    expect(deep.length).toBe(60);
    const command = shortInput({ command: `cd ${ws} && ${'x'.repeat(80)}` }, ws);
    expect(command.startsWith('cd ')).toBe(true);
    expect(command.endsWith('…')).toBe(true);
  });
});
