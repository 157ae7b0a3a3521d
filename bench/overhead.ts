/**
 * `npm run bench:overhead -- [N] [--task FILE --mirrors DIR]`: what regreen
 * costs on top of the work a fix needs at the least, run from the built
 * package (`npm run build`, then `node dist/regreen.mjs`).
 *
 * Without `--task`: the off-by-one fixture (no setup) with a recorded
 * trajectory. With `--task FILE` (an eval task line: a real repository at the
 * commit before a person's fix, their tests committed, their fix as the
 * patch): the repository is read from the library's mirrors with `--mirrors`;
 * the trajectory applies the person's fix and runs the changed test file
 * through `run_tests`, as an agent narrows a run.
 *
 * The floor, interleaved in the same run with plain git and the commands:
 * clone, setup, the failing run, then a fresh clone, setup, the fix and the
 * verifying run. regreen: the same job through `regreen fix` in the bubblewrap
 * sandbox. Prints both medians, the ratio, and per stage of regreen's trace
 * (start-up, each stage, exit) its median and its share of the floor.
 *
 * `--think-ms N`: every turn of the trajectory takes N ms to answer (a
 * model's latency, replayed by the script model), and the floor's fix step
 * takes as long as all of those turns together: the fix is thought of in
 * both. What regreen does beside the model's turns shows in the ratio.
 *
 * Steady state, as CI and an installed regreen run: both keep their download
 * caches between runs (the floor the host's npm cache, regreen its data dir,
 * with its store of npm tarballs), and one untimed run of each warms them.
 *
 * Writes what it printed to `bench/results/overhead.txt` (with `--think-ms`,
 * `overhead-think.txt`; with `--task`, `overhead-task.txt`; `--record NAME`:
 * `NAME.txt`), which docs/benchmarks.md quotes; `--no-record`: print only.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOffByOneFixture } from '../fixtures/build.ts';
import { applyPatch, prepareTaskRepo } from '../src/eval/task-repo.ts';
import { loadTasks, type EvalTask } from '../src/eval/tasks.ts';
import { localMirror } from './mirrors.ts';
import { recordResult, median } from './results.ts';
import { PAUSE_MS, SANDBOX_GOAL_MS, sandboxStart } from './sandbox-start.ts';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? args[at + 1] : undefined;
};
/** The options that take a value: the word after one is its value, not N. */
const VALUED = new Set(['--task', '--mirrors', '--keep-traces', '--think-ms', '--record']);
const runs = Number(
  args.find((arg, i) => /^\d+$/.test(arg) && !VALUED.has(args[i - 1] ?? '')) ?? 5,
);
const taskFile = flag('task');
/** `--keep-traces DIR`: each run's trace is copied there before its job folder goes. */
const keepTraces = flag('keep-traces');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-'));

execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
const bundle = path.join(ROOT, 'dist', 'regreen.mjs');
if (!existsSync(bundle)) throw new Error('npm run build wrote no dist/regreen.mjs');

interface Job {
  readonly repo: string;
  readonly setup: string | undefined;
  readonly command: string;
  readonly applyFix: (dir: string) => Promise<void>;
  readonly trajectory: string;
}

const fixtureJob = (): Job => {
  const repo = buildOffByOneFixture(path.join(root, 'repo'));
  return {
    repo,
    setup: undefined,
    command: 'npm test',
    applyFix: (dir) => {
      const file = path.join(dir, 'src', 'range.js');
      writeFileSync(file, readFileSync(file, 'utf8').replace('i < n - 1', 'i < n'));
      return Promise.resolve();
    },
    trajectory: path.join(ROOT, 'fixtures', 'trajectories', 'off-by-one-fix.json'),
  };
};

const taskJob = async (task: EvalTask): Promise<Job> => {
  const repo = path.join(root, 'repo');
  await prepareTaskRepo(task, repo, localMirror(task.repo, flag('mirrors')));
  const testFile = /^diff --git a\/(\S+)/m.exec(task.test_patch)?.[1];
  const trajectory = path.join(root, 'trajectory.json');
  writeFileSync(
    trajectory,
    JSON.stringify({
      turns: [
        {
          content: [
            { type: 'text', text: 'Apply the fix and run the test file it concerns.' },
            { type: 'tool_use', id: 't1', name: 'apply_patch', input: { patch: task.gold_patch } },
          ],
        },
        {
          content: [
            {
              type: 'tool_use',
              id: 't2',
              name: 'run_tests',
              input: testFile ? { filter: testFile } : {},
            },
          ],
        },
        { content: [{ type: 'text', text: 'The fix is applied and its tests pass.' }] },
      ],
    }),
  );
  return {
    repo,
    setup: task.setup,
    command: task.test_command,
    applyFix: (dir) => applyPatch(dir, task.gold_patch, 'gold patch'),
    trajectory,
  };
};

/** `--think-ms N`: the trajectory with every turn answered after N ms; with it, the total thought. */
const thinking = (trajectory: string): { trajectory: string; totalMs: number } => {
  const thinkMs = Number(flag('think-ms') ?? 0);
  if (!Number.isInteger(thinkMs) || thinkMs < 0)
    throw new Error(`--think-ms must be a whole number of milliseconds, not ${flag('think-ms')}`);
  if (thinkMs === 0) return { trajectory, totalMs: 0 };
  const script = JSON.parse(readFileSync(trajectory, 'utf8')) as { turns: object[] };
  const slow = path.join(root, 'trajectory-thinking.json');
  writeFileSync(
    slow,
    JSON.stringify({ turns: script.turns.map((turn) => ({ ...turn, thinkMs })) }),
  );
  return { trajectory: slow, totalMs: thinkMs * script.turns.length };
};

const plainJob: Job = taskFile
  ? await taskJob(
      (() => {
        const { tasks, errors } = loadTasks(taskFile);
        const task = tasks[0];
        if (!task) throw new Error(`no task in ${taskFile}: ${JSON.stringify(errors)}`);
        return task;
      })(),
    )
  : fixtureJob();
const thought = thinking(plainJob.trajectory);
const job: Job = {
  ...plainJob,
  trajectory: thought.trajectory,
  applyFix: async (dir) => {
    await new Promise((resolve) => setTimeout(resolve, thought.totalMs));
    await plainJob.applyFix(dir);
  },
};

const shell = (command: string, cwd: string): number =>
  spawnSync('bash', ['-c', command], { cwd, stdio: 'ignore' }).status ?? 1;

const floor = async (i: number): Promise<{ total: number; steps: Record<string, number> }> => {
  const steps: Record<string, number> = {};
  const step = async (name: string, work: () => Promise<void> | void): Promise<void> => {
    const started = performance.now();
    await work();
    steps[name] = (steps[name] ?? 0) + performance.now() - started;
  };
  const first = path.join(root, `floor-${i}-a`);
  const fresh = path.join(root, `floor-${i}-b`);
  await step('clone', () => void execFileSync('git', ['clone', '--quiet', job.repo, first]));
  if (job.setup) await step('setup', () => void shell(job.setup ?? '', first));
  await step('failing run', () => {
    if (shell(job.command, first) === 0) throw new Error('the failing command should fail');
  });
  await step('clone', () => void execFileSync('git', ['clone', '--quiet', job.repo, fresh]));
  if (job.setup) await step('setup', () => void shell(job.setup ?? '', fresh));
  await step('fix', () => job.applyFix(fresh));
  await step('verify', () => {
    if (shell(job.command, fresh) !== 0) throw new Error('the fixed command should pass');
  });
  rmSync(first, { recursive: true, force: true });
  rmSync(fresh, { recursive: true, force: true });
  return { total: Object.values(steps).reduce((a, b) => a + b, 0), steps };
};

interface TraceEvent {
  ts: string;
  type: string;
  stage?: string;
  phase?: string;
  durationMs?: number;
  wallMs?: number;
  ranMs?: number;
}

/**
 * How long some command of the job was running: the union of the commands'
 * own runs (each ends at its event's time and lasted its `ranMs`), so runs
 * that overlap count once.
 */
const commandTime = (events: readonly TraceEvent[]): number => {
  const spans = events
    .filter((event) => event.type === 'run')
    .map((event) => {
      const end = Date.parse(event.ts);
      return [end - (event.ranMs ?? 0), end] as const;
    })
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = -Infinity;
  for (const [start, end] of spans) {
    if (end <= reach) continue;
    total += end - Math.max(start, reach);
    reach = end;
  }
  return total;
};

// One data dir for every run, as an installed regreen keeps it (its download store with it).
const dataDir = path.join(root, 'data');
interface RegreenRun {
  total: number;
  stages: Record<string, number>;
  /** The wall time no command of the job was running in: regreen's own. */
  own: number;
  /** The sandbox's part of each command's call (its wall less the command's own run). */
  sandboxPerRun: number[];
}
const regreen = (): RegreenRun => {
  const spawned = Date.now();
  const result = spawnSync(
    process.execPath,
    [
      bundle,
      'fix',
      '--repo',
      job.repo,
      '--command',
      job.command,
      '--model',
      `script:${job.trajectory}`,
      '--data-dir',
      dataDir,
      '--json',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  const ended = Date.now();
  const outcome = JSON.parse(result.stdout) as { status: string; tracePath?: string };
  if (outcome.status !== 'proposed')
    throw new Error(`regreen did not propose a fix: ${result.stdout}\n${result.stderr}`);
  const trace = outcome.tracePath;
  if (!trace) throw new Error(`regreen left no trace: ${result.stdout}`);
  const events = readFileSync(trace, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as TraceEvent);
  const stages: Record<string, number> = {};
  for (const event of events)
    if (event.type === 'stage' && event.phase === 'end' && event.stage)
      stages[event.stage] = (stages[event.stage] ?? 0) + (event.durationMs ?? 0);
  const firstTs = Date.parse(events[0]?.ts ?? '');
  const lastTs = Date.parse(events.at(-1)?.ts ?? '');
  stages['start-up'] = firstTs - spawned;
  stages.exit = ended - lastTs;
  if (keepTraces)
    writeFileSync(path.join(keepTraces, `trace-${Date.now()}.jsonl`), readFileSync(trace));
  rmSync(path.dirname(trace), { recursive: true, force: true });
  const runsOf = events.filter((event) => event.type === 'run');
  if (runsOf.length === 0) throw new Error(`the trace tells of no command run: ${trace}`);
  return {
    total: ended - spawned,
    stages,
    own: ended - spawned - commandTime(events),
    sandboxPerRun: runsOf.map((event) => (event.wallMs ?? 0) - (event.ranMs ?? 0)),
  };
};

/**
 * Between runs, untimed: regreen's finished folders are deleted by detached
 * processes after it exits; the next run (of either) waits until they are gone
 * and the disk has written back, so neither pays for the other's clean-up.
 */
const discarded = (dir: string): boolean => {
  if (!existsSync(dir)) return false;
  return readdirSync(dir, { withFileTypes: true }).some(
    (entry) =>
      entry.isDirectory() &&
      (entry.name.includes('.discarded-') || discarded(path.join(dir, entry.name))),
  );
};
const settle = async (): Promise<void> => {
  for (let waited = 0; discarded(path.join(dataDir, 'jobs')) && waited < 120_000; waited += 100)
    await new Promise((resolve) => setTimeout(resolve, 100));
  spawnSync('sync');
};

const regreenRuns: RegreenRun[] = [];
const floorRuns: { total: number; steps: Record<string, number> }[] = [];
// Untimed, to warm both download caches; then interleaved, so both see the same machine state.
await floor(-1);
regreen();
for (let i = 0; i < runs; i += 1) {
  await settle();
  floorRuns.push(await floor(i));
  await settle();
  regreenRuns.push(regreen());
}
const starts = await sandboxStart(path.join(root, 'sandbox-start'), 20);
rmSync(root, { recursive: true, force: true });

const r = median(regreenRuns.map((run) => run.total));
const f = median(floorRuns.map((run) => run.total));
const ms = (value: number): string => `${value.toFixed(0).padStart(7)} ms`;
const goal = (value: number, target: number, unit: string): string =>
  `(goal ≤ ${target}${unit}: ${value <= target ? 'met' : 'NOT met'})`;
const own = median(regreenRuns.map((run) => run.own));
const startUp = median(regreenRuns.map((run) => run.stages['start-up'] ?? 0));
const perRun = median(regreenRuns.flatMap((run) => run.sandboxPerRun));
const commands = median(regreenRuns.map((run) => run.sandboxPerRun.length));
const order = [
  'start-up',
  ...Object.keys(regreenRuns[0]?.stages ?? {}).filter((s) => s !== 'start-up' && s !== 'exit'),
  'exit',
];
const lines = [
  `bench:overhead, job: ${taskFile ? `task ${path.basename(taskFile)} (a real repository at the commit before a person's fix; \`${job.setup ?? 'no setup'}\` then \`${job.command}\`)` : `the off-by-one fixture (synthetic: a one-line fix, no setup, \`${job.command}\`)`}; ${runs} interleaved runs each, after one untimed run of each`,
  `measured: \`regreen fix\` from the built bundle in the bubblewrap sandbox, its model a recorded trajectory (${thought.totalMs ? `every turn answered after ${flag('think-ms')} ms, a model's latency; the floor's fix step waits ${thought.totalMs} ms, all of the turns` : 'answered at once: no model latency'})`,
  `baseline, same run: the floor, plain git and the commands with no sandbox: clone,${job.setup ? ' setup,' : ''} failing run, fresh clone,${job.setup ? ' setup,' : ''} the fix, passing run`,
  `(left out: cold download caches, both warmed by the untimed run and kept, the floor's in the host's npm cache, regreen's in its data dir; a real model's tokens and answers; the bundle's build; regreen's clean-up after it exits, awaited untimed between runs)`,
  `regreen fix (median): ${ms(r)}   [${regreenRuns.map((run) => run.total.toFixed(0)).join(', ')}]`,
  `floor       (median): ${ms(f)}   [${floorRuns.map((run) => run.total.toFixed(0)).join(', ')}]`,
  'floor by step (median):',
  ...Object.keys(floorRuns[0]?.steps ?? {}).map(
    (name) => `  ${name.padEnd(12)} ${ms(median(floorRuns.map((run) => run.steps[name] ?? 0)))}`,
  ),
  'regreen by stage (median, share of the floor):',
  ...order.map((name) => {
    const value = median(regreenRuns.map((run) => run.stages[name] ?? 0));
    return `  ${name.padEnd(12)} ${ms(value)}   ${(value / f).toFixed(2)}× floor`;
  }),
  `regreen's own time (median; the wall less the time one of its ${commands} sandboxed commands was running — set-up, the failing run, the agent's and the checks' test runs):`,
  `  own time         ${ms(own)}   ${goal(Math.round(own), 250, ' ms')}`,
  `  of which start-up ${ms(startUp)}   ${goal(Math.round(startUp), 80, ' ms')} (spawn to the trace's first event: Node's start and the bundle's load are in it)`,
  `  sandbox a command ${ms(perRun)}   (median over the job's commands: each call's wall less the command's own run)`,
  `sandbox start per command (\`true\`, 20 interleaved runs, median; ${starts.folders}; each of regreen's after a pause of ${PAUSE_MS} ms, in which it made the sandbox that start used, as between a job's commands): bare spawn ${starts.spawn.toFixed(1)} ms, bare bubblewrap ${starts.bwrap.toFixed(1)} ms, regreen's sandbox ${starts.regreen.toFixed(1)} ms`,
  `  regreen's sandbox over a bare spawn: ${(starts.regreen - starts.spawn).toFixed(1)} ms ${goal(Number((starts.regreen - starts.spawn).toFixed(1)), SANDBOX_GOAL_MS, ' ms')}; over bare bubblewrap: ${(starts.regreen - starts.bwrap).toFixed(1)} ms`,
  taskFile
    ? `ratio regreen/floor: ${(r / f).toFixed(2)}×  ${goal(Number((r / f).toFixed(2)), 1.15, '×')}, the goal for a real suite whose floor is ≥ 30 s: this floor is ${(f / 1000).toFixed(1)} s`
    : `ratio regreen/floor: ${(r / f).toFixed(2)}×  (no goal on this fixture: its runs are too short for a ratio to mean much; the goal is on own time)`,
];
for (const line of lines) console.log(line);
if (!args.includes('--no-record')) {
  const name =
    flag('record') ??
    (taskFile ? 'overhead-task' : thought.totalMs ? 'overhead-think' : 'overhead');
  console.log(`written to ${path.relative(ROOT, recordResult(name, lines))}`);
}
