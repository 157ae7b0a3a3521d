import {
  hasWord,
  perLine,
  repoPath,
  type LogLine,
  type RecognisedFailure,
  type Recogniser,
} from './types.ts';

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

/** The path components of a traceback's file a summary line's file may be the tail of. */
const TAIL_DEPTH = 8;

/** The leaves named in non-word banners looked up by reading every banner (past this: none). */
const MAX_SCANNED = 20;

/**
 * What the pytest summary lines look up, read in one pass over the log so that each failure is a
 * lookup, not a search of the log (a log of many failures would otherwise be read once for each):
 * the first `file.py:12: Error` line starting with each file; each `____ … ____` banner's words;
 * the `…/file.py:12: Error` lines by every tail of their path, in log order.
 */
interface PytestIndex {
  readonly located: Map<string, number>;
  readonly banners: { readonly index: number; readonly inner: string }[];
  readonly bannerWords: Map<string, number>;
  readonly byTail: Map<string, number[]>;
}

const indexPytest = (lines: readonly LogLine[]): PytestIndex => {
  const index: PytestIndex = {
    located: new Map(),
    banners: [],
    bannerWords: new Map(),
    byTail: new Map(),
  };
  lines.forEach(({ text }, i) => {
    // `  file.py:12: AssertionError`: the file is all before the first `:12: A`.
    const rest = text.trimStart();
    const colon = /:\d+: \w/.exec(rest)?.index ?? -1;
    if (colon > 0 && !index.located.has(rest.slice(0, colon)))
      index.located.set(rest.slice(0, colon), i);
    // A `____ … name … ____` banner: its words (what `\b${leaf}\b` meant, for a leaf of word characters).
    const open = text.indexOf('___ ');
    const close = text.lastIndexOf(' ___');
    if (open >= 0 && close > open) {
      const inner = text.slice(open + 4, close + 1);
      index.banners.push({ index: i, inner });
      for (const word of inner.match(/\w+/g) ?? [])
        if (!index.bannerWords.has(word)) index.bannerWords.set(word, i);
    }
    const file = /^\s*(\S+\.py):\d+: \w/.exec(text)?.[1];
    if (!file) return;
    const parts = file.split('/');
    for (let depth = 1; depth <= Math.min(parts.length, TAIL_DEPTH); depth += 1) {
      const tail = parts.slice(-depth).join('/');
      const at = index.byTail.get(tail) ?? [];
      if (at.at(-1) !== i) at.push(i);
      index.byTail.set(tail, at);
    }
    const whole = index.byTail.get(file) ?? [];
    if (whole.at(-1) !== i) whole.push(i);
    index.byTail.set(file, whole);
  });
  return index;
};

/** The first banner naming `leaf` as a whole word, by lookup, or (a leaf of other characters) by reading the banners. */
const bannerOf = (index: PytestIndex, leaf: string, scanned: { count: number }): number => {
  if (/^\w+$/.test(leaf)) return index.bannerWords.get(leaf) ?? -1;
  if (leaf === '' || (scanned.count += 1) > MAX_SCANNED) return -1;
  return index.banners.find((banner) => hasWord(banner.inner, leaf))?.index ?? -1;
};

/** The first location line at or after `from` naming `file` (its whole path or a tail of it). */
const locatedAfter = (index: PytestIndex, file: string, from: number): number | undefined => {
  const at = index.byTail.get(file.replace(/^\/+/, '')) ?? index.byTail.get(file);
  if (!at) return undefined;
  let [low, high] = [0, at.length];
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((at[mid] ?? 0) < from) low = mid + 1;
    else high = mid;
  }
  return at[low];
};

/** The summary lines looked up past this many are named without their line. */
const MAX_LOOKED_UP = 200;

const pytest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let index: PytestIndex | undefined;
  const scanned = { count: 0 };
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
    index ??= indexPytest(lines);
    // "file.py:12: AssertionError" in the traceback section gives the line: the first after
    // the test's banner, else the first anywhere.
    const header = bannerOf(index, leaf, scanned);
    const after = header >= 0 ? locatedAfter(index, file, header) : undefined;
    const loc = after ?? index.located.get(file);
    const where = /:(\d+): /.exec(loc === undefined ? '' : (lines[loc]?.text ?? ''));
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
