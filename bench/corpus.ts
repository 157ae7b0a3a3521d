/**
 * `npm run bench:corpus -- [--tasks FILE] [--mirrors DIR] [--concurrency N] [--only ECOSYSTEM] [--record NAME]`:
 * reproduction on real repositories. The corpus (`bench/corpus/tasks.jsonl`)
 * is historical fixes of public projects mined with `regreen eval mine`;
 * each task names its repository by its git URL, cloned at run time, or
 * from a local mirror folder (`DIR/<owner>+<name>/repo`, as the library's
 * fetch leaves them) when one is given. Nothing is vendored.
 *
 * Every task is validated (`regreen eval validate`: the empty change fails,
 * the person's fix passes, twice each), then the valid ones run through the
 * `oracle` and `empty` policies. Printed per ecosystem — the language and,
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
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  const located = all.map((task) => ({ ...task, repo: localMirror(task.repo) }));
  const styles = new Map(located.map((task) => [task.id, styleOf(task)]));
  const tasks = located.filter(
    (task) => only === undefined || ecosystemOf(task) === only || styles.get(task.id) === only,
  );
  const styleOfTask = (task: EvalTask): string => styles.get(task.id) ?? ecosystemOf(task);
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
  const order = [
    'npm',
    'pnpm',
    'yarn',
    'javascript',
    'pip/setup.py',
    'pip/pyproject',
    'uv/PEP 735',
    'poetry',
    'tox',
    'python',
    'go',
    'rust',
    'jvm',
    'c',
    'other',
  ];
  const rank = (eco: string): number => (order.includes(eco) ? order.indexOf(eco) : order.length);
  const ecosystems = [...new Set(tasks.map(styleOfTask))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const rows = ecosystems.map((eco) => {
    const mine = tasks
      .map((task, i) => ({ task, v: validations[i] }))
      .filter(({ task }) => styleOfTask(task) === eco);
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
    cells.map((c, i) => (i === 0 ? String(c).padEnd(14) : String(c).padStart(7))).join('');
  const sum = (key: Exclude<keyof (typeof rows)[number], 'eco' | 'repos'>): number =>
    rows.reduce((n, r) => n + r[key], 0);
  const total = {
    repos: new Set(tasks.map((t) => t.repo)).size,
    tasks: sum('tasks'),
    valid: sum('valid'),
    environment: sum('environment'),
    flaky: sum('flaky'),
    gold: sum('gold'),
    other: sum('other'),
    oracle: sum('oracle'),
    empty: sum('empty'),
  };
  const pct = (n: number, of: number): string => `${of ? ((100 * n) / of).toFixed(0) : 0} %`;
  const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');
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
    `tasks: ${total.tasks} from ${total.repos} repositories in ${rows.length} ecosystem(s) (goal ≥ 100 from ≥ 20: ${verdict(total.tasks >= 100 && total.repos >= 20)}); valid: ${total.valid}`,
    `oracle resolved: ${total.oracle}/${total.valid} valid (${pct(total.oracle, total.valid)}; goal ≥ 95 %: ${verdict(total.valid > 0 && total.oracle >= 0.95 * total.valid)})`,
    `empty resolved: ${total.empty}/${total.valid} valid (goal 0: ${verdict(total.empty === 0)})`,
    `invalid for the environment: ${total.environment}/${total.tasks} (${pct(total.environment, total.tasks)}; goal ≤ 10 %: ${verdict(total.environment <= 0.1 * total.tasks)})`,
  ];
  for (const [i, v] of validations.entries())
    if (v && !v.valid)
      out.push(
        `  invalid ${tasks[i]?.id} (${tasks[i] ? styleOfTask(tasks[i]) : ''}): ${invalidBecause(v)} — ${(v.reason ?? '').split('\n')[0]}`,
      );
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
