/**
 * Recognisers for the failure reports of common test runners, compilers and
 * linters, as they appear in a CI log. Each one reads the cleaned lines of
 * the failing step and names what failed: the file, the line and the test
 * where the output says them.
 */

/** A line of the log after cleaning, with its 1-based line number in the raw log. */
export interface LogLine {
  readonly line: number;
  readonly text: string;
  /**
   * On an excerpt's lines ranked against the last green run's log: true when
   * that run did not print the line (after the volatile parts are taken out).
   */
  readonly new?: boolean;
}

/**
 * A line without the two-character escape sequences `stripAnsi` leaves
 * (`ESC=` and `ESC>` keypad modes, `ESC7`/`ESC8`, `ESC(B` charsets), which
 * terminal programs such as PowerShell print before a line's text.
 */
export const withoutEscapes = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/\u001b[\u0020-\u002f]*[\u0030-\u007e]/g, '');

/** The lines as the recognisers and the excerpt read them (what a terminal showed). */
export const terminalLines = (lines: readonly LogLine[]): LogLine[] =>
  lines.map((l) => (l.text.includes('\u001b') ? { ...l, text: withoutEscapes(l.text) } : l));

export type FailureFormat =
  | 'vitest'
  | 'jest'
  | 'mocha'
  | 'node-test'
  | 'tsc'
  | 'eslint'
  | 'prettier'
  | 'pytest'
  | 'go-test'
  | 'cargo-test'
  | 'gradle'
  | 'maven'
  | 'junit'
  | 'javac'
  | 'gcc'
  | 'cmake'
  | 'go-build'
  | 'rustc'
  | 'dotnet'
  | 'xunit'
  | 'vstest'
  | 'nunit'
  | 'jvm-exception'
  | 'karma'
  | 'pester'
  | 'powershell'
  | 'rspec'
  | 'python'
  | 'npm'
  | 'docker'
  | 'unittest'
  | 'flake8';

export interface RecognisedFailure {
  readonly format: FailureFormat;
  readonly file?: string;
  readonly line?: number;
  readonly test?: string;
  readonly message?: string;
  /** The raw-log line where it was recognised. */
  readonly logLine: number;
}

/** Runner checkouts are under these roots; the path inside the repository is what matters. */
const RUNNER_ROOTS = [
  /^\/home\/runner\/work\/[^/]+\/[^/]+\//,
  /^\/Users\/runner\/work\/[^/]+\/[^/]+\//,
  /^[A-Za-z]:[\\/]a[\\/][^\\/]+[\\/][^\\/]+[\\/]/,
  /^\/__w\/[^/]+\/[^/]+\//,
  /^\/home\/travis\/build\/[^/]+\/[^/]+\//,
  /^\/Users\/travis\/build\/[^/]+\/[^/]+\//,
  /^file:\/\/\/home\/runner\/work\/[^/]+\/[^/]+\//,
];

export const repoPath = (file: string): string => {
  let out = file.trim();
  for (const root of RUNNER_ROOTS) out = out.replace(root, '');
  return out.replace(/\\/g, '/').replace(/^\.\//, '');
};

export const num = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number.parseInt(value, 10);

export type Recogniser = (lines: readonly LogLine[]) => RecognisedFailure[];

/** The first `file:line` location in the lines after `from` (a stack frame or an arrow). */
export const locationAfter = (
  lines: readonly LogLine[],
  from: number,
  within: number,
  pattern: RegExp,
): { file: string; line: number } | undefined => {
  for (let i = from + 1; i < Math.min(lines.length, from + 1 + within); i += 1) {
    const match = pattern.exec(lines[i]?.text ?? '');
    if (match?.[1] && match[2] && !/node_modules|node:internal/.test(match[1]))
      return { file: repoPath(match[1]), line: Number(match[2]) };
  }
  return undefined;
};

export const FRAME = /\(?(?<![^\s():])((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):\d+\)?/;

/** One failure per line that matches, with file, line and message taken from the match. */
export const perLine =
  (
    format: FailureFormat,
    pattern: { exec: (text: string) => readonly (string | undefined)[] | null },
    pick: (m: readonly (string | undefined)[]) => {
      file?: string;
      line?: string;
      test?: string;
      message?: string;
    },
  ): Recogniser =>
  (lines) =>
    lines.flatMap((entry) => {
      const match = pattern.exec(entry.text);
      if (!match) return [];
      const { file, line, test, message } = pick(match);
      return [
        {
          format,
          ...(file ? { file: repoPath(file) } : {}),
          ...(line ? { line: Number(line) } : {}),
          ...(test ? { test } : {}),
          ...(message ? { message: message.trim() } : {}),
          logLine: entry.line,
        },
      ];
    });

const isWordChar = (char: string | undefined): boolean => char !== undefined && /^\w$/.test(char);

/**
 * Whether `word` occurs in `text` between word boundaries, as `\b${word}\b`
 * would say, compared as a string: a name from a log never becomes a pattern.
 */
export const hasWord = (text: string, word: string): boolean => {
  if (word === '') return false;
  const [first, last] = [isWordChar(word.charAt(0)), isWordChar(word.at(-1))];
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = isWordChar(at > 0 ? text.charAt(at - 1) : undefined);
    const after = isWordChar(text.charAt(at + word.length) || undefined);
    if (before !== first && after !== last) return true;
  }
  return false;
};
