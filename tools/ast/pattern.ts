import { parse, type NapiConfig } from '@ast-grep/napi';
import type { AstLanguage } from './languages.ts';

export type CompiledPattern =
  | { readonly ok: true; readonly rule: NapiConfig | string; readonly context: string }
  | { readonly ok: false; readonly error: string };

/** `$NAME` and `$$$NAME` in a pattern: what a match captures. `$_` binds nothing. */
export const metavariables = (pattern: string): { single: string[]; multi: string[] } => {
  const single = new Set<string>();
  const multi = new Set<string>();
  for (const match of pattern.matchAll(/\$\$\$([A-Z][A-Z0-9_]*)|\$([A-Z][A-Z0-9_]*)/g)) {
    if (match[1]) multi.add(match[1]);
    else if (match[2]) single.add(match[2]);
  }
  return { single: [...single], multi: [...multi] };
};

const hasError = (language: AstLanguage, source: string): boolean =>
  parse(language.napi, source.replaceAll('$', language.expando))
    .root()
    .has({ rule: { kind: 'ERROR' } });

/** The library accepts the pattern (it throws on e.g. several top-level nodes). */
const accepted = (language: AstLanguage, rule: NapiConfig | string): boolean => {
  try {
    parse(language.napi, '').root().findAll(rule);
    return true;
  } catch {
    return false;
  }
};

/** Puts the fragment at `{}`, its continuation lines indented as the `{}` line is. */
const place = (
  template: string,
  fragment: string,
): { source: string; start: number; end: number } => {
  const at = template.indexOf('{}');
  const lineStart = template.lastIndexOf('\n', at) + 1;
  const indent = /^\s*/.exec(template.slice(lineStart, at))?.[0] ?? '';
  const body = fragment
    .split('\n')
    .map((line, index) => (index === 0 ? line : `${indent}${line}`))
    .join('\n');
  return {
    source: template.slice(0, at) + body + template.slice(at + 2),
    start: at,
    end: at + body.length,
  };
};

/** The kind of the outermost named node spanning exactly [start, end) of the source. */
const selectorAt = (
  language: AstLanguage,
  source: string,
  start: number,
  end: number,
): string | undefined => {
  const root = parse(language.napi, source.replaceAll('$', language.expando)).root();
  let best: string | undefined;
  const visit = (node: ReturnType<typeof root.children>[number]): void => {
    const range = node.range();
    if (range.start.index > start || range.end.index < end) return;
    if (
      range.start.index === start &&
      range.end.index === end &&
      node.isNamed() &&
      best === undefined
    )
      best = String(node.kind());
    for (const child of node.children()) visit(child);
  };
  for (const child of root.children()) visit(child);
  return best;
};

/**
 * The parse ladder: the pattern as it is, else inside each context of the
 * language (class member, statement, expression, declaration…), the first
 * that parses without error wins. None: the pattern is unparseable — an
 * error, never a search that silently finds nothing.
 */
export const compilePattern = (language: AstLanguage, pattern: string): CompiledPattern => {
  const fragment = pattern.trim();
  if (!fragment) return { ok: false, error: 'the pattern is empty' };
  if (!hasError(language, fragment) && accepted(language, fragment))
    return { ok: true, rule: fragment, context: 'as written' };
  for (const context of language.contexts) {
    const placed = place(context.template, fragment);
    if (hasError(language, placed.source)) continue;
    const selector = selectorAt(language, placed.source, placed.start, placed.end);
    if (!selector) continue;
    const rule: NapiConfig = { rule: { pattern: { context: placed.source, selector } } };
    if (accepted(language, rule)) return { ok: true, rule, context: context.name };
  }
  const tried = ['as written', ...language.contexts.map((context) => context.name)].join(', ');
  return {
    ok: false,
    error: `the pattern is unparseable in ${language.id} (tried: ${tried}). Write a complete ${language.id} fragment: an expression, a statement, a declaration or a class member, with $NAME for any node and $$$NAME for a run of nodes`,
  };
};
