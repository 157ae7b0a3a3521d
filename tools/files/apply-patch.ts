import path from 'node:path';
import { applyPatch, parsePatch, type StructuredPatch } from 'diff';
import { z } from 'zod';
import { removeFileInside } from '../../src/workspace/repo/confined-fs.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath, writeAllOrNothing, type FileChange } from './file-io.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';

/** What `(.+?)\s*$` captures of `text`: it without trailing blanks, or a blank's first character. */
const lazyLine = (text: string): string | undefined => {
  const trimmed = text.trimEnd();
  if (trimmed === '') return /^./.exec(text)?.[0];
  return /^.*$/.test(trimmed) ? trimmed : undefined;
};

/**
 * The path of a `--- a/x` or `+++ b/x` line, as `/^(?:---|\+\+\+) (?:[ab]\/)?(.+?)\s*$/` reads it,
 * in parts: its lazy path before the trailing blanks backtracked on a long line.
 */
const headerPath = (line: string): string | undefined => {
  if (!/^(?:---|\+\+\+) /.test(line)) return undefined;
  const rest = line.slice(4);
  return (/^[ab]\//.test(rest) ? lazyLine(rest.slice(2)) : undefined) ?? lazyLine(rest);
};

/**
 * `diff --git a/x b/y`'s two paths, split at the last ` b/` (as a greedy `(.+) b\/(.+)$`
 * split it) with fixed strings: a long header line is read once, not once per ` b/`.
 */
const gitHeaderPaths = (line: string): string[] => {
  if (!line.startsWith('diff --git a/') || /[\r\u2028\u2029]/.test(line)) return [];
  const rest = line.slice('diff --git a/'.length);
  const at = rest.lastIndexOf(' b/');
  return at > 0 && at + 3 < rest.length ? [rest.slice(0, at), rest.slice(at + 3)] : [];
};

/** Paths a unified diff touches (both sides), relative as `git diff` prints them. */
export const patchPaths = (patch: string): string[] => {
  const paths = new Set<string>();
  for (const line of patch.split('\n')) {
    const header = headerPath(line);
    if (header && header !== '/dev/null') paths.add(header.replace(/(?<!\t)\t[\s\S]*$/, ''));
    for (const path of gitHeaderPaths(line)) paths.add(path);
    const rename = /^rename (?:from|to) (.+)$/.exec(line);
    if (rename?.[1]) paths.add(rename[1]);
  }
  return [...paths];
};

const side = (name: string | undefined): string | undefined =>
  name === undefined || name === '/dev/null'
    ? undefined
    : name.replace(/(?<!\t)\t[\s\S]*$/, '').replace(/^[ab]\//, '');

/** Renames without content change (`rename from`/`rename to` and no hunk), which parsePatch skips. */
const pureRenames = (patch: string): { from: string; to: string }[] => {
  const renames: { from: string; to: string }[] = [];
  for (const block of patch.split(/^(?=diff --git )/m)) {
    const from = /^rename from (.+)$/m.exec(block)?.[1];
    const to = /^rename to (.+)$/m.exec(block)?.[1];
    if (from && to && !/^--- /m.test(block)) renames.push({ from, to });
  }
  return renames;
};

/**
 * Applies the patch in memory, then writes every file through descriptors
 * inside the workspace (see confined-fs.ts): no path is opened by name, so a
 * folder swapped for a symlink meanwhile is refused, and nothing of the
 * repository's git configuration is involved.
 */
export const applyPatchTool = defineTool({
  name: 'apply_patch',
  level: 'write',
  description:
    'Apply a unified diff as `git diff` prints it (paths relative to the workspace root with a/ and b/ prefixes; new and deleted files included). All hunks apply or none do; on failure nothing changes and the error says which hunk did not match.',
  schema: z.object({ patch: z.string().min(1) }),
  run: async (input, ctx) => {
    const files = patchPaths(input.patch);
    if (files.length === 0)
      return fail(
        'no file headers found: the patch must contain ---/+++ lines as git diff prints them',
      );
    const absolute = new Map<string, string>();
    for (const file of files) {
      const checked = checkPath(ctx.workspace, path.join(ctx.workspace, file));
      if (!checked.ok) return fail(`patch rejected: ${checked.error}`);
      const conflict = await ctx.views?.checkWrite(checked.value, file);
      if (conflict) return fail(`patch rejected: ${conflict}`);
      absolute.set(file, checked.value);
    }
    const patch = input.patch.endsWith('\n') ? input.patch : `${input.patch}\n`;
    let parsed: StructuredPatch[];
    try {
      parsed = parsePatch(patch);
    } catch (error) {
      return fail(`patch does not parse, nothing was changed: ${(error as Error).message}`);
    }
    /** The content of each touched path after the patch; undefined: deleted. */
    const after = new Map<string, string | undefined>();
    const current = (file: string): string | undefined =>
      after.has(file) ? after.get(file) : readTextInside(ctx.workspace, absolute.get(file) ?? '');
    for (const { from, to } of pureRenames(patch)) {
      const content = current(from);
      if (content === undefined)
        return fail(`patch does not apply, nothing was changed: ${from} does not exist`);
      after.set(to, content);
      after.set(from, undefined);
    }
    for (const [index, filePatch] of parsed.entries()) {
      const oldName = side(filePatch.oldFileName);
      const newName = side(filePatch.newFileName);
      if (oldName === undefined && newName === undefined) continue;
      const source = oldName === undefined ? '' : current(oldName);
      if (source === undefined)
        return fail(`patch does not apply, nothing was changed: ${oldName ?? ''} does not exist`);
      if (oldName === undefined && newName !== undefined && current(newName) !== undefined)
        return fail(`patch does not apply, nothing was changed: ${newName} already exists`);
      const result = applyPatch(source, filePatch);
      if (result === false)
        return fail(
          `patch does not apply, nothing was changed: a hunk of ${newName ?? oldName ?? `file ${index + 1}`} does not match the current content. Read the current file content and rebuild the hunk.`,
        );
      if (newName === undefined) {
        if (result !== '')
          return fail(
            `patch does not apply, nothing was changed: ${oldName ?? ''} is not deleted whole`,
          );
        after.set(oldName ?? '', undefined);
        continue;
      }
      if (oldName !== undefined && oldName !== newName) after.set(oldName, undefined);
      after.set(newName, result);
    }
    const writes: FileChange[] = [];
    const deletions: string[] = [];
    for (const [file, content] of after) {
      const target = absolute.get(file);
      if (target === undefined) continue;
      if (content === undefined) deletions.push(target);
      else {
        const before = readTextInside(ctx.workspace, target);
        writes.push({
          path: target,
          before: before ?? '',
          after: content,
          created: before === undefined,
        });
      }
    }
    const written = await writeAllOrNothing(ctx.workspace, writes);
    if (!written.ok) return fail(`patch failed (${written.code}), nothing was changed`);
    try {
      for (const file of deletions) removeFileInside(ctx.workspace, file);
    } catch (error) {
      return fail(`patch partly applied: could not delete a file (${(error as Error).message})`);
    }
    for (const file of [...writes.map((change) => change.path), ...deletions])
      await ctx.views?.recordWrite(file);
    return ok(`applied patch to ${files.length} file(s): ${files.join(', ')}`);
  },
});
