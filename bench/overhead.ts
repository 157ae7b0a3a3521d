/**
 * `npm run bench:overhead [-- N]`: what regreen costs on top of the work a
 * fix needs at the least. Runs `regreen fix` on the off-by-one fixture N times
 * (a recorded trajectory, the asrt sandbox), and in the same run the floor for
 * that job done with plain git and the test command: clone, run the failing
 * command, then a fresh clone with the fix applied and the command run again.
 * Prints both medians and the ratio regreen/floor.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildOffByOneFixture, trajectory } from '../fixtures/build.ts';

const runs = Number(process.argv[2] ?? 5);
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-'));
const repo = buildOffByOneFixture(path.join(root, 'repo'));
const bin = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'regreen.js');

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

const time = (work: () => void): number => {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

const regreen = (i: number): number =>
  time(() => {
    const result = spawnSync(
      process.execPath,
      [
        bin,
        'fix',
        '--repo',
        repo,
        '--model',
        `script:${trajectory('off-by-one-fix')}`,
        '--data-dir',
        path.join(root, `data-${i}`),
        '--json',
      ],
      {
        encoding: 'utf8',
      },
    );
    const status = (JSON.parse(result.stdout) as { status: string }).status;
    if (status !== 'proposed') throw new Error(`regreen did not propose a fix: ${result.stdout}`);
  });

const floor = (i: number): number =>
  time(() => {
    const first = path.join(root, `floor-${i}-a`);
    const fresh = path.join(root, `floor-${i}-b`);
    execFileSync('git', ['clone', '--quiet', repo, first]);
    const failing = spawnSync('npm', ['test'], { cwd: first, stdio: 'ignore' });
    if (failing.status === 0) throw new Error('the fixture should fail');
    execFileSync('git', ['clone', '--quiet', repo, fresh]);
    const file = path.join(fresh, 'src', 'range.js');
    writeFileSync(file, readFileSync(file, 'utf8').replace('i < n - 1', 'i < n'));
    const fixed = spawnSync('npm', ['test'], { cwd: fresh, stdio: 'ignore' });
    if (fixed.status !== 0) throw new Error('the fixed fixture should pass');
  });

const regreenTimes: number[] = [];
const floorTimes: number[] = [];
// Interleaved, so that both see the same machine state.
for (let i = 0; i < runs; i += 1) {
  floorTimes.push(floor(i));
  regreenTimes.push(regreen(i));
}
rmSync(root, { recursive: true, force: true });

const r = median(regreenTimes);
const f = median(floorTimes);
console.log(`runs: ${runs}`);
console.log(
  `regreen fix (median): ${r.toFixed(0)} ms   [${regreenTimes.map((t) => t.toFixed(0)).join(', ')}]`,
);
console.log(
  `floor       (median): ${f.toFixed(0)} ms   [${floorTimes.map((t) => t.toFixed(0)).join(', ')}]`,
);
console.log(`ratio regreen/floor: ${(r / f).toFixed(2)}`);
