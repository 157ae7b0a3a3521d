/**
 * The pages' one escaping rule and their icons: small inline SVGs, so that
 * nothing depends on a font having a glyph. Emoji in text (a pull request's
 * ✅ and ❌, a test runner's ✔) become the same icons; a machine without an
 * emoji font would draw them as boxes.
 */
export const escapeHtml = (text: string): string =>
  text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');

export type IconName = 'pass' | 'fail' | 'warn' | 'error' | 'skip' | 'info' | 'ask' | 'lock';

const ICONS: Readonly<Record<IconName, { colour: string; path: string }>> = {
  pass: { colour: '#1a7f37', path: 'M4 8.5l2.5 2.5L12 5.5' },
  fail: { colour: '#cf222e', path: 'M5 5l6 6M11 5l-6 6' },
  warn: { colour: '#bf8700', path: 'M8 4v5M8 11.5v.5' },
  error: { colour: '#6e7781', path: 'M8 4v5M8 11.5v.5' },
  skip: { colour: '#6e7781', path: 'M5 8h6' },
  info: { colour: '#0969da', path: 'M8 4.5v.5M8 7.5V12' },
  ask: { colour: '#8250df', path: 'M6 6.2a2 2 0 1 1 2.6 1.9c-.4.2-.6.5-.6 1v.4M8 11.8v.2' },
  lock: { colour: '#57606a', path: 'M5.5 8h5v3.5h-5zM6.5 8V6.5a1.5 1.5 0 0 1 3 0V8' },
};

/** A small round icon with its meaning as an accessible label. */
export const icon = (name: IconName, label: string = name): string => {
  const { colour, path } = ICONS[name];
  return `<svg class="icon" viewBox="0 0 16 16" role="img" aria-label="${escapeHtml(label)}"><circle cx="8" cy="8" r="7.5" fill="${colour}"/><path d="${path}" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" fill="none"/></svg>`;
};

/** What the emoji regreen's texts use mean; any other emoji is drawn as a neutral dot. */
const EMOJI: Readonly<Record<string, IconName>> = {
  '✅': 'pass',
  '✔': 'pass',
  '☑': 'pass',
  '🟢': 'pass',
  '❌': 'fail',
  '✖': 'fail',
  '❎': 'fail',
  '⛔': 'fail',
  '🔴': 'fail',
  '⚠': 'warn',
  '🟡': 'warn',
  '❓': 'ask',
  '❔': 'ask',
  '❗': 'warn',
  '🔐': 'lock',
  '🔒': 'lock',
  ℹ: 'info',
  '⏭': 'skip',
  '⌛': 'skip',
  '⏳': 'skip',
};

/**
 * An emoji: a pictograph (with its variation selector, skin tone or joined
 * sequence), but not ©, ® or ™, which every text font has.
 */
export const EMOJI_PATTERN =
  /(?![©®™])\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*/gu;

const emojiIcon = (emoji: string): string => {
  const base = [...emoji][0] ?? '';
  const name = EMOJI[base];
  return icon(name ?? 'skip', name ?? `U+${(base.codePointAt(0) ?? 0).toString(16).toUpperCase()}`);
};

/** Text for a page: escaped, each emoji an icon. */
export const textHtml = (text: string): string =>
  escapeHtml(text).replace(EMOJI_PATTERN, emojiIcon);
