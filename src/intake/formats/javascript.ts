import {
  FRAME,
  locationAfter,
  num,
  repoPath,
  type LogLine,
  type RecognisedFailure,
  type Recogniser,
} from './types.ts';

const vitest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(\S.*)$/.exec(entry.text.trimEnd());
    if (!match?.[1] || !match[2]) return;
    const at = locationAfter(lines, index, 40, /❯\s+(\S+?):(\d+):\d+/);
    const message = lines
      .slice(index + 1, index + 4)
      .map((l) => l.text.trim())
      .find((t) => /Error|expected/i.test(t));
    out.push({
      format: 'vitest',
      file: at?.file ?? repoPath(match[1]),
      ...(at ? { line: at.line } : {}),
      test: match[2].replace(/(?<!\s)\s+>\s+/g, ' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

const jest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let file: string | undefined;
  lines.forEach((entry, index) => {
    const failHeader = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s*(?:\(|$)/.exec(entry.text);
    if (failHeader?.[1]) {
      file = repoPath(failHeader[1]);
      return;
    }
    const bullet = /^\s*●\s+(\S.*)$/.exec(entry.text.trimEnd());
    if (!bullet?.[1] || /Console$|Test suite failed to run/.test(bullet[1])) return;
    const at = locationAfter(lines, index, 40, FRAME);
    const message = lines
      .slice(index + 1, index + 6)
      .map((l) => l.text.trim())
      .find((t) => t.length > 0);
    out.push({
      format: 'jest',
      ...((at?.file ?? file) ? { file: at?.file ?? file } : {}),
      ...(at ? { line: at.line } : {}),
      test: bullet[1].replace(/(?<!\s)\s+›\s+/g, ' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

/** The lines a mocha title may continue on (its suites, nested): deeper than any real suite. */
const MOCHA_TITLE_LINES = 32;

const mocha: Recogniser = (lines) => {
  const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l.text));
  if (start < 0) return [];
  const out: RecognisedFailure[] = [];
  for (let i = start + 1; i < lines.length; i += 1) {
    const entry = lines[i] as LogLine;
    const title = /^\s*\d+\)\s+(\S.*)$/.exec(entry.text.trimEnd())?.[1];
    if (!title) continue;
    const first = title.length > 1 && title.endsWith(':') ? title.slice(0, -1) : title;
    // The title continues on indented lines until the one ending with ':', never past the next
    // numbered title nor past MOCHA_TITLE_LINES lines: each title reads only its own lines, so
    // a log of numbered titles is read once, not once per title.
    const parts = [first];
    let j = i + 1;
    while (j < lines.length && j <= i + MOCHA_TITLE_LINES && !first.endsWith(':')) {
      const next = (lines[j] as LogLine).text.trim();
      if (next.length === 0) break;
      if (/Error|expected/.test(next) || /^\d+\)\s/.test(next)) break;
      parts.push(next.replace(/:$/, ''));
      j += 1;
      if (next.endsWith(':')) break;
    }
    const at = locationAfter(lines, i, 30, FRAME);
    const message = lines
      .slice(j, j + 4)
      .map((l) => l.text.trim())
      .find((t) => /Error|expected/.test(t));
    out.push({
      format: 'mocha',
      ...(at ? { file: at.file, line: at.line } : {}),
      test: parts.join(' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

/**
 * The `error:` of a TAP YAML block: a quoted or plain value on its line, or,
 * for a block scalar (`error: |-`, as Node 20 prints a multi-line assertion
 * message), its first line below.
 */
const tapErrorMessage = (block: readonly LogLine[]): string | undefined => {
  for (const [i, entry] of block.entries()) {
    const value = /^\s*error:\s*(\S.*|)$/.exec(entry.text.trimEnd())?.[1];
    if (value === undefined) continue;
    if (/^[|>][-+]?$/.test(value)) return block[i + 1]?.text.trim() || undefined;
    const unquoted = value.replace(/^'(.*)'$/, '$1');
    if (unquoted) return unquoted;
  }
  return undefined;
};

/**
 * `✖ name (1.2ms)`'s name: the duration is cut at the last `(` (it holds none) rather than by a
 * lazy name before `\s*\(`, which backtracks quadratically on a long line that does not end so.
 */
const specTitle = (text: string): string | undefined => {
  const title = /^\s*✖\s+(\S.*)$/.exec(text.trimEnd())?.[1];
  if (title === undefined) return undefined;
  const at = title.lastIndexOf('(');
  const head =
    at > 0 && /^\([\d.]+m?s\)$/.test(title.slice(at)) ? title.slice(0, at).trimEnd() : '';
  return head || title;
};

const nodeTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    // TAP: "not ok 1 - name", then a YAML block with location: 'file:line:col'.
    const tap = /^\s*not ok \d+ - (.+)$/.exec(entry.text.trimEnd());
    if (tap?.[1]) {
      const at = locationAfter(lines, index, 20, /location:\s*'([^']+?):(\d+):\d+'/);
      const message = tapErrorMessage(lines.slice(index + 1, index + 20));
      out.push({
        format: 'node-test',
        ...(at ? { file: at.file, line: at.line } : {}),
        test: tap[1],
        ...(message ? { message } : {}),
        logLine: entry.line,
      });
      return;
    }
    // spec: "test at file:line:col" followed by "✖ name (1.2ms)".
    const where = /^\s*test at (\S+?):(\d+):\d+\s*$/.exec(entry.text);
    const next = lines[index + 1];
    const title = next ? specTitle(next.text) : undefined;
    if (where?.[1] && where[2] && title) {
      const message = lines
        .slice(index + 2, index + 6)
        .map((l) => l.text.trim())
        .find((t) => /Error|expected/i.test(t));
      out.push({
        format: 'node-test',
        file: repoPath(where[1]),
        line: Number(where[2]),
        test: title,
        ...(message ? { message } : {}),
        logLine: entry.line,
      });
    }
  });
  return out;
};

const tsc: Recogniser = (lines) =>
  lines.flatMap((entry) => {
    const match =
      /^\s*(\S+?\.[cm]?[jt]sx?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(entry.text) ??
      /^\s*(\S+?\.[cm]?[jt]sx?):(\d+):\d+ - error (TS\d+): (.*)$/.exec(entry.text);
    if (!match?.[1]) return [];
    return [
      {
        format: 'tsc' as const,
        file: repoPath(match[1]),
        line: Number(match[2]),
        message: `${match[3]}: ${match[4]}`,
        logLine: entry.line,
      },
    ];
  });

/**
 * `  12:5  error  message  rule-id`: the rule is the last word, split off by hand (a lazy message
 * before `\s{2,}(\S+)` backtracks quadratically on a long line that does not end so).
 */
const eslintError = (text: string): [string, string, string, string] | undefined => {
  const line = text.trimEnd();
  let word = line.length;
  while (word > 0 && !/\s/.test(line.charAt(word - 1))) word -= 1;
  let gap = word;
  while (gap > 0 && /\s/.test(line.charAt(gap - 1))) gap -= 1;
  if (word === line.length || word - gap < 2) return undefined;
  const head = /^\s+(\d+):\d+\s+error\s+(\S.*)$/.exec(line.slice(0, gap));
  return head ? [line, head[1] ?? '', head[2] ?? '', line.slice(word)] : undefined;
};

const eslint: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let file: string | undefined;
  for (const entry of lines) {
    if (/^\s*(?:[A-Za-z]:)?[/\\]\S+\.\w+\s*$/.test(entry.text) || /^\S+\.\w+$/.test(entry.text)) {
      file = repoPath(entry.text);
      continue;
    }
    const match = eslintError(entry.text);
    if (match && file) {
      out.push({
        format: 'eslint',
        file,
        line: num(match[1]) ?? 0,
        message: `${match[2]} (${match[3]})`,
        logLine: entry.line,
      });
    }
  }
  return out;
};

const prettier: Recogniser = (lines) => {
  const summary = lines.find((l) =>
    /Code style issues (?:found|were found)|Forgot to run Prettier\?/.test(l.text),
  );
  if (!summary) return [];
  return lines.flatMap((entry) => {
    const match = /^\s*\[warn\]\s+(\S+\.\w+)\s*$/.exec(entry.text);
    return match?.[1]
      ? [
          {
            format: 'prettier' as const,
            file: repoPath(match[1]),
            message: 'not formatted',
            logLine: entry.line,
          },
        ]
      : [];
  });
};

const karma: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^((?:[A-Z][\w-]* )+[\d.]+ \([^)]*\)) (.+) FAILED\s*$/.exec(entry.text);
    if (!match?.[2]) return [];
    const message = lines[index + 1]?.text.trim();
    return [
      {
        format: 'karma' as const,
        test: match[2],
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

const npm: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^npm ERR! code (\S+)/.exec(entry.text);
    if (!match?.[1]) return [];
    const detail = lines
      .slice(index + 1, index + 6)
      .map((l) => /^npm ERR! (?!code |errno |path |syscall )(.+)$/.exec(l.text)?.[1])
      .find((t) => t !== undefined && t.trim() !== '');
    return [
      {
        format: 'npm' as const,
        message: detail ? `${match[1]}: ${detail}` : match[1],
        logLine: entry.line,
      },
    ];
  });

/** The recognisers of this family, in the order they are tried. */
export const JAVASCRIPT: readonly Recogniser[] = [
  vitest,
  jest,
  mocha,
  nodeTest,
  tsc,
  eslint,
  prettier,
  karma,
  npm,
];
