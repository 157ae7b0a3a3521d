/**
 * #57 item 3: CI ran `python -m tox -e py311`, whose `[testenv]` says `extras = tests` and
 * `deps = -r requirements-test.txt`; regreen's set-up installed the project alone, so the run
 * said "No module named …" instead of CI's assertion. The runner's environment is reproduced in
 * `.venv` from the tests' loopback index (its deps, extras, PEP 735 groups, the project), and
 * the env's commands run there; the set-up line says which.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { commit, editScript, expectProposed, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';
import { pipEnvOf, startPypiIndex, type PypiIndex } from '../support/pypi-index.ts';

const temp = makeTempDir('regreen-runner-e2e-');
afterAll(() => temp.cleanup());
let index: PypiIndex;
beforeAll(async () => {
  index = await startPypiIndex();
});
afterAll(() => index.close());
const pythonEnv = (): Record<string, string | undefined> => ({
  ...pipEnvOf(index),
  PYTHONDONTWRITEBYTECODE: undefined,
});

/** `add` subtracts; the test needs the `tests` extra (cachetools) and the deps file (pytest). */
const CALC = {
  'calc.py': 'def add(a, b):\n    return a - b\n',
  'tests/__init__.py': '',
  'tests/test_calc.py':
    'import cachetools\nfrom calc import add\n\n\ndef test_add():\n    assert cachetools.LRUCache\n    assert add(2, 2) == 4\n',
};

/** The extra is named through a variable, as many setup.py files do: only tox's config names it. */
const toxProject = (repo: string): void => {
  write(repo, {
    ...CALC,
    'setup.py':
      'from setuptools import setup\n\nEXTRAS = {"tests": ["cachetools"]}\nsetup(name="calc", version="0.1", py_modules=["calc"], extras_require=EXTRAS)\n',
    'requirements-test.txt': 'pytest\n',
    'tox.ini':
      '[tox]\nenvlist = py311\n\n[testenv]\nextras = tests\ndeps = -r requirements-test.txt\ncommands = python -m pytest {posargs:tests}\n',
  });
  commit(repo);
};

/** A PEP 735 group hatch's default env installs; its name is none regreen would guess. */
const hatchProject = (repo: string): void => {
  write(repo, {
    ...CALC,
    'pyproject.toml': [
      '[build-system]',
      'requires = ["setuptools"]',
      'build-backend = "setuptools.build_meta"',
      '[project]',
      'name = "calc"',
      'version = "0.1"',
      '[tool.setuptools]',
      'py-modules = ["calc"]',
      '[dependency-groups]',
      'ci = ["pytest", { include-group = "runtime" }]',
      'runtime = ["cachetools"]',
      '[tool.hatch.envs.default]',
      'dependency-groups = ["ci"]',
      '[tool.hatch.envs.default.scripts]',
      'test = "python -m pytest {args}"',
      '',
    ].join('\n'),
  });
  commit(repo);
};

const diagnose = async (repo: string, command: string) => {
  const run = await runCli(
    ['fix', '--repo', repo, '--command', command, '--data-dir', `${repo}-data`, '--json'],
    pythonEnv(),
  );
  const outcome = JSON.parse(run.stdout) as { status: string; reportedAt?: string };
  return { run, outcome, diagnosis: readFileSync(outcome.reportedAt ?? '', 'utf8') };
};

describe("a task runner's environment is the job's set-up", () => {
  it("tox -e py311: its deps and extras installed, its commands run, CI's assertion reproduced", async () => {
    const repo = path.join(temp.dir, 'tox');
    toxProject(repo);
    const { run, outcome, diagnosis } = await diagnose(repo, 'python -m tox -e py311');
    expect(run.stderr).toMatch(
      /prepare .*setup: python3 -m venv \.venv && \.venv\/bin\/python -m pip install -r requirements-test\.txt -e '\.\[tests\]' .*→ exit 0; tox env py311 reproduced in \.venv .*extras \[tests\].*instead of tox: python -m pytest tests/,
    );
    expect(outcome.status).toBe('diagnosis');
    expect(index.asked).toEqual(expect.arrayContaining(['pytest', 'cachetools']));
    expect(diagnosis).toMatch(/assert 0 == 4/);
    expect(diagnosis).not.toMatch(/No module named/);
  }, 300_000);

  it("tox: the person's fix is proposed, every check running the env's command", async () => {
    const repo = path.join(temp.dir, 'tox-fix');
    toxProject(repo);
    const script = editScript(temp.dir, 'tox-fix', 'calc.py', 'return a - b', 'return a + b');
    const result = await fix(repo, script, pythonEnv(), ['--command', 'python -m tox -e py311']);
    expectProposed(result, repo, 'calc.py', 'return a + b');
  }, 300_000);

  it("the command tox's env runs, given alone, gets that env's extras", async () => {
    const repo = path.join(temp.dir, 'tox-inner');
    toxProject(repo);
    const { run, diagnosis } = await diagnose(repo, 'python -m pytest tests');
    expect(run.stderr).toMatch(/tox env py311 reproduced in \.venv .* for the command as it is/);
    expect(diagnosis).toMatch(/assert 0 == 4/);
    expect(diagnosis).not.toMatch(/No module named/);
  }, 300_000);

  it('hatch run test: the PEP 735 group its env names is installed', async () => {
    const repo = path.join(temp.dir, 'hatch');
    hatchProject(repo);
    const { run, diagnosis } = await diagnose(repo, 'hatch run test -q');
    expect(run.stderr).toMatch(
      /pip install pytest cachetools -e \. .*hatch env default reproduced in \.venv .*instead of hatch: python -m pytest -q/,
    );
    expect(diagnosis).toMatch(/assert 0 == 4/);
    expect(diagnosis).not.toMatch(/No module named/);
  }, 300_000);
});
