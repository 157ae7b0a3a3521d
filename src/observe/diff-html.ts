import { textHtml } from './icons.ts';

const HUNK = /^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@/;

/**
 * The class of each line of a unified diff. Inside a hunk (as long as its
 * header's counts last) a line is what its first character says, so a
 * removed `-- comment` is not taken for a file header.
 */
const lineClasses = (lines: readonly string[], inHunk: boolean): string[] => {
  let old = inHunk ? Infinity : 0;
  let added = inHunk ? Infinity : 0;
  return lines.map((line) => {
    if (line.startsWith('diff --git')) {
      old = added = 0;
      return 'file';
    }
    if (old > 0 || added > 0) {
      if (line.startsWith('+')) {
        added -= 1;
        return 'add';
      }
      if (line.startsWith('-')) {
        old -= 1;
        return 'del';
      }
      if (line.startsWith('\\')) return '';
      if (!line.startsWith('@@')) {
        old -= 1;
        added -= 1;
        return '';
      }
    }
    if (line.startsWith('@@')) {
      const counts = HUNK.exec(line);
      old = counts ? Number(counts[1] ?? 1) : Infinity;
      added = counts ? Number(counts[2] ?? 1) : Infinity;
      return 'hunk';
    }
    if (/^(?:\+\+\+|---|index |new file mode|deleted file mode|similarity |rename )/.test(line))
      return 'file';
    // Lines of a change shown without its hunk header.
    return line.startsWith('+') ? 'add' : line.startsWith('-') ? 'del' : '';
  });
};

/**
 * A unified diff with added, removed and hunk lines coloured. `inHunk`: the
 * text is the body of one hunk, without headers (an edit's lines).
 */
export const diffHtml = (text: string, options: { inHunk?: boolean } = {}): string => {
  if (!text.trim()) return '<pre class="diff">(no change)</pre>';
  const lines = text.replace(/\n$/, '').split('\n');
  const classes = lineClasses(lines, options.inHunk ?? false);
  return `<pre class="diff">${lines
    .map((line, i) => {
      const cls = classes[i];
      return cls ? `<span class="${cls}">${textHtml(line)}</span>` : `${textHtml(line)}\n`;
    })
    .join('')}</pre>`;
};

const prefixed = (sign: string, text: string): string[] =>
  text === ''
    ? []
    : text
        .replace(/\n$/, '')
        .split('\n')
        .map((line) => `${sign}${line}`);

/** An edit (old text for new) as the body of a hunk: removed lines, then added ones. */
export const replacementHtml = (old: string, replacement: string): string =>
  diffHtml([...prefixed('-', old), ...prefixed('+', replacement)].join('\n'), { inHunk: true });
