import { describe, expect, it } from 'vitest';
import { editDistance, nearestWord } from '../../src/util/did-you-mean.ts';

describe('did you mean', () => {
  it.each([
    ['test_comand', 'test_command', 1],
    ['tset_command', 'test_command', 1],
    ['max_cost', 'max_cost_usd', 4],
    ['', 'abc', 3],
    ['same', 'same', 0],
  ])('%s → %s is %i edit(s) away', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
  });

  it('suggests the nearest known word, and none for a word that is no slip of any', () => {
    const known = ['max_turns', 'max_cost_usd', 'max_minutes'];
    expect(nearestWord('max_cost', known)).toBe('max_cost_usd');
    expect(nearestWord('max_turn', known)).toBe('max_turns');
    expect(nearestWord('colour', known)).toBeUndefined();
  });
});
