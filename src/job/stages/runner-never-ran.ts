/**
 * Whether a failing command's runner ran at all: the reproduction is held to
 * what the verdict holds a pass to (`checks/run-counts.ts`). A run that
 * proved it ran — its runner's report with a test in it, or its printed
 * summary — is a failure of the code. One that failed with no such proof,
 * and that printed what a launcher prints when the runner is not there (the
 * module `python -m` runs, a package script, a test file to run), never got
 * as far as the code: it is the environment's outcome, said with the piece
 * that is missing and how to give it, before any model is asked.
 *
 * The output is the sandbox's (hostile): it is read in its last lines only,
 * with anchored patterns that cannot backtrack; a run that printed such a
 * line to pass for a missing runner only turns its own failure into a
 * diagnosis (nothing is proposed), and a runner that wrote its report is
 * never read this way.
 */
import { readRun } from '../../../checks/run-counts.ts';
import type { CheckedRun } from '../../../checks/types.ts';
import { stripAnsi } from '../../util/text.ts';

export interface NeverRan {
  /** What is missing, for a person: "the Python module `pytest`". */
  readonly missing: string;
  /** The line of the output that says so. */
  readonly evidence: string;
  /** How to give the job what is missing. */
  readonly fix: string;
}

/** The lines read: what a launcher prints when its runner is not there comes last. */
const TAIL_LINES = 60;
const MAX_LINE = 400;

type Rule = (line: string, exitCode: number | null) => Omit<NeverRan, 'evidence'> | undefined;

const SETUP_FIX =
  'install it in the set-up as CI does (the test dependencies the project declares: requirements, an extra, a dependency group), or name CI’s job with `--job` so its steps are replayed, or set `setup_command` in .github/regreen.yml';

/** `python -m pytest` without pytest: `/usr/bin/python3: No module named pytest` (runpy's line). */
const pythonModule: Rule = (line) => {
  const match =
    /^\S*python[\d.]*: No module named ([\w.]+)$/.exec(line) ??
    /^\S*python[\d.]*: Error while finding module specification for '([\w.]+)'/.exec(line);
  return match?.[1]
    ? { missing: `the Python module \`${match[1]}\` (what \`-m\` runs)`, fix: SETUP_FIX }
    : undefined;
};

/** A package script that is not there: npm, pnpm, yarn 1 and yarn 2+ each say it their way. */
const packageScript: Rule = (line) => {
  const match =
    /^(?:npm (?:error|ERR!) )?[Mm]issing script: "?([\w:.@/-]+)"?$/.exec(line) ??
    /^(?:ERR_PNPM_NO_SCRIPT|ERR_PNPM_RECURSIVE_EXEC_FIRST_FAIL)\b.*[Mm]issing script:? "?([\w:.@/-]+)"?/.exec(
      line,
    ) ??
    /^error Command "([\w:.@/-]+)" not found\.$/.exec(line) ??
    /^Usage Error: Couldn't find a script named "([\w:.@/-]+)"\.$/.exec(line);
  return match?.[1]
    ? {
        missing: `the package script \`${match[1]}\` (package.json has no such script)`,
        fix: 'pass the command CI runs with `--command`, or name its workflow job with `--job`',
      }
    : undefined;
};

/** A runner that found nothing to run: pytest's exit 5, jest's, vitest's and mocha's own lines. */
const noTests: Rule = (line, exitCode) => {
  const found =
    (exitCode === 5 && /^=* ?no tests ran in [\d.]+s ?=*$/.test(line)) ||
    /^No tests found, exiting with code 1$/.test(line) ||
    /^No test files found, exiting with code 1$/.test(line) ||
    /^Error: No test files found: /.test(line);
  return found
    ? {
        missing: 'tests: the runner found none to run',
        fix: 'check that the command names the tests CI runs (their paths, the runner’s configuration), or pass CI’s command with `--command`',
      }
    : undefined;
};

const RULES: readonly Rule[] = [pythonModule, packageScript, noTests];

/** Whether the run proved that its runner ran: a report with a test in it, or a summary it printed. */
const runnerRan = (run: CheckedRun): boolean => {
  const read = readRun(run);
  const counts = read.counts;
  if (!counts) return false;
  return counts.passed + counts.failed + counts.skipped + counts.fileErrors > 0;
};

/** Why a failed run is the environment's and not the code's, or undefined when its runner ran (or may have). */
export const runnerNeverRan = (run: CheckedRun): NeverRan | undefined => {
  if (run.exitCode === 0 || run.timedOut || runnerRan(run)) return undefined;
  const lines = stripAnsi(run.output)
    .split('\n')
    .slice(-TAIL_LINES)
    .map((line) => line.trim().slice(0, MAX_LINE));
  for (const line of lines.reverse())
    for (const rule of RULES) {
      const found = rule(line, run.exitCode);
      if (found) return { ...found, evidence: line };
    }
  return undefined;
};
