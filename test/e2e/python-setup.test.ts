/**
 * A Python project reproduces as its CI did: the setup step creates the
 * project's virtual environment from its requirements (through the user's
 * own package index), every later command runs in it, and the failure is the
 * assertion CI saw — not a ModuleNotFoundError of a missing setup.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { editScript, expectProposed, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-python-');
afterAll(() => temp.cleanup());

/** This machine's package index, as the user's pip configuration names it. */
const userIndex = (): string => {
  const config = execFileSync('python3', ['-m', 'pip', 'config', 'list'], { encoding: 'utf8' });
  const url = /(?:^|\.)(?:extra-)?index-url='([^'\s]+)/m.exec(config)?.[1];
  if (!url) throw new Error(`no package index in the pip configuration:\n${config}`);
  return url;
};

describe('a Python project', () => {
  it('is set up in its own venv and fails as CI did', async () => {
    const repo = path.join(temp.dir, 'calc');
    mkdirSync(path.join(repo, 'tests'), { recursive: true });
    writeFileSync(path.join(repo, 'requirements.txt'), 'six\n');
    writeFileSync(path.join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    writeFileSync(path.join(repo, 'tests', '__init__.py'), '');
    writeFileSync(
      path.join(repo, 'tests', 'test_calc.py'),
      'import six\nfrom calc import add\n\n\ndef test_add():\n    assert six.PY3\n    assert add(2, 2) == 4\n',
    );
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'calc'],
    ])
      execFileSync('git', args, { cwd: repo });
    const data = path.join(temp.dir, 'data');
    const run = await runCli(
      ['fix', '--repo', repo, '--command', 'python -m pytest -q', '--data-dir', data, '--json'],
      { PIP_INDEX_URL: userIndex() },
    );
    expect(run.stderr).toMatch(
      /prepare .*setup: python3 -m venv \.venv && \.venv\/bin\/python -m pip install -r requirements\.txt pytest → exit 0/,
    );
    const outcome = JSON.parse(run.stdout) as { status: string; reportedAt?: string };
    expect(outcome.status).toBe('diagnosis');
    const diagnosis = readFileSync(outcome.reportedAt ?? '', 'utf8');
    expect(diagnosis).toMatch(/\*\*Failing:\*\* `tests\/test_calc\.py::test_add`/);
    expect(diagnosis).toMatch(/assert 0 == 4/);
    expect(diagnosis).not.toMatch(/ModuleNotFoundError|No module named/);
  }, 300_000);

  it('with a model, the fix is proposed: every check passes in the set-up environment', async () => {
    const repo = path.join(temp.dir, 'calc');
    const script = editScript(temp.dir, 'python', 'calc.py', 'return a - b', 'return a + b');
    const result = await fix(repo, script, { PIP_INDEX_URL: userIndex() });
    expect(result.stderr).toMatch(/prepare .*setup: python3 -m venv .* → exit 0/);
    // No --command: the test command is detected from the project.
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'calc.py', 'return a + b');
  }, 300_000);
});
