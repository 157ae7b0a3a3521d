import { hasWord, perLine, repoPath, type RecognisedFailure, type Recogniser } from './types.ts';

/**
 * `pkg.SomeError: message`, as `/^([\w.]*(?:Error|…|Warning)\w*)(?::\s*(.*))?$/` reads it: the
 * name is all of the line before its first `:`, the kind in its last dotted part (a search of the
 * whole name from each of its words backtracks quadratically on a long one).
 */
const pythonError = (text: string): RegExpExecArray | null => {
  const error = /^([\w.]+)(?::\s*(\S.*|))?$/.exec(text);
  const last = error?.[1]?.split('.').at(-1) ?? '';
  return error && /Error|Exception|Exit|Interrupt|Warning/.test(last) ? error : null;
};

/** `  file.py:12: AssertionError`: the file named, compared as a string (a name is never a pattern). */
const locates = (text: string, file: string): boolean => {
  const rest = text.trimStart();
  return rest.startsWith(`${file}:`) && /^\d+: \w/.test(rest.slice(file.length + 1));
};

/** A `____ … name … ____` banner naming `leaf` as a whole word (what `\b${leaf}\b` meant). */
const bannerNames = (text: string, leaf: string): boolean => {
  const open = text.indexOf('___ ');
  const close = text.lastIndexOf(' ___');
  return open >= 0 && close > open && hasWord(text.slice(open + 4, close + 1), leaf);
};

/** The summary lines looked up past this many are named without their line (each looks at every line). */
const MAX_LOOKED_UP = 200;

const pytest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  for (const entry of lines) {
    const match = /^\s*(?:FAILED|ERROR)\s+(\S+?\.py)::(\S+)(?:\s+-\s+(\S.*|))?$/.exec(entry.text);
    if (!match?.[1] || !match[2]) continue;
    const file = repoPath(match[1]);
    const leaf =
      match[2]
        .split('::')
        .at(-1)
        ?.replace(/(?<!\[)\[[\s\S]*$/, '') ?? match[2];
    if (out.length >= MAX_LOOKED_UP) {
      out.push({ format: 'pytest', file, test: match[2], logLine: entry.line });
      continue;
    }
    // "file.py:12: AssertionError" in the traceback section gives the line.
    const loc = lines.find((l) => locates(l.text, file));
    const header = lines.findIndex((l) => bannerNames(l.text, leaf));
    const locAfterHeader =
      header >= 0
        ? lines
            .slice(header)
            .find((l) => /^\s*\S+\.py:\d+: \w+/.test(l.text) && l.text.includes(file))
        : undefined;
    const where = /:(\d+): /.exec((locAfterHeader ?? loc)?.text ?? '');
    out.push({
      format: 'pytest',
      file,
      ...(where?.[1] ? { line: Number(where[1]) } : {}),
      test: match[2],
      ...(match[3] ? { message: match[3] } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

/** pytest without `-r` summary lines: a `____ test_name ____` banner, then `file.py:12: Error`. */
const pytestBanner: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^_{3,} ((?:\w+\.)?test\w*(?:\[.*\])?) _{3,}$/.exec(entry.text);
    if (!match?.[1]) return [];
    let where: RegExpExecArray | null = null;
    for (let i = index + 1; i < Math.min(lines.length, index + 150); i += 1) {
      const text = lines[i]?.text ?? '';
      if (/^_{3,} .* _{3,}$|^={3,}/.test(text)) break;
      where = /^((?:[A-Za-z]:)?[^\s:]+\.py):(\d+): (\w.*)$/.exec(text) ?? where;
    }
    return [
      {
        format: 'pytest' as const,
        ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
        test: match[1],
        ...(where?.[3] ? { message: where[3] } : {}),
        logLine: entry.line,
      },
    ];
  });

const unittest = perLine('unittest', /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/, (m) => ({
  test: `${m[2]}.${m[1]}`,
}));

const flake8 = perLine('flake8', /^((?:\.\/)?[^\s:]+\.py):(\d+):\d+: ([A-Z]\d{3} .*)$/, (m) => ({
  file: m[1],
  line: m[2],
  message: m[3],
}));

/** A Python traceback: the exception on its last line, the innermost frame in the repository. */
const python: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    if (!/^\s*Traceback \(most recent call last\):/.test(entry.text)) return;
    let frame: RegExpExecArray | null = null;
    for (let i = index + 1; i < Math.min(lines.length, index + 200); i += 1) {
      const text = lines[i]?.text ?? '';
      const at = /^\s*File "([^"]+)", line (\d+)/.exec(text);
      if (at) {
        if (!/site-packages|dist-packages|<frozen|\/lib\/python\d/.test(at[1] ?? '')) frame = at;
        continue;
      }
      const error = pythonError(text);
      if (error?.[1]) {
        out.push({
          format: 'python',
          ...(frame?.[1] ? { file: repoPath(frame[1]), line: Number(frame[2]) } : {}),
          message: error[2] ? `${error[1]}: ${error[2]}` : error[1],
          logLine: entry.line,
        });
        return;
      }
    }
  });
  return out;
};

/** The recognisers of this family, in the order they are tried. */
/**
 * pytest's failures: its summary lines (`FAILED file.py::test - message`),
 * and the banners of the failures section only for tests no summary line
 * names (a run without `-r`): one test that failed is one failure, not one
 * per place pytest printed it.
 */
const pytestFailures: Recogniser = (lines) => {
  const summary = pytest(lines);
  const named = new Set(summary.map((failure) => failure.test?.replaceAll('::', '.')));
  return [
    ...summary,
    ...pytestBanner(lines).filter((failure) => !named.has(failure.test?.replaceAll('::', '.'))),
  ];
};

export const PYTHON: readonly Recogniser[] = [pytestFailures, unittest, flake8, python];
