import { DiffParseError, pathToken } from './diff.ts';

/** One file's block of a `git diff` text, with the paths it names. */
export interface DiffBlock {
  readonly paths: readonly string[];
  readonly text: string;
}

/**
 * Cuts a `git diff` text (as `git apply` takes it, binary patches included)
 * into one block per file. Each block names every path its header lines
 * give (`---`, `+++`, `rename from/to`); a content line never starts a block
 * (it begins with a space, `+`, `-` or a base85 length letter).
 */
export const diffBlocks = (text: string): DiffBlock[] => {
  // Each block is the exact text between two headers: a binary patch keeps its closing blank line.
  const starts = [...text.matchAll(/(^|\n)diff --git /g)].map(
    (match) => (match.index ?? 0) + (match[1] === '\n' ? 1 : 0),
  );
  return starts.map((start, index) => {
    const body = text.slice(start, starts[index + 1] ?? text.length);
    const paths = new Set<string>();
    const lines = body.split('\n');
    const both = /^diff --git a\/(\S+) b\/(\S+)$/.exec(lines[0] ?? '');
    if (both?.[1] && both[1] === both[2]) paths.add(both[1]);
    // The header ends at the first hunk or binary patch: no content line is read for a path.
    // Paths are read as the diff parser reads them; one it cannot read leaves the block with none
    // (judged as harness: fail closed).
    try {
      for (const line of lines.slice(1)) {
        if (line.startsWith('@@') || line === 'GIT binary patch' || line.startsWith('diff --git '))
          break;
        const side = line.startsWith('--- ') ? 'a/' : line.startsWith('+++ ') ? 'b/' : undefined;
        const named = side ? pathToken(line.slice(4), side) : undefined;
        if (named !== undefined) paths.add(named);
        const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line)?.[1];
        if (moved !== undefined) paths.add(pathToken(moved, '') ?? moved);
      }
    } catch (error) {
      if (!(error instanceof DiffParseError)) throw error;
      paths.clear();
    }
    return { paths: [...paths], text: body.endsWith('\n') ? body : `${body}\n` };
  });
};
