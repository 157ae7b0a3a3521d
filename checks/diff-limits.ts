import type { Check } from './types.ts';

/** The bytes of a diff's changed lines (a single line may hold megabytes). */
const changedBytes = (files: readonly { added: readonly string[]; removed: readonly string[] }[]) =>
  files.reduce(
    (sum, file) =>
      sum +
      [...file.added, ...file.removed].reduce((lines, line) => lines + Buffer.byteLength(line), 0),
    0,
  );

const kib = (bytes: number): string => `${Math.ceil(bytes / 1024)} KiB`;

/** The diff stays within the configured size: files, changed lines, and the bytes of those lines. */
export const diffLimits: Check = (ctx) => {
  const files = ctx.diff.files.length;
  const lines = ctx.diff.changedLines;
  const bytes = changedBytes(ctx.diff.files);
  const { maxFiles, maxLines, maxBytes } = ctx.limits;
  const ok = files <= maxFiles && lines <= maxLines && bytes <= maxBytes;
  return {
    name: 'diff-limits',
    ok,
    detail: `${files} file(s), ${lines} changed line(s), ${kib(bytes)} (limits: ${maxFiles} files, ${maxLines} lines, ${kib(maxBytes)})`,
  };
};
