import { repoPath, type LogLine, type RecognisedFailure, type Recogniser } from './types.ts';

/**
 * The first `thread 'name' panicked at …` line of each test, by name, in one pass (each
 * `… FAILED` line then looks its test up, never searches the log again).
 */
const panicsByName = (lines: readonly LogLine[]): Map<string, number> => {
  const panics = new Map<string, number>();
  lines.forEach((entry, index) => {
    const end = entry.text.indexOf("' panicked at");
    const start = end < 0 ? -1 : entry.text.lastIndexOf("thread '", end);
    if (start < 0) return;
    const name = entry.text.slice(start + "thread '".length, end);
    if (!panics.has(name)) panics.set(name, index);
  });
  return panics;
};

/** Where a test panicked and why, read once from its panic line. */
const panicOf = (
  lines: readonly LogLine[],
  panicIndex: number,
): Pick<RecognisedFailure, 'file' | 'line' | 'message'> => {
  const panic = lines[panicIndex];
  if (!panic) return {};
  const where = /panicked at (\S+?):(\d+):\d+/.exec(panic.text);
  const message =
    /panicked at [^,]+?:\d+:\d+:\s*(\S.*)$/.exec(panic.text)?.[1] ??
    lines[panicIndex + 1]?.text.trim();
  return {
    ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
    ...(message ? { message } : {}),
  };
};

const cargoTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let panics: Map<string, number> | undefined;
  const read = new Map<string, ReturnType<typeof panicOf>>();
  lines.forEach((entry, index) => {
    const match = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(entry.text);
    if (!match?.[1]) return;
    const name = match[1];
    panics ??= panicsByName(lines);
    const panic = read.get(name) ?? panicOf(lines, panics.get(name) ?? -1);
    read.set(name, panic);
    out.push({
      format: 'cargo-test',
      ...(panic.file ? { file: panic.file, line: panic.line } : {}),
      test: name,
      ...(panic.message ? { message: panic.message } : {}),
      logLine: entry.line || lines[index]?.line || 0,
    });
  });
  return out;
};

const rustc: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^error(?:\[(E\d{4})\])?: (.*)$/.exec(entry.text);
    if (!match?.[2] || /^(?:aborting due to|could not compile|test failed)/.test(match[2]))
      return [];
    const at = lines
      .slice(index + 1, index + 4)
      .map((l) => /^\s*--> (\S+?):(\d+):\d+/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'rustc' as const,
        ...(at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {}),
        message: match[1] ? `${match[1]}: ${match[2]}` : match[2],
        logLine: entry.line,
      },
    ];
  });

/** The recognisers of this family, in the order they are tried. */
export const RUST: readonly Recogniser[] = [cargoTest, rustc];
