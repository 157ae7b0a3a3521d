import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gemSourceUrls, goEndpoints } from '../../src/workspace/setup/registries.ts';
import { detectSetupCommand, detectTestCommand } from '../../src/workspace/setup/detect.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-setup-detect-');
afterAll(() => temp.cleanup());
let n = 0;
const project = (files: Record<string, string>): string => {
  const dir = path.join(temp.dir, `p${(n += 1)}`);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  }
  return dir;
};
const none = (): undefined => undefined;
const all = (name: string): string => `/usr/bin/${name}`;

describe('the setup a repository needs', () => {
  it('Python: pip into .venv from the requirement files and the project, with its test extra and pytest', () => {
    expect(
      detectSetupCommand(
        project({
          'requirements.txt': 'six\n',
          'requirements-dev.txt': 'flake8\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(
      'python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt -r requirements-dev.txt pytest',
    );
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml':
            '[project]\nname = "x"\n[project.optional-dependencies]\ntest = ["pytest"]\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe("python3 -m venv .venv && .venv/bin/python -m pip install -e '.[test]'");
    // A lockfile's own tool when it is installed; pip when it is not.
    const uv = project({ 'pyproject.toml': '[project]\nname = "x"\n', 'uv.lock': '' });
    expect(detectSetupCommand(uv, all)).toBe('uv sync --frozen --all-extras');
    expect(detectSetupCommand(uv, none)).toBe(
      'python3 -m venv .venv && .venv/bin/python -m pip install -e .',
    );
    expect(detectSetupCommand(project({ 'poetry.lock': '', 'pyproject.toml': '' }), all)).toBe(
      'POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction',
    );
  });

  it('Python: the test dependencies from every standard place, the project only when it declares a package', () => {
    const pip = 'python3 -m venv .venv && .venv/bin/python -m pip install';
    const weaker = (deps: string): string =>
      ` || { echo 'regreen: installing the project failed; a weaker guess follows: its test dependencies without it' >&2; .venv/bin/python -m pip install ${deps}; }`;
    // PEP 735: a dependency group, with the groups it includes.
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml':
            '[build-system]\nrequires = ["hatchling"]\n[project]\nname = "x"\n[dependency-groups]\nlint = ["ruff"]\ntest = ["pytest>=8", {include-group = "cov"}]\ncov = ["coverage[toml]"]\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} 'pytest>=8' 'coverage[toml]' -e .${weaker("'pytest>=8' 'coverage[toml]'")}`);
    // setup.py's extras_require, and tox's deps.
    expect(
      detectSetupCommand(
        project({
          'setup.py':
            'from setuptools import setup\nsetup(name="x", extras_require={"testing": ["pytest", "mock"]})\n',
          'tox.ini':
            '[tox]\nenvlist = py3\n[testenv]\ndeps =\n    hypothesis\n    -rrequirements/ci.txt\n    {toxinidir}/x\ncommands = pytest\n',
          'requirements/ci.txt': 'six\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(
      `${pip} -r requirements/ci.txt hypothesis -e '.[testing]'${weaker('-r requirements/ci.txt hypothesis')}`,
    );
    // Poetry's test group (its caret constraints dropped, python itself not a package) without poetry here.
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml':
            '[build-system]\nrequires = ["poetry-core"]\n[tool.poetry]\nname = "x"\n[tool.poetry.dependencies]\npython = "^3.9"\n[tool.poetry.group.test.dependencies]\npytest = "^8.0"\nfreezegun = ">=1.2"\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} pytest 'freezegun>=1.2' -e .${weaker("pytest 'freezegun>=1.2'")}`);
    // PDM's and uv's dev groups; a Pipfile's packages without pipenv.
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml': '[tool.pdm.dev-dependencies]\ntest = ["pytest", "-e file:///x"]\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} pytest`);
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml': '[tool.uv]\ndev-dependencies = ["pytest>=8"]\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} 'pytest>=8'`);
    expect(
      detectSetupCommand(
        project({
          Pipfile: '[packages]\nrequests = "*"\n[dev-packages]\npytest = "==8.1"\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} requests 'pytest==8.1'`);
    // A flat project whose pyproject only configures tools declares no package: it is not installed.
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml': '[tool.black]\nline-length = 100\n',
          'requirements-dev.txt': 'pytest\n',
          'a.py': '',
          'b.py': '',
          'test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} -r requirements-dev.txt`);
    // A [tool.pytest.ini_options] table configures pytest; it does not install it.
    expect(
      detectSetupCommand(
        project({
          'pyproject.toml':
            '[build-system]\nrequires = ["setuptools"]\n[project]\nname = "shop"\n[tool.pytest.ini_options]\ntestpaths = ["tests"]\n',
          'tests/test_a.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} pytest -e .${weaker('pytest')}`);
    // Nothing declared and no build: no install at all.
    expect(
      detectSetupCommand(project({ 'pyproject.toml': '[tool.ruff]\n', 'test_a.py': '' }), none),
    ).toBeUndefined();
  });

  it("Python: tox's factor-conditional deps are for their environments; tests one package down still need pytest", () => {
    const pip = 'python3 -m venv .venv && .venv/bin/python -m pip install';
    const weaker = (deps: string): string =>
      ` || { echo 'regreen: installing the project failed; a weaker guess follows: its test dependencies without it' >&2; .venv/bin/python -m pip install ${deps}; }`;
    // As toolz keeps them: `toolz/tests/test_*.py`, no top-level tests folder, pytest declared nowhere.
    expect(
      detectSetupCommand(
        project({
          'setup.py': 'from setuptools import setup\nsetup(name="toolz")\n',
          'tox.ini':
            '[tox]\nenvlist = py3,py3-trio\n[testenv]\ndeps =\n    hypothesis\n    trio: trio\n    py38,py39: mock\n    py311-trio: anyio\n    !pypy: cffi\n    git+https://example.invalid/x.git\ncommands = pytest\n',
          'toolz/__init__.py': '',
          'toolz/tests/test_itertoolz.py': '',
        }),
        none,
      ),
    ).toBe(
      `${pip} hypothesis cffi 'git+https://example.invalid/x.git' pytest -e .${weaker("hypothesis cffi 'git+https://example.invalid/x.git' pytest")}`,
    );
    // A test module beside the package's code counts too; a test folder under node_modules does not.
    expect(
      detectSetupCommand(
        project({
          'setup.py': 'from setuptools import setup\nsetup(name="p")\n',
          'p/test_p.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} pytest -e .${weaker('pytest')}`);
    expect(
      detectSetupCommand(
        project({
          'setup.py': 'from setuptools import setup\nsetup(name="p")\n',
          'node_modules/tests/test_x.py': '',
        }),
        none,
      ),
    ).toBe(`${pip} -e .`);
  });

  it('Go, Rust, Ruby, Maven, Gradle; JavaScript lockfiles first', () => {
    expect(detectSetupCommand(project({ 'go.mod': 'module x\n', 'go.sum': 'a v1 h1:x\n' }))).toBe(
      'go mod download',
    );
    expect(detectSetupCommand(project({ 'go.mod': 'module x\n' }))).toBeUndefined();
    expect(detectSetupCommand(project({ 'Cargo.toml': '', 'Cargo.lock': '' }))).toBe(
      'cargo fetch --locked',
    );
    expect(detectSetupCommand(project({ Gemfile: '', 'Gemfile.lock': '' }))).toBe(
      'bundle config set --local path vendor/bundle && bundle install --frozen',
    );
    expect(detectSetupCommand(project({ 'pom.xml': '', mvnw: '' }))).toBe(
      './mvnw -B -q -DskipTests test-compile',
    );
    expect(detectSetupCommand(project({ 'build.gradle.kts': '' }))).toBe(
      'gradle --no-daemon -q testClasses',
    );
    expect(detectSetupCommand(project({ 'package-lock.json': '{}', 'requirements.txt': '' }))).toBe(
      'npm ci',
    );
  });

  it('a linked pyproject outside the workspace is not read', async () => {
    const { symlinkSync } = await import('node:fs');
    const dir = project({ 'setup.py': '' });
    const outside = path.join(temp.dir, 'secret.toml');
    writeFileSync(outside, '[project.optional-dependencies]\ntest = ["x"]\n');
    symlinkSync(outside, path.join(dir, 'pyproject.toml'));
    expect(detectSetupCommand(dir, none)).toBe(
      'python3 -m venv .venv && .venv/bin/python -m pip install -e .',
    );
  });

  it('the Go proxy and checksum database as go env reports them', () => {
    expect(goEndpoints('https://proxy.example:8443,direct\nsum.example\n')).toEqual([
      'https://proxy.example:8443',
      'https://sum.example',
    ]);
    expect(goEndpoints('off\noff\n')).toEqual([]);
    // `gem sources --list` prints a heading, a blank line, then one source a line.
    expect(
      gemSourceUrls('*** CURRENT SOURCES ***\n\nhttps://gems.example/\nhttp://127.0.0.1:9292/\n'),
    ).toEqual(['https://gems.example/', 'http://127.0.0.1:9292/']);
  });
});

describe('JavaScript installs by lockfile and pinned package manager', () => {
  it('the manager that wrote the lockfile (the pinned one is on PATH); yarn 1 and berry get their own frozen flag; bun its own', () => {
    const pinnedPnpm = project({
      'package.json': '{"packageManager":"pnpm@9.1.0"}',
      'pnpm-lock.yaml': '',
    });
    expect(detectSetupCommand(pinnedPnpm, all)).toBe('pnpm install --frozen-lockfile');
    expect(detectSetupCommand(pinnedPnpm, none)).toBe('pnpm install --frozen-lockfile');
    expect(detectSetupCommand(project({ 'package.json': '{}', 'yarn.lock': '' }), all)).toBe(
      'yarn install --frozen-lockfile',
    );
    expect(
      detectSetupCommand(
        project({ 'package.json': '{"packageManager":"yarn@4.2.0"}', 'yarn.lock': '' }),
        all,
      ),
    ).toBe('yarn install --immutable');
    expect(detectSetupCommand(project({ 'package.json': '{}', 'bun.lock': '' }), all)).toBe(
      'bun install --frozen-lockfile',
    );
  });
});

describe('the test command a project declares', () => {
  it("names each ecosystem's runner, wrappers first, JavaScript's script before all", () => {
    expect(detectTestCommand(project({ 'package.json': '{"scripts":{"test":"tape"}}' }))).toBe(
      'npm test',
    );
    expect(detectTestCommand(project({ 'pyproject.toml': '', 'tests/test_a.py': '' }))).toBe(
      'python3 -m pytest',
    );
    expect(detectTestCommand(project({ 'pyproject.toml': '' }))).toBeUndefined();
    expect(detectTestCommand(project({ 'go.mod': 'module x\n' }))).toBe('go test ./...');
    expect(detectTestCommand(project({ 'Cargo.toml': '' }))).toBe('cargo test');
    expect(detectTestCommand(project({ 'pom.xml': '', mvnw: '' }))).toBe('./mvnw -B test');
    expect(detectTestCommand(project({ 'build.gradle': '' }))).toBe(
      'gradle --no-daemon --offline test',
    );
    expect(detectTestCommand(project({ Gemfile: '', 'spec/a_spec.rb': '' }))).toBe(
      'bundle exec rspec',
    );
    expect(detectTestCommand(project({ Gemfile: '', Rakefile: '', 'test/a_test.rb': '' }))).toBe(
      'bundle exec rake test',
    );
    expect(detectTestCommand(project({ Makefile: 'all:\n\tcc x.c\n\ncheck: all\n\t./t\n' }))).toBe(
      'make check',
    );
    expect(detectTestCommand(project({ 'CMakeLists.txt': 'project(x)\nenable_testing()\n' }))).toBe(
      'cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure',
    );
    expect(detectTestCommand(project({ Makefile: 'all:\n\tcc x.c\n' }))).toBeUndefined();
    expect(detectTestCommand(project({ 'README.md': '' }))).toBeUndefined();
  });
});
