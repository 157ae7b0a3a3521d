import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { quote } from '../workspace/sandbox-shared.ts';

const StepSchema = z.object({
  name: z.string().optional(),
  run: z.string().optional(),
  uses: z.string().optional(),
  'working-directory': z.string().optional(),
  shell: z.string().optional(),
});
const JobSchema = z.object({
  name: z.string().optional(),
  steps: z.array(StepSchema).default([]),
  defaults: z
    .object({ run: z.object({ 'working-directory': z.string().optional() }).optional() })
    .optional(),
});
const WorkflowSchema = z.object({ jobs: z.record(z.string(), JobSchema).default({}) });

/**
 * The command a workflow job runs: its `run:` steps joined into one script
 * that stops at the first failing step (actions are skipped: they prepare the
 * runner, which the sandbox already is).
 */
export const workflowJobCommand = (workspace: string, jobName: string): string => {
  const dir = path.join(workspace, '.github', 'workflows');
  let files: string[];
  try {
    files = readdirSync(dir).filter((file) => /\.ya?ml$/.test(file));
  } catch {
    throw new RegreenError(
      'usage',
      `--job ${jobName}: the repository has no .github/workflows folder`,
    );
  }
  const known: string[] = [];
  for (const file of files.sort()) {
    const parsed = WorkflowSchema.safeParse(parse(readFileSync(path.join(dir, file), 'utf8')));
    if (!parsed.success) continue;
    for (const [id, job] of Object.entries(parsed.data.jobs)) {
      known.push(id);
      if (id !== jobName && job.name !== jobName) continue;
      const defaultDir = job.defaults?.run?.['working-directory'];
      const steps = job.steps
        .filter((step) => step.run !== undefined)
        .map((step) => {
          const cwd = step['working-directory'] ?? defaultDir;
          const body = (step.run ?? '').trim();
          return cwd ? `(cd ${quote(cwd)} && ${body})` : body;
        });
      if (steps.length === 0)
        throw new RegreenError('usage', `--job ${jobName} in ${file} has no run: steps`);
      return ['set -e', ...steps].join('\n');
    }
  }
  throw new RegreenError(
    'usage',
    `no workflow job named "${jobName}"${known.length > 0 ? `; jobs: ${known.join(', ')}` : ''}`,
  );
};
