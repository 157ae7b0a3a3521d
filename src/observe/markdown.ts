/**
 * A small, safe Markdown renderer for the pages (a pull request's text, a
 * diagnosis, a model's notes): headings, paragraphs, lists, block quotes,
 * tables, fenced code (a `diff` fence coloured as a diff), rules, and the
 * `<details><summary>` folds regreen's own texts use. No HTML passes
 * through: a tag in the text is shown as text, comments are dropped.
 */
import { diffHtml } from './diff-html.ts';
import { textHtml } from './icons.ts';
import { inlineHtml } from './markdown-inline.ts';

/** Lists and quotes nested deeper than this are shown as text. */
const MAX_DEPTH = 8;

// Each pattern is anchored and unambiguous: no line, however long, makes one backtrack.
const FENCE = /^( {0,3})(`{3,}(?!`)|~{3,}(?!~))(.*)$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t](.*))?$/;
const RULE = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const QUOTE = /^ {0,3}> ?/;
const ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])(?:( {1,4})(.*)|[ \t]*$)/;
const DETAILS_OPEN = /^ {0,3}<details>[ \t]*(?:<summary>(.*?)<\/summary>[ \t]*)?$/i;
const DETAILS_CLOSE = /^ {0,3}<\/details>[ \t]*$/i;
const COMMENT = /^ {0,3}<!--/;

const blank = (line: string): boolean => line.trim() === '';
const indentOf = (line: string): number => /^ */.exec(line)?.[0].length ?? 0;
/** The index of the first line from `at` that is not blank (the length when none is). */
const nextFilled = (lines: readonly string[], at: number): number => {
  let i = at;
  while (i < lines.length && blank(lines[i] ?? '')) i += 1;
  return i;
};

/**
 * Where comments end: for a line that opens one, the line that closes it
 * (none: the lines' length). A search that found no end is remembered, so a
 * text of many unclosed comments is read once.
 */
const commentEnds = (lines: readonly string[]): ((at: number) => number) => {
  let unclosedFrom = lines.length;
  return (at) => {
    if (at >= unclosedFrom) return lines.length;
    const opened = (lines[at] ?? '').indexOf('<!--') + 4;
    let i = at;
    while (i < lines.length && !(lines[i] ?? '').includes('-->', i === at ? opened : 0)) i += 1;
    if (i === lines.length) unclosedFrom = at;
    return i;
  };
};

/** The cells of a table row: outer pipes dropped, `\|` a pipe within a cell. */
const cells = (line: string): string[] => {
  const row = line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '');
  return row.split(/(?<!\\)\|/).map((cell) => cell.trim().replaceAll('\\|', '|'));
};

/** A table's second line: each cell dashes, with a colon at either end for its alignment. */
const isTableRule = (line: string): boolean =>
  line.includes('-') && cells(line).every((cell) => /^:?-+:?$/.test(cell));

/** A fence that opens a code block (a backtick fence's info string has no backtick): its parts. */
const fenceOf = (line: string): { indent: number; marks: string; info: string } | undefined => {
  const [, indent = '', marks = '', rest = ''] = FENCE.exec(line) ?? [];
  if (!marks || (marks.startsWith('`') && rest.includes('`'))) return undefined;
  return { indent: indent.length, marks, info: rest.trim().split(/\s/)[0] ?? '' };
};

/** A heading's text, without the closing `#`s a heading may end with. */
const headingText = (raw: string): string => {
  const text = raw.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end -= 1;
  if (end === 0) return '';
  return end < text.length && /[ \t]/.test(text[end - 1] ?? '')
    ? text.slice(0, end).trimEnd()
    : text;
};

const alignOf = (rule: string): string => {
  const left = rule.startsWith(':');
  const right = rule.endsWith(':');
  return left && right ? 'center' : right ? 'right' : left ? 'left' : '';
};

/** A line that starts a block of its own (and so ends a paragraph). */
const startsBlock = (line: string): boolean => {
  const item = ITEM.exec(line);
  return (
    fenceOf(line) !== undefined ||
    HEADING.test(line) ||
    RULE.test(line) ||
    QUOTE.test(line) ||
    COMMENT.test(line) ||
    DETAILS_OPEN.test(line) ||
    DETAILS_CLOSE.test(line) ||
    // An ordered list interrupts a paragraph only from 1, and no empty item does.
    (item !== null &&
      item[4] !== undefined &&
      item[4].trim() !== '' &&
      (!/\d/.test(item[2] ?? '') || /^1\D/.test(item[2] ?? '')))
  );
};

const codeHtml = (info: string, code: string): string =>
  /^(?:diff|patch)$/i.test(info) ? diffHtml(code) : `<pre><code>${textHtml(code)}</code></pre>`;

interface Cursor {
  readonly lines: readonly string[];
  at: number;
}

/** Lines of one list item and the items after it: the list as HTML. */
const listHtml = (cursor: Cursor, depth: number, offset: number): string => {
  const first = ITEM.exec(cursor.lines[cursor.at] ?? '');
  const ordered = /\d/.test(first?.[2] ?? '');
  const start = Number.parseInt(first?.[2] ?? '1', 10);
  const items: string[][] = [];
  let loose = false;
  while (cursor.at < cursor.lines.length) {
    const marker = ITEM.exec(cursor.lines[cursor.at] ?? '');
    if (!marker || /\d/.test(marker[2] ?? '') !== ordered) break;
    const width = (marker[1]?.length ?? 0) + (marker[2]?.length ?? 0) + (marker[3]?.length ?? 1);
    const item = [marker[4] ?? ''];
    cursor.at += 1;
    while (cursor.at < cursor.lines.length) {
      const line = cursor.lines[cursor.at] ?? '';
      if (blank(line)) {
        const after = nextFilled(cursor.lines, cursor.at);
        const next = cursor.lines[after];
        if (next === undefined || indentOf(next) < width) {
          if (next !== undefined && ITEM.test(next)) loose = true;
          break;
        }
        loose = true;
        item.push(...cursor.lines.slice(cursor.at, after).map(() => ''));
        cursor.at = after;
        continue;
      } else if (indentOf(line) >= width) item.push(line.slice(width));
      else if (ITEM.test(line) || startsBlock(line) || blank(item.at(-1) ?? '')) break;
      else item.push(line.trim());
      cursor.at += 1;
    }
    items.push(item);
    const after = nextFilled(cursor.lines, cursor.at);
    if (after > cursor.at && ITEM.test(cursor.lines[after] ?? '')) cursor.at = after;
  }
  const body = items
    .map((item) => {
      const html = blocksHtml(item, depth + 1, offset);
      return `<li>${loose ? html : html.replace(/^<p>([\s\S]*?)<\/p>/, '$1')}</li>`;
    })
    .join('');
  return ordered ? `<ol${start !== 1 ? ` start="${start}"` : ''}>${body}</ol>` : `<ul>${body}</ul>`;
};

const tableHtml = (cursor: Cursor): string => {
  const head = cells(cursor.lines[cursor.at] ?? '');
  const aligns = cells(cursor.lines[cursor.at + 1] ?? '').map(alignOf);
  cursor.at += 2;
  const cell = (tag: string, text: string, i: number): string =>
    `<${tag}${aligns[i] ? ` style="text-align:${aligns[i]}"` : ''}>${inlineHtml(text)}</${tag}>`;
  const rows: string[] = [];
  while (cursor.at < cursor.lines.length) {
    const line = cursor.lines[cursor.at] ?? '';
    if (blank(line) || !line.includes('|') || startsBlock(line)) break;
    const row = cells(line);
    rows.push(`<tr>${head.map((_, i) => cell('td', row[i] ?? '', i)).join('')}</tr>`);
    cursor.at += 1;
  }
  return `<table class="md"><thead><tr>${head.map((text, i) => cell('th', text, i)).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
};

/** A run of block-level Markdown as HTML. */
const blocksHtml = (lines: readonly string[], depth: number, offset: number): string => {
  if (depth >= MAX_DEPTH) return `<pre>${textHtml(lines.join('\n'))}</pre>`;
  const cursor: Cursor = { lines, at: 0 };
  const commentEnd = commentEnds(lines);
  const out: string[] = [];
  let open = 0;
  while (cursor.at < lines.length) {
    const line = lines[cursor.at] ?? '';
    const fence = fenceOf(line);
    const heading = HEADING.exec(line);
    const details = DETAILS_OPEN.exec(line);
    if (blank(line)) cursor.at += 1;
    else if (fence) {
      const closes = (inner: string): boolean => {
        const end = fenceOf(inner);
        return (
          end !== undefined &&
          end.info === '' &&
          end.marks[0] === fence.marks[0] &&
          end.marks.length >= fence.marks.length &&
          inner.trim() === end.marks
        );
      };
      const code: string[] = [];
      for (cursor.at += 1; cursor.at < lines.length; cursor.at += 1) {
        const inner = lines[cursor.at] ?? '';
        if (closes(inner)) break;
        code.push(inner.slice(Math.min(fence.indent, indentOf(inner))));
      }
      cursor.at += 1;
      out.push(codeHtml(fence.info, code.join('\n')));
    } else if (heading) {
      const level = Math.min(6, (heading[1]?.length ?? 1) + offset);
      out.push(`<h${level}>${inlineHtml(headingText(heading[2] ?? ''))}</h${level}>`);
      cursor.at += 1;
    } else if (RULE.test(line)) {
      out.push('<hr>');
      cursor.at += 1;
    } else if (COMMENT.test(line) && commentEnd(cursor.at) < lines.length) {
      // A comment (regreen's markers) is not shown; an unclosed one is text, not a hiding place.
      cursor.at = commentEnd(cursor.at) + 1;
    } else if (details) {
      out.push(`<details><summary>${inlineHtml(details[1] ?? 'details')}</summary>`);
      open += 1;
      cursor.at += 1;
    } else if (DETAILS_CLOSE.test(line) && open > 0) {
      out.push('</details>');
      open -= 1;
      cursor.at += 1;
    } else if (QUOTE.test(line)) {
      const quoted: string[] = [];
      for (; cursor.at < lines.length && QUOTE.test(lines[cursor.at] ?? ''); cursor.at += 1)
        quoted.push((lines[cursor.at] ?? '').replace(QUOTE, ''));
      out.push(`<blockquote>${blocksHtml(quoted, depth + 1, offset)}</blockquote>`);
    } else if (ITEM.test(line)) out.push(listHtml(cursor, depth, offset));
    else if (
      line.includes('|') &&
      isTableRule(lines[cursor.at + 1] ?? '') &&
      cells(line).length === cells(lines[cursor.at + 1] ?? '').length
    )
      out.push(tableHtml(cursor));
    else {
      const paragraph = [line.trim()];
      for (cursor.at += 1; cursor.at < lines.length; cursor.at += 1) {
        const next = lines[cursor.at] ?? '';
        if (blank(next) || startsBlock(next)) break;
        paragraph.push(next.trim());
      }
      out.push(`<p>${inlineHtml(paragraph.join('\n'))}</p>`);
    }
  }
  return out.join('\n') + '</details>'.repeat(open);
};

/**
 * Markdown as HTML. `headingOffset` moves headings down (a `##` in a
 * pull request's text under the page's own `<h2>` becomes an `<h3>`).
 */
export const markdownHtml = (text: string, options: { headingOffset?: number } = {}): string =>
  `<div class="markdown">${blocksHtml(
    text
      .replaceAll('\r\n', '\n')
      .replaceAll('\r', '\n')
      .split('\n')
      .map((line) => line.replace(/^\t+/, (tabs) => '    '.repeat(tabs.length))),
    0,
    options.headingOffset ?? 0,
  )}</div>`;
