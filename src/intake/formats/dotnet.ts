import { perLine, repoPath, type Recogniser } from './types.ts';

const dotnet = perLine(
  'dotnet',
  /^\s*(?:\d+>)?((?:[A-Za-z]:)?[^\s(:]+\.(?:cs|fs|vb|csproj|fsproj|props|targets))\((\d+),\d+\): error ((?:CS|FS|BC|MSB|NU)\d+): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ file: m[1], line: m[2], message: `${m[3]}: ${m[4]}` }),
);

const xunit = perLine('xunit', /^\s*([\w.`<>]+(?:\([^)]*\))?) \[FAIL\]\s*$/, (m) => ({
  test: m[1],
}));

const pester: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^\s*\[-\] (.+?)(?: \d+(?:\.\d+)?m?s)?\s*$/.exec(entry.text);
    if (!match?.[1]) return [];
    const message = lines[index + 1]?.text.trim();
    const at = lines
      .slice(index + 1, index + 8)
      .map((l) => /at .*?, (\S+\.ps1): line (\d+)/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'pester' as const,
        ...(at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {}),
        test: match[1],
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

/** The recognisers of this family, in the order they are tried. */
export const DOTNET: readonly Recogniser[] = [dotnet, xunit, pester];
