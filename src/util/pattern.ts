/**
 * The one place a RegExp is built at run time. Text strangers control (a
 * log's test names, a repository's identifiers, a model's paths) never
 * becomes pattern syntax: every string put into a `pattern` is escaped to
 * match itself, and only a RegExp — a literal the lint reads — adds syntax.
 * The lint refuses `new RegExp(…)` and `RegExp(…)` everywhere else.
 */

/** Every character that means something in a pattern escaped (`-` as `\x2d`, which `u` mode accepts outside a class too). */
export const escapeRegExp = (text: string): string =>
  text.replace(/[$()*+.?[\\\]^{|}/]/g, '\\$&').replaceAll('-', '\\x2d');

/**
 * A pattern written as a tagged template, read raw as a regex literal is
 * (`pattern('g')\`^\s*${name}:(\d+)\``): an interpolated string matches
 * itself only, an interpolated RegExp adds its source.
 */
export const pattern =
  (flags = '') =>
  (strings: TemplateStringsArray, ...parts: readonly (string | RegExp)[]): RegExp =>
    new RegExp(
      strings.raw.reduce((source, piece, i) => {
        const part = parts[i - 1];
        return `${source}${part instanceof RegExp ? part.source : escapeRegExp(part ?? '')}${piece}`;
      }),
      flags,
    );

/** Any one of the texts, each matching itself: `(?:a|b)`, or a pattern that never matches for none. */
export const anyOf = (texts: readonly string[]): RegExp =>
  texts.length === 0 ? /(?!)/ : new RegExp(`(?:${texts.map(escapeRegExp).join('|')})`);
