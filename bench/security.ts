/**
 * `npm run bench:security`: every attack in `test/security/` (one named test
 * each) run against the real sandbox, tools and pipeline; prints each attack
 * that did not hold, then `N attacks, N held`. Exits 1 when one did not hold.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Report {
  testResults: {
    name: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-security-'));
const output = path.join(dir, 'report.json');
const started = Date.now();
spawnSync('npx', ['vitest', 'run', 'test/security', '--reporter=json', `--outputFile=${output}`], {
  stdio: ['ignore', 'ignore', 'inherit'],
  cwd: path.resolve(import.meta.dirname, '..'),
});
let report: Report;
try {
  report = JSON.parse(readFileSync(output, 'utf8')) as Report;
} catch {
  console.error('bench:security: vitest wrote no report');
  process.exit(2);
}
rmSync(dir, { recursive: true, force: true });
let attacks = 0;
let held = 0;
for (const file of report.testResults) {
  const results = file.assertionResults;
  const ok = results.filter((result) => result.status === 'passed').length;
  attacks += results.length;
  held += ok;
  console.log(`${path.relative(process.cwd(), file.name)}: ${results.length} attacks, ${ok} held`);
  for (const result of results.filter((r) => r.status !== 'passed'))
    console.log(
      `  NOT HELD: ${result.fullName}\n    ${(result.failureMessages[0] ?? '').split('\n')[0]}`,
    );
}
console.log(`${attacks} attacks, ${held} held (${((Date.now() - started) / 1000).toFixed(0)} s)`);
process.exit(attacks > 0 && held === attacks ? 0 : 1);
