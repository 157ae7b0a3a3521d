/**
 * A Python project reproduces as its CI did: the setup step creates the
 * project's virtual environment from its requirements (through the user's
 * own package index), every later command runs in it, and the failure is the
 * assertion CI saw — not a ModuleNotFoundError of a missing setup.
 */
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { commit, editScript, expectProposed, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';
import { pipEnvOf, startPypiIndex, type PypiIndex } from '../support/pypi-index.ts';
import { DEBUGPY_VERSION } from '../../tools/debug/adapters.ts';

const temp = makeTempDir('regreen-python-');
afterAll(() => temp.cleanup());

// pip installs from the tests' own index on loopback, never from this machine's pip settings.
let index: PypiIndex;
beforeAll(async () => {
  index = await startPypiIndex();
});
afterAll(() => index.close());
/** pip of the tests' index, and Python as a bare shell has it: writing bytecode caches. */
const pythonEnv = (): Record<string, string | undefined> => ({
  ...pipEnvOf(index),
  PYTHONDONTWRITEBYTECODE: undefined,
});

describe('a Python project', () => {
  it('is set up in its own venv and fails as CI did', async () => {
    const repo = path.join(temp.dir, 'calc');
    mkdirSync(path.join(repo, 'tests'), { recursive: true });
    writeFileSync(path.join(repo, 'requirements.txt'), 'cachetools\n');
    writeFileSync(path.join(repo, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    writeFileSync(path.join(repo, 'tests', '__init__.py'), '');
    writeFileSync(
      path.join(repo, 'tests', 'test_calc.py'),
      'import cachetools\nfrom calc import add\n\n\ndef test_add():\n    assert cachetools.LRUCache\n    assert add(2, 2) == 4\n',
    );
    for (const args of [
      ['init', '-q'],
      ['add', '-A'],
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'calc'],
    ])
      execFileSync('git', args, { cwd: repo });
    const data = path.join(temp.dir, 'data');
    // No PIP_INDEX_URL: pip in the sandbox reads the user's own pip configuration file (here one
    // naming the tests' index), as pip outside does.
    const pipConf = path.join(temp.dir, 'pip.conf');
    writeFileSync(pipConf, `[global]\nindex-url = ${index.url}\n`);
    const run = await runCli(
      ['fix', '--repo', repo, '--command', 'python -m pytest -q', '--data-dir', data, '--json'],
      { ...pythonEnv(), PIP_INDEX_URL: undefined, PIP_CONFIG_FILE: pipConf },
    );
    expect(run.stderr).toMatch(
      /prepare .*setup: python3 -m venv \.venv && \.venv\/bin\/python -m pip install -r requirements\.txt pytest → exit 0/,
    );
    const outcome = JSON.parse(run.stdout) as { status: string; reportedAt?: string };
    expect(outcome.status).toBe('diagnosis');
    expect(index.asked).toContain('cachetools');
    const diagnosis = readFileSync(outcome.reportedAt ?? '', 'utf8');
    expect(diagnosis).toMatch(/\*\*Failing:\*\* `tests\/test_calc\.py::test_add`/);
    expect(diagnosis).toMatch(/assert 0 == 4/);
    expect(diagnosis).not.toMatch(/ModuleNotFoundError|No module named/);
  }, 300_000);

  it('with a model, the fix is proposed: every check passes in the set-up environment', async () => {
    const repo = path.join(temp.dir, 'calc');
    const script = editScript(temp.dir, 'python', 'calc.py', 'return a - b', 'return a + b');
    const result = await fix(repo, script, pythonEnv());
    expect(result.stderr).toMatch(/prepare .*setup: python3 -m venv .* → exit 0/);
    // No --command: the test command is detected from the project.
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'calc.py', 'return a + b');
  }, 300_000);

  it("compares the reproduction with CI's log: an import error where CI had an assertion stops before any model", async () => {
    const ciLog = path.join(temp.dir, 'ci.log');
    writeFileSync(
      ciLog,
      [
        '##[group]Run python -m pytest -q',
        'python -m pytest -q',
        '##[endgroup]',
        'F                                                                        [100%]',
        '=================================== FAILURES ===================================',
        '___________________________________ test_add ___________________________________',
        '',
        '    def test_add():',
        '        assert cachetools.LRUCache',
        '>       assert add(2, 2) == 4',
        'E       assert 0 == 4',
        'E        +  where 0 = add(2, 2)',
        '',
        'tests/test_calc.py:7: AssertionError',
        '=========================== short test summary info ============================',
        'FAILED tests/test_calc.py::test_add - assert 0 == 4',
        '1 failed in 0.02s',
        '##[error]Process completed with exit code 1.',
      ]
        .map((line, i) => `2026-11-30T10:00:${String(i).padStart(2, '0')}.0000000Z ${line}`)
        .join('\n'),
    );
    // The same project whose config skips the install: its tests cannot import cachetools.
    const bare = path.join(temp.dir, 'calc-bare');
    execFileSync('git', ['clone', '-q', path.join(temp.dir, 'calc'), bare]);
    mkdirSync(path.join(bare, '.github'), { recursive: true });
    writeFileSync(path.join(bare, '.github', 'regreen.yml'), 'setup_command: "true"\n');
    execFileSync('git', ['add', '-A'], { cwd: bare });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'no setup'],
      { cwd: bare },
    );
    const script = editScript(temp.dir, 'python-unused', 'calc.py', 'return a - b', 'return a + b');
    const different = await runCli([
      'fix',
      '--repo',
      bare,
      '--log',
      ciLog,
      '--model',
      `script:${script}`,
      '--data-dir',
      path.join(temp.dir, 'bare-data'),
      '--json',
    ]);
    const outcome = JSON.parse(different.stdout) as {
      status: string;
      category?: string;
      reportedAt?: string;
      spend?: unknown;
    };
    expect(outcome.status, different.stderr).toBe('diagnosis');
    expect(outcome.category).toBe('reproduced-differently');
    expect(outcome.spend).toBeUndefined();
    expect(different.stderr).not.toMatch(/\[regreen\] agent/);
    const diagnosis = readFileSync(outcome.reportedAt ?? '', 'utf8');
    expect(diagnosis).toMatch(
      /reproduced differently: regreen's run failed on its environment \(`ModuleNotFoundError: No module named 'cachetools'`\)/,
    );
    // Both excerpts, side by side: CI's assertion, the sandbox's import error.
    expect(diagnosis).toMatch(
      /<td valign="top"><pre>[^<]*assert 0 == 4[^<]*<\/pre><\/td>\n<td valign="top"><pre>[^<]*No module named 'cachetools'/,
    );

    // Set up as CI was, the same log matches, and the pull request says so.
    const same = await fix(path.join(temp.dir, 'calc'), script, pythonEnv(), ['--log', ciLog]);
    expect(same.outcome.status, same.stderr).toBe('proposed');
    expect(same.outcome.reproduction).toBe('same');
    const prText = readFileSync(same.outcome.prTextPath ?? '', 'utf8');
    expect(prText).toMatch(
      /\*\*Reproduction:\*\* the same failure as CI's log: failing test\(s\) as CI: `.*test_add`/,
    );
    // The test output shows pytest's run, not the report regreen asked it for (a new user's R5).
    expect(prText).toContain('## Test output');
    expect(prText).not.toContain('generated xml file');
  }, 300_000);

  it("a plain project's interpreter gets the pinned debugpy when the debug tool is first used, outside the project, and the debugger works", async () => {
    const script = path.join(temp.dir, 'debug-script.json');
    const call = (id: string, input: Record<string, unknown>) => ({
      content: [{ type: 'tool_use', id, name: 'debug', input }],
    });
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          call('a', { op: 'adapters' }),
          call('b', { op: 'breakpoints', file: '$WORKSPACE/calc.py', lines: [2] }),
          call('c', { op: 'launch', program: '$WORKSPACE/run.py' }),
          call('d', { op: 'evaluate', expression: 'a - b' }),
          call('e', { op: 'terminate' }),
          { content: [{ type: 'text', text: 'add() subtracts.' }] },
        ],
      }),
    );
    const repo = path.join(temp.dir, 'calc-debug');
    execFileSync('git', ['clone', '-q', path.join(temp.dir, 'calc'), repo]);
    writeFileSync(path.join(repo, 'run.py'), 'from calc import add\n\nprint(add(5, 3))\n');
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'run'],
      { cwd: repo },
    );
    const data = path.join(temp.dir, 'debug-data');
    const run = await runCli(
      ['fix', '--repo', repo, '--model', `script:${script}`, '--data-dir', data, '--json'],
      pythonEnv(),
    );
    const outcome = JSON.parse(run.stdout) as { tracePath?: string };
    const trace = readFileSync(outcome.tracePath ?? '', 'utf8');
    // Installed by the tool's first use (the set-up installs nothing for it), at the pinned version.
    expect(trace).toContain(`debugpy: available (debugpy==${DEBUGPY_VERSION} installed now`);
    expect(trace).toMatch(/stopped[^"]*calc\.py:2/);
    expect(trace).toMatch(/"output":"2 \(int\)"/);
    // Nothing of debugpy went into the project's environment.
    const workspace = path.join(path.dirname(outcome.tracePath ?? ''), 'workspace');
    const venvHas = execFileSync(
      'find',
      [path.join(workspace, '.venv'), '-name', 'debugpy', '-maxdepth', '5'],
      {
        encoding: 'utf8',
      },
    );
    expect(venvHas.trim()).toBe('');
  }, 300_000);

  it('a Poetry project is installed by Poetry itself from its source, and its fix is proposed', async () => {
    // Its own index is the project's Poetry source; the operator's pip index names the same
    // host, so the set-up may reach it. Tests run with unittest: Debian's Poetry 1.3 reads no
    // dependencies of a wheel with Metadata 2.4 (pytest's), and cachetools has none.
    const repo = path.join(temp.dir, 'poetry-calc');
    write(repo, {
      'pyproject.toml': [
        '[tool.poetry]',
        'name = "calc"',
        'version = "0.1.0"',
        'description = ""',
        'authors = ["t <t@example.com>"]',
        'packages = [{ include = "calc" }]',
        '',
        '[tool.poetry.dependencies]',
        'python = "^3.9"',
        'cachetools = "*"',
        '',
        '[[tool.poetry.source]]',
        'name = "tests"',
        `url = "${index.url}"`,
        'default = true',
        '',
        '[build-system]',
        'requires = ["poetry-core"]',
        'build-backend = "poetry.core.masonry.api"',
        '',
      ].join('\n'),
      'calc/__init__.py': 'def add(a, b):\n    return a - b\n',
      'tests/__init__.py': '',
      'tests/test_calc.py':
        'import unittest\n\nimport cachetools\n\nfrom calc import add\n\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertTrue(cachetools.LRUCache)\n        self.assertEqual(add(2, 2), 4)\n',
      '.gitignore': '/.venv\n',
    });
    // The lock, as the project's author made it (Poetry on this side, against the same index).
    await promisify(execFile)('poetry', ['lock', '--no-interaction'], {
      cwd: repo,
      env: {
        ...process.env,
        POETRY_CACHE_DIR: path.join(temp.dir, 'poetry-cache'),
        PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring',
      },
    });
    commit(repo);
    const script = editScript(
      temp.dir,
      'poetry',
      'calc/__init__.py',
      'return a - b',
      'return a + b',
    );
    // As a shell has it: Poetry asks the keyring for the source's credentials.
    const result = await fix(repo, script, { ...pythonEnv(), PYTHON_KEYRING_BACKEND: undefined }, [
      '--command',
      'python -m unittest -v',
    ]);
    expect(result.stderr).toMatch(
      /prepare .*setup: POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction → exit 0/,
    );
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'calc/__init__.py', 'return a + b');
  }, 300_000);
});
