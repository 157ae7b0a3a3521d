/** One file's block of a `git diff` text, with the paths it names. */
export interface DiffBlock {
  readonly paths: readonly string[];
  readonly text: string;
}

/** Unquotes a `diff --git` header path as git writes it (C-style quotes, octal bytes). */
const unquoted = (token: string): string => {
  if (!token.startsWith('"')) return token;
  const bytes: number[] = [];
  for (let at = 1; at < token.length - 1; at += 1) {
    const char = token[at] as string;
    if (char === '\\') {
      const next = token.slice(at + 1, at + 4);
      if (/^[0-7]{3}$/.test(next)) {
        bytes.push(parseInt(next, 8));
        at += 3;
        continue;
      }
      const escape = { n: 10, t: 9, '"': 34, '\\': 92, a: 7, b: 8, f: 12, r: 13, v: 11 }[
        token[at + 1] as string
      ];
      bytes.push(escape ?? 92);
      at += 1;
      continue;
    }
    bytes.push(...Buffer.from(char, 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
};

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
    for (const line of lines.slice(1)) {
      if (line.startsWith('@@') || line === 'GIT binary patch' || line.startsWith('diff --git '))
        break;
      const side = /^(?:--- |\+\+\+ )(.+?)\t?$/.exec(line)?.[1];
      if (side !== undefined && side !== '/dev/null')
        paths.add(unquoted(side).replace(/^[ab]\//, ''));
      const moved = /^(?:rename|copy) (?:from|to) (.+)$/.exec(line)?.[1];
      if (moved !== undefined) paths.add(unquoted(moved));
    }
    return { paths: [...paths], text: body.endsWith('\n') ? body : `${body}\n` };
  });
};
