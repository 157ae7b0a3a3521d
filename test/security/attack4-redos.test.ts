/**
 * attack4: the checks read a run's counts from what its runner printed
 * (`checks/test-counts.ts`), on the host, in regreen's one event loop. The
 * vitest summary pattern `^\s*Tests\s+(\d+ \w+( \| )?)+ \(\d+\)` nests a
 * quantifier whose pieces can split a run of digits many ways: a line the
 * repository's own test prints (`Tests 1 11111111 11111111 … x`, ~110 bytes)
 * backtracks exponentially. Nothing times the host's own parsing, and a
 * blocked event loop fires no timer: the job's time limits cannot stop it.
 * An honest fix of a repository whose test prints such lines must still end.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliWithin } from '../support/cli.ts';
import { callsScript, commit, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack4-redos-');
afterAll(() => temp.cleanup());

/** One line the summary pattern backtracks on for minutes (2^n in the number of words). */
const EVIL = `Tests 1 ${'11111111 '.repeat(12)}x`;

describe('attack4: what a test prints is parsed on the host without a bound on time', () => {
  it('an honest fix of a repository whose test prints lines shaped like a summary still ends', async () => {
    const repo = path.join(temp.dir, 'repo');
    write(repo, {
      'package.json': '{ "name": "calc", "version": "1.0.0" }\n',
      'calc.js': 'exports.add = (a, b) => a - b;\n',
      'run-tests.js': `const { add } = require('./calc.js');\nfor (let i = 0; i < 8; i += 1) console.log(${JSON.stringify(EVIL)});\nif (add(2, 2) !== 4) {\n  console.error('add(2, 2) is', add(2, 2));\n  process.exit(1);\n}\nconsole.log('all good');\n`,
    });
    commit(repo);
    const script = callsScript(temp.dir, 'calls', [
      { name: 'edit', input: { path: '$WORKSPACE/calc.js', old: 'a - b', new: 'a + b' } },
    ]);
    const ended = await runCliWithin(
      [
        'fix',
        '--repo',
        repo,
        '--model',
        `script:${script}`,
        '--data-dir',
        path.join(temp.dir, 'data'),
        '--command',
        'node run-tests.js',
        '--json',
      ],
      240_000,
    );
    expect(ended.signal, `regreen was still busy after ${ended.seconds} s (killed)`).toBeNull();
    expect(ended.stdout).toContain('"status"');
  }, 300_000);
});
