import type { Check } from './types.ts';

/** The diff stays within the configured size. */
export const diffLimits: Check = (ctx) => {
  const files = ctx.diff.files.length;
  const lines = ctx.diff.changedLines;
  const { maxFiles, maxLines } = ctx.limits;
  const ok = files <= maxFiles && lines <= maxLines;
  return {
    name: 'diff-limits',
    ok,
    detail: `${files} file(s), ${lines} changed line(s) (limits: ${maxFiles} files, ${maxLines} lines)`,
  };
};
