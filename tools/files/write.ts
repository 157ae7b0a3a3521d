import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { defineTool, fail, ok } from '../types.ts';
import { atomicWrite, checkPath } from './file-io.ts';

export const writeTool = defineTool({
  name: 'write',
  level: 'write',
  description:
    'Create or overwrite a whole file (absolute path inside the workspace) with the given UTF-8 content. Prefer edit for changing part of an existing file.',
  schema: z.object({ path: z.string(), content: z.string() }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const conflict = await ctx.views?.checkWrite(checked.value, input.path);
    if (conflict) return fail(conflict);
    try {
      await atomicWrite(ctx.workspace, checked.value, input.content);
      await ctx.views?.recordWrite(checked.value);
    } catch (error) {
      return fail(
        `cannot write ${input.path}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    const lines = input.content.length === 0 ? 0 : input.content.split('\n').length;
    return ok(`wrote ${relativeToWorkspace(ctx.workspace, checked.value)} (${lines} lines)`);
  },
});
