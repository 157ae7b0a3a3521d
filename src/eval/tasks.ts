import { z } from 'zod';
import { readNamedFile } from '../util/read-file.ts';

/**
 * One eval task: a bug a person fixed. The repository goes back to the
 * commit before the fix; the person's tests judge regreen's change.
 */
export const TaskSchema = z
  .object({
    id: z.string().regex(/^[\w.-]+$/, 'letters, digits, dot, dash and underscore only'),
    repo: z.string().min(1),
    base_commit: z.string().min(4),
    test_patch: z.string().default(''),
    gold_patch: z.string().default(''),
    test_command: z.string().min(1),
    fail_to_pass: z.array(z.string().min(1)).min(1),
    pass_to_pass: z.array(z.string().min(1)).default([]),
    setup: z.string().min(1).optional(),
    env: z.record(z.string(), z.string()).default({}),
    timeout_s: z.number().int().positive().default(600),
    kind: z.enum(['ci', 'hidden']).default('ci'),
    /**
     * The CI job that runs these tests, by the name `regreen fix --job` takes (its id or its
     * `name:`), after its workflow file for the reader (`test.yml:test`); the replay takes the name.
     */
    ci_job: z
      .string()
      .min(1)
      .max(200)
      .regex(/^[^\n\r]+$/, 'one line')
      .optional(),
    /** With a reporter, fail_to_pass and pass_to_pass are test names read from test_command's report. */
    test_reporter: z.enum(['junit', 'tap']).optional(),
    /** Where test_command writes its JUnit XML, relative to the repository (junit only; default junit.xml). */
    junit_path: z.string().optional(),
    problem_statement: z.string().optional(),
  })
  .strict()
  .refine((task) => task.kind === 'ci' || (task.problem_statement ?? '').length > 0, {
    message: 'a hidden task needs a problem_statement',
    path: ['problem_statement'],
  });

export type EvalTask = z.infer<typeof TaskSchema>;

export interface TaskFileError {
  readonly line: number;
  readonly message: string;
}

/** Reads a JSONL task file; each broken line is an error naming the line and the field. */
export const loadTasks = (file: string): { tasks: EvalTask[]; errors: TaskFileError[] } => {
  const text = readNamedFile(file, 'the task file');
  const tasks: EvalTask[] = [];
  const errors: TaskFileError[] = [];
  const seen = new Set<string>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '' || raw.trim().startsWith('//')) return;
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      errors.push({ line, message: `not JSON: ${(error as Error).message}` });
      return;
    }
    const parsed = TaskSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      errors.push({
        line,
        message: `${issue?.path.join('.') || 'task'}: ${issue?.message ?? 'invalid'}`,
      });
      return;
    }
    if (seen.has(parsed.data.id)) {
      errors.push({ line, message: `id: ${parsed.data.id} appears twice` });
      return;
    }
    seen.add(parsed.data.id);
    tasks.push(parsed.data);
  });
  return { tasks, errors };
};
