/** One file of a unified diff as `git diff` prints it. */
export interface DiffFile {
  readonly path: string;
  readonly oldPath: string | undefined;
  readonly status: 'added' | 'deleted' | 'modified' | 'renamed';
  readonly binary: boolean;
  /** Git modes the header names for the new side (`100644`, `120000` symlink, `160000` gitlink). */
  readonly modes: readonly string[];
  readonly added: readonly string[];
  readonly removed: readonly string[];
}

export interface ParsedDiff {
  readonly text: string;
  readonly files: readonly DiffFile[];
  readonly changedLines: number;
}

/** A diff the checks cannot read: a check that fails, never one that passes on nothing. */
export class DiffParseError extends Error {
  override readonly name = 'DiffParseError';
}

const ESCAPES: Readonly<Record<string, number>> = {
  a: 7,
  b: 8,
  t: 9,
  n: 10,
  v: 11,
  f: 12,
  r: 13,
  '"': 34,
  '\\': 92,
};

/** Reads a C-quoted path as git writes it (`"a/tests/test_\303\261.py"`), from the start of `text`. */
const unquote = (text: string): { value: string; rest: string } => {
  const bytes: number[] = [];
  let at = 1;
  while (at < text.length) {
    const char = text[at] as string;
    if (char === '"')
      return { value: Buffer.from(bytes).toString('utf8'), rest: text.slice(at + 1) };
    if (char === '\\') {
      const next = text[at + 1] ?? '';
      if (/[0-7]/.test(next)) {
        bytes.push(parseInt(text.slice(at + 1, at + 4), 8));
        at += 4;
        continue;
      }
      const code = ESCAPES[next];
      if (code === undefined) throw new DiffParseError(`unknown escape \\${next} in ${text}`);
      bytes.push(code);
      at += 2;
      continue;
    }
    bytes.push(...Buffer.from(char, 'utf8'));
    at += 1;
  }
  throw new DiffParseError(`unterminated quoted path: ${text}`);
};

/** A `---`/`+++`/`rename` path: quoted, or the rest of the line (git ends a path with spaces with a tab). Throws DiffParseError on what it cannot read. */
export const pathToken = (text: string, prefix: 'a/' | 'b/' | ''): string | undefined => {
  let value: string;
  if (text.startsWith('"')) {
    const quoted = unquote(text);
    if (quoted.rest.trim() !== '') throw new DiffParseError(`text after a quoted path: ${text}`);
    value = quoted.value;
  } else {
    value = text.endsWith('\t') ? text.slice(0, -1) : text;
  }
  if (value === '/dev/null') return undefined;
  if (prefix === '') return value;
  if (!value.startsWith(prefix)) throw new DiffParseError(`path without ${prefix}: ${text}`);
  return value.slice(prefix.length);
};

/** Both paths of a `diff --git` header, when they can be told apart; undefined when not. */
const headerPaths = (rest: string): { old: string; new: string } | undefined => {
  if (rest.startsWith('"')) {
    const first = unquote(rest);
    const second = first.rest.trimStart();
    const other = second.startsWith('"') ? unquote(second).value : second;
    if (!first.value.startsWith('a/') || !other.startsWith('b/')) return undefined;
    return { old: first.value.slice(2), new: other.slice(2) };
  }
  // Unquoted `a/X b/X`: only the same path on both sides can be split for certain.
  if ((rest.length - 5) % 2 !== 0) return undefined;
  const half = (rest.length - 5) / 2;
  const name = rest.slice(2, 2 + half);
  return rest === `a/${name} b/${name}` ? { old: name, new: name } : undefined;
};

interface Building {
  header: { old: string; new: string } | undefined;
  oldSide: string | undefined | null;
  newSide: string | undefined | null;
  renameFrom: string | undefined;
  renameTo: string | undefined;
  status: DiffFile['status'];
  binary: boolean;
  modes: string[];
  added: string[];
  removed: string[];
}

const finish = (file: Building, line: string): DiffFile => {
  // null: the header line was absent; undefined: it named /dev/null.
  const newPath =
    file.renameTo ??
    (file.newSide !== null ? file.newSide : undefined) ??
    (file.oldSide !== null ? file.oldSide : undefined) ??
    file.header?.new;
  const oldPath =
    file.renameFrom ??
    (file.oldSide !== null ? file.oldSide : undefined) ??
    (file.newSide !== null ? file.newSide : undefined) ??
    file.header?.old;
  if (newPath === undefined || oldPath === undefined)
    throw new DiffParseError(`cannot tell which file a diff header names: ${line}`);
  return {
    path: newPath,
    oldPath,
    status: file.status,
    binary: file.binary,
    modes: file.modes,
    added: file.added,
    removed: file.removed,
  };
};

/** The files a diff changes and its lines added and removed, for a person's summary. */
export const diffSummary = (
  diff: ParsedDiff,
): { files: string[]; added: number; removed: number } => ({
  files: diff.files.map((file) => file.path),
  added: diff.files.reduce((sum, file) => sum + file.added.length, 0),
  removed: diff.files.reduce((sum, file) => sum + file.removed.length, 0),
});

/**
 * Parses `git diff` output (with `diff --git` headers), quoted paths included.
 * Hunks are read by their line counts, so a removed line that reads `-- x`
 * is never taken for a header. Anything it cannot read throws
 * DiffParseError: the checks then fail, never pass on a file they skipped.
 */
export const parseDiff = (text: string): ParsedDiff => {
  const files: DiffFile[] = [];
  let current: Building | undefined;
  let headerLine = '';
  let oldLeft = 0;
  let newLeft = 0;
  const flush = (): void => {
    if (current) files.push(finish(current, headerLine));
  };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) {
    if (oldLeft > 0 || newLeft > 0) {
      if (!current) throw new DiffParseError('a hunk outside any file');
      const kind = line[0];
      if (kind === '\\') continue;
      if (kind === '+' && newLeft > 0) {
        current.added.push(line.slice(1));
        newLeft -= 1;
      } else if (kind === '-' && oldLeft > 0) {
        current.removed.push(line.slice(1));
        oldLeft -= 1;
      } else if ((kind === ' ' || line === '') && oldLeft > 0 && newLeft > 0) {
        oldLeft -= 1;
        newLeft -= 1;
      } else {
        throw new DiffParseError(`a hunk line does not fit its header: ${JSON.stringify(line)}`);
      }
      continue;
    }
    if (line.startsWith('diff --git ')) {
      flush();
      headerLine = line;
      current = {
        header: headerPaths(line.slice('diff --git '.length)),
        oldSide: null,
        newSide: null,
        renameFrom: undefined,
        renameTo: undefined,
        status: 'modified',
        binary: false,
        modes: [],
        added: [],
        removed: [],
      };
      continue;
    }
    if (line.startsWith('\\')) continue;
    if (!current) {
      if (line.trim() === '') continue;
      throw new DiffParseError(`text before the first file header: ${JSON.stringify(line)}`);
    }
    const hunk = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/.exec(line);
    if (hunk) {
      oldLeft = hunk[1] === undefined ? 1 : Number(hunk[1]);
      newLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      continue;
    }
    const mode = /^(?:new file mode|new mode|index \S+) (\d{6})$/.exec(line)?.[1];
    if (mode) current.modes.push(mode);
    if (line.startsWith('new file mode')) current.status = 'added';
    else if (line.startsWith('deleted file mode')) current.status = 'deleted';
    else if (line.startsWith('--- ')) current.oldSide = pathToken(line.slice(4), 'a/');
    else if (line.startsWith('+++ ')) current.newSide = pathToken(line.slice(4), 'b/');
    else if (line.startsWith('rename from ')) {
      current.renameFrom = pathToken(line.slice('rename from '.length), '');
      current.status = 'renamed';
    } else if (line.startsWith('rename to ')) {
      current.renameTo = pathToken(line.slice('rename to '.length), '');
      current.status = 'renamed';
    } else if (line.startsWith('Binary files') || line === 'GIT binary patch')
      current.binary = true;
  }
  if (oldLeft > 0 || newLeft > 0) throw new DiffParseError('the diff ends inside a hunk');
  flush();
  const changedLines = files.reduce(
    (sum, file) => sum + file.added.length + file.removed.length,
    0,
  );
  return { text, files, changedLines };
};
