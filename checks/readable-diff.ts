import type { Check } from './types.ts';

/**
 * Every changed file can be read as text. A binary change (or one git would
 * call binary: a NUL byte, a `-diff` or `binary` attribute) is a change the
 * other checks cannot read, so it fails here rather than pass them empty. A
 * NUL byte in what the change commits is binary whatever an attribute says:
 * one no diff shows (its own `.gitignore` hides it) can have git call it text.
 * A file the change keeps whose content cannot be read from what it commits
 * fails too: the other checks would have read nothing of it.
 */
export const readableDiff: Check = (ctx) => {
  const binary = ctx.diff.files
    .filter((file) => {
      if (file.binary) return true;
      const content = ctx.newContent(file.path);
      // A file the change keeps (not a link, not a gitlink) that reads as nothing is unread.
      const kept =
        file.status !== 'deleted' &&
        !file.modes.some((mode) => mode === '120000' || mode === '160000');
      return content === undefined ? kept : content.includes('\0');
    })
    .map((file) => file.path);
  return binary.length === 0
    ? { name: 'readable-diff', ok: true, detail: 'every change reads as text' }
    : {
        name: 'readable-diff',
        ok: false,
        detail: `not readable as text (binary, a NUL byte, marked so by .gitattributes, or not readable from the staged change): ${binary.join(', ')}`,
      };
};
