import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_PROTECTED_GLOBS } from '../../../checks/protected-files.ts';
import { harnessNamed, splitChange, type SplitChange } from '../../../checks/change-split.ts';
import type { AllowedChange } from '../../../checks/types.ts';
import { readTextInside } from '../../workspace/repo/confined-fs.ts';
import { hostGitSync } from '../../workspace/repo/git.ts';
import { hostGitObjectSync } from '../../workspace/repo/git-objects.ts';
import type { Prepared } from './prepare.ts';

/** Files tracked at the base commit. */
export const baseFiles = (workspace: string, baseSha: string): string[] =>
  hostGitObjectSync(['ls-tree', '-r', '--name-only', '-z', baseSha], baseSha, { cwd: workspace })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);

/** A file's text at the base commit, read from git's objects (never from the workspace). */
export const baseContent =
  (workspace: string, baseSha: string) =>
  (file: string): string | undefined => {
    try {
      return hostGitObjectSync(['show', `${baseSha}:${file}`], baseSha, {
        cwd: workspace,
      }).toString('utf8');
    } catch {
      return undefined;
    }
  };

/** A file's text after the change, through the confined reader. */
export const newContent =
  (workspace: string) =>
  (file: string): string | undefined =>
    readTextInside(workspace, path.join(workspace, file));

/**
 * The change cut for the judging run (see `splitChange`): the base's harness
 * names its own files (from the base's objects, with the job's commands);
 * a protected file a recipe changed, exactly as the recipe left it, or one
 * the repository's config unprotects, is judged with the product. A base
 * file that defines tests is a test whatever its name.
 */
export const judgedChange = (
  prepared: Prepared,
  diffText: string,
  allowedProtected: readonly AllowedChange[],
): SplitChange => {
  const { workspace, baseSha, config } = prepared;
  const files = baseFiles(workspace, baseSha);
  const base = baseContent(workspace, baseSha);
  const named = harnessNamed(files, base, [
    prepared.failingCommand,
    prepared.testCommand,
    ...(prepared.setupCommand ? [prepared.setupCommand] : []),
  ]);
  const relaxed = picomatch([...config.unprotected], { dot: true });
  const isDefault = picomatch(DEFAULT_PROTECTED_GLOBS, { dot: true });
  const isConfigured = picomatch([...config.protected], { dot: true });
  const current = newContent(workspace);
  const declared = picomatch([...config.product], { dot: false });
  const allowed = (file: string): boolean => {
    if (isConfigured(file)) return false;
    // What the repository's own config (the base's: a change to it is harness) declares product.
    if (
      config.product.length > 0 &&
      declared(file) &&
      !file.split('/').some((s) => s.startsWith('.'))
    )
      return true;
    const recipe = allowedProtected.find((change) => change.path === file);
    if (recipe && current(file) === recipe.content) return true;
    return (
      config.unprotected.length > 0 &&
      relaxed(file) &&
      isDefault(file) &&
      !file.startsWith('.github/')
    );
  };
  const known = new Set(files);
  return splitChange(diffText, named, allowed, (file) =>
    known.has(file) ? base(file) : undefined,
  );
};

/**
 * The symlinks of the changed tree as git will commit it (the workspace's
 * index, once the change is staged): path → target, read from git's objects
 * on demand. Nothing of the workspace's filesystem is followed or read.
 */
export const changedTreeLinks = (workspace: string): ((file: string) => string | undefined) => {
  const links = new Map<string, string>();
  for (const entry of hostGitSync(['ls-files', '--stage', '-z'], { cwd: workspace })
    .toString('utf8')
    .split('\0')) {
    const match = /^120000 ([0-9a-f]+) \d\t(.+)$/s.exec(entry);
    if (match?.[1] && match[2]) links.set(match[2], match[1]);
  }
  const targets = new Map<string, string>();
  return (file) => {
    const object = links.get(file);
    if (object === undefined) return undefined;
    let target = targets.get(file);
    if (target === undefined) {
      target = hostGitSync(['cat-file', 'blob', object], { cwd: workspace }).toString('utf8');
      targets.set(file, target);
    }
    return target;
  };
};
