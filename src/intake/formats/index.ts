/**
 * Recognisers for the failure reports of common test runners, compilers and
 * linters, as they appear in a CI log, one file per ecosystem. Each one reads
 * the cleaned lines of the failing part and names what failed: the file, the
 * line and the test where the output says them.
 */
import { DOTNET } from './dotnet.ts';
import { GO } from './go.ts';
import { JAVASCRIPT } from './javascript.ts';
import { JVM } from './jvm.ts';
import { NATIVE } from './native.ts';
import { OTHER } from './other.ts';
import { PYTHON } from './python.ts';
import { RUST } from './rust.ts';
import { systemClock, type Clock } from '../../util/clock.ts';
import { terminalLines, type LogLine, type RecognisedFailure, type Recogniser } from './types.ts';

export {
  repoPath,
  terminalLines,
  type FailureFormat,
  type LogLine,
  type RecognisedFailure,
} from './types.ts';

const RECOGNISERS: readonly Recogniser[] = [
  ...JAVASCRIPT,
  ...PYTHON,
  ...GO,
  ...RUST,
  ...JVM,
  ...NATIVE,
  ...DOTNET,
  ...OTHER,
];

/**
 * The time the recognisers may take over one text, together. Each pattern they use is linear
 * (the lint's two rules, no pattern built from text) on lines bounded where they enter, so no
 * one recogniser can hold the loop long; past this budget the rest are not run, and what they
 * would have named is "not recognised", never a hang.
 */
export const RECOGNISE_BUDGET_MS = 2_000;

/** Every failure the known formats recognise in the lines, in log order, without repeats. */
export const recogniseFailures = (
  raw: readonly LogLine[],
  max = 50,
  clock: Clock = systemClock,
): RecognisedFailure[] => {
  const seen = new Set<string>();
  const lines = terminalLines(raw);
  const until = clock.now() + RECOGNISE_BUDGET_MS;
  const found: RecognisedFailure[] = [];
  for (const recognise of RECOGNISERS) {
    if (clock.now() > until) break;
    found.push(...recognise(lines));
  }
  return found
    .filter((failure) => {
      const key = `${failure.format}|${failure.file ?? ''}|${failure.line ?? ''}|${failure.test ?? ''}|${failure.message ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.logLine - b.logLine)
    .slice(0, max);
};
