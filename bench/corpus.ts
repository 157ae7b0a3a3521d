/**
 * `npm run bench:corpus -- [--tasks FILE] [--mirrors DIR] [--concurrency N] [--only ECOSYSTEM]`:
 * reproduction on real repositories. The corpus (`bench/corpus/tasks.jsonl`)
 * is historical fixes of public projects mined with `regreen eval mine`;
 * each task names its repository by its git URL, cloned at run time, or
 * from a local mirror folder (`DIR/<owner>+<name>/repo`, as the library's
 * fetch leaves them) when one is given. Nothing is vendored.
 *
 * Every task is validated (`regreen eval validate`: the empty change fails,
 * the person's fix passes, twice each), then the valid ones run through the
 * `oracle` and `empty` policies. Printed per ecosystem: tasks valid and
 * invalid (by reason: environment, flaky, gold fails, other), oracle and
 * empty resolved; and the targets: ≥ 40 valid, oracle 100 % of valid, empty
 * 0 %, under 1 in 5 invalid for the environment. Needs the network (or the
 * mirrors and this machine's registries): kept out of CI.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { localMirror as mirrorOf } from './mirrors.ts';
import { signatureOf } from '../src/intake/failure-compare.ts';
import { runEval } from '../src/eval/run.ts';
import { loadTasks, type EvalTask } from '../src/eval/tasks.ts';
import { validateTask, type Validation } from '../src/eval/validate.ts';
import { silentLogger } from '../src/logger.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
const tasksFile = flag('tasks') ?? path.join(import.meta.dirname, 'corpus', 'tasks.jsonl');
const mirrors = flag('mirrors');
const concurrency = Number(flag('concurrency') ?? 2);
const only = flag('only');

type Ecosystem = 'javascript' | 'python' | 'go' | 'rust' | 'java' | 'c' | 'other';

/** The ecosystem of a task, by its runner. */
export const ecosystemOf = (task: EvalTask): Ecosystem => {
  const command = task.test_command.trim();
  if (/^go\s/.test(command)) return 'go';
  if (/^(python3?|pytest|\.venv\/bin\/)/.test(command)) return 'python';
  if (/^cargo\s/.test(command)) return 'rust';
  if (/^(mvn|\.\/mvnw|gradle|\.\/gradlew)\b/.test(command)) return 'java';
  if (/^(make|cmake|ctest|meson)\b/.test(command)) return 'c';
  if (/^(npm|npx|node|yarn|pnpm|tape|mocha|jest|vitest|ava)\b/.test(command)) return 'javascript';
  return 'other';
};

const localMirror = (repo: string): string => mirrorOf(repo, mirrors);

type Why = 'environment' | 'flaky' | 'gold fails' | 'other';

/** Why a task is invalid: the environment (a missing module, toolchain or command), flakiness, the gold patch. */
export const invalidBecause = (validation: Validation): Why => {
  const reason = validation.reason ?? '';
  if (/^environment:/.test(reason)) return 'environment';
  if (/^flaky:/.test(reason)) return 'flaky';
  const tail = validation.tail ?? '';
  if (
    signatureOf(tail).environmental.length > 0 ||
    /cannot find main module|no such file or directory|could not resolve|network is unreachable/i.test(
      tail,
    )
  )
    return 'environment';
  if (/gold patch does not pass/.test(reason)) return 'gold fails';
  return 'other';
};

const pool = async <T, R>(
  items: readonly T[],
  n: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> => {
  const results = new Array<R>(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, n) }, async () => {
      for (;;) {
        const i = next;
        next += 1;
        if (i >= items.length) return;
        results[i] = await work(items[i] as T);
      }
    }),
  );
  return results;
};

const main = async (): Promise<void> => {
  const { tasks: all, errors } = loadTasks(tasksFile);
  if (errors.length > 0)
    throw new Error(
      `${tasksFile}: ${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`,
    );
  const tasks = all
    .filter((task) => only === undefined || ecosystemOf(task) === only)
    .map((task) => ({ ...task, repo: localMirror(task.repo) }));
  const work = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-corpus-'));
  const options = { sandbox: 'bubblewrap' as const, env: process.env, logger: silentLogger() };
  process.stderr.write(
    `[corpus] ${tasks.length} task(s) from ${new Set(tasks.map((t) => t.repo)).size} repositories; work in ${work}\n`,
  );
  const validations = await pool(tasks, concurrency, async (task) => {
    const validation = await validateTask(task, path.join(work, 'validate', task.id), options);
    process.stderr.write(
      `[corpus] ${task.id}: ${validation.valid ? 'valid' : `invalid (${validation.reason ?? ''})`}\n`,
    );
    return validation;
  });
  const valid = tasks.filter((_, i) => validations[i]?.valid);
  const runs: Record<'oracle' | 'empty', Set<string>> = { oracle: new Set(), empty: new Set() };
  for (const policy of ['oracle', 'empty'] as const) {
    if (valid.length === 0) break;
    const report = await runEval({
      tasks: valid,
      policy,
      concurrency,
      disableTools: [],
      outDir: path.join(work, policy),
      ...options,
    });
    for (const result of report.tasks) if (result.resolved) runs[policy].add(result.id);
  }
  const ecosystems = [...new Set(tasks.map(ecosystemOf))].sort();
  const rows = ecosystems.map((eco) => {
    const mine = tasks
      .map((task, i) => ({ task, v: validations[i] }))
      .filter(({ task }) => ecosystemOf(task) === eco);
    const ok = mine.filter(({ v }) => v?.valid).map(({ task }) => task.id);
    const why = (w: Why): number =>
      mine.filter(({ v }) => v && !v.valid && invalidBecause(v) === w).length;
    return {
      eco,
      repos: new Set(mine.map(({ task }) => task.repo)).size,
      tasks: mine.length,
      valid: ok.length,
      environment: why('environment'),
      flaky: why('flaky'),
      gold: why('gold fails'),
      other: why('other'),
      oracle: ok.filter((id) => runs.oracle.has(id)).length,
      empty: ok.filter((id) => runs.empty.has(id)).length,
    };
  });
  const header = [
    'ecosystem',
    'repos',
    'tasks',
    'valid',
    'env',
    'flaky',
    'gold',
    'other',
    'oracle',
    'empty',
  ];
  const line = (cells: readonly (string | number)[]): string =>
    cells.map((c, i) => String(c).padStart(i === 0 ? 11 : 7)).join('');
  const total = rows.reduce(
    (sum, r) => ({
      repos: sum.repos + r.repos,
      tasks: sum.tasks + r.tasks,
      valid: sum.valid + r.valid,
      environment: sum.environment + r.environment,
      flaky: sum.flaky + r.flaky,
      gold: sum.gold + r.gold,
      other: sum.other + r.other,
      oracle: sum.oracle + r.oracle,
      empty: sum.empty + r.empty,
    }),
    {
      repos: 0,
      tasks: 0,
      valid: 0,
      environment: 0,
      flaky: 0,
      gold: 0,
      other: 0,
      oracle: 0,
      empty: 0,
    },
  );
  const out = [
    line(header),
    ...rows.map((r) =>
      line([
        r.eco,
        r.repos,
        r.tasks,
        r.valid,
        r.environment,
        r.flaky,
        r.gold,
        r.other,
        r.oracle,
        r.empty,
      ]),
    ),
    line([
      'all',
      total.repos,
      total.tasks,
      total.valid,
      total.environment,
      total.flaky,
      total.gold,
      total.other,
      total.oracle,
      total.empty,
    ]),
    '',
    `valid tasks: ${total.valid} (target ≥ 40) across ${rows.filter((r) => r.valid > 0).length} ecosystem(s) and ${total.repos} repositories`,
    `oracle resolved: ${total.oracle}/${total.valid} (${total.valid ? ((100 * total.oracle) / total.valid).toFixed(0) : 0} %, target 100 %)`,
    `empty resolved: ${total.empty}/${total.valid} (${total.valid ? ((100 * total.empty) / total.valid).toFixed(0) : 0} %, target 0 %)`,
    `invalid for the environment: ${total.environment}/${total.tasks} (${total.tasks ? ((100 * total.environment) / total.tasks).toFixed(0) : 0} %, target under 20 %)`,
  ];
  for (const [i, v] of validations.entries())
    if (v && !v.valid)
      out.push(`  invalid ${tasks[i]?.id}: ${invalidBecause(v)} — ${v.reason ?? ''}`);
  process.stdout.write(`${out.join('\n')}\n`);
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
