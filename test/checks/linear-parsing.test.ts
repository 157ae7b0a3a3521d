/**
 * The checks parse what a repository's tests printed, on the host, in
 * regreen's one event loop: a pattern that backtracks on a crafted line holds
 * the loop, where no time limit fires. Every parser here meets such lines and
 * must return (the suite's own timeout is the bound; the lint rule
 * `regexp/no-super-linear-backtracking` keeps new patterns linear).
 */
import { describe, expect, it } from 'vitest';
import { failingTestNames } from '../../checks/failing-tests.ts';
import { junitCounts, parseJunit, parseTap } from '../../checks/test-reports.ts';
import { testCounts } from '../../checks/test-counts.ts';
import { parseReply, type Question } from '../../src/questions/card.ts';

/** Lines shaped like each summary, long and ending where the pattern fails. */
const crafted = [
  `Tests 1 ${'11111111 '.repeat(40)}x`,
  `      Tests  ${'1 passed | '.repeat(2000)}x`,
  `Tests: ${'1 '.repeat(20_000)}x`,
  `not ok 1 - ${' '.repeat(50_000)}#${' '.repeat(50_000)}x`,
  `ok 1 ${'- '.repeat(40_000)}x`,
  `FAIL ${'a '.repeat(40_000)}> x`,
];

describe('parsing a run’s output is linear', () => {
  it.each(crafted.map((line) => [line.slice(0, 40), line]))('returns on %j…', (_, line) => {
    const output = `${line}\n`.repeat(8);
    expect(() => testCounts(output)).not.toThrow();
    expect(() => failingTestNames(output)).not.toThrow();
    expect(parseTap(output)).toBeInstanceOf(Map);
  });

  it('a JUnit report of unclosed or endless tags is read in one pass (attack5)', () => {
    // 120k `<testcase>` openings no `</testcase>` closes: each used to search to the end again.
    const unclosed = `<testsuites><testsuite>${'<testcase name="x">'.repeat(120_000)}<testcase name="y"/></testsuite></testsuites>`;
    expect(junitCounts(unclosed)).toMatchObject({ passed: 1, failed: 0 });
    const endless = `<testcase name="a">${'<testsuite <error '.repeat(60_000)}</testcase>`;
    expect(junitCounts(endless)).toMatchObject({ passed: 0, failed: 1, errors: 0 });
    // What it is for, as pytest writes it.
    const report =
      '<testsuites><testsuite tests="3" errors="0"><testcase classname="t" name="a"/>' +
      '<testcase classname="t" name="b"><failure message="x">boom</failure></testcase>' +
      '<testcase classname="t" name="c" ><skipped/></testcase>' +
      '<testcase classname="" name="t_d"><error message="collection failure">E</error></testcase></testsuite></testsuites>';
    expect(junitCounts(report)).toMatchObject({ passed: 1, failed: 1, skipped: 1, errors: 1 });
    expect([...parseJunit(report)]).toEqual([
      ['a', 'pass'],
      ['t.a', 'pass'],
      ['b', 'fail'],
      ['t.b', 'fail'],
      ['c', 'skip'],
      ['t.c', 'skip'],
      ['t_d', 'fail'],
    ]);
  });

  it('still reads the summaries it is for', () => {
    expect(testCounts('      Tests  1 failed | 9 passed (10)\n')).toMatchObject({
      passed: 9,
      failed: 1,
    });
    expect(testCounts('Tests:       1 failed, 5 passed, 6 total\n')).toMatchObject({
      passed: 5,
      failed: 1,
    });
    const tap = parseTap(
      'ok 1 - adds\nnot ok 2 - subtracts # took 3ms\nok 3 - later # SKIP not yet\nok 4 plain\n',
    );
    expect([...tap]).toEqual([
      ['adds', 'pass'],
      ['subtracts', 'fail'],
      ['later', 'skip'],
      ['plain', 'pass'],
    ]);
    expect([...failingTestNames('not ok 2 - subtracts # took 3ms\n')]).toEqual(['subtracts']);
  });

  it('reads an answer of numbers without backtracking on spaces', () => {
    const question = { options: ['a', 'b', 'c'] } as unknown as Question;
    expect(() => parseReply(`1${' '.repeat(50_000)}x`, question)).not.toThrow();
  });
});
