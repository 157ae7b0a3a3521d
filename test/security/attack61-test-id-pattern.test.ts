/**
 * issue 61, class 1: a test's name from a CI log, or from what the sandboxed
 * command printed, was compiled into a RegExp unescaped (the pytest
 * recogniser's banner search, the JVM recogniser's frame search). A test named
 * `(a+)+b` beside a banner line of 40 `a`s backtracked for minutes: `regreen
 * triage` of a two-line log, and the reproduce path's reading of the failing
 * command's output, held the event loop. Each run here ends or is killed.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliWithin } from '../support/cli.ts';
import { callWithin } from '../support/deadline.ts';
import { callsScript, commit, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack61-test-id-');
afterAll(() => temp.cleanup());

const DEADLINE = 60_000;
const A40 = 'a'.repeat(40);
const PYTEST = `FAILED tests/test_x.py::(a+)+b\n___ ${A40}\n`;
const JVM = `[ERROR] (a+)+b.t -- Time elapsed: 0.01 s <<< FAILURE!\n[ERROR]   ${A40}\n`;

describe('attack61: a test name from a log never becomes a pattern', () => {
  it('regreen triage of a two-line log naming the test (a+)+b ends', async () => {
    const log = path.join(temp.dir, 'ci.log');
    writeFileSync(log, PYTEST);
    const ended = await runCliWithin(['triage', '--log', log, '--json'], DEADLINE);
    expect(ended.signal, `regreen was still busy after ${ended.seconds} s (killed)`).toBeNull();
    expect(ended.stdout).toContain('(a+)+b');
  }, 90_000);

  it.each([
    ['pytest', PYTEST],
    ['a JVM frame', JVM],
  ])(
    'the failing command printing %s is read in time (the reproduce path)',
    async (_, output) => {
      const ended = await callWithin('src/job/toolbox.ts', 'failureLocations', [output], DEADLINE);
      expect(ended.signal, ended.stderr).toBeNull();
      expect(ended.value).toBeInstanceOf(Array);
    },
    90_000,
  );
});

describe('attack61: regreen fix whose failing command prints a test named (a+)+b', () => {
  it('an honest fix still ends', async () => {
    const repo = path.join(temp.dir, 'repo');
    write(repo, {
      'package.json': '{ "name": "calc", "version": "1.0.0" }\n',
      'calc.js': 'exports.add = (a, b) => a - b;\n',
      'run-tests.js': `const { add } = require('./calc.js');\nif (add(2, 2) !== 4) {\n  process.stdout.write(${JSON.stringify(PYTEST)});\n  process.exit(1);\n}\nconsole.log('all good');\n`,
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
