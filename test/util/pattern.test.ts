/**
 * issue 61, class 1: `pattern` is the one place a RegExp is built at run time;
 * text put into it matches itself only, whatever it spells.
 */
import { describe, expect, it } from 'vitest';
import { anyOf, escapeRegExp, pattern } from '../../src/util/pattern.ts';

const SPECIAL = '(a+)+b.*?[x-y]{2}|^$\\/';

describe('pattern', () => {
  it.each(['', 'u', 'i'])('an interpolated string matches itself only (flags %j)', (flags) => {
    const re = pattern(flags)`^${SPECIAL}$`;
    expect(re.test(SPECIAL)).toBe(true);
    expect(re.test('aaab..[x-y]{2}|^$\\/')).toBe(false);
    expect(re.flags).toBe(flags);
  });

  it('an interpolated RegExp adds its syntax, and the template reads raw', () => {
    const word = /(?:fail|error)s?/;
    expect(pattern()`(\d+) ${word}`.exec('3 errors, 2 failed')?.[1]).toBe('3');
  });

  it('anyOf matches each text and nothing else; of none, never', () => {
    const names = anyOf(['a.b', 'c|d']);
    expect(pattern()`^${names}$`.test('a.b')).toBe(true);
    expect(pattern()`^${names}$`.test('c|d')).toBe(true);
    expect(pattern()`^${names}$`.test('axb')).toBe(false);
    expect(pattern()`^${names}$`.test('c')).toBe(false);
    expect(anyOf([]).test('')).toBe(false);
  });

  it('escapes a dash so that a `u` pattern accepts it outside a class', () => {
    expect(() => new RegExp(escapeRegExp('a-b'), 'u')).not.toThrow();
    expect(new RegExp(`[${escapeRegExp('a-c')}]`, 'u').test('b')).toBe(false);
  });
});
