import path from 'node:path';
import { z } from 'zod';
import { quote } from '../../src/util/text.ts';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath } from './file-io.ts';

const MAX_MATCHES = 100;

/** How long a search may take: a planted FIFO or a huge tree ends it, never hangs the agent. */
const SEARCH_TIMEOUT_MS = 30_000;

/** What the search reads back at most (ripgrep's own output of the matches). */
const MAX_SEARCH_OUTPUT = 8 * 1024 * 1024;

/**
 * The exit status ripgrep's wrapper printed, and its message: `/^(\d+):?(.*)$/` in parts (that
 * pattern backtracked over the digits when the message held a line break, and failed).
 */
const exitStatus = (text: string): string[] | null => {
  const code = /^\d+/.exec(text)?.[0];
  const rest = code === undefined ? '' : text.slice(code.length).replace(/^:/, '');
  return code !== undefined && /^.*$/.test(rest) ? [text, code, rest] : null;
};

export const searchTool = defineTool({
  name: 'search',
  level: 'read',
  description:
    'Search file contents with a regular expression (ripgrep syntax). Optional `path` (absolute, a file or folder inside the workspace; default the whole workspace) and `glob` (e.g. "*.ts"). Returns `path:line: text` for at most 100 matches, with the total count. Respects .gitignore. Runs in the sandbox, like the code it searches.',
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
    // ripgrep runs in the job's sandbox, not on the host: it sees the workspace as the code under
    // test does (no link out of it leads anywhere the sandbox cannot read), and a FIFO or a folder
    // swapped mid-search stalls only a sandboxed process that the timeout ends. Errors go to a line
    // of their own on stdout's end, after a marker no match can forge (the exit code is ours).
    const marker = `regreen-search-${Math.random().toString(36).slice(2)}`;
    const result = await ctx.sandbox.run({
      command: `if ! command -v rg >/dev/null; then echo ${marker}:127; exit 0; fi; rg ${args.map(quote).join(' ')} 2>"$TMPDIR/${marker}.err"; code=$?; echo; echo "${marker}:$code:$(head -c 300 "$TMPDIR/${marker}.err" | head -n 1)"`,
      cwd: ctx.workspace,
      network: 'off',
      timeoutMs: SEARCH_TIMEOUT_MS,
      maxOutputBytes: MAX_SEARCH_OUTPUT,
      signal,
    });
    if (result.timedOut)
      return fail(
        `search stopped after ${SEARCH_TIMEOUT_MS / 1000}s (a FIFO or a very large tree?): narrow it with path or glob`,
      );
    const end = result.output.lastIndexOf(`${marker}:`);
    const status =
      end >= 0 ? exitStatus(result.output.slice(end + marker.length + 1).trim()) : null;
    if (!status) return fail('search did not finish (no exit status from ripgrep)');
    const exitCode = Number(status[1]);
    if (exitCode === 127)
      return fail('search is unavailable: ripgrep (rg) is not installed on this machine');
    if (exitCode === 2)
      return fail(`invalid search: ${status[2] ?? ''}. Check the regular expression`);
    const stdout = result.output.slice(0, end);
    if (exitCode === 1 || stdout.trim() === '') return ok(`no matches for /${input.pattern}/`);
    const lines = stdout.split('\n').filter(Boolean);
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
