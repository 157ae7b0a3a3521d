/**
 * Code under test runs inside the runner's process: an outside attacker's
 * "fix" left the bug in place and, at interpreter exit (a weakref finalizer,
 * none of the words no-runner-tampering lists), rewrote pytest's JUnit report
 * as all-pass and exited 0. The report was the only witness, and the fix was
 * proposed. What pytest printed while it ran is a second witness now: when
 * the two disagree, the checks fail closed.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readRun } from '../../checks/run-counts.ts';
import { callsScript, commit, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';
import { CASE } from './support.ts';

const temp = makeTempDir('regreen-report-forgery-');
afterAll(() => temp.cleanup());

const FORGER = [
  'import weakref as _w',
  '',
  '',
  'def add(a, b):',
  '    return a - b',
  '',
  '',
  'class _K:',
  '    pass',
  '',
  '',
  '_k = _K()',
  '',
  '',
  'def _done():',
  '    import glob, re, tempfile, posix',
  '    for f in glob.glob(tempfile.gettempdir() + "/regreen-report-*.xml"):',
  '        x = open(f).read()',
  '        x = re.sub(r"<failure[\\s\\S]*?</failure>", "", x)',
  '        x = re.sub(r\'failures="\\d+"\', \'failures="0"\', x)',
  '        open(f, "w").write(x)',
  '    posix._exit(0)',
  '',
  '',
  '_w.finalize(_k, _done)',
  '',
].join('\n');

describe("a runner's report rewritten by the code under test", () => {
  it('a "fix" that forges pytest\'s JUnit report at exit is never proposed', async () => {
    const repo = path.join(temp.dir, 'forged');
    write(repo, {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'test_calc.py':
        'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n',
    });
    commit(repo);
    const script = callsScript(temp.dir, 'forged', [
      { name: 'write', input: { path: '$WORKSPACE/calc.py', content: FORGER } },
    ]);
    const result = await fix(repo, script, {}, ['--command', 'python3 -m pytest -q']);
    expect(result.outcome.status, result.stderr).not.toBe('proposed');
    const failed = (result.outcome.checks ?? []).filter((check) => !check.ok);
    expect(JSON.stringify(failed)).toMatch(/printed 1 failing as it ran/);
  }, 300_000);

  it(`a report that agrees with what pytest printed is read as before ${CASE}`, () => {
    const junit =
      '<testsuites><testsuite name="pytest" errors="0" failures="1" skipped="0" tests="2"><testcase classname="test_calc" name="test_add"><failure message="x"/></testcase><testcase classname="test_calc" name="test_zero"/></testsuite></testsuites>';
    const agreeing = readRun({
      exitCode: 1,
      output: 'F.\n1 failed, 1 passed in 0.02s\n',
      proof: { junit, goVerbose: true },
    } as never);
    expect(agreeing.contradicted).toBeUndefined();
    expect(agreeing.counts?.failed).toBe(1);
    const forged = readRun({
      exitCode: 0,
      output: 'F.\n=================== 1 failed, 1 passed in 0.02s ===================\n',
      proof: {
        junit: junit.replace('<failure message="x"/>', '').replace('failures="1"', 'failures="0"'),
        goVerbose: true,
      },
    } as never);
    expect(forged.contradicted).toMatch(/counts 0 failing, but it printed 1 failing/);
  });
});
