import type { Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { CHANGE_FILE } from '../job/stages/scratch.ts';
import { releaseVolume } from '../workspace/sandbox/job-volume.ts';
import { defaultDataDir } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import { removeTree } from '../util/discard.ts';
import { glanceAtTrace, type TraceGlance } from '../observe/trace-glance.ts';
import { type CliContext, dataDirOption } from './context.ts';

/** A job's id starts with when it started: `20261202T225054-a1b2c3`. */
const JOB_ID = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})-[0-9a-f]+$/;

export interface JobEntry {
  readonly id: string;
  readonly dir: string;
  readonly startedAt: number;
  /** Whether anything but the trace is left. */
  readonly hasFiles: boolean;
  readonly hasTrace: boolean;
}

const startedAt = (id: string): number | undefined => {
  const m = JOB_ID.exec(id);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  return Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
};

/** The jobs under the data dir, oldest first; folders not named like a job are not regreen's. */
export const listJobs = (dataDir: string): JobEntry[] => {
  const root = path.join(dataDir, 'jobs');
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .flatMap((id): JobEntry[] => {
      const at = startedAt(id);
      const dir = path.join(root, id);
      if (at === undefined || !lstatSync(dir).isDirectory()) return [];
      const entries = readdirSync(dir);
      return [
        {
          id,
          dir,
          startedAt: at,
          hasTrace: entries.includes('trace.jsonl'),
          hasFiles: entries.some((name) => holdsTrees(dir, name)),
        },
      ];
    })
    .sort((a, b) => a.id.localeCompare(b.id));
};

/** The trace of a job named by id (or a unique start of one); the latest job's when none is named. */
export const jobTracePath = (dataDir: string, id?: string): string => {
  const jobs = listJobs(dataDir).filter((job) => job.hasTrace);
  if (id === undefined) {
    const latest = jobs.at(-1);
    if (!latest)
      throw new RegreenError(
        'usage',
        `no job has run here yet (${path.join(dataDir, 'jobs')}). Run regreen fix first, or name a trace file`,
      );
    return path.join(latest.dir, 'trace.jsonl');
  }
  // The start of an id (its date) or its end (the random part) names a job.
  const matches = jobs.filter((job) => job.id.startsWith(id) || job.id.endsWith(id));
  if (matches.length === 1) return path.join(matches[0]!.dir, 'trace.jsonl');
  throw new RegreenError(
    'usage',
    matches.length === 0
      ? `no job ${id} under ${path.join(dataDir, 'jobs')}. regreen jobs list shows them`
      : `${id} names ${matches.length} jobs (${matches.map((job) => job.id).join(', ')}). Give more of the id`,
  );
};

const sizeOf = (target: string): number => {
  const stats = lstatSync(target, { throwIfNoEntry: false });
  if (!stats) return 0;
  // A sparse file (a job's volume image) counts what it holds on disk, not its length.
  if (!stats.isDirectory()) return Math.min(stats.size, stats.blocks * 512);
  return readdirSync(target).reduce((sum, name) => sum + sizeOf(path.join(target, name)), 0);
};

/** How lately an unfinished job's trace must have moved for it to count as running. */
const STILL_RUNNING_MS = 2 * 60 * 60 * 1000;

/**
 * Whether an entry of a job's folder is (or holds) its trees: a folder (a
 * clone, a workspace, a volume's mount point), or the volume's image. The
 * trace, the change and the diffs a fresh tree was given are small records.
 */
const holdsTrees = (dir: string, name: string): boolean =>
  name === 'volume.img' ||
  (lstatSync(path.join(dir, name), { throwIfNoEntry: false })?.isDirectory() ?? false);

/** What a pruned job keeps: its trace and what it changed. */
const KEPT = new Set(['trace.jsonl', CHANGE_FILE]);

/**
 * Removes what old jobs left (clones, workspaces, fresh trees, set-up
 * snapshots), keeping each one's trace so `regreen trace show` still reads it.
 * Links are removed, never followed.
 */
export const pruneJobs = (
  dataDir: string,
  options: { readonly olderThanMs: number; readonly now: number; readonly dryRun: boolean },
): {
  readonly pruned: readonly string[];
  readonly bytes: number;
  readonly running: readonly string[];
} => {
  const pruned: string[] = [];
  const running: string[] = [];
  let bytes = 0;
  for (const job of listJobs(dataDir)) {
    if (!job.hasFiles || options.now - job.startedAt < options.olderThanMs) continue;
    // A job with no outcome whose trace moved lately may still be running: its files stay.
    const trace = path.join(job.dir, 'trace.jsonl');
    if (
      job.hasTrace &&
      glanceAtTrace(trace).status === undefined &&
      options.now - lstatSync(trace).mtimeMs < STILL_RUNNING_MS
    ) {
      running.push(job.id);
      continue;
    }
    for (const name of readdirSync(job.dir)) {
      if (KEPT.has(name)) continue;
      const target = path.join(job.dir, name);
      bytes += sizeOf(target);
      if (options.dryRun) continue;
      // A volume a killed regreen left mounted is let go first: rm never goes into a mount.
      if (name === 'volume') releaseVolume(target);
      removeTree(target);
    }
    pruned.push(job.id);
  }
  return { pruned, bytes, running };
};

const took = (ms: number | undefined): string =>
  ms === undefined ? '' : ms < 60_000 ? `${Math.round(ms / 1000)}s` : `${Math.round(ms / 60_000)}m`;

const usd = (cost: number): string => `$${cost.toFixed(4)}`;

/** A job with what its trace says of it, read once. */
interface Glanced {
  readonly job: JobEntry;
  readonly glance: TraceGlance;
}

const glanced = (all: readonly JobEntry[]): Glanced[] =>
  all.map((job) => ({
    job,
    glance: job.hasTrace ? glanceAtTrace(path.join(job.dir, 'trace.jsonl')) : {},
  }));

/** What the jobs of one repository cost in one month (UTC, by when each started). */
interface CostTotal {
  readonly month: string;
  readonly repository: string;
  readonly jobs: number;
  readonly costUsd: number;
}

/** The cost of the jobs, per repository and month, in the order they first appear (oldest first). */
export const costTotals = (rows: readonly Glanced[]): CostTotal[] => {
  const totals = new Map<
    string,
    { month: string; repository: string; jobs: number; costUsd: number }
  >();
  for (const { job, glance } of rows) {
    const month = new Date(job.startedAt).toISOString().slice(0, 7);
    const repository = glance.target ?? '(unknown)';
    const key = JSON.stringify([month, repository]);
    const total = totals.get(key) ?? { month, repository, jobs: 0, costUsd: 0 };
    total.jobs += 1;
    total.costUsd += glance.costUsd ?? 0;
    totals.set(key, total);
  }
  return [...totals.values()];
};

/** Rows of cells as aligned columns; the last column is never padded. */
const columns = (rows: readonly (readonly string[])[]): string => {
  const widths = (rows[0] ?? []).map((_, at) =>
    Math.max(...rows.map((row) => (row[at] ?? '').length)),
  );
  return rows
    .map((row) =>
      row
        .map((cell, at) => (at === row.length - 1 ? cell : cell.padEnd(widths[at] ?? 0)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
};

/** One line a job (its id, how it ended, what it cost, where it ran, how long it took, what it keeps), then the totals. */
const jobsTable = (rows: readonly Glanced[]): string => {
  const table = columns([
    ['JOB', 'OUTCOME', 'COST', 'BRANCH', 'TOOK', 'KEPT', 'REPOSITORY'],
    ...rows.map(({ job, glance }) => [
      job.id,
      glance.status ?? (job.hasTrace ? 'unfinished' : 'no trace'),
      glance.costUsd === undefined ? '' : usd(glance.costUsd),
      glance.branch ?? '',
      took(glance.durationMs),
      job.hasFiles ? 'files' : '',
      glance.target ?? '',
    ]),
  ]);
  const totals = costTotals(rows);
  const sum = totals.reduce((all, total) => all + total.costUsd, 0);
  return `${table}\n\ncost per repository and month:\n${columns([
    ['MONTH', 'JOBS', 'COST', 'REPOSITORY'],
    ...totals.map((total) => [
      total.month,
      String(total.jobs),
      usd(total.costUsd),
      total.repository,
    ]),
    ['all', String(rows.length), usd(sum), ''],
  ])}`;
};

/** `jobs list --json`: each job as data, the same facts as the table's, and the totals. */
const jobsJson = (dataDir: string, rows: readonly Glanced[]): Record<string, unknown> => ({
  dataDir,
  jobs: rows.map(({ job, glance }) => ({
    id: job.id,
    startedAt: new Date(job.startedAt).toISOString(),
    outcome: glance.status ?? (job.hasTrace ? 'unfinished' : 'no trace'),
    ...(glance.costUsd === undefined ? {} : { costUsd: glance.costUsd }),
    ...(glance.branch === undefined ? {} : { branch: glance.branch }),
    ...(glance.durationMs === undefined ? {} : { durationMs: glance.durationMs }),
    keepsFiles: job.hasFiles,
    ...(glance.target === undefined ? {} : { repository: glance.target }),
    ...(job.hasTrace ? { tracePath: path.join(job.dir, 'trace.jsonl') } : {}),
  })),
  totals: costTotals(rows),
});

const megabytes = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** `regreen jobs list` and `regreen jobs prune`. */
export const registerJobs = (program: Command, { env, setExit }: CliContext): void => {
  const jobs = program.command('jobs').description(SUMMARIES.jobs);
  jobs
    .command('list')
    .description('every job under the data dir, oldest first')
    .addOption(dataDirOption())
    .option('--json', 'print the jobs as JSON')
    .action((opts: { dataDir?: string; json?: boolean }) => {
      const dataDir = opts.dataDir ?? defaultDataDir(env);
      // The commands it names work as written: with the data dir this listing was given.
      const given = opts.dataDir ? ` --data-dir ${path.resolve(opts.dataDir)}` : '';
      const all = listJobs(dataDir);
      const rows = glanced(all);
      process.stdout.write(
        opts.json
          ? `${JSON.stringify(jobsJson(dataDir, rows), null, 2)}\n`
          : all.length === 0
            ? `no jobs under ${path.join(dataDir, 'jobs')}\n`
            : `${jobsTable(rows)}\n${all.some((job) => job.hasFiles) ? `files: the job keeps its clone and workspace (regreen jobs prune${given} removes them); regreen trace show ID${given} reads a job\n` : ''}`,
      );
      setExit(0);
    });
  jobs
    .command('prune')
    .description("removes old jobs' clones and workspaces, keeping their traces")
    .option('--older-than <days>', 'jobs that started this many days ago or more', '7')
    .option('--dry-run', 'say what would go, remove nothing')
    .addOption(dataDirOption())
    .action((opts: { olderThan: string; dryRun?: boolean; dataDir?: string }) => {
      const days = Number(opts.olderThan);
      if (!Number.isFinite(days) || days < 0)
        throw new RegreenError(
          'usage',
          `--older-than takes a number of days, not ${opts.olderThan}`,
        );
      const dataDir = opts.dataDir ?? defaultDataDir(env);
      const { pruned, bytes, running } = pruneJobs(dataDir, {
        olderThanMs: days * 86_400_000,
        now: Date.now(),
        dryRun: opts.dryRun === true,
      });
      process.stdout.write(
        pruned.length === 0
          ? `nothing to prune: no job under ${path.join(dataDir, 'jobs')} started ${days} or more days ago and still has files (its clone, workspace, fresh trees)\n`
          : `${opts.dryRun ? 'would free' : 'freed'} ${megabytes(bytes)} from ${pruned.length} job${pruned.length === 1 ? '' : 's'} (traces kept): ${pruned.join(', ')}\n`,
      );
      if (running.length > 0)
        process.stdout.write(
          `kept, as they may still be running (no outcome, trace written in the last 2 hours): ${running.join(', ')}\n`,
        );
      setExit(0);
    });
};
