/**
 * issue 61, class 1: the recognisers read a log under a budget of time they
 * cannot outrun; past it the rest are not run, and what they would have named
 * is "not recognised", never a hang. The clock is a parameter: no wall time.
 */
import { describe, expect, it } from 'vitest';
import { RECOGNISE_BUDGET_MS, recogniseFailures } from '../../src/intake/formats/index.ts';

const LOG = [
  { line: 1, text: 'FAILED tests/test_a.py::test_one - assert 1 == 2' },
  { line: 2, text: ' FAIL  src/a.test.ts > adds' },
];

describe('recognising under a budget', () => {
  it('names every failure when the budget holds', () => {
    const names = recogniseFailures(LOG, 50, { now: () => 0 }).map((f) => f.format);
    expect(names).toEqual(expect.arrayContaining(['pytest', 'vitest']));
  });

  it('past the budget, the recognisers not yet run name nothing', () => {
    let calls = 0;
    // The clock moves past the budget once the first recogniser (vitest's) has run.
    const clock = { now: () => (calls++ < 2 ? 0 : RECOGNISE_BUDGET_MS + 1) };
    const names = recogniseFailures(LOG, 50, clock).map((f) => f.format);
    expect(names).toContain('vitest');
    expect(names).not.toContain('pytest');
  });
});
