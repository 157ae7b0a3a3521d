/**
 * A workspace's change as git stages it: everything added (never through a
 * link, never entering a gitlink), weighed before it is read, and the diff
 * against the base — asked of git once per staged tree.
 */
import { lstatSync } from 'node:fs';
import path from 'node:path';
import { hostGit, hostGitSync, IDENTITY } from './git.ts';
import { isFullObjectId } from './git-objects.ts';

/**
 * `git add -A` of a workspace, minus the gitlinks already in its index. For a
 * gitlink, `add` asks the nested repository whether it changed by running
 * `git status` inside it — with that repository's own configuration, filters
 * included (`diff.ignoreSubmodules` does not reach `add`). A repository
 * planted where there was none is added as a gitlink without being entered,
 * and then fails the no-nested-repository check.
 */
export const addAll = async (
  workspace: string,
  extraArgs: readonly string[] = [],
  env?: Readonly<Record<string, string>>,
): Promise<void> => {
  const options = { cwd: workspace, ...(env ? { env } : {}) };
  const gitlinks = indexGitlinks(workspace, env?.GIT_INDEX_FILE);
  // Reads every new or changed file of the worktree: on its view only (see `hostGit`).
  await hostGit(
    [
      ...extraArgs,
      'add',
      '-A',
      '--',
      '.',
      ...gitlinks.map((gitlink) => `:(exclude,literal)${gitlink}`),
    ],
    { ...options, noFollow: true },
  );
};

/**
 * The gitlinks of a workspace's index (its own, or the one at `indexFile`),
 * asked of git again only when that file changed (another inode, size or
 * time): git writes an index whole, through a new file.
 */
const gitlinksByIndex = new Map<string, { readonly stamp: string; readonly entries: string[] }>();
export const indexGitlinks = (workspace: string, indexFile?: string): string[] => {
  const file = path.resolve(workspace, indexFile ?? path.join('.git', 'index'));
  const index = lstatSync(file, { throwIfNoEntry: false });
  const stamp = index ? `${index.ino}:${index.size}:${index.mtimeMs}:${index.ctimeMs}` : 'none';
  const key = `${path.resolve(workspace)}\0${file}`;
  const known = gitlinksByIndex.get(key);
  if (known?.stamp === stamp) return known.entries;
  const entries = hostGitSync(['ls-files', '--stage', '-z'], {
    cwd: workspace,
    ...(indexFile ? { env: { GIT_INDEX_FILE: indexFile } } : {}),
  })
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry.startsWith('160000 '))
    .map((entry) => entry.slice(entry.indexOf('\t') + 1));
  if (gitlinksByIndex.size > 64) gitlinksByIndex.clear();
  gitlinksByIndex.set(key, { stamp, entries });
  return entries;
};

/** The staged change's two diffs: as it applies (`workspaceDiff`) and as the checks read it (`checksText`). */
export interface StagedDiffs {
  readonly applied: string;
  readonly checks: string;
  /** The staged tree both diffs are of (what a proposal commits); undefined when git wrote none. */
  readonly tree: string | undefined;
}

/** A change staged: the tree git wrote of it, and the index it is in. */
export interface StagedChange {
  readonly workspace: string;
  readonly baseSha: string;
  /** The staged tree (what a proposal commits); undefined when git wrote none. */
  readonly tree: string | undefined;
  readonly env: Readonly<Record<string, string>> | undefined;
}

/**
 * Stages the workspace: into `indexFile` when given (made from the base, with
 * the stat data the workspace's index holds for unchanged files), else into
 * the workspace's own index. Once this returns, the change is an object of
 * git's: what the worktree does next changes nothing of it.
 */
export const stageChange = async (
  workspace: string,
  baseSha: string,
  indexFile?: string,
): Promise<StagedChange> => {
  const env = indexFile ? { GIT_INDEX_FILE: indexFile } : undefined;
  if (indexFile)
    await hostGit(['read-tree', '-m', `--index-output=${indexFile}`, '--end-of-options', baseSha], {
      cwd: workspace,
    });
  await addAll(workspace, IDENTITY, env);
  // What the staged index holds, as one id: both diffs against the base are functions of it.
  const tree = await hostGit(['write-tree'], { cwd: workspace, ...(env ? { env } : {}) }).then(
    (out) => out.trim(),
    () => undefined,
  );
  return { workspace, baseSha, tree, env };
};

/**
 * A staged change's diffs against the base, asked of git once per staged tree
 * (a reader of the same tree meanwhile waits for the same answer): the
 * checks' text only when `withChecks`, beside the other. Both are read only
 * once the change's weight passed. `staged.env`'s index must stay until this
 * returns.
 */
export const diffsOfStaged = async (
  staged: StagedChange,
  withChecks: boolean,
): Promise<{ readonly applied: string; readonly checks?: string }> => {
  const { workspace, baseSha, tree, env } = staged;
  const key = tree && `${path.resolve(workspace)}\0${baseSha}\0${tree}`;
  let reading = key ? readings.get(key) : undefined;
  if (!reading) {
    const weighed = refuseHugeChange(workspace, baseSha, env);
    const applied = weighed.then(() =>
      hostGit(stagedDiff(baseSha, ['--binary']), {
        cwd: workspace,
        noFollow: true,
        ...(env ? { env } : {}),
      }),
    );
    reading = { weighed, applied };
    if (key) keep(key, reading, applied);
  }
  if (withChecks && !reading.checks) {
    reading.checks = reading.weighed.then(() => checksText(workspace, baseSha, env));
    if (key) keep(key, reading, reading.checks);
  }
  const [applied, checks] = await Promise.all([
    reading.applied,
    withChecks ? reading.checks : undefined,
  ]);
  return { applied, ...(checks !== undefined ? { checks } : {}) };
};

/** The reading of one staged tree's diffs (see `readings`). */
interface Reading {
  readonly weighed: Promise<void>;
  readonly applied: Promise<string>;
  checks?: Promise<string>;
}

/**
 * The last staged tree's diffs, read or being read: the stages of a job read
 * the same change several times (the fresh check begun ahead, the checks, the
 * job's end). Only one is kept; one that fails is forgotten (a change too
 * large fails again on its own).
 */
const readings = new Map<string, Reading>();
const keep = (key: string, reading: Reading, answer: Promise<string>): void => {
  if (readings.get(key) !== reading) {
    readings.clear();
    readings.set(key, reading);
  }
  answer.catch(() => {
    if (readings.get(key) === reading) readings.delete(key);
  });
};

/** Stages the workspace (see `stageChange`) and reads its diffs (see `diffsOfStaged`). */
const stagedDiffs = async (
  workspace: string,
  baseSha: string,
  indexFile: string | undefined,
  withChecks: boolean,
): Promise<{ readonly applied: string; readonly checks?: string; readonly tree?: string }> => {
  const staged = await stageChange(workspace, baseSha, indexFile);
  const diffs = await diffsOfStaged(staged, withChecks);
  return { ...diffs, ...(staged.tree ? { tree: staged.tree } : {}) };
};

/**
 * Everything changed in the workspace since `baseSha`, new files and binary
 * ones included, as it applies: no external diff, no textconv, and gitlinks
 * shown (`--cached` compares their recorded commits without entering them).
 */
export const workspaceDiff = async (
  workspace: string,
  baseSha: string,
  /** An index file of the caller's (see `stagedDiffs`): the workspace's own is left as it is. */
  indexFile?: string,
): Promise<string> => (await stagedDiffs(workspace, baseSha, indexFile, false)).applied;

/**
 * The change's two diffs, read side by side: `workspaceDiff`'s, and the same
 * change as the checks read it (`checksText`), both read only once the
 * change's weight passed.
 */
export const workspaceDiffs = async (
  workspace: string,
  baseSha: string,
  indexFile?: string,
): Promise<StagedDiffs> => {
  const diffs = await stagedDiffs(workspace, baseSha, indexFile, true);
  return { applied: diffs.applied, checks: diffs.checks ?? '', tree: diffs.tree };
};

/** The most a change may weigh (its files' new contents) before the host reads it as a diff. */
export const MAX_CHANGE_BYTES = 32 * 1024 * 1024;

/** A change too large for the host to read: the checks fail closed on it. */
export class ChangeTooLargeError extends Error {
  override readonly name = 'ChangeTooLargeError';
}

/**
 * What the staged change weighs, asked of git's object store (the sizes of the new blobs),
 * before any diff of it is read: a repository's code may write a file of any size, and a diff
 * of it would be held whole, several times over, in the host's memory.
 */
const refuseHugeChange = async (
  workspace: string,
  baseSha: string,
  env: Record<string, string> | undefined,
): Promise<void> => {
  const raw = await hostGit(stagedDiff(baseSha, ['--raw', '-z', '--no-renames', '--no-abbrev']), {
    cwd: workspace,
    noFollow: true,
    ...(env ? { env } : {}),
  });
  const blobs = raw
    .split('\0')
    .map((field) => /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(field)?.[1])
    .filter((sha): sha is string => sha !== undefined && !/^0+$/.test(sha));
  if (blobs.length === 0) return;
  const sizes = hostGitSync(['cat-file', '--batch-check=%(objectsize)'], {
    cwd: workspace,
    input: `${blobs.join('\n')}\n`,
  })
    .toString('utf8')
    .split('\n')
    .map(Number)
    .filter(Number.isFinite);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total > MAX_CHANGE_BYTES)
    throw new ChangeTooLargeError(
      `the change weighs ${(total / 1024 / 1024).toFixed(1)} MiB (its files' new contents), more than the ${MAX_CHANGE_BYTES / 1024 / 1024} MiB regreen reads as a diff`,
    );
};

/**
 * `git diff --cached` against the base, never through a program of the
 * repository's. It reads the worktree's `.gitattributes` along each changed
 * path (a folder swapped for a link, an attributes file hard-linked into every
 * level, each read whole): every such diff runs on the workspace's view,
 * bounded.
 */
const stagedDiff = (baseSha: string, options: readonly string[]): string[] => [
  'diff',
  '--cached',
  ...options,
  '--no-color',
  '--no-ext-diff',
  '--no-textconv',
  '--ignore-submodules=none',
  '--end-of-options',
  baseSha,
  '--',
];

/**
 * The change as the checks read it: every file as text
 * whatever its attributes say (`-diff`, `binary`, a NUL byte), no textconv or
 * external diff, no rename pairing (a renamed file is a deletion and an
 * addition), paths unquoted where git allows.
 */
const checksText = (
  workspace: string,
  baseSha: string,
  env: Record<string, string> | undefined,
): Promise<string> =>
  hostGit(['-c', 'core.quotePath=false', ...stagedDiff(baseSha, ['--text', '--no-renames'])], {
    cwd: workspace,
    noFollow: true,
    ...(env ? { env } : {}),
  });

/** `git commit -m`'s clean-up of a message: no trailing spaces, no blank lines at the ends or in a row. */
const cleanMessage = (message: string): string =>
  `${message
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()}\n`;

/**
 * Commits what is staged in `dir` as regreen, on the branch HEAD names; returns
 * the commit. By plumbing (`write-tree`, `commit-tree`, `update-ref`), which
 * never reads the worktree and runs no hook: `git commit` runs a status of the
 * worktree when nothing is staged, and that status enters a submodule a
 * `.gitmodules` line says not to ignore, with the planted repository's filters
 * (so host git refuses `commit`: `hostArgs`).
 */
export const commitStaged = async (dir: string, message: string): Promise<string> =>
  commitTree(dir, (await hostGit(['write-tree'], { cwd: dir })).trim(), message);

/**
 * Commits `tree` (an id in the workspace's objects) as regreen, on the branch
 * HEAD names, its parent HEAD; returns the commit. The tree is the change as
 * it was read and checked, whatever the worktree holds by now.
 */
export const commitTree = async (dir: string, tree: string, message: string): Promise<string> => {
  if (!isFullObjectId(tree)) throw new Error(`not a tree's id: ${JSON.stringify(tree)}`);
  const git = (args: readonly string[]): Promise<string> =>
    hostGit(args, { cwd: dir }).then((out) => out.trim());
  const [head, headTree] = (await git(['rev-parse', 'HEAD^{commit}', 'HEAD^{tree}'])).split('\n');
  if (!head || !headTree) throw new Error('HEAD names no commit');
  if (tree === headTree) throw new Error("nothing to commit: the change is HEAD's tree");
  const commit = await git([
    ...IDENTITY,
    'commit-tree',
    tree,
    '-p',
    head,
    '-m',
    cleanMessage(message),
  ]);
  await git(['update-ref', '-m', 'commit: regreen', 'HEAD', commit, head]);
  return commit;
};
