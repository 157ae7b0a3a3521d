import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { detectSetupCommand } from '../../src/workspace/setup/detect.ts';
import { parseIni } from '../../src/workspace/setup/ini-sections.ts';
import { runnerPlan } from '../../src/workspace/setup/task-runner.ts';
import { shellWords } from '../../src/util/shell-words.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-runner-');
afterAll(() => temp.cleanup());
let count = 0;
const project = (files: Record<string, string>): string => {
  count += 1;
  const dir = path.join(temp.dir, `p${count}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
};

const SETUP_PY =
  'from setuptools import setup\n\nEXTRAS = {"tests": ["cachetools"]}\nsetup(name="calc", py_modules=["calc"], extras_require=EXTRAS)\n';
const TOX_INI = [
  '[tox]',
  'envlist = py311, lint',
  '',
  '[base]',
  'deps = -r requirements-test.txt',
  '',
  '[testenv]',
  'extras = tests',
  'deps =',
  '    {[base]deps}',
  '    py311: packaging  # only on 3.11',
  '    lint: flake8',
  '    !lint: iniconfig',
  'setenv =',
  '    CALC_MODE = strict',
  'commands =',
  '    python -m pytest {posargs:tests}',
  '',
  '[testenv:lint]',
  'skip_install = true',
  'commands = flake8 .',
  '',
].join('\n');

describe("a task runner's environment (#57 item 3)", () => {
  it('tox: the env named by -e, its deps (references, factors), extras, setenv and commands', () => {
    const dir = project({
      'tox.ini': TOX_INI,
      'setup.py': SETUP_PY,
      'requirements-test.txt': 'pytest\n',
    });
    const plan = runnerPlan(dir, 'python -m tox -e py311 -- -k add');
    expect(plan?.env).toMatchObject({
      runner: 'tox',
      env: 'py311',
      files: ['requirements-test.txt'],
      packages: ['packaging', 'iniconfig'],
      extras: ['tests'],
      installProject: true,
    });
    expect(plan?.command).toBe('export CALC_MODE=strict && python -m pytest -k add');
    expect(plan?.note).toMatch(
      /^tox env py311 reproduced in \.venv .*extras \[tests\].*instead of tox/,
    );
    const setup = detectSetupCommand(dir, () => undefined, plan);
    expect(setup).toContain(
      ".venv/bin/python -m pip install -r requirements-test.txt packaging iniconfig -e '.[tests]'",
    );
    // The lint env: its own section over [testenv], the project not installed.
    const lint = runnerPlan(dir, 'tox run -e lint');
    expect(lint?.env).toMatchObject({ env: 'lint', installProject: false, packages: ['flake8'] });
    expect(lint?.command).toBe('export CALC_MODE=strict && flake8 .');
  });

  it('tox: a command that is not tox gets the plain env it would run in (the first of envlist)', () => {
    const dir = project({
      'tox.ini': TOX_INI,
      'setup.py': SETUP_PY,
      'requirements-test.txt': 'pytest\n',
    });
    const plan = runnerPlan(dir, 'python -m pytest -q');
    expect(plan?.command).toBeUndefined();
    expect(plan?.env.extras).toEqual(['tests']);
    expect(plan?.note).toMatch(/for the command as it is$/);
    // The env that runs the command's program, not the first listed (a lint env first).
    const lintFirst = project({
      'tox.ini': TOX_INI.replace('envlist = py311, lint', 'envlist = lint, py3{11,12}'),
      'setup.py': SETUP_PY,
    });
    expect(runnerPlan(lintFirst, 'pytest -q')?.env.env).toBe('py311');
  });

  it("tox: setup.cfg's [tox:tox], pyproject's legacy_tox_ini and tox 4's own tables", () => {
    const cfg = project({
      'setup.cfg': '[tox:tox]\nenvlist = py\n\n[testenv]\nextras = test\ncommands = pytest\n',
    });
    expect(runnerPlan(cfg, 'tox')?.env.extras).toEqual(['test']);
    const legacy = project({
      'pyproject.toml':
        '[tool.tox]\nlegacy_tox_ini = """\n[testenv]\ndeps = cachetools\ncommands = pytest {posargs}\n"""\n',
    });
    expect(runnerPlan(legacy, 'tox -e py')?.command).toBe('pytest');
    const native = project({
      'pyproject.toml': [
        '[dependency-groups]',
        'ci = ["pytest", { include-group = "runtime" }]',
        'runtime = ["cachetools"]',
        '[tool.tox]',
        'env_list = ["py311"]',
        '[tool.tox.env_run_base]',
        'dependency_groups = ["ci"]',
        'commands = [["pytest", { replace = "posargs", default = ["tests"], extend = true }]]',
      ].join('\n'),
    });
    const plan = runnerPlan(native, 'tox');
    expect(plan?.env.packages).toEqual(['pytest', 'cachetools']);
    expect(plan?.command).toBe('pytest tests');
  });

  it('hatch: the env and script `hatch run` names, its PEP 735 groups and features; `hatch test`', () => {
    const dir = project({
      'pyproject.toml': [
        '[dependency-groups]',
        'ci = ["pytest", { include-group = "runtime" }]',
        'runtime = ["cachetools"]',
        '[tool.hatch.envs.default]',
        'features = ["speed"]',
        'dependency-groups = ["ci"]',
        '[tool.hatch.envs.default.scripts]',
        'test = "python -m pytest {args}"',
        'all = ["test -x", "python -c pass"]',
        '[tool.hatch.envs.hatch-test]',
        'extra-dependencies = ["cachetools"]',
      ].join('\n'),
    });
    const run = runnerPlan(dir, 'hatch run test -q');
    expect(run?.env).toMatchObject({
      runner: 'hatch',
      packages: ['pytest', 'cachetools'],
      extras: ['speed'],
    });
    expect(run?.command).toBe('python -m pytest -q');
    expect(runnerPlan(dir, 'hatch run all')?.command).toBe('python -m pytest -x && python -c pass');
    const test = runnerPlan(dir, 'hatch test -k add');
    expect(test?.env.packages).toEqual(['pytest', 'cachetools']);
    expect(test?.command).toBe('python -m pytest -k add');
  });

  it('pdm: `pdm run` a script with every dev group and dependency group', () => {
    const dir = project({
      'pyproject.toml':
        '[tool.pdm.dev-dependencies]\nci = ["pytest"]\n[tool.pdm.scripts]\ntest = "pytest -q"\n',
    });
    const plan = runnerPlan(dir, 'pdm run test tests');
    expect(plan?.env.packages).toEqual(['pytest']);
    expect(plan?.command).toBe('pytest -q tests');
  });

  it('nox: the session read statically, its installs and runs (posargs in place)', () => {
    const dir = project({
      'noxfile.py': [
        'import nox',
        '',
        '',
        '@nox.session(python=["3.11", "3.12"])',
        'def tests(session):',
        '    session.install("-r", "requirements-test.txt")',
        '    session.install(',
        '        "-e", ".[tests]",  # the project, editable',
        '        "cachetools",',
        '    )',
        '    session.run("pytest", "-q", *session.posargs, env={"X": "1"})',
        '',
        '',
        '@nox.session(name="lint")',
        'def run_lint(session):',
        '    session.install(LINTERS)',
        '    session.run("flake8", f"{session.bin}/x")',
        '',
      ].join('\n'),
    });
    const plan = runnerPlan(dir, 'python -m nox -s tests-3.11 -- -k add');
    expect(plan?.env).toMatchObject({
      runner: 'nox',
      files: ['requirements-test.txt'],
      packages: ['cachetools'],
      extras: ['tests'],
      installProject: true,
    });
    expect(plan?.command).toBe('pytest -q -k add');
    // What is not a literal is not guessed at: the install said, the commands left unread.
    const lint = runnerPlan(dir, 'nox --session lint');
    expect(lint?.env.notes[0]).toMatch(/install argument regreen cannot read: LINTERS/);
    expect(lint?.command).toBeUndefined();
    expect(lint?.note).toMatch(/could not be read/);
  });

  it('hostile text: bounded, read in one pass, never run on the host', () => {
    // A quadratic-looking line and a reference loop neither hang nor recurse without end.
    const dir = project({
      'tox.ini': `[testenv]\ndeps =\n    ${'a-'.repeat(50_000)}: x\n    {[testenv]deps}\ncommands = python -m pytest $(touch /tmp/pwned)\n`,
    });
    const plan = runnerPlan(dir, 'tox');
    expect(plan?.command).toBeUndefined();
    expect(plan?.note).toMatch(/could not be read/);
    const nox = project({
      'noxfile.py': `@nox.session\ndef t(session):\n${'    session.run("x", \n'.repeat(5000)}`,
    });
    expect(runnerPlan(nox, 'nox -s t')?.command).toBeUndefined();
    expect(parseIni('[a]\nk = v \\\n  w\n').get('a')?.get('k')).toEqual(['v w']);
    expect(shellWords('a "b c" \'d\' e\\ f')).toEqual(['a', 'b c', 'd', 'e f']);
    expect(shellWords('a && b')).toBeUndefined();
  });
});
