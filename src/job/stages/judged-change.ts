import path from 'node:path';
import picomatch from 'picomatch';
import { DEFAULT_PROTECTED_GLOBS } from '../../../checks/protected-files.ts';
import { harnessNamed, splitChange, type SplitChange } from '../../../checks/change-split.ts';
import type { AllowedChange } from '../../../checks/types.ts';
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

/**
 * Each staged tree's regular files (path → blob), listed once: a changed
 * file is looked up by its exact path, never handed to git as a pattern (a
 * path of `:/x` is a pathspec naming another file).
 */
const filesByTree = new Map<string, ReadonlyMap<string, string>>();
const treeFiles = (workspace: string, tree: string): ReadonlyMap<string, string> => {
  const key = `${path.resolve(workspace)}\0${tree}`;
  let files = filesByTree.get(key);
  if (!files) {
    const listed = new Map<string, string>();
    for (const entry of hostGitSync(['ls-tree', '-r', '-z', '--end-of-options', tree], {
      cwd: workspace,
    })
      .toString('utf8')
      .split('\0')) {
      const match = /^(?:100644|100755) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
      if (match?.[1] && match[2] !== undefined) listed.set(match[2], match[1]);
    }
    if (filesByTree.size >= 4) filesByTree.clear();
    filesByTree.set(key, (files = listed));
  }
  return files;
};

/**
 * A file's text after the change, read from the tree the checks read (`tree`:
 * what the proposal commits), never from the worktree: a `.gitattributes` no
 * diff shows (one its own `.gitignore` hides) may have git stage other bytes
 * than the file holds (`working-tree-encoding`, `eol`). Only a file's
 * content: a link's target, a gitlink or a folder reads as nothing, as does
 * every file when no tree was written.
 */
export const newContent =
  (workspace: string, tree: string | undefined) =>
  (file: string): string | undefined => {
    if (tree === undefined) return undefined;
    try {
      const blob = treeFiles(workspace, tree).get(file);
      return blob === undefined
        ? undefined
        : hostGitObjectSync(['cat-file', 'blob', blob], blob, { cwd: workspace }).toString('utf8');
    } catch {
      return undefined;
    }
  };

/** What judging any change of a job reads of its base: the same for all of them. */
interface BaseHarness {
  readonly files: ReadonlySet<string>;
  readonly base: (file: string) => string | undefined;
  /** The files the base's harness names (its runner configs, the job's commands). */
  readonly named: ReadonlySet<string>;
}

/**
 * The base's harness per workspace, base commit and commands: read from the
 * base's objects, which no later change alters, once per job rather than
 * once per change judged (`warmJudging` reads it while the failing command
 * runs). A few are kept (a worker runs jobs one after another).
 */
const harnesses = new Map<string, BaseHarness>();
const baseHarness = (prepared: Prepared): BaseHarness => {
  const { workspace, baseSha } = prepared;
  const commands = [
    prepared.failingCommand,
    prepared.testCommand,
    ...(prepared.setupCommand ? [prepared.setupCommand] : []),
  ];
  const key = [path.resolve(workspace), baseSha, ...commands].join('\0');
  const known = harnesses.get(key);
  if (known) return known;
  const files = baseFiles(workspace, baseSha);
  const base = baseContent(workspace, baseSha);
  const harness = { files: new Set(files), base, named: harnessNamed(files, base, commands) };
  if (harnesses.size >= 8) harnesses.clear();
  harnesses.set(key, harness);
  return harness;
};

interface Matchers {
  readonly relaxed: picomatch.Matcher;
  readonly isDefault: picomatch.Matcher;
  readonly isConfigured: picomatch.Matcher;
  readonly declared: picomatch.Matcher;
}

/** The repository config's globs, compiled once per config. */
const matchersByConfig = new WeakMap<Prepared['config'], Matchers>();
const matchersOf = (config: Prepared['config']): Matchers => {
  let matchers = matchersByConfig.get(config);
  if (!matchers) {
    matchers = {
      relaxed: picomatch([...config.unprotected], { dot: true }),
      isDefault: picomatch(DEFAULT_PROTECTED_GLOBS, { dot: true }),
      isConfigured: picomatch([...config.protected], { dot: true }),
      declared: picomatch([...config.product], { dot: false }),
    };
    matchersByConfig.set(config, matchers);
  }
  return matchers;
};

/**
 * Reads what judging needs ahead (the base's harness, the globs compiled, a
 * path classified once so the kinds' globs are too): begun by the job while
 * its failing command runs, not when its agent's first passing run waits.
 */
export const warmJudging = (prepared: Prepared): void => {
  baseHarness(prepared);
  matchersOf(prepared.config);
  splitChange('diff --git a/x b/x\n', new Set());
};

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
  /** The tree the change was staged as (see `newContent`). */
  tree: string | undefined,
): SplitChange => {
  const { workspace, config } = prepared;
  const { files, base, named } = baseHarness(prepared);
  const { relaxed, isDefault, isConfigured, declared } = matchersOf(config);
  const current = newContent(workspace, tree);
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
  return splitChange(diffText, named, allowed, (file) =>
    files.has(file) ? base(file) : undefined,
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
