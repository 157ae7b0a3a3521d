import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { defineTool, fail, ok } from '../types.ts';
import { atomicWrite, checkPath, readTextForEdit } from './file-io.ts';

const countOccurrences = (text: string, fragment: string): number => {
  let count = 0;
  for (
    let at = text.indexOf(fragment);
    at !== -1;
    at = text.indexOf(fragment, at + fragment.length)
  )
    count += 1;
  return count;
};

export const editTool = defineTool({
  name: 'edit',
  level: 'write',
  description:
    'Replace one exact, unique fragment of a file: `old` must appear exactly once (copy it from read output without the line numbers, whitespace included); it is replaced by `new`.',
  schema: z.object({
    path: z.string(),
    old: z.string().min(1, 'old must not be empty'),
    new: z.string(),
  }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const conflict = await ctx.views?.checkWrite(checked.value, input.path);
    if (conflict) return fail(conflict);
    const current = await readTextForEdit(ctx.workspace, checked.value);
    if (!current.ok) return fail(current.error);
    const count = countOccurrences(current.value, input.old);
    if (count === 0)
      return fail(`not found: read the file and copy the exact text (${input.path})`);
    if (count > 1)
      return fail(
        `appears ${count} times: include more context so that old is unique (${input.path})`,
      );
    const at = current.value.indexOf(input.old);
    const next =
      current.value.slice(0, at) + input.new + current.value.slice(at + input.old.length);
    try {
      await atomicWrite(ctx.workspace, checked.value, next);
    } catch (error) {
      return fail(
        `cannot write ${input.path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    await ctx.views?.recordWrite(checked.value);
    const line = current.value.slice(0, at).split('\n').length;
    return ok(`edited ${relativeToWorkspace(ctx.workspace, checked.value)} at line ${line}`);
  },
});
