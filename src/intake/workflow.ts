import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { quote } from '../util/text.ts';
import { listInside, readTextInside } from '../workspace/repo/confined-fs.ts';

const EnvSchema = z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional();
const StepSchema = z.object({
  name: z.string().optional(),
  run: z.string().optional(),
  uses: z.string().optional(),
  if: z.union([z.string(), z.boolean()]).optional(),
  with: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
  'working-directory': z.string().optional(),
  shell: z.string().optional(),
  env: EnvSchema,
});
const JobSchema = z.object({
  name: z.string().optional(),
  steps: z.array(StepSchema).default([]),
  env: EnvSchema,
  'runs-on': z.unknown().optional(),
  strategy: z.object({ matrix: z.unknown().optional() }).optional(),
  defaults: z
    .object({ run: z.object({ 'working-directory': z.string().optional() }).optional() })
    .optional(),
});
const WorkflowSchema = z.object({
  on: z.unknown().optional(),
  jobs: z.record(z.string(), JobSchema).default({}),
  env: EnvSchema,
});
export type Job = z.infer<typeof JobSchema>;
export type Step = z.infer<typeof StepSchema>;

export interface FoundJob {
  readonly file: string;
  readonly id: string;
  readonly job: Job;
  readonly workflowEnv: Record<string, string>;
  readonly matrix: Record<string, string>;
}

export const toStrings = (env: z.infer<typeof EnvSchema>): Record<string, string> =>
  Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, String(v)]));

export const readWorkflows = (
  workspace: string,
  what: string,
): { file: string; data: z.infer<typeof WorkflowSchema> }[] => {
  const dir = path.join(workspace, '.github', 'workflows');
  let files: string[];
  try {
    // The confined reader: a symlinked folder or workflow is refused, never followed to a host file.
    files = listInside(workspace, dir)
      .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
      .map((entry) => entry.name);
  } catch {
    throw new RegreenError('usage', `${what}: the repository has no .github/workflows folder`);
  }
  return files.sort().flatMap((file) => {
    let raw: unknown;
    try {
      const text = readTextInside(workspace, path.join(dir, file));
      if (text === undefined) return [];
      raw = parse(text);
    } catch {
      return [];
    }
    const parsed = WorkflowSchema.safeParse(raw);
    return parsed.success ? [{ file, data: parsed.data }] : [];
  });
};

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The matrix keys of a job, in declaration order (include/exclude left out). */
const matrixKeys = (job: Job): string[] => {
  const matrix = job.strategy?.matrix;
  if (matrix === null || typeof matrix !== 'object') return [];
  return Object.keys(matrix).filter((key) => key !== 'include' && key !== 'exclude');
};

/**
 * Finds a job by the name CI shows: its id, its `name:`, or either followed by
 * the matrix values GitHub appends ("test (18.x, ubuntu-latest)").
 */
export const findJob = (workspace: string, jobName: string, what: string): FoundJob => {
  const known: string[] = [];
  const hits: FoundJob[] = [];
  const paren = /^(.*?) \((.*)\)$/.exec(jobName);
  for (const { file, data } of readWorkflows(workspace, what)) {
    for (const [id, job] of Object.entries(data.jobs)) {
      known.push(id);
      const names = [id, job.name].filter((n): n is string => n !== undefined);
      const pattern = (name: string): RegExp =>
        new RegExp(`^${escapeRegExp(name).replace(/\\\$\\\{\\\{.*?\\\}\\\}/g, '.+')}$`);
      const keys = matrixKeys(job);
      let matrix: Record<string, string> = {};
      let hit = names.some((name) => pattern(name).test(jobName));
      if (!hit && paren?.[1] && paren[2] !== undefined) {
        hit = names.some((name) => pattern(name).test(paren[1] as string));
        if (hit) {
          const values = paren[2].split(', ');
          matrix = Object.fromEntries(
            keys.slice(0, values.length).map((key, i) => [key, values[i] ?? '']),
          );
        }
      }
      if (hit) hits.push({ file, id, job, workflowEnv: toStrings(data.env), matrix });
    }
  }
  // Two workflows with a job of that name: the wrong one must never be picked silently.
  if (hits.length > 1)
    throw new RegreenError(
      'usage',
      `${what}: several workflow jobs are named "${jobName}": ${hits.map((hit) => `${hit.file}: ${hit.id}`).join(', ')}; name it as workflow-file:job-id`,
    );
  const [found] = hits;
  if (found) return found;
  const qualified = /^([^:]+\.ya?ml):(.+)$/.exec(jobName);
  if (qualified?.[1] && qualified[2]) {
    const data = readWorkflows(workspace, what).find((w) => w.file === qualified[1])?.data;
    const job = data?.jobs[qualified[2]];
    if (data && job)
      return {
        file: qualified[1],
        id: qualified[2],
        job,
        workflowEnv: toStrings(data.env),
        matrix: {},
      };
  }
  throw new RegreenError(
    'usage',
    `no workflow job named "${jobName}"${known.length > 0 ? `; jobs: ${known.join(', ')}` : ''}`,
  );
};

/** A command as a line of a script: blanks collapsed. */
const normalised = (command: string): string => command.trim().replace(/\s+/g, ' ');

/**
 * The workflow job whose `run:` step runs this command (a line of its script,
 * or the whole script): how CI set it up is then replayed, not guessed.
 * Undefined when no workflow runs it; several jobs that do are an error that
 * lists them.
 */
export const jobRunning = (
  workspace: string,
  command: string,
): { readonly job: string; readonly step: string } | undefined => {
  const wanted = normalised(command);
  const found: { file: string; id: string; step: string }[] = [];
  let workflows: ReturnType<typeof readWorkflows>;
  try {
    workflows = readWorkflows(workspace, 'the command');
  } catch {
    return undefined;
  }
  for (const { file, data } of workflows)
    for (const [id, job] of Object.entries(data.jobs)) {
      const step = job.steps.find(
        (candidate) =>
          candidate.run !== undefined &&
          (normalised(candidate.run) === wanted ||
            candidate.run.split('\n').some((line) => normalised(line) === wanted)),
      );
      if (step) found.push({ file, id, step: stepTitle(step) });
    }
  if (found.length > 1)
    throw new RegreenError(
      'usage',
      `\`${command}\` is run by several workflow jobs: ${found.map((hit) => `${hit.file}: ${hit.id}`).join(', ')}; name one with --job (workflow-file:job-id)`,
    );
  const [hit] = found;
  return hit ? { job: `${hit.file}:${hit.id}`, step: hit.step } : undefined;
};

/**
 * `${{ matrix.x }}` replaced by its value; other expressions reported as unresolved. Each
 * `${{` ends at the first `}` after it, which must be `}}`: found with `indexOf`, once for the
 * `${{`s before it (`/\$\{\{\s*([^}]+?)\s*\}\}/g` backtracked over the blanks of each).
 */
export const substitute = (
  text: string,
  matrix: Readonly<Record<string, string>>,
  unresolved: Set<string>,
): string => {
  const resolve = (whole: string, expr: string): string => {
    const m = /^matrix\.([\w-]+)$/.exec(expr);
    if (m?.[1] !== undefined && matrix[m[1]] !== undefined) return matrix[m[1]] as string;
    const envRef = /^env\.(\w+)$/.exec(expr);
    if (envRef?.[1]) return `\${${envRef[1]}}`;
    unresolved.add(expr);
    return whole;
  };
  let out = '';
  let done = 0;
  let close = -1;
  for (
    let open = text.indexOf('${{');
    open >= 0;
    open = text.indexOf('${{', Math.max(open + 1, done))
  ) {
    if (close < open + 3) close = text.indexOf('}', open + 3);
    if (close < 0) break;
    const inner = text.slice(open + 3, close);
    if (text[close + 1] !== '}' || inner === '') continue;
    out +=
      text.slice(done, open) +
      resolve(text.slice(open, close + 2), inner.trim() || inner.slice(-1));
    done = close + 2;
  }
  return out + text.slice(done);
};

export const stepTitle = (step: Step): string =>
  step.name ?? (step.run ? `Run ${step.run.trim().split('\n')[0] ?? ''}` : (step.uses ?? ''));

/** How a failing CI step is run again: its script, directory, environment and matrix. */
export interface StepCommand {
  readonly command: string;
  readonly file: string;
  readonly job: string;
  readonly step: string;
  readonly workingDirectory?: string;
  readonly env: Readonly<Record<string, string>>;
  readonly matrix: Readonly<Record<string, string>>;
  /** Expressions (secrets, contexts) that could not be resolved, and env left out for them. */
  readonly unresolved: readonly string[];
}

/**
 * The reproduce command of a failing step, from the workflow file at the
 * failing commit: the step is named as CI names it (its `name:`, or
 * `Run <first line of run>`), or by the first line of its script as the
 * log's `##[group]Run …` header shows it.
 */
export const failingStepCommand = (
  workspace: string,
  jobName: string,
  stepName: string,
): StepCommand => {
  const what = `job "${jobName}" step "${stepName}"`;
  const found = findJob(workspace, jobName, what);
  const wanted = stepName.replace(/^Run /, '').trim();
  const step = found.job.steps.find(
    (s) =>
      s.run !== undefined &&
      (stepTitle(s) === stepName ||
        s.name === wanted ||
        (s.run.trim().split('\n')[0] ?? '').trim() === wanted),
  );
  if (!step?.run) {
    throw new RegreenError(
      'usage',
      `${what}: no run: step with that name in ${found.file} (steps: ${found.job.steps.map(stepTitle).join(', ')})`,
    );
  }
  const built = stepScript(found, step);
  return {
    command: built.command,
    file: found.file,
    job: found.id,
    step: stepTitle(step),
    ...(built.workingDirectory ? { workingDirectory: built.workingDirectory } : {}),
    env: built.env,
    matrix: found.matrix,
    unresolved: built.unresolved,
  };
};

/**
 * A `run:` step as a shell script: its environment (workflow, job, step;
 * matrix values substituted; values built from secrets or contexts left out,
 * the sandbox never gets them), its working directory, its script.
 */
export const stepScript = (
  found: FoundJob,
  step: Step,
): {
  command: string;
  env: Record<string, string>;
  workingDirectory?: string;
  unresolved: string[];
} => {
  const unresolved = new Set<string>();
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({
    ...found.workflowEnv,
    ...toStrings(found.job.env),
    ...toStrings(step.env),
  })) {
    const before = unresolved.size;
    const resolved = substitute(value, found.matrix, unresolved);
    if (unresolved.size === before) env[key] = resolved;
    else unresolved.add(`env ${key}`);
  }
  const dirRaw = step['working-directory'] ?? found.job.defaults?.run?.['working-directory'];
  const workingDirectory = dirRaw ? substitute(dirRaw, found.matrix, unresolved) : undefined;
  const script = substitute((step.run ?? '').trim(), found.matrix, unresolved);
  const exports = Object.entries(env).map(([k, v]) => `export ${k}=${quote(v)}`);
  const body = workingDirectory ? `cd ${quote(workingDirectory)}\n${script}` : script;
  return {
    command: [...exports, body].join('\n'),
    env,
    ...(workingDirectory ? { workingDirectory } : {}),
    unresolved: [...unresolved],
  };
};
