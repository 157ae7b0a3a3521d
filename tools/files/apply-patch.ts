import { execa } from 'execa';
import { z } from 'zod';
import { hostGitEnv, SAFE_GIT_CONFIG } from '../../src/workspace/git.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath } from './file-io.ts';

/** Paths a unified diff touches (both sides), relative as `git diff` prints them. */
export const patchPaths = (patch: string): string[] => {
  const paths = new Set<string>();
  for (const line of patch.split('\n')) {
    const header = /^(?:---|\+\+\+) (?:[ab]\/)?(.+?)\s*$/.exec(line);
    if (header?.[1] && header[1] !== '/dev/null') paths.add(header[1].replace(/\t.*$/, ''));
    const git = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
    if (git?.[1] && git[2]) {
      paths.add(git[1]);
      paths.add(git[2]);
    }
    const rename = /^rename (?:from|to) (.+)$/.exec(line);
    if (rename?.[1]) paths.add(rename[1]);
  }
  return [...paths];
};

export const applyPatchTool = defineTool({
  name: 'apply_patch',
  level: 'write',
  description:
    'Apply a unified diff as `git diff` prints it (paths relative to the workspace root with a/ and b/ prefixes; new and deleted files included). All hunks apply or none do; on failure nothing changes and the error says which hunk did not match.',
  schema: z.object({ patch: z.string().min(1) }),
  run: async (input, ctx, signal) => {
    const files = patchPaths(input.patch);
    if (files.length === 0)
      return fail(
        'no file headers found: the patch must contain ---/+++ lines as git diff prints them',
      );
    const resolved: string[] = [];
    for (const file of files) {
      const checked = checkPath(ctx.workspace, `${ctx.workspace}/${file}`);
      if (!checked.ok) return fail(`patch rejected: ${checked.error}`);
      const conflict = await ctx.views?.checkWrite(checked.value, file);
      if (conflict) return fail(`patch rejected: ${conflict}`);
      resolved.push(checked.value);
    }
    const patch = input.patch.endsWith('\n') ? input.patch : `${input.patch}\n`;
    const apply = (extra: string[]) =>
      execa(
        'git',
        [...SAFE_GIT_CONFIG, 'apply', '--recount', '--whitespace=nowarn', ...extra, '-'],
        {
          cwd: ctx.workspace,
          env: hostGitEnv(),
          extendEnv: false,
          input: patch,
          reject: false,
          cancelSignal: signal,
        },
      );
    const check = await apply(['--check']);
    if (check.exitCode !== 0) {
      return fail(
        `patch does not apply, nothing was changed:\n${check.stderr.trim()}\nRead the current file content and rebuild the hunk.`,
      );
    }
    const applied = await apply([]);
    if (applied.exitCode !== 0)
      return fail(`patch failed, nothing was changed:\n${applied.stderr.trim()}`);
    for (const file of resolved) await ctx.views?.recordWrite(file);
    return ok(`applied patch to ${files.length} file(s): ${files.join(', ')}`);
  },
});
