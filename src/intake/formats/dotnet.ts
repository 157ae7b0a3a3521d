import {
  locationAfter,
  perLine,
  repoPath,
  type LogLine,
  type RecognisedFailure,
  type Recogniser,
} from './types.ts';

/** MSBuild's diagnostics, any tool's code: `path(12,5): error CS0103: message [proj]` (CS, MSB, NU, NETSDK, CA, IDE, SA…). */
const dotnet = perLine(
  'dotnet',
  /^\s*(?:\d+>)?((?:[A-Za-z]:)?[^\s(:]+\.(?:cs|fs|vb|csproj|fsproj|vbproj|props|targets|sln|razor|cshtml|xaml))\((\d+)(?:,\d+)*\): error ([A-Z]{2,8}\d{3,5}): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ file: m[1], line: m[2], message: `${m[3]}: ${m[4]}` }),
);

/** MSBuild's diagnostics without a file: `MSBUILD : error MSB1009: …`, `CSC : error CS2001: …`. */
const dotnetTool = perLine(
  'dotnet',
  /^\s*(?:\d+>)?[\w.-]+ : error ([A-Z]{2,8}\d{3,5}): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ message: `${m[1]}: ${m[2]}` }),
);

/** A .NET stack frame with its source: `at Ns.Class.Method() in /path/File.cs:line 12`. */
const FRAME = /\bat .+? in (\S.*?\.(?:cs|fs|vb)):line (\d+)/;

/** The first non-blank line after `from` (within a few), trimmed. */
const nextText = (lines: readonly LogLine[], from: number, within = 3): string | undefined =>
  lines
    .slice(from + 1, from + 1 + within)
    .map((l) => l.text.trim())
    .find((t) => t.length > 0);

/** A failed test with the message under it and the first frame that names a source file. */
const failedTest = (
  format: RecognisedFailure['format'],
  lines: readonly LogLine[],
  index: number,
  test: string,
  message: string | undefined,
): RecognisedFailure => {
  const at = locationAfter(lines, index, 60, FRAME);
  return {
    format,
    ...(at ? { file: at.file, line: at.line } : {}),
    test,
    ...(message ? { message } : {}),
    logLine: lines[index]?.line ?? 0,
  };
};

/** xUnit: `Ns.Class.Method [FAIL]` (the console runner prefixes `[xUnit.net 00:00:01.23]`). */
const xunit: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^\s*(?:\[xUnit\.net [\d:.]+\]\s+)?([\w.`<>+]+(?:\(.*\))?) \[FAIL\]\s*$/.exec(
      entry.text,
    );
    if (!match?.[1]) return [];
    const message = nextText(lines, index)?.replace(/^\[xUnit\.net [\d:.]+\]\s+/, '');
    return [failedTest('xunit', lines, index, match[1], message)];
  });

/**
 * `Failed Name [12 ms]`'s name: split at the last `[` (the duration holds none) rather than a
 * lazy name before `\s+\[`, which backtracks quadratically on a long line that does not end so.
 */
const timedName = (text: string): string | undefined => {
  const at = text.lastIndexOf('[');
  const head = text.slice(0, at);
  if (at < 0 || !/\s$/.test(head) || !/^\[[<\d.\s]+(?:ms|s|m|h)\]\s*$/.test(text.slice(at)))
    return undefined;
  return /^\s*(?:Failed|X)\s+(\S.*)$/.exec(head.trimEnd())?.[1];
};

/**
 * `dotnet test` (VSTest's console logger): `Failed Ns.Class.Method [12 ms]`
 * (`Failed   Ns.Class.Method` before .NET 5), then `Error Message:` and `Stack Trace:`.
 */
const vstest: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const timed = timedName(entry.text);
    const bare = /^\s*Failed\s+([\w.`<>+$]+(?:\(.*\))?)\s*$/.exec(entry.text);
    const test = timed ?? bare?.[1];
    if (!test) return [];
    const header = lines
      .slice(index + 1, index + 3)
      .findIndex((l) => /^\s*Error Message:\s*$/.test(l.text));
    if (!timed && header < 0) return [];
    const message = header >= 0 ? nextText(lines, index + 1 + header) : undefined;
    return [failedTest('vstest', lines, index, test, message)];
  });

/** NUnit's console runner: `1) Failed : Ns.Class.Method` (NUnit 3), `1) Test Failure : …` (NUnit 2). */
const nunit: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match =
      /^\s*\d+\) (?:Failed|Error|Invalid|Test Failure|Test Error|SetUp Error|TearDown Error) : (\S.*)$/.exec(
        entry.text.trimEnd(),
      );
    if (!match?.[1]) return [];
    return [failedTest('nunit', lines, index, match[1], nextText(lines, index))];
  });

/** `[-] Name 12ms`: the name without its duration (cut at the last space, not by a lazy match). */
const pesterName = (text: string): string | undefined => {
  const body = /^\s*\[-\] (.+)$/.exec(text.trimEnd())?.[1];
  if (body === undefined) return undefined;
  const space = body.lastIndexOf(' ');
  return space > 0 && /^ \d+(?:\.\d+)?m?s$/.test(body.slice(space)) ? body.slice(0, space) : body;
};

const pester: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const name = pesterName(entry.text);
    if (!name) return [];
    const message = lines[index + 1]?.text.trim();
    const at = lines
      .slice(index + 1, index + 8)
      .map((l) => /at .*?, (\S+\.ps1): line (\d+)/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'pester' as const,
        ...(at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {}),
        test: name,
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

/**
 * The failures PowerShell's build (`Start-PSPester`) lists again after
 * Pester's summary: `TEST FAILURES`, then per test `Description:`,
 * `Name:        Describe.It`, `message:` and `stack-trace:`.
 */
const pesterFailureList: Recogniser = (lines) => {
  const start = lines.findIndex((l) => /^\s*TEST FAILURES\s*$/.test(l.text));
  if (start < 0) return [];
  const found = [];
  for (let i = start + 1; i < lines.length && i < start + 400; i += 1) {
    const name = /^\s*Name:\s+(\S.*)$/.exec(lines[i]?.text ?? '');
    if (!name?.[1]) continue;
    const described = /^\s*Description:/.test(lines[i - 1]?.text ?? '') ? i - 1 : i;
    const message = /^\s*message:\s*$/.test(lines[i + 1]?.text ?? '')
      ? lines[i + 2]?.text.trim()
      : undefined;
    found.push({
      format: 'pester' as const,
      test: name[1].trim(),
      ...(message ? { message } : {}),
      logLine: lines[described]?.line ?? 0,
    });
  }
  return found;
};

/**
 * A PowerShell error record: the message, `At /path/script.ps1:12 char:5`,
 * the code with `+ ~~~` under it, then `+ CategoryInfo : …`. Recognised at
 * its message; the script and line are where it was thrown.
 */
const powershell: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    if (!/^\s*\+ CategoryInfo\s*:/.test(entry.text)) return [];
    let at = -1;
    for (let k = index - 1; k >= Math.max(0, index - 8); k -= 1) {
      if (/^At \S/.test(lines[k]?.text ?? '')) {
        at = k;
        break;
      }
    }
    if (at < 0) return [];
    const where = /^At (.+?\.ps[dm]?1):(\d+)/.exec(lines[at]?.text ?? '');
    // The message runs from the record's first line (after a blank, at most four lines up) to `At`.
    let first = at;
    while (first > 0 && at - first < 4 && (lines[first - 1]?.text.trim() ?? '') !== '') first -= 1;
    const message = lines
      .slice(first, at)
      .map((l) => l.text.trim())
      .join(' ')
      .trim();
    const head = lines[first] ?? entry;
    return [
      {
        format: 'powershell' as const,
        ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
        ...(message ? { message } : {}),
        logLine: head.line,
      },
    ];
  });

/** The recognisers of this family, in the order they are tried. */
export const DOTNET: readonly Recogniser[] = [
  dotnet,
  dotnetTool,
  xunit,
  vstest,
  nunit,
  pester,
  pesterFailureList,
  powershell,
];
