/**
 * `npm run bench:eval [-- ROUNDS]`: eval throughput. The fixture task set (on
 * a library with a real `npm ci`), each task twice, run through `regreen
 * eval` with the oracle policy two ways in the same run, alternating:
 * naively (one task at a time, every task cloned from the source and set up
 * from scratch) and as the harness runs by default (concurrency 2, one mirror
 * per repository, dependencies installed once per lockfile and restored
 * copy-on-write). Prints tasks/hour for each and the ratio, and the harness
 * as a fraction of the CPU floor (`cpu-floor.ts`: the validations' own runs,
 * bare, divided by the cores; goal ≥ 0.8). Left out: a
 * model (the oracle applies the person's fix), the network (the dependency is
 * a vendored tarball), real projects (the fixture is a small library), and
 * cold caches beyond the first task. Writes what it printed to
 * `bench/results/eval.txt`, which docs/benchmarks.md quotes (`--no-record`:
 * print only).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildEvalFixture } from '../fixtures/eval-tasks.ts';
import { runEval } from '../src/eval/run.ts';
import type { EvalTask } from '../src/eval/tasks.ts';
import { silentLogger } from '../src/logger.ts';
import { cpuFloor } from './cpu-floor.ts';
import { recordResult } from './results.ts';

const rounds = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 1);
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-eval-'));
const { tasks } = buildEvalFixture(path.join(root, 'fixture'), { dependency: true });
const doubled: EvalTask[] = [...tasks, ...tasks.map((t) => ({ ...t, id: `${t.id}-again` }))];

const run = async (
  mode: 'naive' | 'harness',
  round: number,
): Promise<{ ms: number; resolved: number }> => {
  const started = process.hrtime.bigint();
  const report = await runEval({
    tasks: doubled,
    policy: 'oracle',
    concurrency: mode === 'naive' ? 1 : 2,
    disableTools: [],
    outDir: path.join(root, `${mode}-${round}`),
    sandbox: 'bubblewrap',
    env: process.env,
    logger: silentLogger(),
    reuse: mode === 'harness',
  });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, resolved: report.summary.resolved };
};

const totals = { naive: 0, harness: 0 };
const results = { naive: 0, harness: 0 };
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of round % 2 === 0
      ? (['naive', 'harness'] as const)
      : (['harness', 'naive'] as const)) {
      const { ms, resolved } = await run(mode, round);
      totals[mode] += ms;
      results[mode] += resolved;
      process.stderr.write(
        `round ${round + 1} ${mode}: ${(ms / 1000).toFixed(1)} s, ${resolved}/${doubled.length} resolved\n`,
      );
    }
  }
  const floor = await cpuFloor(tasks, root);
  const floorSeconds =
    (doubled.reduce(
      (sum, task) => sum + (floor.perTask.get(task.id.replace(/-again$/, '')) ?? 0),
      0,
    ) *
      rounds) /
    floor.cores;
  const floorPerHour = (doubled.length * rounds * 3600) / floorSeconds;
  const perHour = (ms: number): number => (doubled.length * rounds * 3_600_000) / ms;
  const naive = perHour(totals.naive);
  const harness = perHour(totals.harness);
  const of = `/${doubled.length * rounds} resolved`;
  const lines = [
    `bench:eval, the eval fixture's ${tasks.length} tasks twice over (${doubled.length}) × ${rounds} round(s) through \`regreen eval\` with the oracle policy, bubblewrap sandbox, ${os.cpus().length} cores; the two ways alternate within the run`,
    `measured: the harness as it runs by default (concurrency 2, one mirror per repository, dependencies installed once per lockfile and restored copy-on-write)`,
    `baseline, same run: naive (one task at a time, cloned from the source and set up with \`npm ci\` from scratch per task)`,
    `(left out: a model, the oracle applies the person's fix; the network, the dependency is a vendored tarball; real projects, the fixture is a small synthetic library)`,
    `naive:   ${naive.toFixed(0).padStart(5)} tasks/hour   ${results.naive}${of}`,
    `harness: ${harness.toFixed(0).padStart(5)} tasks/hour   ${results.harness}${of}`,
    `ratio harness/naive: ${(harness / naive).toFixed(2)}×`,
    `CPU floor: ${floorPerHour.toFixed(0)} tasks/hour (the CPU-seconds of each validation's runs, bare: set-up, the failing tests on the base, the failing and passing tests with the fix; ${(floorSeconds * floor.cores).toFixed(1)} CPU-s for the ${doubled.length * rounds} tasks over ${floor.cores} cores)`,
    `harness / CPU floor: ${(harness / floorPerHour).toFixed(2)}  (goal ≥ 0.8: ${harness / floorPerHour >= 0.8 ? 'met' : 'NOT met'})`,
  ];
  for (const line of lines) console.log(line);
  if (!process.argv.includes('--no-record'))
    console.log(`written to ${path.relative(process.cwd(), recordResult('eval', lines))}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
