import type { Check } from './types.ts';

/**
 * Every changed file can be read as text. A binary change (or one git would
 * call binary: a NUL byte, a `-diff` or `binary` attribute) is a change the
 * other checks cannot read, so it fails here rather than pass them empty. A
 * NUL byte in what the change commits is binary whatever an attribute says:
 * one no diff shows (its own `.gitignore` hides it) can have git call it text.
 */
export const readableDiff: Check = (ctx) => {
  const binary = ctx.diff.files
    .filter((file) => file.binary || (ctx.newContent(file.path)?.includes('\0') ?? false))
    .map((file) => file.path);
  return binary.length === 0
    ? { name: 'readable-diff', ok: true, detail: 'every change reads as text' }
    : {
        name: 'readable-diff',
        ok: false,
        detail: `not readable as text (binary, a NUL byte, or marked so by .gitattributes): ${binary.join(', ')}`,
      };
};
