/**
 * Markdown's inline part: code spans, links, emphasis, strikethrough, line
 * breaks. Every character of the input leaves escaped; the only tags are the
 * ones written here, and a link is an anchor only when its address is http(s).
 */
import { escapeHtml, textHtml } from './icons.ts';

type Delim = {
  kind: 'delim';
  ch: '*' | '_' | '~';
  count: number;
  canOpen: boolean;
  canClose: boolean;
  open: string[];
  close: string[];
};
type Token = { kind: 'html'; html: string } | { kind: 'text'; text: string } | Delim;

/** How far a code span or a link's text may reach for its end. */
const REACH = 4000;
/** How many unclosed emphasis markers a closer looks back over. */
const LOOK_BACK = 50;

const isSpace = (ch: string | undefined): boolean => ch === undefined || /\s/u.test(ch);
const isPunct = (ch: string | undefined): boolean => ch !== undefined && /[\p{P}\p{S}]/u.test(ch);

/** An http(s) address, normalised (quotes and spaces percent-encoded); anything else is none. */
export const safeHref = (destination: string): string | undefined => {
  try {
    const url = new URL(destination.replace(/\\([!-/:-@[-`{-~])/g, '$1'));
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
};

const anchor = (href: string | undefined, label: string): string =>
  href ? `<a href="${escapeHtml(href)}" rel="nofollow noopener noreferrer">${label}</a>` : label;

/** Each `[` with its matching `]` (backslash escapes skipped), in one pass. */
const bracketPairs = (s: string): Map<number, number> => {
  const pairs = new Map<number, number>();
  const open: number[] = [];
  for (let j = 0; j < s.length; j += 1) {
    const ch = s[j];
    if (ch === '\\') j += 1;
    else if (ch === '[') open.push(j);
    else if (ch === ']' && open.length > 0) pairs.set(open.pop() ?? 0, j);
  }
  return pairs;
};

/**
 * A link's `(destination "title")`, each part bounded (a hostile text cannot make it backtrack
 * far). An empty destination is its own branch (a title after blanks, or nothing), so the blanks
 * after `(` are read once, not shared between `\s*` and the title's `\s+`.
 */
const DESTINATION =
  /\((?:\s*(?:<([^<>\n]{0,2000})>|((?:[^\s()\\]|\\.|\((?:[^\s()\\]|\\.){0,200}\)){1,2000}))(?:\s+(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?|\s+(?:"[^"\n]{0,300}"|'[^'\n]{0,300}'|\([^()\n]{0,300}\)))?\s*\)/y;

/** `[text](destination "title")` from `start` (at the `[`): its parts and where it ends. */
const parseLink = (
  s: string,
  start: number,
  pairs: ReadonlyMap<number, number>,
): { label: string; destination: string; end: number } | undefined => {
  const close = pairs.get(start);
  if (close === undefined || close - start > REACH) return undefined;
  DESTINATION.lastIndex = close + 1;
  const rest = DESTINATION.exec(s);
  if (!rest) return undefined;
  return {
    label: s.slice(start + 1, close),
    destination: rest[1] ?? rest[2] ?? '',
    end: close + 1 + rest[0].length,
  };
};

const BARE_URL = /https?:\/\/[^\s<>]{1,2000}/y;
const AUTOLINK = /<(https?:\/\/[^\s<>]{0,2000})>/y;
const SENTENCE_END = new Set(['.', ',', ':', ';', '!', '?', "'", '"', '*', '_', '~']);

const sticky = (pattern: RegExp, s: string, at: number): RegExpExecArray | null => {
  pattern.lastIndex = at;
  return pattern.exec(s);
};

/** A bare http(s) address from `start`, without the punctuation (or unopened `)`) that ends its sentence. */
const bareUrl = (s: string, start: number): string | undefined => {
  const found = sticky(BARE_URL, s, start)?.[0];
  if (!found) return undefined;
  let unopened = found.split(')').length - found.split('(').length;
  let end = found.length;
  for (; end > 0; end -= 1) {
    const ch = found[end - 1] ?? '';
    if (ch === ')' && unopened > 0) unopened -= 1;
    else if (!SENTENCE_END.has(ch)) break;
  }
  return found.slice(0, end);
};

const codeSpan = (
  s: string,
  start: number,
  ticks: number,
): { html: string; end: number } | undefined => {
  const fence = '`'.repeat(ticks);
  for (
    let j = s.indexOf(fence, start + ticks);
    j >= 0 && j < start + REACH;
    j = s.indexOf(fence, j)
  ) {
    let run = 0;
    while (s[j + run] === '`') run += 1;
    if (run === ticks) {
      let code = s.slice(start + ticks, j).replaceAll('\n', ' ');
      if (code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '')
        code = code.slice(1, -1);
      return { html: `<code>${textHtml(code)}</code>`, end: j + ticks };
    }
    j += run;
  }
  return undefined;
};

const delimiter = (s: string, start: number, ch: Delim['ch']): Delim => {
  let end = start;
  while (s[end] === ch) end += 1;
  const before = s[start - 1];
  const after = s[end];
  const left = !isSpace(after) && (!isPunct(after) || isSpace(before) || isPunct(before));
  const right = !isSpace(before) && (!isPunct(before) || isSpace(after) || isPunct(after));
  const count = end - start;
  const underscore = ch === '_';
  return {
    kind: 'delim',
    ch,
    count,
    canOpen: left && (!underscore || !right || isPunct(before)) && (ch !== '~' || count === 2),
    canClose: right && (!underscore || !left || isPunct(after)) && (ch !== '~' || count === 2),
    open: [],
    close: [],
  };
};

const tokenize = (s: string, links: boolean): Token[] => {
  const tokens: Token[] = [];
  const pairs = links ? bracketPairs(s) : new Map<number, number>();
  let text = '';
  const push = (token: Token): void => {
    if (text) tokens.push({ kind: 'text', text });
    text = '';
    tokens.push(token);
  };
  for (let i = 0; i < s.length;) {
    const ch = s[i] ?? '';
    if (ch === '\\' && /[!-/:-@[-`{-~]/.test(s[i + 1] ?? '')) {
      text += s[i + 1];
      i += 2;
    } else if (ch === '`') {
      let ticks = 0;
      while (s[i + ticks] === '`') ticks += 1;
      const code = codeSpan(s, i, ticks);
      if (code) push({ kind: 'html', html: code.html });
      else text += '`'.repeat(ticks);
      i = code ? code.end : i + ticks;
    } else if (links && (ch === '[' || (ch === '!' && s[i + 1] === '['))) {
      const link = parseLink(s, ch === '!' ? i + 1 : i, pairs);
      if (link)
        push({
          kind: 'html',
          html: anchor(safeHref(link.destination), inlineHtml(link.label, false)),
        });
      else text += ch;
      i = link ? link.end : i + 1;
    } else if (links && ch === '<' && sticky(AUTOLINK, s, i)) {
      const url = sticky(AUTOLINK, s, i)?.[1] ?? '';
      push({ kind: 'html', html: anchor(safeHref(url), textHtml(url)) });
      i += url.length + 2;
    } else if (links && ch === 'h' && !/[\w/]/.test(s[i - 1] ?? '') && bareUrl(s, i)) {
      const url = bareUrl(s, i) ?? '';
      push({ kind: 'html', html: anchor(safeHref(url), textHtml(url)) });
      i += url.length;
    } else if (ch === '*' || ch === '_' || ch === '~') {
      const run = delimiter(s, i, ch);
      push(run);
      i += run.count;
    } else {
      text += ch;
      i += 1;
    }
  }
  if (text) tokens.push({ kind: 'text', text });
  return tokens;
};

/** Pairs emphasis markers (CommonMark's delimiter stack, simplified): properly nested tags only. */
const pairEmphasis = (tokens: Token[]): void => {
  const stack: Delim[] = [];
  for (const token of tokens) {
    if (token.kind !== 'delim') continue;
    for (let m = stack.length - 1; token.canClose && token.count > 0 && m >= 0; m -= 1) {
      if (stack.length - m > LOOK_BACK) break;
      const opener = stack[m];
      if (!opener || opener.ch !== token.ch) continue;
      const strong = opener.count >= 2 && token.count >= 2;
      if (token.ch === '~' && !strong) continue;
      const tag = token.ch === '~' ? 'del' : strong ? 'strong' : 'em';
      const used = strong ? 2 : 1;
      opener.count -= used;
      token.count -= used;
      opener.open.unshift(`<${tag}>`);
      token.close.push(`</${tag}>`);
      // Markers between the pair stay text: tags never cross.
      stack.length = opener.count > 0 ? m + 1 : m;
      m = stack.length;
    }
    if (token.canOpen && token.count > 0) stack.push(token);
  }
};

/** A line (or lines: each break kept) of Markdown as inline HTML. `links: false` inside a link's text. */
export const inlineHtml = (source: string, links = true): string => {
  const tokens = tokenize(source, links);
  pairEmphasis(tokens);
  return tokens
    .map((token) =>
      token.kind === 'html'
        ? token.html
        : token.kind === 'text'
          ? textHtml(token.text).replaceAll('\n', '<br>\n')
          : `${token.close.join('')}${token.ch.repeat(token.count)}${token.open.join('')}`,
    )
    .join('');
};
