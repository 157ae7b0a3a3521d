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

/** Every failure the known formats recognise in the lines, in log order, without repeats. */
export const recogniseFailures = (raw: readonly LogLine[], max = 50): RecognisedFailure[] => {
  const seen = new Set<string>();
  const lines = terminalLines(raw);
  return RECOGNISERS.flatMap((recognise) => recognise(lines))
    .filter((failure) => {
      const key = `${failure.format}|${failure.file ?? ''}|${failure.line ?? ''}|${failure.test ?? ''}|${failure.message ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.logLine - b.logLine)
    .slice(0, max);
};
