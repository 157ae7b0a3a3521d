/**
 * Issue 57 items 1 and 2: a job that runs actions/setup-python with a version from its matrix,
 * then pip, replayed on a machine whose `python` is a version manager's shim (whose rehash cannot
 * write) and whose system Python is externally managed (PEP 668): the replay gets what
 * setup-python gives a job, a Python of its own that pip may write, made from the real binary
 * behind the shim, inside the job's folders; the matrix entry replayed is the Linux one this
 * machine has the toolchain for, and the trace says which.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editScript, expectProposed, fix } from '../support/ecosystem.ts';
import { gitIn } from '../../fixtures/build.ts';
import { makeTempDir } from '../support/tmp.ts';
import { pipEnvOf, startPypiIndex, type PypiIndex } from '../support/pypi-index.ts';

const temp = makeTempDir('regreen-setup-replay-');
afterAll(() => temp.cleanup());

let index: PypiIndex;
beforeAll(async () => {
  index = await startPypiIndex();
});
afterAll(() => index.close());

/** A shim as pyenv's: it runs the real Python, and an install's rehash cannot write its folder. */
const SHIM = `#!/bin/sh
case " $* " in
  *" install "*) echo "pyenv: cannot rehash: $(dirname "$0") isn't writable" >&2; exit 1 ;;
esac
exec /usr/bin/python3 "$@"
`;

const WORKFLOW = `name: CI
on: [push, pull_request]
jobs:
  build:
    runs-on: \${{ matrix.os }}
    strategy:
      fail-fast: false
      matrix:
        os: [windows-latest, macos-latest, ubuntu-latest]
        python-version: ['3.8', '3.11']
    steps:
      - uses: actions/checkout@v4
      - name: Set up Python \${{ matrix.python-version }}
        uses: actions/setup-python@v5
        with:
          python-version: \${{ matrix.python-version }}
      - name: Install dependencies
        run: |
          python -m pip install --upgrade pip
          python -m pip install pytest cachetools
      - name: Test
        run: python -m pytest -q
`;

describe('a setup-python job replayed on a machine whose python is a shim', () => {
  it('gets a private Python environment pip may write, from the matrix entry this machine has', async () => {
    // The machine: Debian's Python, externally managed, and a shim folder first on PATH.
    expect(existsSync('/usr/lib/python3.11/EXTERNALLY-MANAGED')).toBe(true);
    const shims = path.join(temp.dir, 'shims');
    mkdirSync(shims, { recursive: true });
    for (const name of ['python', 'python3', 'python3.11', 'pip', 'pip3']) {
      writeFileSync(path.join(shims, name), SHIM);
      chmodSync(path.join(shims, name), 0o755);
    }
    const home = path.join(temp.dir, 'home');
    mkdirSync(home, { recursive: true });
    const repo = path.join(temp.dir, 'calc');
    mkdirSync(path.join(repo, 'tests'), { recursive: true });
    mkdirSync(path.join(repo, '.github', 'workflows'), { recursive: true });
    writeFileSync(path.join(repo, '.github', 'workflows', 'ci.yml'), WORKFLOW);
    writeFileSync(path.join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    writeFileSync(path.join(repo, 'tests', '__init__.py'), '');
    writeFileSync(
      path.join(repo, 'tests', 'test_calc.py'),
      'import cachetools\nfrom calc import add\n\n\ndef test_add():\n    assert cachetools.LRUCache\n    assert add(2, 2) == 4\n',
    );
    gitIn(repo, 'init', '-q', '-b', 'main');
    gitIn(repo, 'add', '-A');
    gitIn(repo, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'calc');
    const script = editScript(temp.dir, 'calc', 'calc.py', 'return a - b', 'return a + b');
    const nodeDir = path.dirname(process.execPath);
    const result = await fix(
      repo,
      script,
      {
        ...pipEnvOf(index),
        HOME: home,
        PATH: [shims, nodeDir, '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
        PYENV_ROOT: undefined,
        PYENV_VERSION: undefined,
        PIP_BREAK_SYSTEM_PACKAGES: undefined,
        PIP_USER: undefined,
        VIRTUAL_ENV: undefined,
        PYTHONDONTWRITEBYTECODE: undefined,
      },
      ['--command', 'python -m pytest -q'],
    );
    const trace = readFileSync(result.outcome.tracePath ?? '', 'utf8');
    // The entry replayed: Linux, and the Python this machine has (3.8 is not here).
    expect(trace).toContain(
      'matrix entry os=ubuntu-latest, python-version=3.11 (the first Linux entry whose toolchains this machine has; 6 in all)',
    );
    expect(trace).not.toMatch(/left out \(secrets or contexts\)/);
    expect(result.stderr).toMatch(
      /setup: replayed 2 steps \(Set up Python 3\.11; Install dependencies\) of matrix entry os=ubuntu-latest, python-version=3\.11 → exit 0/,
    );
    expect(index.asked).toContain('cachetools');
    // The failing command is the step's own: the job's Python reaches it without any wrapper.
    expect(trace).toContain('"command":"python -m pytest -q"');
    expect(trace).not.toContain('regreen-replay-env.sh\\" ] || .');
    expectProposed(result, repo, 'calc.py', 'return a + b');
  }, 300_000);
});
