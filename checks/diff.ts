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

/** Parses `git diff` output (with `diff --git` headers). */
export const parseDiff = (text: string): ParsedDiff => {
  const files: DiffFile[] = [];
  let current:
    | {
        path: string;
        oldPath: string | undefined;
        status: DiffFile['status'];
        binary: boolean;
        modes: string[];
        added: string[];
        removed: string[];
      }
    | undefined;
  let inHunk = false;
  const flush = (): void => {
    if (current) files.push(current);
  };
  for (const line of text.split('\n')) {
    const header = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (header) {
      flush();
      current = {
        path: header[2] ?? '',
        oldPath: header[1],
        status: 'modified',
        binary: false,
        modes: [],
        added: [],
        removed: [],
      };
      inHunk = false;
      continue;
    }
    if (!current) continue;
    if (line.startsWith('@@')) {
      inHunk = true;
      continue;
    }
    if (!inHunk) {
      const mode = /^(?:new file mode|new mode|index \S+) (\d{6})$/.exec(line)?.[1];
      if (mode) current.modes.push(mode);
      if (line.startsWith('new file mode')) current.status = 'added';
      else if (line.startsWith('deleted file mode')) current.status = 'deleted';
      else if (line.startsWith('rename to ')) current.status = 'renamed';
      else if (line.startsWith('Binary files') || line === 'GIT binary patch')
        current.binary = true;
      continue;
    }
    if (line.startsWith('+')) current.added.push(line.slice(1));
    else if (line.startsWith('-')) current.removed.push(line.slice(1));
  }
  flush();
  const changedLines = files.reduce(
    (sum, file) => sum + file.added.length + file.removed.length,
    0,
  );
  return { text, files, changedLines };
};
