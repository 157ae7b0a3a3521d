import type { AstMatch } from './search.ts';

/** The rewrite template with every `$$$NAME` and `$NAME` replaced by what the match captured. */
export const substitute = (template: string, match: AstMatch): string =>
  template.replace(
    /\$\$\$([A-Z][A-Z0-9_]*)|\$([A-Z][A-Z0-9_]*)/g,
    (whole, multi: string | undefined, single: string | undefined) => {
      const name = multi ?? single ?? '';
      return match.captures[name] ?? whole;
    },
  );

/** A file's new content with every match in it rewritten. */
export const rewriteFile = (matches: readonly AstMatch[], template: string): string => {
  const first = matches[0];
  if (!first) throw new Error('no match to rewrite');
  const root = first.node.getRoot().root();
  const edits = matches.map((match) => match.node.replace(substitute(template, match)));
  return root.commitEdits(edits);
};
