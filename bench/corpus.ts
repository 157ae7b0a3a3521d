/**
 * `npm run bench:corpus -- [--tasks FILE] [--mirrors DIR] [--concurrency N] [--only ECOSYSTEM] [--results FILE [--no-run]] [--record NAME]`:
 * reproduction on real repositories. The corpus (`bench/corpus/tasks.jsonl`)
 * is historical fixes of public projects mined with `regreen eval mine`;
 * each task names its repository by its git URL, cloned at run time, or
 * from a local mirror folder (`DIR/<owner>+<name>/repo`, as the library's
 * fetch leaves them) when one is given. Nothing is vendored.
 *
 * Every task is validated (`regreen eval validate`: the empty change fails,
 * the person's fix passes, twice each), then, when valid, run through the
 * `oracle` and `empty` policies; each task's outcome is logged as it ends. Printed per ecosystem — the language and,
 * read from the base commit's files, how the project installs (npm, pnpm,
 * yarn; pip with setup.py or pyproject, uv / PEP 735, poetry, tox; Go, Rust,
 * JVM, C) — tasks valid and invalid (by reason: environment, flaky, gold
 * fails, other), oracle and empty resolved; then each goal against its
 * figure: ≥ 100 tasks from ≥ 20 repositories, oracle ≥ 95 % of valid, empty
 * 0, at most 1 in 10 invalid for the environment (each such task is listed
 * with its reason). `--only` takes a language (`python`) or an ecosystem
 * (`poetry`). Needs the network (or the mirrors and this machine's
 * registries): kept out of CI.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { corpusTable, type TaskOutcome, type Why } from './corpus-table.ts';
import { localMirror as mirrorOf } from './mirrors.ts';
import { recordResult } from './results.ts';
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
/** `--record NAME`: also write the table to `bench/results/NAME.txt` (see `bench/results.ts`). */
const record = flag('record');
/**
 * `--results FILE`: each task's outcome is appended to FILE as it ends, and
 * a task whose outcome FILE already holds (for the same task) is not run
 * again: a long run can be stopped and taken up, one ecosystem at a time.
 */
const resultsLog = flag('results');
/** `--no-run`: print (and `--record`) the table of what the results log holds, running nothing. */
const noRun = args.includes('--no-run');

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

/** A file of the task's repository at its base commit, when the repository is a local folder (a mirror). */
const baseFile = (repo: string, base: string, file: string): string | undefined => {
  if (!existsSync(repo)) return undefined;
  try {
    return execFileSync('git', ['-C', repo, 'show', `${base}:${file}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch {
    return undefined;
  }
};

/** The top-level names of the task's repository at its base commit (empty for a remote URL). */
const baseNames = (repo: string, base: string): Set<string> => {
  if (!existsSync(repo)) return new Set();
  try {
    return new Set(
      execFileSync('git', ['-C', repo, 'ls-tree', '--name-only', base], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .split('\n')
        .filter(Boolean),
    );
  } catch {
    return new Set();
  }
};

/**
 * The ecosystem a task is counted under: its language, and for JavaScript
 * and Python how the project installs, by its files at the base commit —
 * the lockfile's manager (pnpm, yarn, else npm); uv's lockfile or a PEP 735
 * `[dependency-groups]`, Poetry's lockfile or table, tox's `tox.ini`, a
 * `setup.py`, else a pyproject. A repository read from a URL (no mirror) is
 * counted under its language alone.
 */
export const styleOf = (task: EvalTask): string => {
  const language = ecosystemOf(task);
  if (language === 'java') return 'jvm';
  if (language !== 'javascript' && language !== 'python') return language;
  const names = baseNames(task.repo, task.base_commit);
  if (names.size === 0) return language;
  if (language === 'javascript') {
    if (names.has('pnpm-lock.yaml')) return 'pnpm';
    if (names.has('yarn.lock')) return 'yarn';
    return 'npm';
  }
  const pyproject = names.has('pyproject.toml')
    ? (baseFile(task.repo, task.base_commit, 'pyproject.toml') ?? '')
    : '';
  if (names.has('uv.lock') || /^\[dependency-groups\]/m.test(pyproject)) return 'uv/PEP 735';
  if (names.has('poetry.lock') || /^\[tool\.poetry[\].]/m.test(pyproject)) return 'poetry';
  if (names.has('tox.ini')) return 'tox';
  if (names.has('setup.py')) return 'pip/setup.py';
  return 'pip/pyproject';
};

const localMirror = (repo: string): string => mirrorOf(repo, mirrors);

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

const taskHash = (task: EvalTask): string =>
  createHash('sha256').update(JSON.stringify(task)).digest('hex').slice(0, 16);

/** The outcomes a results log holds, the last per task. */
const readOutcomes = (file: string): Map<string, TaskOutcome> => {
  const out = new Map<string, TaskOutcome>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const outcome = JSON.parse(line) as TaskOutcome;
      out.set(outcome.id, outcome);
    } catch {
      // A line cut by a stopped run: that task runs again.
    }
  }
  return out;
};

const main = async (): Promise<void> => {
  const { tasks: all, errors } = loadTasks(tasksFile);
  if (errors.length > 0)
    throw new Error(
      `${tasksFile}: ${errors.map((e) => `line ${e.line}: ${e.message}`).join('; ')}`,
    );
  const hashes = new Map(all.map((task) => [task.id, taskHash(task)]));
  const urls = new Map(all.map((task) => [task.id, task.repo]));
  const located = all.map((task) => ({ ...task, repo: localMirror(task.repo) }));
  const styles = new Map(located.map((task) => [task.id, styleOf(task)]));
  const tasks = located.filter(
    (task) => only === undefined || ecosystemOf(task) === only || styles.get(task.id) === only,
  );
  const work = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-corpus-'));
  const log = resultsLog ?? path.join(work, 'outcomes.jsonl');
  const known = readOutcomes(log);
  const done = (task: EvalTask): boolean => known.get(task.id)?.taskHash === hashes.get(task.id);
  // Round-robin over the ecosystems: a run stopped early has measured some of each.
  const byStyle = new Map<string, EvalTask[]>();
  for (const task of tasks.filter((t) => !done(t))) {
    const style = styles.get(task.id) ?? '';
    byStyle.set(style, [...(byStyle.get(style) ?? []), task]);
  }
  const queues = [...byStyle.values()];
  const todo: EvalTask[] = [];
  while (queues.some((q) => q.length > 0))
    for (const q of queues) if (q.length > 0) todo.push(q.shift()!);
  const options = { sandbox: 'bubblewrap' as const, env: process.env, logger: silentLogger() };
  process.stderr.write(
    `[corpus] ${tasks.length} task(s) from ${new Set(tasks.map((t) => t.repo)).size} repositories, ${tasks.length - todo.length} already in ${log}; work in ${work}\n`,
  );
  // Each task whole (validated, then oracle and empty when valid), logged as it ends: a stopped run loses nothing.
  await pool(noRun ? [] : todo, concurrency, async (task) => {
    // Another run on the same log may have taken it meanwhile.
    const taken = readOutcomes(log).get(task.id);
    if (taken && taken.taskHash === hashes.get(task.id)) {
      known.set(task.id, taken);
      return;
    }
    const validation = await validateTask(task, path.join(work, 'validate', task.id), options);
    const resolved = async (policy: 'oracle' | 'empty'): Promise<boolean> => {
      const report = await runEval({
        tasks: [task],
        policy,
        concurrency: 1,
        disableTools: [],
        outDir: path.join(work, policy),
        ...options,
      });
      return report.tasks[0]?.resolved === true;
    };
    const outcome: TaskOutcome = {
      id: task.id,
      style: styles.get(task.id) ?? ecosystemOf(task),
      repo: urls.get(task.id) ?? task.repo,
      valid: validation.valid,
      ...(validation.valid
        ? { oracle: await resolved('oracle'), empty: await resolved('empty') }
        : { why: invalidBecause(validation), reason: (validation.reason ?? '').split('\n')[0] }),
      taskHash: hashes.get(task.id) ?? '',
    };
    appendFileSync(log, `${JSON.stringify(outcome)}\n`);
    known.set(task.id, outcome);
    process.stderr.write(
      `[corpus] ${task.id}: ${outcome.valid ? `valid; oracle ${outcome.oracle ? 'resolved' : 'NOT resolved'}, empty ${outcome.empty ? 'RESOLVED' : 'not resolved'}` : `invalid (${outcome.reason ?? ''})`}\n`,
    );
  });
  const outcomes = tasks.flatMap((task) => (done(task) ? [known.get(task.id)!] : []));
  if (outcomes.length < tasks.length)
    process.stderr.write(
      `[corpus] the table counts the ${outcomes.length} of ${tasks.length} task(s) that have an outcome; the others have not run yet\n`,
    );
  const out = corpusTable(outcomes, {
    tasks: tasks.length,
    repos: new Set(tasks.map((task) => task.repo)).size,
  });
  process.stdout.write(`${out.join('\n')}\n`);
  if (record !== undefined) {
    const what = `${path.relative(process.cwd(), tasksFile)}${only ? ` --only ${only}` : ''}, concurrency ${concurrency}`;
    const file = recordResult(record, [`bench:corpus over ${what}`, ...out]);
    process.stderr.write(`[corpus] written to ${file}\n`);
  }
};

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  await main();
}
