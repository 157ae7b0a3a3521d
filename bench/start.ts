/**
 * `npm run bench:start`: how long `regreen` takes to answer what needs no
 * work (`--version`, `--help`, `fix --help`, and a usage error commander
 * finds: `fix --bogus`, which exits 2) from the built bundle, the way
 * an installed package runs it (`bin/regreen.js` → `dist/regreen.mjs`).
 * The baseline, measured in the same run and interleaved with it, is Node
 * itself starting and exiting (`node -e 0`): what no CLI can go below.
 * Prints the median and the fastest wall time of each over the runs, and the
 * median's ratio to the baseline's. Left out: npx's own resolution of the
 * package, a cold file cache (each command runs once before it is timed),
 * and a loaded machine (run it on an idle one; the results file says the
 * load average it began with). It builds the bundle first unless
 * `--no-build` is given, and writes `bench/results/start.txt`, which the
 * README quotes, unless `--no-record` is.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordResult, median } from './results.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const BUNDLE = path.join(ROOT, 'dist', 'regreen.mjs');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);

const CASES: readonly {
  readonly name: string;
  readonly args: readonly string[];
  /** The exit code it answers with (a usage error's is 2). */
  readonly exit?: number;
}[] = [
  { name: 'node -e 0 (baseline)', args: ['-e', '0'] },
  { name: 'regreen --version', args: [BUNDLE, '--version'] },
  { name: 'regreen --help', args: [BUNDLE, '--help'] },
  { name: 'regreen fix --help', args: [BUNDLE, 'fix', '--help'] },
  { name: 'regreen fix --bogus', args: [BUNDLE, 'fix', '--bogus'], exit: 2 },
];

const once = (args: readonly string[], exit = 0): number => {
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, [...args], { stdio: 'ignore' });
  if (result.status !== exit) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
};

if (!process.argv.includes('--no-build'))
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'inherit' });
if (!existsSync(BUNDLE)) throw new Error(`no bundle at ${BUNDLE}: run npm run build`);

const times = CASES.map(() => [] as number[]);
for (const c of CASES) once(c.args, c.exit); // warm the file cache
for (let run = 0; run < RUNS; run += 1)
  CASES.forEach((c, i) => times[i]!.push(once(c.args, c.exit)));

const base = median(times[0]!);
const lines = [
  `start-up of the built CLI, ${RUNS} interleaved runs each (warm file cache; npx's own resolution left out)`,
  'case                     median    fastest   median/baseline',
  ...CASES.map((c, i) => {
    const m = median(times[i]!);
    const fastest = Math.min(...times[i]!);
    return `${c.name.padEnd(24)} ${m.toFixed(0).padStart(5)} ms  ${fastest.toFixed(0).padStart(5)} ms  ${(m / base).toFixed(2)}×`;
  }),
  `regreen's own time over Node's start (median − baseline): --version ${(median(times[1]!) - base).toFixed(0)} ms, --help ${(median(times[2]!) - base).toFixed(0)} ms, fix --help ${(median(times[3]!) - base).toFixed(0)} ms, fix --bogus ${(median(times[4]!) - base).toFixed(0)} ms`,
];
for (const line of lines) console.log(line);
if (!process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(ROOT, recordResult('start', lines))}`);
