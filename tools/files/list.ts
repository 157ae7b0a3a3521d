import path from 'node:path';
import { z } from 'zod';
import { listInside } from '../../src/workspace/repo/confined-fs.ts';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { defineTool, fail, ok, type ToolResult } from '../types.ts';
import { checkPath } from './file-io.ts';

const MAX_ENTRIES = 500;

const list = (workspace: string, requested: string): ToolResult => {
  const checked = checkPath(workspace, requested);
  if (!checked.ok) return fail(checked.error);
  let entries;
  try {
    // Opened through descriptors: a folder swapped for a symlink is refused, not listed.
    entries = listInside(workspace, checked.value);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return fail(
      code === 'ENOTDIR'
        ? `${requested} is a file: use read`
        : `cannot list ${requested}: ${code ?? 'error'}`,
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
  const where = relativeToWorkspace(workspace, checked.value);
  const more =
    rows.length > shown.length ? `\n[${rows.length - shown.length} more entries not shown]` : '';
  return ok(`${path.join(where, '')}: ${rows.length} entries\n${shown.join('\n')}${more}`);
};

export const listTool = defineTool({
  name: 'list',
  level: 'read',
  description:
    'List a directory (absolute path inside the workspace): folders end with "/", symlinks show their target. At most 500 entries.',
  schema: z.object({ path: z.string().describe('absolute path of the directory') }),
  run: (input, ctx) => Promise.resolve(list(ctx.workspace, input.path)),
});
