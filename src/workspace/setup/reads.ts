import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { readFileInside } from '../repo/confined-fs.ts';

/**
 * What a setup read of its workspace, recorded by the kernel rather than
 * guessed by a scanner: before the setup every file of the tree (but `.git`)
 * has its access time set to one second past the epoch, and afterwards those
 * whose access time moved were read. Linux updates a marked access time on
 * the first read under `relatime` and `strictatime`; under `noatime` nothing
 * moves, which a probe finds, and then no read set exists: whoever needs one
 * treats every file as an input.
 *
 * The kernel records reads, not lookups of names that are absent (an `.npmrc`
 * a later tree adds) nor which names a folder listing returned (folders are
 * listed by the sandbox's own hand-over of the tree too), so `presenceKeyed`
 * names the files and folders package managers look for by name, keyed by
 * whether they exist and what they hold. Left out: a script that lists a
 * folder of its own and reads what it finds misses a file added there.
 */
export interface ReadSet {
  /** Files the setup read, relative to the workspace. */
  readonly files: readonly string[];
}

const MARK_SECONDS = 1;

/** Manifests, lockfiles, package manager configs and the patches applied at install, at any depth: looked for by name. */
export const presenceKeyed =
  /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.c?js|yarn\.lock|\.yarnrc(\.yml)?|\.npmrc|bun\.lockb?|requirements[^/]*\.txt|constraints[^/]*\.txt|setup\.py|setup\.cfg|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(\.lock)?|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|composer\.(json|lock)|\.nvmrc|\.node-version|\.python-version|\.tool-versions)$|(^|\/)(patches|\.yarn\/patches)\//;

const find = (cwd: string, args: readonly string[]): Promise<string | undefined> =>
  new Promise((resolve) => {
    // GNU find walks without following links (-P); the tree's files are only stat'ed and touched.
    execFile(
      'find',
      ['.', '-not', '-path', './.git', '-not', '-path', './.git/*', ...args],
      { cwd, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
      (error, stdout) => resolve(error ? undefined : stdout),
    );
  });

const recordsReads = new Map<number, boolean>();

/** Whether the file system under `dir` moves a marked access time on a read (probed once per device). */
export const recordsReadsUnder = (dir: string): boolean => {
  const device = statSync(dir).dev;
  const known = recordsReads.get(device);
  if (known !== undefined) return known;
  // regreen's own file, beside the workspace: marked, read, and asked whether its access time moved.
  const probe = path.join(dir, `.regreen-atime-probe-${process.pid}-${Date.now()}`);
  let records = false;
  try {
    writeFileSync(probe, 'probe', { flag: 'wx' });
    utimesSync(probe, MARK_SECONDS, statSync(probe).mtime);
    readFileSync(probe);
    records = statSync(probe).atimeMs > MARK_SECONDS * 1000;
  } catch {
    records = false;
  } finally {
    rmSync(probe, { force: true });
  }
  recordsReads.set(device, records);
  return records;
};

/**
 * Starts recording what the next command reads of `workspace`: marks every
 * path, and returns what collects the reads, or undefined when this host
 * cannot record them (the caller then takes every file for an input).
 */
export const recordReads = async (
  workspace: string,
): Promise<{ collect: () => Promise<ReadSet | undefined> } | undefined> => {
  if (!recordsReadsUnder(path.dirname(path.resolve(workspace)))) return undefined;
  const marked = await find(workspace, [
    '-type',
    'f',
    '-printf',
    '%P\\0',
    '-exec',
    // -h: a file swapped for a link between the walk and the touch has the link marked, never its target.
    'touch',
    '-a',
    '-h',
    '-d',
    `@${MARK_SECONDS}`,
    '--',
    '{}',
    '+',
  ]);
  if (marked === undefined) return undefined;
  const existed = new Set(marked.split('\0').filter(Boolean));
  return {
    collect: async () => {
      const read = await find(workspace, [
        '-type',
        'f',
        '-newerat',
        `@${MARK_SECONDS}`,
        '-printf',
        '%P\\0',
      ]);
      if (read === undefined) return undefined;
      // A file the setup made is its output, not its input.
      const files = read.split('\0').filter((file) => file && existed.has(file));
      return { files: files.sort() };
    },
  };
};

/**
 * What decides a setup's result in a tree, by a read set: the content of each
 * file it read, and every file looked for by name (`presenceKeyed`) that the
 * tree has, with its content. Read
 * through the confined reader: a link counts as what it is, never followed.
 */
export const readsFingerprint = (
  workspace: string,
  reads: ReadSet,
  /** The tree's files before its setup ran. */
  known: readonly string[],
): string => {
  const hash = createHash('sha256');
  const content = (file: string): Buffer => {
    try {
      return readFileInside(workspace, path.join(workspace, file));
    } catch {
      return Buffer.from('[absent or not a file]');
    }
  };
  for (const file of reads.files) hash.update(`\nfile ${file}\n`).update(content(file));
  for (const file of known.filter((f) => presenceKeyed.test(f)).sort())
    hash.update(`\nnamed ${file}\n`).update(content(file));
  return hash.digest('hex');
};

/** Runs a setup while recording what it reads; no read set where this host cannot record one. */
export const withReads = async <T>(
  workspace: string,
  setup: () => Promise<T>,
): Promise<{ result: T; reads: ReadSet | undefined }> => {
  const recording = await recordReads(workspace);
  const result = await setup();
  return { result, reads: recording ? await recording.collect() : undefined };
};

/**
 * Whether a change to `file` could change what a setup with this read set
 * makes: the setup read it, or it is a file package managers look for by name.
 */
export const touchesReads = (reads: ReadSet, file: string): boolean =>
  reads.files.includes(file) || presenceKeyed.test(file);

const TOOLCHAIN_PROGRAMS = [
  'node',
  'npm',
  'npx',
  'python3',
  'python',
  'pip',
  'go',
  'cargo',
  'rustc',
  'java',
  'mvn',
  'ruby',
  'bundle',
];

/** The toolchain a setup runs with: each program the PATH finds, by its real file, size and time. */
export const toolchainStamp = (pathVariable: string | undefined): string =>
  TOOLCHAIN_PROGRAMS.map((name) => {
    for (const dir of (pathVariable ?? '').split(path.delimiter).filter(Boolean)) {
      try {
        const stats = statSync(path.join(dir, name));
        if (stats.isFile())
          return `${name}=${realpathSync(path.join(dir, name))}:${stats.size}:${stats.mtimeMs}`;
      } catch {
        // not in this folder
      }
    }
    return `${name}=none`;
  }).join('\n');
