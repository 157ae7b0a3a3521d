import path from 'node:path';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { quote } from '../util/text.ts';
import { parseYaml } from '../util/yaml.ts';
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
export type Workflow = z.infer<typeof WorkflowSchema>;

export interface FoundJob {
  readonly file: string;
  readonly id: string;
  readonly job: Job;
  readonly workflowEnv: Record<string, string>;
  readonly matrix: Record<string, string>;
  /** Which matrix combination is replayed, and why (none: the job has no matrix). */
  readonly matrixEntry?: string;
  /** The replayed combination's values (`os=ubuntu-latest, python-version=3.12`). */
  readonly entry?: string;
}

export const toStrings = (env: z.infer<typeof EnvSchema>): Record<string, string> =>
  Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, String(v)]));

/** A workflow file's bound: real ones are a few KiB; past this one is refused, never parsed. */
export const MAX_WORKFLOW_CHARS = 256 * 1024;

export const readWorkflows = (
  workspace: string,
  what: string,
): { file: string; data: Workflow }[] => {
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
    let text: string | undefined;
    try {
      text = readTextInside(workspace, path.join(dir, file));
    } catch {
      return [];
    }
    if (text === undefined) return [];
    if (text.length > MAX_WORKFLOW_CHARS)
      throw new RegreenError(
        'usage',
        `${what}: .github/workflows/${file} is ${Math.ceil(text.length / 1024)} KiB, over the ${MAX_WORKFLOW_CHARS / 1024} KiB a workflow read by regreen may be`,
      );
    try {
      raw = parseYaml(text);
    } catch {
      return [];
    }
    const parsed = WorkflowSchema.safeParse(raw);
    return parsed.success ? [{ file, data: parsed.data }] : [];
  });
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
    const m = /^matrix\.([\w.-]+)$/.exec(expr);
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
