/**
 * `npm run bench:security`: every attack in `test/security/` (one named test
 * each) run against the real sandbox, tools and pipeline; prints each attack
 * that did not hold, then `N attacks, N held`. A test tagged `[case]` (a
 * baseline, an honest fix, a clean-up) is counted apart, never as an attack
 * held. A read attack (`readAttack` in `test/security/support.ts`) proves
 * itself — its command printed the canary where it may read it, and ran to
 * its end against the target — and logs that proof; the bench counts read
 * attacks by their proofs, and a read attack that passed without one is not
 * held. Exits 1 when one did not hold. Files named after `--` run alone.
 *
 * Over the whole of `test/security/` it writes its summary to
 * `bench/results/security.txt`, which docs/benchmarks.md quotes
 * (`--no-record`: print only; a run of named files is never recorded).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { recordResult } from './results.ts';

interface Report {
  testResults: {
    name: string;
    assertionResults: { fullName: string; status: string; failureMessages: string[] }[];
  }[];
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-security-'));
const output = path.join(dir, 'report.json');
const proofs = path.join(dir, 'proofs.jsonl');
const CASE = '[case]';
const started = Date.now();
const files = process.argv.slice(2).filter((arg) => arg !== '--no-record');
spawnSync(
  'npx',
  [
    'vitest',
    'run',
    ...(files.length > 0 ? files : ['test/security']),
    '--reporter=json',
    `--outputFile=${output}`,
  ],
  {
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd: path.resolve(import.meta.dirname, '..'),
    env: { ...process.env, REGREEN_ATTACK_PROOFS: proofs },
  },
);
const proved = new Set(
  (existsSync(proofs) ? readFileSync(proofs, 'utf8') : '')
    .split('\n')
    .filter(Boolean)
    .map((line) => (JSON.parse(line) as { test: string }).test),
);
let report: Report;
try {
  report = JSON.parse(readFileSync(output, 'utf8')) as Report;
} catch {
  console.error('bench:security: vitest wrote no report');
  process.exit(2);
}
rmSync(dir, { recursive: true, force: true });
const notHeld: string[] = [];
let attacks = 0;
let held = 0;
let cases = 0;
let casesPassed = 0;
for (const file of report.testResults) {
  const results = file.assertionResults.filter((r) => !r.fullName.includes(CASE));
  const others = file.assertionResults.filter((r) => r.fullName.includes(CASE));
  const ok = results.filter((result) => result.status === 'passed').length;
  attacks += results.length;
  held += ok;
  cases += others.length;
  casesPassed += others.filter((r) => r.status === 'passed').length;
  console.log(
    `${path.relative(process.cwd(), file.name)}: ${results.length} attacks, ${ok} held${others.length ? `; ${others.length} other cases` : ''}`,
  );
  for (const result of [...results, ...others].filter((r) => r.status !== 'passed')) {
    const line = `  NOT HELD: ${result.fullName}\n    ${(result.failureMessages[0] ?? '').split('\n')[0]}`;
    notHeld.push(...line.split('\n'));
    console.log(line);
  }
}
const readAttacks = proved.size;
const lines = [
  `bench:security, every test of ${files.length > 0 ? files.join(', ') : 'test/security/'} (${report.testResults.length} files) against the real sandbox, tools and pipeline`,
  `baseline, same run: each read attack's command first pointed at a canary it may read, where it must print it (proof the attack could have shown a leak); cases tagged [case] (honest fixes, baselines, clean-ups) counted apart`,
  `(left out: what the threat model leaves out, README's "It does not defend": kernel bugs, side channels, a malicious operator or host, what an allowed registry serves)`,
  ...notHeld,
  `${attacks} attacks, ${held} held (${attacks > 0 ? ((100 * held) / attacks).toFixed(0) : '–'} %); ${readAttacks} of them read attacks proved to have run and to be able to print the canary; ${casesPassed}/${cases} other cases passed (${((Date.now() - started) / 1000).toFixed(0)} s)`,
];
console.log(lines.at(-1));
if (files.length === 0 && !process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(process.cwd(), recordResult('security', lines))}`);
process.exit(attacks > 0 && held === attacks && casesPassed === cases ? 0 : 1);
