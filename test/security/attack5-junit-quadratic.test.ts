/**
 * attack5: pytest's JUnit report is read on the host, in regreen's one event
 * loop, by `<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)`: for each
 * `<testcase …>` that is never closed the lazy body runs to the end of the
 * report, and the next opening starts again: quadratic in the report's size
 * (a 2 MB report of unclosed openings is minutes; the cap is 64 MiB). No
 * backtracking rule of the lint catches a match that moves. The repository's
 * own conftest writes such a report over pytest's at the end of the run; an
 * honest fix of it must still end.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCliWithin } from '../support/cli.ts';
import { callsScript, commit, editCall, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack5-junit-');
afterAll(() => temp.cleanup());

const CONFTEST = [
  'def pytest_unconfigure(config):',
  '    report = getattr(config.option, "xmlpath", None)',
  '    if report:',
  '        with open(report, "w") as out:',
  '            out.write("<testsuites><testsuite>" + \'<testcase name="x">\' * 120000 + "</testsuite></testsuites>")',
  '',
].join('\n');

describe("attack5: a runner's report parsed on the host in quadratic time", () => {
  it('an honest fix of a repository whose report holds unclosed testcases still ends', async () => {
    const repo = path.join(temp.dir, 'repo');
    write(repo, {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'conftest.py': CONFTEST,
      'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
    });
    commit(repo);
    const script = callsScript(temp.dir, 'calls', [
      editCall('calc.py', 'return a - b', 'return a + b'),
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
        'python3 -m pytest -q',
        '--json',
      ],
      240_000,
    );
    expect(ended.signal, `regreen was still busy after ${ended.seconds} s (killed)`).toBeNull();
    expect(ended.stdout).toContain('"status"');
  }, 300_000);
});
