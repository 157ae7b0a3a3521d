import { normaliseErrorLines } from './failure-report.ts';
import { triageLog } from './actions-log.ts';
import { lineSignal } from './log-signals.ts';
import { boundText } from '../util/text.ts';

/**
 * Whether the failure regreen reproduced is the one CI saw: the same failing
 * tests, or the same error lines. A reproduction that fails for another
 * reason (an import error where CI had an assertion, a missing toolchain or
 * package, a command that does not exist) is `different`: the agent would
 * chase a failure CI never had. Without anything to compare (a CI log that
 * names no test and no error line) the verdict is `unknown`, never `same`.
 */
export interface FailureSignature {
  /** Failing tests, by name as the runner prints it (normalised). */
  readonly tests: readonly string[];
  /** The lines that say what went wrong, volatile parts removed. */
  readonly errors: readonly string[];
  /** Failures that come from the environment, not the code (a missing module, a missing command). */
  readonly environmental: readonly string[];
}

export interface Fidelity {
  readonly verdict: 'same' | 'different' | 'unknown';
  readonly why: string;
  readonly ci: FailureSignature;
  readonly here: FailureSignature;
}

/** The raw-log numbers `formatExcerpt` puts before each line, and its gap marks, removed. */
const excerptText = (excerpt: string): string =>
  excerpt
    .split('\n')
    .filter((line) => line !== '…')
    .map((line) => line.replace(/^\s*\d+: /, ''))
    .join('\n');

/** Errors that say the environment is not CI's, whatever the code does. */
const ENVIRONMENTAL: readonly RegExp[] = [
  /\bModuleNotFoundError: No module named '([^']+)'/,
  /\bImportError: (?:cannot import name|No module named) '?([\w.]+)/,
  /\bCannot find module '([^']+)'/,
  /\bERR_MODULE_NOT_FOUND\b.*?'([^']+)'/,
  // A run of name characters read from its start only: each one is read once, not from every place in it.
  /(?<![\w.+-])[.+-]*\b([\w.+-]+): (?:command )?not found\b/,
  /\bno required module provides package ([\w./-]+)/,
  /\bcannot find package "([^"]+)"/,
  /\berror\[E0463\]: can't find crate for `([^`]+)`/,
  /\bCould not resolve (?:dependencies|artifact) for ([\w.:-]+)/,
  /\bpackage ([\w.]+) does not exist\b/,
  /\bis not available here\b/,
  /\bNo such file or directory\b.*\b(python|node|java|go|cargo)\b/,
];

/** Lines that appear in every failure and say nothing of which one. */
const GENERIC: readonly RegExp[] = [
  /Process completed with exit code/i,
  /exited with (?:code )?\d+/i,
  /^npm ERR! (?:code|errno|path|command|A complete log|Lifecycle|Exit status|This is probably|Failed at)/,
  /^(?:error|ERR!)?\s*Command failed/i,
  /^make(?:\[\d+\])?: \*\*\*/,
  /^\[ERROR\] (?:-> \[Help|Re-run Maven|To see the full|For more information|$)/,
  /^(?:FAIL|FAILED|ERROR)\s*$/,
  /^error: (?:test failed|could not compile|Recipe `)/,
  /^Error: Process completed/,
];

/** Words that identify a line: no numbers, paths reduced to their file name. */
const words = (line: string): string[] =>
  line
    .toLowerCase()
    .replace(/(?<![\w./-])(?:[\w.-]*\/)+([\w.-]+)/g, '$1')
    .replace(/\d+(?:\.\d+)*/g, ' ')
    .split(/[^\p{L}\p{N}_.]+/u)
    .filter((word) => word.length > 1);

/** A name without its last `[…]` (a parametrised case's id), found with fixed strings. */
const withoutCaseId = (name: string): string => {
  if (!name.endsWith(']')) return name;
  const open = name.indexOf('[', name.lastIndexOf(']', name.length - 2) + 1);
  return open >= 0 ? name.slice(0, open) : name;
};

const testName = (name: string): string =>
  withoutCaseId(name.replace(/(?<!\s)\s*\(\d+(?:\.\d+)?\s*m?s\)\s*$/, '')).trim();

export const signatureOf = (raw: string): FailureSignature => {
  const text = boundText(raw);
  const lines = normaliseErrorLines(text);
  // The recognisers read the log as triage cleans it (durations and all), not the normalised lines.
  const tests = [
    ...new Set(
      triageLog(text)
        .failures.map((failure) => failure.test)
        .filter((name): name is string => name !== undefined && name.trim() !== '')
        .map(testName),
    ),
  ];
  const errors = [
    ...new Set(
      lines
        .filter((line) => lineSignal(line) >= 5 && !GENERIC.some((pattern) => pattern.test(line)))
        .slice(0, 200),
    ),
  ];
  const environmental = [
    ...new Set(
      lines.flatMap((line) => {
        const hit = ENVIRONMENTAL.map((pattern) => pattern.exec(line)).find(Boolean);
        return hit ? [hit[0]] : [];
      }),
    ),
  ];
  return { tests, errors, environmental };
};

/** Similarity of two lines by their words (Jaccard). */
const similarity = (a: readonly string[], b: readonly string[]): number => {
  if (a.length === 0 || b.length === 0) return 0;
  const left = new Set(a);
  const right = new Set(b);
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  return shared / (left.size + right.size - shared);
};

/** A test is the same when one name ends the other (runners print suites and paths differently). */
const sameTest = (left: string, right: string): boolean => {
  const [a, b] = [left.toLowerCase(), right.toLowerCase()];
  return a === b || a.endsWith(b) || b.endsWith(a);
};

const list = (items: readonly string[], max = 3): string =>
  `${items
    .slice(0, max)
    .map((item) => `\`${item}\``)
    .join(', ')}${items.length > max ? ` and ${items.length - max} more` : ''}`;

export const compareFailures = (ciExcerpt: string, reproduced: string): Fidelity => {
  const ci = signatureOf(excerptText(ciExcerpt));
  const here = signatureOf(reproduced);
  const verdict = (v: Fidelity['verdict'], why: string): Fidelity => ({
    verdict: v,
    why,
    ci,
    here,
  });
  const newEnvironmental = here.environmental.filter(
    (line) => !ci.environmental.some((seen) => similarity(words(seen), words(line)) >= 0.5),
  );
  if (newEnvironmental.length > 0)
    return verdict(
      'different',
      `regreen's run failed on its environment (${list(newEnvironmental, 2)}), which CI's log does not show`,
    );
  if (ci.tests.length > 0 && here.tests.length > 0) {
    const shared = ci.tests.filter((test) => here.tests.some((mine) => sameTest(test, mine)));
    return shared.length > 0
      ? verdict('same', `the same failing test(s) as CI: ${list(shared)}`)
      : verdict(
          'different',
          `CI failed ${list(ci.tests)}; regreen's run failed ${list(here.tests)} instead`,
        );
  }
  // One entry per CI error line, in step with `ci.errors` (a line too short to compare is skipped there).
  const hereWords = here.errors.map(words);
  const matched = ci.errors.find((error) => {
    const line = words(error);
    return line.length >= 2 && hereWords.some((mine) => similarity(line, mine) >= 0.5);
  });
  if (matched) return verdict('same', `the same error as CI: \`${matched}\``);
  if (ci.tests.length > 0)
    return verdict(
      'different',
      `CI failed ${list(ci.tests)}; regreen's run names no failing test and none of CI's errors`,
    );
  if (ci.errors.length > 0 && here.errors.length > 0)
    return verdict(
      'different',
      `none of CI's error lines (${list(ci.errors, 2)}) is in regreen's output (${list(here.errors, 2)})`,
    );
  return verdict('unknown', "CI's log names no failing test or error line to compare with");
};
