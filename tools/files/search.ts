import path from 'node:path';
import { execa } from 'execa';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/paths.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath } from './file-io.ts';

const MAX_MATCHES = 100;

export const searchTool = defineTool({
  name: 'search',
  level: 'read',
  description:
    'Search file contents with a regular expression (ripgrep syntax). Optional `path` (absolute, a file or folder inside the workspace; default the whole workspace) and `glob` (e.g. "*.ts"). Returns `path:line: text` for at most 100 matches, with the total count. Respects .gitignore.',
  schema: z.object({
    pattern: z.string().min(1),
    path: z.string().optional(),
    glob: z.string().optional(),
  }),
  run: async (input, ctx, signal) => {
    const target = checkPath(ctx.workspace, input.path ?? ctx.workspace);
    if (!target.ok) return fail(target.error);
    const args = [
      '--line-number',
      '--no-heading',
      '--color',
      'never',
      '--max-columns',
      '300',
      '--max-columns-preview',
      '--hidden',
      '--glob',
      '!.git',
    ];
    if (input.glob) args.push('--glob', input.glob);
    args.push('--regexp', input.pattern, '--', target.value);
    const result = await execa('rg', args, {
      reject: false,
      cancelSignal: signal,
      maxBuffer: 64 * 1024 * 1024,
      cwd: ctx.workspace,
    });
    if (result.failed && result.exitCode === undefined) {
      return fail('search is unavailable: ripgrep (rg) is not installed on this machine');
    }
    if (result.exitCode === 2)
      return fail(
        `invalid search: ${result.stderr.split('\n')[0] ?? ''}. Check the regular expression`,
      );
    if (result.exitCode === 1 || result.stdout.trim() === '')
      return ok(`no matches for /${input.pattern}/`);
    const lines = result.stdout.split('\n').filter(Boolean);
    const shown = lines.slice(0, MAX_MATCHES).map((line) => {
      const absolute = line.startsWith(path.sep) ? line : path.join(target.value, line);
      const colon = absolute.indexOf(':');
      return colon > 0
        ? `${relativeToWorkspace(ctx.workspace, absolute.slice(0, colon))}${absolute.slice(colon)}`
        : line;
    });
    const tail =
      lines.length > MAX_MATCHES
        ? `\n[${lines.length} matches in total; ${MAX_MATCHES} shown: narrow with path or glob]`
        : `\n[${lines.length} matches]`;
    return ok(shown.join('\n') + tail);
  },
});
