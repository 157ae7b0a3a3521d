import { repoPath, type RecognisedFailure, type Recogniser } from './types.ts';

const cargoTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(entry.text);
    if (!match?.[1]) return;
    const name = match[1];
    const panic = lines.find((l) => l.text.includes(`thread '${name}' panicked at`));
    const where = panic ? /panicked at (\S+?):(\d+):\d+/.exec(panic.text) : null;
    const panicIndex = panic ? lines.indexOf(panic) : -1;
    const message =
      panicIndex >= 0
        ? (/panicked at [^,]+?:\d+:\d+:\s*(\S.*)$/.exec(panic?.text ?? '')?.[1] ??
          lines[panicIndex + 1]?.text.trim())
        : undefined;
    out.push({
      format: 'cargo-test',
      ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
      test: name,
      ...(message ? { message } : {}),
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
