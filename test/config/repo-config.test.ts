import { describe, expect, it } from 'vitest';
import { parseRepoConfig } from '../../src/config/repo-config.ts';
import { RegreenError } from '../../src/errors.ts';

const errorOf = (text: string): RegreenError => {
  try {
    parseRepoConfig(text);
  } catch (error) {
    if (error instanceof RegreenError) return error;
    throw error;
  }
  throw new Error('expected an error');
};

describe('parseRepoConfig', () => {
  it('reads a full config and fills defaults', () => {
    const config = parseRepoConfig(
      'test_command: npm test\nprotected:\n  - "src/generated/**"\ndiff_limits:\n  max_files: 3\n',
    );
    expect(config.test_command).toBe('npm test');
    expect(config.protected).toEqual(['src/generated/**']);
    expect(config.diff_limits).toEqual({ max_files: 3, max_lines: 400, max_kib: 256 });
    expect(config.tools.levels).toEqual(['read', 'write', 'exec']);
  });

  it('accepts an empty file', () => {
    expect(parseRepoConfig('').budget.max_turns).toBe(40);
  });

  it.each([
    [
      'a wrong type, naming the field and line',
      'test_command: npm test\ndiff_limits:\n  max_files: many\n',
      /regreen\.yml:3: diff_limits\.max_files/,
    ],
    [
      'an unknown key, naming it and its line',
      'test_command: npm test\n\nsetup_comand: npm ci\n',
      /^\.github\/regreen\.yml:3: setup_comand: unknown key \(did you mean setup_command\?\)$/,
    ],
    ['a bad tool level', 'tools:\n  levels: [read, root]\n', /regreen\.yml:2: tools\.levels\.1/],
    ['invalid YAML', 'test_command: [unclosed\n', /regreen\.yml:\d+: invalid YAML/],
  ])('rejects %s', (_label, text, message) => {
    const error = errorOf(text);
    expect(error.code).toBe('config');
    expect(error.message).toMatch(message);
  });

  it('names every problem at once, in line order, an unknown key with the key it may be a slip for (#37)', () => {
    const error = errorOf(
      'test_comand: npm test\nbudget:\n  max_turns: 0\n  max_cost: 2\n  Max_Minutes: 3\nplan_mode: maybe\nzzz: 1\n',
    );
    expect(error.message).toBe(
      '.github/regreen.yml: 6 problems: ' +
        'line 1: test_comand: unknown key (did you mean test_command?); ' +
        'line 3: budget.max_turns: Too small: expected number to be >0; ' +
        'line 4: budget.max_cost: unknown key (did you mean max_cost_usd?); ' +
        'line 5: budget.Max_Minutes: unknown key (did you mean max_minutes?); ' +
        'line 6: plan_mode: Invalid input: expected boolean, received string; ' +
        'line 7: zzz: unknown key',
    );
  });
});
