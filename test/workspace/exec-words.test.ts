import { describe, expect, it } from 'vitest';
import { isRegreenError } from '../../src/errors.ts';
import { execWords } from '../../src/workspace/sandbox/launcher.ts';

const refusal = (command: string, env: Record<string, string>): string => {
  try {
    execWords(command, env);
  } catch (error) {
    expect(isRegreenError(error) && error.code).toBe('config');
    return (error as Error).message;
  }
  return '';
};

describe('a command or variable no program can be started with (issue 61)', () => {
  it('is refused as what it is, unquoted', () => {
    const big = 'A'.repeat(200_000);
    const command = refusal(`export BIG='${big}'`, {});
    expect(command).toMatch(/^the command is 196 KiB, more than the 128 KiB/);
    const variable = refusal('true', { BIG: big });
    expect(variable).toMatch(/^the variable "BIG" is 196 KiB/);
    expect(command + variable).not.toContain('A'.repeat(100));
  });

  it('up to the kernel’s limit, taken', () => {
    expect(refusal('x'.repeat(128 * 1024 - 1), { K: 'v'.repeat(128 * 1024 - 3) })).toBe('');
    expect(refusal('x'.repeat(128 * 1024), {})).not.toBe('');
  });
});
