import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/paths.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath } from './file-io.ts';

const MAX_ENTRIES = 500;

export const listTool = defineTool({
  name: 'list',
  level: 'read',
  description:
    'List a directory (absolute path inside the workspace): folders end with "/", symlinks show their target. At most 500 entries.',
  schema: z.object({ path: z.string().describe('absolute path of the directory') }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    let entries;
    try {
      entries = await readdir(checked.value, { withFileTypes: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return fail(
        code === 'ENOTDIR'
          ? `${input.path} is a file: use read`
          : `cannot list ${input.path}: ${code ?? 'error'}`,
      );
    }
    const rows = entries
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((entry) => {
        if (entry.isDirectory()) return `${entry.name}/`;
        if (entry.isSymbolicLink()) return `${entry.name} -> (symlink)`;
        return entry.name;
      });
    const shown = rows.slice(0, MAX_ENTRIES);
    const where = relativeToWorkspace(ctx.workspace, checked.value);
    const more =
      rows.length > shown.length ? `\n[${rows.length - shown.length} more entries not shown]` : '';
    return ok(`${path.join(where, '')}: ${rows.length} entries\n${shown.join('\n')}${more}`);
  },
});
