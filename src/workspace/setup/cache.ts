import { execFile } from 'node:child_process';
import { removeTree } from '../../util/discard.ts';
import { createHash } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { hostGit } from '../repo/git.ts';
import { knownFiles } from '../repo/known-files.ts';
import { readsFingerprint, withReads, type ReadSet } from './reads.ts';
import type { CommandResult } from '../run-process.ts';

/**
 * What a setup step leaves that later workspaces can reuse: the top-level
 * `node_modules`, and only when it is all the setup left. A setup that also
 * builds (a `dist/`), installs into nested packages, makes a Python
 * environment (its editable install holds the first workspace's path) or
 * rewrites a tracked file is run again each time, never half restored.
 */
const ARTIFACTS = ['node_modules'];

/** What a command left in a workspace: paths git does not track (a folder as one entry) and tracked files it changed. */
const leftovers = async (workspace: string): Promise<Set<string> | undefined> => {
  // The set-up's code may have left links, FIFOs and `.git` files naming host paths: only git's
  // view of the workspace reads it, never synchronously, and without a view (refused) nothing is
  // known to be reusable.
  try {
    const status = await hostGit(
      [
        'status',
        '--porcelain=v1',
        '-z',
        '--ignored=traditional',
        '--untracked-files=normal',
        '--ignore-submodules=all',
      ],
      { cwd: workspace, noFollow: true },
    );
    return new Set(status.split('\0').filter(Boolean));
  } catch {
    return undefined;
  }
};

const ONLY_ARTIFACTS = new Set(ARTIFACTS.flatMap((dir) => [`?? ${dir}/`, `!! ${dir}/`]));

/**
 * Whether a setup in a clean clone left nothing but what a later workspace can
 * reuse (the top-level `node_modules`): no build output, no other install, no
 * tracked file changed. Unreadable status is a no.
 */
export const leftOnlyArtifacts = async (workspace: string): Promise<boolean> => {
  const left = await leftovers(workspace);
  return left !== undefined && [...left].every((entry) => ONLY_ARTIFACTS.has(entry));
};

/**
 * Whether a setup left every tracked file as it was (what it made besides is
 * its own: a venv, an editable install's `*.egg-info`, a build). Enough for
 * the tree it ran in to take a change its traced reads do not touch; not for
 * restoring it elsewhere (`leftOnlyArtifacts`). Unreadable status is a no.
 */
export const leftTrackedAlone = async (workspace: string): Promise<boolean> => {
  const left = await leftovers(workspace);
  return left !== undefined && [...left].every((entry) => /^(?:\?\?|!!) /.test(entry));
};

/** A folder itself, not a link to one. */
const isRealDir = (dir: string): boolean => {
  try {
    return lstatSync(dir).isDirectory();
  } catch {
    return false;
  }
};

const copyTree = (from: string, to: string): Promise<void> =>
  new Promise((resolve, reject) => {
    // Copy-on-write where the file system can (btrfs, xfs), a plain copy elsewhere.
    execFile('cp', ['-a', '--reflink=auto', from, to], (error) => {
      if (error) reject(new Error(`cannot copy ${from}: ${error.message}`));
      else resolve();
    });
  });

/**
 * Dependencies installed once and restored into later workspaces instead of
 * installing again: the eval harness's tasks on one repository mostly share
 * a lockfile, and a job's fresh check restores what the job's own setup
 * installed (taken right after the setup, before anything else ran in the
 * workspace). An entry is keyed by construction, not by a scanner's guess:
 * by the command and its context (the environment, the toolchain), and by
 * what the setup was seen to read (`reads.ts`): a later tree is served
 * only when every file it read, every folder it listed and every file looked
 * for by name is as it was. Where the host cannot record reads, nothing is
 * cached. A failed setup is never cached. Concurrent jobs with the same
 * command and context wait for the first.
 */
export interface SetupCache {
  run(options: {
    workspace: string;
    command: string;
    /** What else decides the setup's result: its environment, the toolchain's stamp. */
    context?: string;
    setup: () => Promise<CommandResult>;
  }): Promise<SetupRun>;
}

/** A setup's result, with what it read (when it was recorded, or restored with the entry). */
export type SetupRun = CommandResult & { readonly reads?: ReadSet };

const commandKey = (command: string, context: string | undefined): string =>
  createHash('sha256')
    .update(command)
    .update('\0')
    .update(context ?? '')
    .digest('hex')
    .slice(0, 24);

interface Entry {
  readonly reads: ReadSet;
  readonly fingerprint: string;
}

/** The entries kept for one command and context: a folder each, named by its fingerprint. */
const entriesIn = (dir: string): { folder: string; entry: Entry }[] => {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && !d.name.includes('.tmp-'))
    .flatMap((d) => {
      try {
        const folder = path.join(dir, d.name);
        const entry = JSON.parse(readFileSync(path.join(folder, 'entry.json'), 'utf8')) as Entry;
        return [{ folder, entry }];
      } catch {
        return [];
      }
    });
};

/** Whether files in `dir` can be copied by copy-on-write (btrfs, xfs with reflinks; not ext4). */
const copiesOnWrite = async (dir: string): Promise<boolean> => {
  mkdirSync(dir, { recursive: true });
  const probe = path.join(dir, `.reflink-probe-${process.pid}`);
  writeFileSync(probe, 'probe');
  try {
    return await new Promise<boolean>((resolve) => {
      execFile('cp', ['--reflink=always', probe, `${probe}.copy`], (error) => resolve(!error));
    });
  } finally {
    rmSync(probe, { force: true });
    rmSync(`${probe}.copy`, { force: true });
  }
};

export const createSetupCache = (
  dir: string,
  options: {
    /**
     * Keep and restore setups only where copies cost nothing (copy-on-write): a
     * job's own fresh check, where a plain copy of node_modules can take
     * longer than installing it again. The harness's cache, shared by many
     * tasks, copies anyway.
     */
    readonly copyOnWriteOnly?: boolean;
  } = {},
): SetupCache => {
  const inFlight = new Map<string, Promise<void>>();
  let usable: Promise<boolean> | undefined;
  const restore = async (entry: string, workspace: string): Promise<CommandResult | undefined> => {
    const resultFile = path.join(entry, 'result.json');
    if (!existsSync(resultFile)) return undefined;
    for (const artifact of ARTIFACTS) {
      const cached = path.join(entry, artifact);
      if (!existsSync(cached)) continue;
      // Whatever sits where the artifact goes (a link to a host folder, say) goes first: cp would
      // otherwise copy through it. An artifact is one name at the workspace's top.
      const dest = path.join(workspace, artifact);
      removeTree(dest);
      await copyTree(cached, dest);
    }
    const saved = JSON.parse(readFileSync(resultFile, 'utf8')) as CommandResult;
    return {
      ...saved,
      durationMs: 0,
      output: `${saved.output}\n[regreen] setup restored from the cache\n`,
    };
  };
  return {
    run: async ({ workspace, command, context, setup }) => {
      if (options.copyOnWriteOnly && !(await (usable ??= copiesOnWrite(dir)))) {
        const { result, reads } = await withReads(workspace, setup);
        return reads ? { ...result, reads } : result;
      }
      const key = commandKey(command, context);
      const keyDir = path.join(dir, key);
      // Jobs with one key take turns (queued synchronously): the first installs, the rest restore.
      const previous = inFlight.get(key) ?? Promise.resolve();
      let release: () => void = () => undefined;
      const mine = new Promise<void>((resolve) => (release = resolve));
      const turn = previous.then(() => mine);
      inFlight.set(key, turn);
      await previous;
      try {
        // A workspace git cannot list (its code made git fail) is set up, never keyed.
        const known = await knownFiles(workspace).catch(() => undefined);
        if (!known) {
          const { result, reads } = await withReads(workspace, setup);
          return reads ? { ...result, reads } : result;
        }
        for (const { folder, entry } of entriesIn(keyDir)) {
          if (readsFingerprint(workspace, entry.reads, known) !== entry.fingerprint) continue;
          const hit = await restore(folder, workspace);
          if (hit) return { ...hit, reads: entry.reads };
        }
        const before = await leftovers(workspace);
        const { result, reads } = await withReads(workspace, setup);
        const after =
          result.exitCode === 0 && before && reads ? await leftovers(workspace) : undefined;
        const left = [...(after ?? [])].filter((entry) => !before?.has(entry));
        if (reads && after && left.length > 0 && left.every((e) => ONLY_ARTIFACTS.has(e))) {
          const fingerprint = readsFingerprint(workspace, reads, known);
          const entry = path.join(keyDir, fingerprint.slice(0, 24));
          const staging = `${entry}.tmp-${process.pid}-${Date.now()}`;
          mkdirSync(staging, { recursive: true });
          for (const artifact of ARTIFACTS) {
            const made = path.join(workspace, artifact);
            // Only a real folder is kept: a link would be restored as one.
            if (isRealDir(made)) await copyTree(made, path.join(staging, artifact));
          }
          writeFileSync(path.join(staging, 'result.json'), JSON.stringify(result));
          writeFileSync(
            path.join(staging, 'entry.json'),
            JSON.stringify({ reads, fingerprint } satisfies Entry),
          );
          rmSync(entry, { recursive: true, force: true });
          renameSync(staging, entry);
        }
        return reads ? { ...result, reads } : result;
      } finally {
        release();
        if (inFlight.get(key) === turn) inFlight.delete(key);
      }
    },
  };
};
