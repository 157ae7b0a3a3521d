/**
 * A repository's code may write a file of any size into the workspace, and
 * the change then carries it: an outside attacker's 100 MB one-line file
 * passed the diff limits (they counted lines) and was proposed, and the host
 * read the diff whole (1.6 GB of resident memory). The change's weight is now
 * asked of git's object store before any diff is read, and the checks fail
 * closed on a change too large to read.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, editScript, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-change-size-');
afterAll(() => temp.cleanup());

describe('a change that weighs more than the host reads', () => {
  it('a 40 MiB file the tests write once the code works is refused, never read whole', async () => {
    const repo = path.join(temp.dir, 'blob');
    write(repo, {
      'calc.py': 'def add(a, b):\n    return a - b\n',
      'test_calc.py': [
        'import os',
        '',
        'from calc import add',
        '',
        '',
        'def test_add():',
        '    assert add(2, 2) == 4',
        '    os.makedirs("pkg", exist_ok=True)',
        '    with open("pkg/blob.py", "w") as out:',
        '        out.write("x = \\"" + "a" * (40 * 1024 * 1024) + "\\"\\n")',
        '',
      ].join('\n'),
    });
    commit(repo);
    const script = editScript(temp.dir, 'blob', 'calc.py', 'return a - b', 'return a + b');
    const result = await fix(repo, script, {}, ['--command', 'python3 -m pytest -q']);
    expect(result.outcome.status, result.stderr).not.toBe('proposed');
    const failed = (result.outcome.checks ?? []).filter((check) => !check.ok);
    expect(JSON.stringify(failed)).toMatch(/weighs \d+\.\d MiB .*more than the 32 MiB/);
  }, 300_000);
});
