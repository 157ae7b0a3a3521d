import { stripAnsi } from '../src/util/text.ts';
import { failingTestNames } from './failing-tests.ts';
import { GO_PACKAGE_LINE, testCounts, type TestCounts } from './test-counts.ts';
import { junitCounts } from './test-reports.ts';
import type { CheckedRun } from './types.ts';
import { pattern } from '../src/util/pattern.ts';

/** A counted run as the checks read it. */
export interface ReadRun {
  readonly counts: TestCounts | undefined;
  /** Failing tests, files and packages, by name (the report's names when there is one). */
  readonly failing: ReadonlySet<string>;
  /** Whether the counts come from a report the runner wrote (not from what it printed). */
  readonly reported: boolean;
  /** What the counts rest on, for the trace. */
  readonly proof: string;
  /**
   * Why the run's own witnesses disagree (its report and what its runner printed): the counts
   * are not to be trusted, and a check that reads them fails closed.
   */
  readonly contradicted?: string;
  /** pytest printed its closing line (`2 passed in 0.03s`): it ended as pytest ends. */
  readonly closed?: boolean;
}

const PYTEST_SUMMARY = /^=+ .*\b(passed|failed|errors?|no tests ran)\b.* in [\d.]+s/m;

/** pytest's closing line, `-q` or not: `1 failed, 2 passed in 0.03s` (between `=` or bare). */
const PYTEST_CLOSING =
  /^=* ?((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+) in [\d.]+s(?: \(\S+\))? ?=*$/gm;

/** How many failed (failures and errors) by pytest's last closing line, if it printed one. */
const pytestPrintedFailures = (output: string): number | undefined => {
  const last = [...output.matchAll(PYTEST_CLOSING)].at(-1)?.[1];
  if (last === undefined) return undefined;
  const count = (word: RegExp): number => Number(pattern()`(\d+) ${word}`.exec(last)?.[1] ?? 0);
  return count(/failed/) + count(/errors?/);
};

/**
 * What a run proved it ran: the runner's own report when it wrote one to the
 * path made for the run, else what it printed — go test's line per test (it
 * was asked for `-v`), or a runner's summary, kept honest by the base's
 * harness (the judging run has the base's tests and configuration).
 */
export const readRun = (run: CheckedRun): ReadRun => {
  if (run.proof?.junit !== undefined) {
    const counted = junitCounts(run.proof.junit);
    // Code under test runs in the runner's process and may rewrite the report before it exits:
    // what pytest printed while it ran is a second witness, and the two must agree.
    const printed = pytestPrintedFailures(stripAnsi(run.output));
    const reported = counted.failed + counted.errors;
    const contradicted =
      printed !== undefined && printed !== reported
        ? `the runner's report counts ${reported} failing, but it printed ${printed} failing as it ran: the report was not the runner's alone`
        : undefined;
    return {
      ...(contradicted ? { contradicted } : {}),
      closed: printed !== undefined,
      counts: {
        passed: counted.passed,
        failed: counted.failed,
        skipped: counted.skipped,
        fileErrors: counted.errors,
      },
      failing: counted.failing,
      reported: true,
      proof: "the runner's JUnit report, written to a path made for the run",
    };
  }
  const output = stripAnsi(run.output);
  const goVerbose = run.proof?.goVerbose === true;
  const counts = testCounts(run.output, { goVerbose });
  const isGo = counts !== undefined && GO_PACKAGE_LINE.test(output) && !PYTEST_SUMMARY.test(output);
  return {
    counts,
    failing: failingTestNames(output),
    reported: false,
    proof:
      counts === undefined
        ? 'the exit code (no runner summary found)'
        : isGo && goVerbose
          ? "go test's line per test (-v)"
          : "the runner's printed summary, under the base's harness",
  };
};

/**
 * A run whose runner ended otherwise than on the base: pytest printed its
 * closing line there and not here (the process was ended from within before
 * pytest could, its report written by someone else).
 */
export const closingMissing = (before: ReadRun, after: ReadRun): boolean =>
  before.closed === true && after.reported && after.closed !== true;

/** A run that wrote no report where the same command on the base did: its runner did not prove it ran. */
export const reportMissing = (before: ReadRun, after: ReadRun): boolean =>
  before.reported && !after.reported;
