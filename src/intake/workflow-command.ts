import { RegreenError } from '../errors.ts';
import { runsOnLinux } from './workflow-find.ts';
import { readWorkflows, stepTitle, type Job, type Step, type Workflow } from './workflow.ts';

/** A command as a line of a script: blanks collapsed. */
const normalised = (command: string): string => command.trim().replace(/\s+/g, ' ');

interface Candidate {
  readonly file: string;
  readonly id: string;
  readonly job: Job;
  readonly workflow: Workflow;
  readonly step: Step;
  readonly at: number;
}

/** Events a change's own CI runs on: what a person means by "the tests". */
const CHANGE_EVENTS = ['push', 'pull_request', 'pull_request_target', 'merge_group'];

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The events of a workflow's `on:` with their filters (`{}` for none). */
const eventsOf = (on: unknown): Map<string, Record<string, unknown>> => {
  if (typeof on === 'string') return new Map([[on, {}]]);
  if (Array.isArray(on))
    return new Map(on.filter((e): e is string => typeof e === 'string').map((e) => [e, {}]));
  if (!isRecord(on)) return new Map();
  return new Map(
    Object.entries(on).map(([event, filters]) => [event, isRecord(filters) ? filters : {}]),
  );
};

const patterns = (value: unknown): string[] =>
  (Array.isArray(value) ? value : typeof value === 'string' ? [value] : [])
    .filter((p): p is string => typeof p === 'string')
    .map((p) => p.slice(0, 200));

/**
 * A branch filter's glob (`main`, `release/*`, `feature/**`, `v[12]` left as text): `*` is any
 * text but `/`, `**` any text. Matched by walking both strings, never compiled to a RegExp.
 */
export const globMatches = (pattern: string, name: string): boolean => {
  const memo = new Map<number, boolean>();
  const match = (p: number, n: number): boolean => {
    const key = p * (name.length + 1) + n;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let result: boolean;
    if (p === pattern.length) result = n === name.length;
    else if (pattern[p] === '*') {
      const deep = pattern[p + 1] === '*';
      const next = deep ? p + 2 : p + 1;
      result = match(next, n);
      for (let i = n; !result && i < name.length && (deep || name[i] !== '/'); i += 1)
        result = match(next, i + 1);
    } else result = n < name.length && pattern[p] === name[n] && match(p + 1, n + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
};

/** Whether a branch passes an event's `branches`/`branches-ignore` (a later `!pattern` excludes). */
const branchPasses = (filters: Record<string, unknown>, branch: string): boolean => {
  const ignored = patterns(filters['branches-ignore']);
  if (ignored.some((p) => globMatches(p, branch))) return false;
  const listed = patterns(filters.branches);
  if (listed.length === 0) return true;
  let passes = false;
  for (const p of listed)
    if (p.startsWith('!')) {
      if (globMatches(p.slice(1), branch)) passes = false;
    } else if (globMatches(p, branch)) passes = true;
  return passes;
};

/** Words that name a job shipping or publishing, not testing, a change. */
const RELEASE_WORDS = /publish|release|deploy|docs|pages|nightly|benchmark|snapshot|artifact/i;

/** Why a job is chosen over another, most important first; each 0 (a reason for it) or 1. */
const reasons = (c: Candidate, branch: string | undefined): { rank: number[]; trigger: string } => {
  const events = eventsOf(c.workflow.on);
  const change = CHANGE_EVENTS.filter((event) => {
    const filters = events.get(event);
    // A push of tags only is a release.
    return filters !== undefined && !(event === 'push' && filters.tags && !filters.branches);
  });
  const onBranch =
    branch === undefined || change.some((event) => branchPasses(events.get(event) ?? {}, branch));
  const trigger =
    change.length > 0 ? change.join('/') : [...events.keys()].join('/') || 'no trigger';
  const named = [c.file, c.id, c.job.name ?? ''].some((name) => RELEASE_WORDS.test(name));
  return {
    rank: [
      change.length > 0 ? 0 : 1,
      onBranch ? 0 : 1,
      named ? 1 : 0,
      runsOnLinux(c.job, {}) ? 0 : 1,
    ],
    trigger,
  };
};

/** What a job does before the command: the same set-up makes two jobs one choice. */
const setupOf = (c: Candidate): string =>
  JSON.stringify([
    c.workflow.env ?? {},
    c.job.env ?? {},
    c.job.defaults ?? {},
    c.job.strategy ?? {},
    c.job.steps.slice(0, c.at).map(({ name: _name, ...step }) => step),
    { ...c.step, name: undefined },
  ]);

const label = (c: Candidate): string => `${c.file}: ${c.id}`;

/**
 * The workflow job whose `run:` step runs this command (a line of its script,
 * or the whole script): how CI set it up is then replayed, not guessed.
 * Undefined when no workflow runs it. Several that do are chosen among as a
 * person would: a job a push or pull request runs (on the checked-out branch)
 * over a release, publish, scheduled or manual one; a testing job over one
 * named for publishing; Linux over other runners. Jobs with the same set-up
 * are one choice. Only jobs nothing tells apart whose set-ups differ are an
 * error that lists them.
 */
export const jobRunning = (
  workspace: string,
  command: string,
  branch?: string,
): { readonly job: string; readonly step: string; readonly note?: string } | undefined => {
  const wanted = normalised(command);
  const found: Candidate[] = [];
  let workflows: ReturnType<typeof readWorkflows>;
  try {
    workflows = readWorkflows(workspace, 'the command');
  } catch {
    return undefined;
  }
  for (const { file, data } of workflows)
    for (const [id, job] of Object.entries(data.jobs)) {
      const at = job.steps.findIndex(
        (candidate) =>
          candidate.run !== undefined &&
          (normalised(candidate.run) === wanted ||
            candidate.run.split('\n').some((line) => normalised(line) === wanted)),
      );
      const step = job.steps[at];
      if (step) found.push({ file, id, job, workflow: data, step, at });
    }
  const ranked = found
    .map((c) => ({ c, ...reasons(c, branch) }))
    .sort((a, b) => {
      for (let i = 0; i < a.rank.length; i += 1)
        if (a.rank[i] !== b.rank[i]) return (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
      return 0;
    });
  const [best] = ranked;
  if (!best) return undefined;
  const tied = ranked.filter((r) => r.rank.join() === best.rank.join());
  const others = ranked.filter((r) => r !== best);
  if (tied.length > 1 && new Set(tied.map((r) => setupOf(r.c))).size > 1)
    throw new RegreenError(
      'usage',
      `\`${command}\` is run by several workflow jobs that nothing tells apart and whose set-ups differ: ${tied.map((r) => `${label(r.c)} (${r.trigger})`).join(', ')}; name one with --job (workflow-file:job-id)`,
    );
  const note =
    others.length === 0
      ? undefined
      : tied.length === ranked.length
        ? `\`${command}\` is also run by ${others.map((r) => label(r.c)).join(', ')}, with the same set-up: ${label(best.c)} is replayed`
        : `\`${command}\` is run by several workflow jobs: ${label(best.c)} (${best.trigger}) is replayed; the others: ${others.map((r) => `${label(r.c)} (${r.trigger})`).join(', ')} (name one with --job to replay it)`;
  return {
    job: `${best.c.file}:${best.c.id}`,
    step: stepTitle(best.c.step),
    ...(note ? { note } : {}),
  };
};
