import { describe, expect, it } from 'vitest';
import { boundedOutcome, OUTCOME_LINE_CHARS } from '../../src/job/outcome-bounds.ts';
import type { Outcome } from '../../src/job/outcome.ts';
import { bounded } from '../../src/util/text.ts';

const huge = `export BIG='${'A'.repeat(400_000)}'\nexit 1`;

describe('an outcome quotes at most a few kilobytes of a line (issue 61)', () => {
  it('bounded keeps the head and the tail and says how much was cut', () => {
    const text = `${'h'.repeat(5000)}${'m'.repeat(10_000)}${'t'.repeat(5000)}`;
    const shown = bounded(text, 1000);
    expect(shown.startsWith('h'.repeat(750))).toBe(true);
    expect(shown.endsWith('t'.repeat(250))).toBe(true);
    expect(shown).toContain('[… 19000 characters cut]');
    expect(bounded('short', 1000)).toBe('short');
  });

  it.each<Outcome>([
    { status: 'error', code: 'sandbox-unavailable', reason: `could not start \`${huge}\`` },
    { status: 'not-reproduced', command: huge, reason: `\`${huge}\` passed` },
    {
      status: 'diagnosis',
      category: 'setup-failed',
      checks: [],
      reason: `set-up failed — \`${huge}\``,
      failure: {
        command: huge,
        where: `${huge} at abc`,
        exitCode: 1,
        tests: [],
        locations: [],
        excerpt: 'x',
        tried: [],
        reproduce: `regreen fix --command '${huge}'`,
        noModel: true,
      },
    },
  ])('$status: each line cut to the bound, the rest kept', (outcome) => {
    const shown = boundedOutcome(outcome);
    const text = JSON.stringify(shown);
    expect(text.length).toBeLessThan(6 * OUTCOME_LINE_CHARS);
    expect(text).toContain('characters cut]');
    expect(shown.status).toBe(outcome.status);
    if (shown.status === 'diagnosis') expect(shown.failure?.excerpt).toBe('x');
  });

  it('an outcome within the bounds is the same object', () => {
    const outcome: Outcome = { status: 'error', code: 'internal', reason: 'short' };
    expect(boundedOutcome(outcome)).toBe(outcome);
  });
});
