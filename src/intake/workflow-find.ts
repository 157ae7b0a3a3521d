import { RegreenError } from '../errors.ts';
import {
  describeCombination,
  expandMatrix,
  shownValue,
  shownValues,
  type Combination,
  type MatrixValue,
} from './workflow-matrix.ts';
import {
  readWorkflows,
  stepScript,
  stepTitle,
  substitute,
  toStrings,
  type FoundJob,
  type Job,
  type Workflow,
} from './workflow.ts';

/**
 * Whether a name CI shows fits a `name:` whose expressions (`${{ … }}`) stand for any text of one
 * character or more: its literal pieces found in order, never a RegExp of the repository's text.
 */
export const fitsTemplate = (template: string, shown: string): boolean => {
  const pieces: string[] = [];
  let from = 0;
  for (let open = template.indexOf('${{'); open >= 0; open = template.indexOf('${{', from)) {
    const close = template.indexOf('}}', open + 3);
    if (close < 0) break;
    pieces.push(template.slice(from, open));
    from = close + 2;
  }
  pieces.push(template.slice(from));
  const first = pieces[0] ?? '';
  const last = pieces[pieces.length - 1] ?? '';
  if (pieces.length === 1) return shown === first;
  if (!shown.startsWith(first)) return false;
  // Leftmost places are the best for every piece: each gap needs only one character.
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = shown.indexOf(piece, at + 1);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return shown.length - last.length >= at + 1 && shown.endsWith(last);
};

/** A combination's values by the names expressions use: `os`, and `node.version` inside an object. */
export const flatMatrix = (combination: Combination): Record<string, string> => {
  const out: Record<string, string> = {};
  const put = (prefix: string, value: unknown, depth: number): void => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && depth < 4)
      for (const [key, inner] of Object.entries(value)) put(`${prefix}.${key}`, inner, depth + 1);
    out[prefix] = shownValue(value as MatrixValue);
  };
  for (const [key, value] of Object.entries(combination)) put(key, value, 0);
  return out;
};

/** Whether a job's `runs-on` (with a combination's values) is a Linux runner, or may be one. */
export const runsOnLinux = (job: Job, matrix: Readonly<Record<string, string>>): boolean => {
  const raw = job['runs-on'];
  const labels = (Array.isArray(raw) ? raw : [raw]).map((label) =>
    substitute(typeof label === 'string' ? label : '', matrix, new Set()),
  );
  return !labels.some((label) => /windows|macos|\bmac\b|osx/i.test(label));
};

/** Whether a job can be replayed here with a combination's values (its toolchains are on this machine). */
export type Usable = (job: Job, matrix: Readonly<Record<string, string>>) => boolean;

interface Chosen {
  readonly combination?: Combination;
  readonly why?: string;
  /** How many combinations the matrix has (0: none, or not known here). */
  readonly of: number;
}

/**
 * The combination a job is replayed with: the one the name CI shows names
 * (`build (3.12, ubuntu-latest)`, or a `name:` built from matrix values);
 * else, for the bare name, the first on a Linux runner that `usable` accepts
 * (its toolchains are on this machine), else the first on Linux, else the
 * first. Undefined when the name is not this job's.
 */
const chooseCombination = (
  job: Job,
  names: readonly string[],
  jobName: string,
  usable: Usable,
): Chosen | undefined => {
  const combinations = expandMatrix(job.strategy?.matrix);
  // A matrix built by an expression: the job by its name, with or without the values GitHub appends.
  if (combinations === undefined || combinations.length === 0)
    return names.some(
      (name) => name === jobName || (jobName.startsWith(`${name} (`) && jobName.endsWith(')')),
    )
      ? { of: 0 }
      : undefined;
  const of = combinations.length;
  const named = 'the one the failing run names';
  for (const combination of combinations) {
    const matrix = flatMatrix(combination);
    const shown = shownValues(combination);
    for (const name of names) {
      const rendered = substitute(name, matrix, new Set());
      const full = rendered === name ? `${name} (${shown.join(', ')})` : rendered;
      if (full === jobName) return { combination, why: named, of };
      // A name that lists fewer values than the combination holds (the first ones).
      const paren = rendered === name && jobName.startsWith(`${name} (`) && jobName.endsWith(')');
      const listed = paren ? jobName.slice(name.length + 2, -1).split(', ') : [];
      if (paren && listed.length < shown.length && listed.every((v, i) => v === shown[i]))
        return { combination, why: named, of };
    }
  }
  if (!names.includes(jobName)) return undefined;
  const linux = combinations.filter((c) => runsOnLinux(job, flatMatrix(c)));
  const usableOne = linux.find((c) => usable(job, flatMatrix(c)));
  if (usableOne)
    return {
      combination: usableOne,
      why: 'the first Linux entry whose toolchains this machine has',
      of,
    };
  const [first] = linux;
  if (first)
    return { combination: first, why: 'the first Linux entry; its toolchains are not here', of };
  return { combination: combinations[0], why: 'the first entry; none runs on Linux', of };
};

const foundJob = (
  file: string,
  id: string,
  job: Job,
  data: Workflow,
  chosen: Chosen,
): FoundJob => ({
  file,
  id,
  job,
  workflowEnv: toStrings(data.env),
  matrix: chosen.combination ? flatMatrix(chosen.combination) : {},
  ...(chosen.combination
    ? {
        entry: describeCombination(chosen.combination),
        matrixEntry: `matrix entry ${describeCombination(chosen.combination)} (${chosen.why}; ${chosen.of} in all)`,
      }
    : job.strategy?.matrix !== undefined
      ? { matrixEntry: 'the matrix is built by an expression: its values are not known here' }
      : {}),
});

/**
 * Finds a job by the name CI shows: its id, its `name:`, or either followed by
 * the matrix values GitHub appends ("test (18.x, ubuntu-latest)"); its matrix
 * expanded as GitHub does and one combination chosen (`chooseCombination`).
 */
export const findJob = (
  workspace: string,
  jobName: string,
  what: string,
  usable: Usable = () => true,
): FoundJob => {
  const known: string[] = [];
  const hits: FoundJob[] = [];
  for (const { file, data } of readWorkflows(workspace, what)) {
    for (const [id, job] of Object.entries(data.jobs)) {
      known.push(id);
      const names = [id, job.name].filter((n): n is string => n !== undefined);
      const chosen = chooseCombination(job, names, jobName, usable);
      if (chosen) {
        hits.push(foundJob(file, id, job, data, chosen));
        continue;
      }
      // A name built from other contexts (`${{ github.ref }}`): any text in their place.
      // A name of matrix values only is matched by its entries above, never as a pattern.
      const open = (name: string): boolean => {
        const exprs = new Set<string>();
        substitute(name, {}, exprs);
        const known = (expandMatrix(job.strategy?.matrix) ?? []).length > 0;
        return [...exprs].some((expr) => !known || !expr.startsWith('matrix.'));
      };
      if (names.some((name) => name.includes('${{') && open(name) && fitsTemplate(name, jobName)))
        hits.push(
          foundJob(file, id, job, data, chooseCombination(job, [id], id, usable) ?? { of: 0 }),
        );
    }
  }
  // Two workflows with a job of that name: the wrong one must never be picked silently.
  if (hits.length > 1)
    throw new RegreenError(
      'usage',
      `${what}: several workflow jobs are named "${jobName}": ${hits.map((hit) => `${hit.file}: ${hit.id}`).join(', ')}; name it as workflow-file:job-id`,
    );
  const [hit] = hits;
  if (hit) return hit;
  const qualified = /^([^:]+\.ya?ml):(.+)$/.exec(jobName);
  if (qualified?.[1] && qualified[2]) {
    const [, file, id] = qualified;
    const data = readWorkflows(workspace, what).find((w) => w.file === file)?.data;
    const job = data?.jobs[id];
    if (data && job)
      return foundJob(file, id, job, data, chooseCombination(job, [id], id, usable) ?? { of: 0 });
  }
  throw new RegreenError(
    'usage',
    `no workflow job named "${jobName}"${known.length > 0 ? `; jobs: ${known.join(', ')}` : ''}`,
  );
};

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
