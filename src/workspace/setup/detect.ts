import path from 'node:path';
import type { Which } from '../../util/which.ts';
import { listInside, readTextInside } from '../repo/confined-fs.ts';
import { existsInside } from '../repo/confined-stat.ts';
import { pythonTestDeps } from './python-test-deps.ts';
import { quote } from '../../util/text.ts';
import { PROJECT_VENV } from './interpreters.ts';
import type { RunnerPlan } from './task-runner.ts';

/** A file of the repository, read without following its links out of the workspace. */
const read = (workspace: string, file: string): string =>
  readTextInside(workspace, path.join(workspace, file)) ?? '';

/** A path as a shell word: bare when plain, quoted otherwise. */
const word = (text: string): string => (/^[\w./-]+$/.test(text) ? text : quote(text));

/** Requirement files people keep for tests and development, in the order pip should read them. */
const REQUIREMENTS = [
  'requirements.txt',
  'requirements-dev.txt',
  'requirements_dev.txt',
  'dev-requirements.txt',
  'requirements-test.txt',
  'requirements_test.txt',
  'test-requirements.txt',
  'requirements/dev.txt',
  'requirements/test.txt',
  'requirements/tests.txt',
];

const TEST_FILE = /^test_.*\.py$|_test\.py$|^conftest\.py$/;
const TEST_DIRS = new Set(['tests', 'test', 'testing']);
const NOT_SOURCES = new Set(['node_modules', 'venv', 'build', 'dist', 'docs', 'site-packages']);

/**
 * Whether the project has Python tests at its top or one package down
 * (`toolz/tests/`, `pkg/test_x.py`), where many libraries keep them.
 */
const hasPythonTests = (workspace: string): boolean => {
  const entries = (dir: string) => {
    try {
      return listInside(workspace, dir);
    } catch {
      return [];
    }
  };
  const holdsTests = (dir: string): boolean =>
    entries(dir).some((entry) =>
      entry.isDirectory() ? TEST_DIRS.has(entry.name) : TEST_FILE.test(entry.name),
    );
  if (holdsTests(workspace)) return true;
  return entries(workspace).some(
    (entry) =>
      entry.isDirectory() &&
      !entry.name.startsWith('.') &&
      !NOT_SOURCES.has(entry.name) &&
      holdsTests(path.join(workspace, entry.name)),
  );
};

/** What a guessed Python set-up prints when the project's own install failed and the weaker guess runs. */
export const WEAKER_GUESS =
  'regreen: installing the project failed; a weaker guess follows: its test dependencies without it';

/** What to install for a Python project: requirement files, specifiers, the project's extras. */
interface PythonInstall {
  readonly requirements: readonly string[];
  readonly packages: readonly string[];
  readonly extras: readonly string[];
  readonly installable: boolean;
  readonly declaresPytest: boolean;
}

/**
 * What the project declares for its tests (see `pythonTestDeps`); with the env of the runner the
 * command names, what that env installs, exactly; with the env a runner the project configures
 * makes for a command of its own (`python -m pytest` beside a tox.ini), both.
 */
const pythonInstall = (workspace: string, runner: RunnerPlan | undefined): PythonInstall => {
  const has = (name: string): boolean => existsInside(workspace, path.join(workspace, name));
  const declared = pythonTestDeps(workspace);
  const guessed: PythonInstall = {
    requirements: [...new Set([...REQUIREMENTS.filter(has), ...declared.files.filter(has)])],
    packages: declared.packages,
    extras: declared.extra ? [declared.extra] : [],
    installable: declared.installable,
    declaresPytest: declared.declaresPytest,
  };
  if (!runner) return guessed;
  const { env } = runner;
  const own = runner.command !== undefined;
  const requirements = [
    ...new Set([...(own ? [] : guessed.requirements), ...env.files.filter(has)]),
  ];
  // An option (`--index-url …`, `-e …`) is no requirement: pip would take it as its own.
  const packages = [...new Set([...(own ? [] : guessed.packages), ...env.packages])].filter(
    (spec) => !spec.startsWith('-'),
  );
  const extras = [...new Set([...(own ? [] : guessed.extras), ...env.extras])];
  const texts = [...packages, ...requirements.map((file) => read(workspace, file))];
  return {
    requirements,
    packages,
    extras,
    installable: declared.installable && (env.installProject || !own),
    declaresPytest:
      texts.some((text) => /^[ \t]*pytest\b/im.test(text)) ||
      (extras.length > 0 && declared.declaresPytest),
  };
};

/**
 * The install a Python project needs, into the project's own virtual
 * environment: what its task runner's environment installs for the command
 * (`task-runner.ts`: tox's deps and extras, hatch's dependencies and
 * features, pdm's groups), else what it declares (see `pythonTestDeps`): its
 * requirement files, a PEP 735 dependency group or tox's deps, and the
 * project itself (with its test extra) only when it declares a build. When
 * that guess fails, a weaker one follows — the test dependencies without the
 * project — and the setup's output says so.
 */
const pythonSetup = (
  workspace: string,
  which: Which,
  runner: RunnerPlan | undefined,
): string | undefined => {
  const has = (name: string): boolean => existsInside(workspace, path.join(workspace, name));
  // A runner's env the command names is CI's set-up; a lockfile's manager otherwise.
  if (!runner?.command) {
    if (has('uv.lock') && which('uv')) return 'uv sync --frozen --all-extras';
    if (has('poetry.lock') && which('poetry'))
      return `POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction${poetryGroups(workspace)}`;
    if (has('pdm.lock') && which('pdm')) return 'pdm install --frozen-lockfile';
    if (has('Pipfile.lock') && which('pipenv'))
      return 'PIPENV_VENV_IN_PROJECT=1 pipenv install --dev --deploy';
  }
  const { requirements, packages, extras, installable, declaresPytest } = pythonInstall(
    workspace,
    runner,
  );
  if (requirements.length === 0 && !installable && packages.length === 0) return undefined;
  const inRequirementFiles = requirements
    .map((file) => read(workspace, file))
    .some((text) => /^[^\S\n\r\u2028\u2029]*pytest\b/im.test(text));
  // CI installs the runner next to the project when the project does not declare it (a
  // `[tool.pytest.ini_options]` table configures pytest; it does not install it).
  const runs = runner?.command ?? '';
  const runsPytest = runner?.command === undefined || /\bpytest\b/.test(runs);
  const wantsRunner =
    runsPytest && hasPythonTests(workspace) && !declaresPytest && !inRequirementFiles;
  const dependencies = [
    ...requirements.map((file) => `-r ${word(file)}`),
    ...packages.map((spec) => word(spec)),
    ...(wantsRunner ? ['pytest'] : []),
  ];
  const venv = `${PROJECT_VENV}/bin/python`;
  const install = (targets: readonly string[]): string =>
    `${venv} -m pip install ${targets.join(' ')}`;
  const project = installable
    ? [`-e ${extras.length > 0 ? quote(`.[${extras.join(',')}]`) : '.'}`]
    : [];
  const guess = `python3 -m venv ${PROJECT_VENV} && ${install([...dependencies, ...project])}`;
  if (!installable || dependencies.length === 0) return guess;
  return `${guess} || { echo ${quote(WEAKER_GUESS)} >&2; ${install(dependencies)}; }`;
};

/** Poetry's optional test groups (`optional = true`: a plain install leaves them out), as `--with`. */
const poetryGroups = (workspace: string): string => {
  const text = read(workspace, 'pyproject.toml');
  const optional: string[] = [];
  let group: string | undefined;
  for (const line of text.split('\n')) {
    const header = /^\[tool\.poetry\.group\.([\w-]+)\]\s*$/.exec(line.trim());
    if (header) group = header[1];
    else if (line.startsWith('[')) group = undefined;
    else if (group && /^optional\s*=\s*true\b/.test(line.trim())) optional.push(group);
  }
  const tests = optional.filter((name) => ['test', 'tests', 'testing', 'dev'].includes(name));
  return tests.length > 0 ? ` --with ${tests.join(',')}` : '';
};

/**
 * The dependency install a repository needs, decided by what it declares:
 * JavaScript lockfiles; a Python project (uv, poetry, pdm or pipenv when
 * their lockfile and tool are there, else pip into `.venv` from its
 * requirement files and its pyproject, with its test extra); a Go module; a
 * Cargo crate; a Bundler Gemfile; a Maven or Gradle build.
 */
export const detectSetupCommand = (
  workspace: string,
  which: Which = () => undefined,
  runner?: RunnerPlan,
): string | undefined => {
  const has = (name: string): boolean => existsInside(workspace, path.join(workspace, name));
  const javascript = javascriptSetup(workspace);
  if (javascript) return javascript;
  const python = pythonSetup(workspace, which, runner);
  if (python) return python;
  if (has('go.mod')) return read(workspace, 'go.sum').trim() ? 'go mod download' : undefined;
  if (has('Cargo.toml')) return has('Cargo.lock') ? 'cargo fetch --locked' : 'cargo fetch';
  if (has('Gemfile'))
    return `bundle config set --local path vendor/bundle && bundle install${has('Gemfile.lock') ? ' --frozen' : ''}`;
  if (has('pom.xml')) return `${has('mvnw') ? './mvnw' : 'mvn'} -B -q -DskipTests test-compile`;
  if (has('build.gradle') || has('build.gradle.kts'))
    return `${has('gradlew') ? './gradlew' : 'gradle'} --no-daemon -q testClasses`;
  return undefined;
};

/**
 * A JavaScript project's install, faithful to its lockfile, by the manager
 * that wrote it (the version the manifest pins is on PATH: see
 * `package-managers.ts`), and bun's own when it keeps bun's lockfile.
 */
const javascriptSetup = (workspace: string): string | undefined => {
  const has = (name: string): boolean => existsInside(workspace, path.join(workspace, name));
  if (has('bun.lock') || has('bun.lockb')) return 'bun install --frozen-lockfile';
  if (has('pnpm-lock.yaml')) return 'pnpm install --frozen-lockfile';
  if (has('yarn.lock')) {
    // Yarn 1 has no --immutable; berry (a .yarnrc.yml, or a pinned yarn 2+) has no --frozen-lockfile.
    const berry =
      has('.yarnrc.yml') ||
      /"packageManager"\s*:\s*"yarn@[2-9]/.test(read(workspace, 'package.json'));
    return `yarn install ${berry ? '--immutable' : '--frozen-lockfile'}`;
  }
  if (has('package-lock.json') || has('npm-shrinkwrap.json')) return 'npm ci';
  if (has('package.json') && hasDependencies(read(workspace, 'package.json'))) return 'npm install';
  return undefined;
};

/** Whether a manifest's text declares any dependency. */
const hasDependencies = (text: string): boolean => {
  try {
    const manifest = JSON.parse(text) as Record<string, unknown>;
    return ['dependencies', 'devDependencies', 'optionalDependencies'].some(
      (key) =>
        typeof manifest[key] === 'object' &&
        manifest[key] !== null &&
        Object.keys(manifest[key]).length > 0,
    );
  } catch {
    return false;
  }
};

/** The `test` script of package.json as a command, when there is one. */
const javascriptTest = (workspace: string): string | undefined => {
  try {
    const manifest = JSON.parse(read(workspace, 'package.json')) as {
      scripts?: Record<string, unknown>;
    };
    return typeof manifest.scripts?.test === 'string' ? 'npm test' : undefined;
  } catch {
    return undefined;
  }
};

/**
 * The command that runs a project's tests when neither a workflow nor the
 * config names one, by what the project declares: package.json's `test`
 * script; pytest for Python tests (it runs unittest suites too); `go test`
 * over the module; `cargo test`; Maven or Gradle (their wrappers first,
 * offline: the setup resolved what they need); rspec or rake for Ruby; a
 * Makefile's `test` or `check` target, else CMake's tests, for C and C++.
 */
export const detectTestCommand = (workspace: string): string | undefined => {
  const has = (name: string): boolean => existsInside(workspace, path.join(workspace, name));
  const javascript = javascriptTest(workspace);
  if (javascript) return javascript;
  const python =
    has('pyproject.toml') || has('setup.py') || has('setup.cfg') || REQUIREMENTS.some(has);
  if (python && hasPythonTests(workspace)) return 'python3 -m pytest';
  if (has('go.mod')) return 'go test ./...';
  if (has('Cargo.toml')) return 'cargo test';
  if (has('pom.xml')) return `${has('mvnw') ? './mvnw' : 'mvn'} -B test`;
  if (has('build.gradle') || has('build.gradle.kts'))
    return `${has('gradlew') ? './gradlew' : 'gradle'} --no-daemon --offline test`;
  if (has('Gemfile')) {
    if (has('spec') || has('.rspec')) return 'bundle exec rspec';
    if (has('Rakefile') && has('test')) return 'bundle exec rake test';
  }
  // C and C++: a Makefile's test target, else CMake's tests.
  const target = /^(test|check)\s*:/m.exec(read(workspace, 'Makefile'))?.[1];
  if (target) return `make ${target}`;
  if (/\benable_testing\s*\(/i.test(read(workspace, 'CMakeLists.txt')))
    return 'cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure';
  return undefined;
};
