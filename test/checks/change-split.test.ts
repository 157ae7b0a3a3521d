import { describe, expect, it } from 'vitest';
import { classifyPath, diffBlocks, harnessNamed, splitChange } from '../../checks/change-split.ts';
import { linkEscape } from '../../checks/no-escaping-links.ts';
import { junitCounts } from '../../checks/test-reports.ts';
import { readRun } from '../../checks/run-counts.ts';

describe('classifyPath: fail-closed, product source by a positive rule', () => {
  it.each([
    // every spelling and place of a runner's configuration
    'pytest.ini',
    '.pytest.ini',
    'pytest.toml',
    '.pytest.toml',
    'sub/pytest.ini',
    'tox.ini',
    'setup.cfg',
    'pyproject.toml',
    'conftest.py',
    'tests/conftest.py',
    'src/pkg/conftest.py',
    'noxfile.py',
    'setup.py',
    'sitecustomize.py',
    'usercustomize.py',
    'evil.pth',
    'vitest.config.ts',
    'vitest.config.mts',
    'vitest.workspace.json',
    'vite.config.js',
    'vite.config.mjs',
    'packages/a/vite.config.ts',
    'jest.config.js',
    'jest.config.cjs',
    'jest.setup.js',
    'setupTests.ts',
    'src/setupTests.js',
    'test-setup.mjs',
    'globalSetup.ts',
    '.mocharc.yml',
    '.mocharc.js',
    '.mocharc',
    'karma.conf.js',
    'babel.config.json',
    '.babelrc',
    '.npmrc',
    'package.json',
    'tsconfig.json',
    // Rust, Go, the JVM
    '.cargo/config.toml',
    '.cargo/config',
    'build.rs',
    'Cargo.toml',
    'go.mod',
    'go.work',
    'vendor/example.com/x/x.go',
    '.mvn/maven.config',
    '.mvn/jvm.config',
    'pom.xml',
    'build.gradle.kts',
    'gradle.properties',
    // anything else nobody listed
    'Makefile',
    'src/pkg/pytest.toml',
    'src/pkg/tox.ini',
    'build/gen.py',
    'target/debug/x.rs',
    'here',
    'jest.json',
    'node_modules/x/index.js',
    '.github/workflows/ci.yml',
  ])('%s is harness', (file) => {
    expect(classifyPath(file)).toBe('harness');
  });

  it.each([
    'test_calc.py',
    'tests/test_calc.py',
    'tests/helpers.py',
    'calc_test.go',
    'zz_main_test.go',
    'testdata/input.json',
    'tests/more.rs',
    'src/foo/tests.rs',
    'calc/test_notes.txt',
    'test/range.test.js',
    'src/a.spec.ts',
    'src/__snapshots__/a.snap',
    'src/test/java/AppTest.java',
    // the runners' own defaults: node --test's, unittest's, Surefire's
    'calc-test.js',
    'src/calc_test.mjs',
    'test-calc.cjs',
    'testcalc.py',
    'pkg/testing.py',
    'src/main/java/TestCalc.java',
    'CalcTestCase.java',
  ])('%s is a test', (file) => {
    expect(classifyPath(file)).toBe('test');
  });

  it.each(['README.md', 'docs/guide.rst', 'CHANGELOG', 'docs/conf.py', 'LICENSE'])(
    '%s is prose',
    (file) => {
      expect(classifyPath(file)).toBe('docs');
    },
  );

  it.each([
    'calc.py',
    'src/pkg/config.py',
    'src/pkg/__init__.py',
    'calc.go',
    'src/lib.rs',
    'src/main.rs',
    'src/range.js',
    'src/config.ts',
    'index.js',
    'lib/templates/page.html',
    'src/data.json',
    'src/main/java/App.java',
    'src/shop/vat.toml',
    'src/shop/data/stopwords.txt',
    'src/shop/build/slug.py',
    'src/shop/testing/helpers.py',
    'src/setupWizard.js',
    'dist/index.js',
    'bin/slugify.sh',
  ])('%s is product source', (file) => {
    expect(classifyPath(file)).toBe('source');
  });

  it.each([
    ['calc_checks.py', 'import unittest\n\nclass AddTest(unittest.TestCase):\n    pass\n'],
    ['checks.py', 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n'],
    ['checks.py', 'class TestAdd:\n    def test_add(self):\n        assert True\n'],
    ['src/calc.check.js', "const test = require('node:test');\n\ntest('adds', () => {});\n"],
    ['src/calc.check.ts', "import { it } from 'vitest';\n\nit.skip(`adds`, () => {});\n"],
    ['spec.mjs', "describe('add', () => {\n  it('adds', () => {});\n});\n"],
    ['calc_checks.go', 'package calc\n\nfunc TestAdd(t *testing.T) {}\n'],
    ['lib/calc_check.rb', 'class CalcCheck < Minitest::Test\nend\n'],
  ])('%s is a test when its base version defines tests', (file, content) => {
    expect(classifyPath(file, new Set(), () => content)).toBe('test');
  });

  it.each([
    ['src/calc.py', 'def testing_mode():\n    return False\n\nclass Tester:\n    pass\n'],
    ['src/match.js', "export const matches = (re, s) => re.test(s);\nconsole.log('it');\n"],
    ['src/lib.rs', '#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {}\n}\n'],
    ['calc.go', 'package calc\n\nfunc TestValue() int { return 1 }\n'],
  ])('%s stays product source by its base version', (file, content) => {
    expect(classifyPath(file, new Set(), () => content)).toBe('source');
  });

  it("a file the base's harness names is harness, whatever its name", () => {
    const base = {
      'package.json': JSON.stringify({
        main: 'src/index.js',
        scripts: {
          test: 'npm run build && node --require ./scripts/env.js --test',
          build: 'node scripts/build.js',
          postinstall: 'node scripts/gen.js',
          lint: 'node scripts/lint.js',
        },
      }),
      'vitest.config.ts':
        "export default { build: { lib: { entry: 'src/lib.ts' } }, test: { setupFiles: ['./src/testenv.ts'], environment: 'node' } }",
      'pytest.ini': '[pytest]\naddopts = -p myplugin\n',
      'pyproject.toml':
        '[project]\nname = "x"\nscripts = { x = "pkg.cli:main" }\n[tool.pytest.ini_options]\naddopts = "-p pkg.plug"\n',
    } as Record<string, string>;
    const files = [
      ...Object.keys(base),
      'src/index.js',
      'scripts/build.js',
      'scripts/gen.js',
      'scripts/lint.js',
      'scripts/env.js',
      'src/lib.ts',
      'src/testenv.ts',
      'myplugin.py',
      'pkg/cli.py',
      'pkg/plug.py',
      'tests/run.py',
      'ci/check.sh',
      'src/shop/pricing.py',
    ];
    const named = harnessNamed(files, (file) => base[file], [
      'python tests/run.py && bash ci/check.sh',
      'python3 -m pytest --doctest-modules src/shop/pricing.py tests',
    ]);
    expect([...named].sort()).toEqual(
      [
        'ci/check.sh',
        'scripts/build.js',
        'scripts/gen.js',
        'myplugin.py',
        'pkg/plug.py',
        'scripts/env.js',
        'src/testenv.ts',
        'tests/run.py',
      ].sort(),
    );
  });

  it.each([
    ['a string', 'pytest_plugins = "calc_fixtures"\n'],
    ['a list', 'import os\n\npytest_plugins = [\n    "calc_fixtures",\n    "pytester",\n]\n'],
    ['a tuple', "pytest_plugins = ('calc_fixtures', 'pkg.fix')\n"],
  ])(
    "the modules a base conftest.py's pytest_plugins names (%s) are harness",
    (_name, conftest) => {
      const files = ['conftest.py', 'calc_fixtures.py', 'calc.py', 'test_calc.py'];
      const named = harnessNamed(files, (file) => (file === 'conftest.py' ? conftest : ''), []);
      expect([...named]).toEqual(['calc_fixtures.py']);
    },
  );

  it('pytest plugins: dotted names, packages, recursion, star-imports, pytest11 entry points', () => {
    const base: Record<string, string> = {
      'tests/conftest.py': 'pytest_plugins = ["pkg.fix", "shared"]\nfrom .hooks import *\n',
      'src/pkg/fix.py': 'pytest_plugins = "pkg.deep"\n',
      'src/pkg/deep.py': '',
      'shared/__init__.py': '',
      'tests/hooks.py': '',
      'pyproject.toml':
        '[project]\nname = "x"\n\n[project.entry-points.pytest11]\ncalc = "calc.plugin"\n',
      'setup.cfg': '[options.entry_points]\npytest11 =\n    other = other_plugin:register\n',
      'setup.py': 'setup(entry_points={"pytest11": ["third = third.mod"]})\n',
    };
    const files = [
      ...Object.keys(base),
      'calc/plugin.py',
      'other_plugin.py',
      'third/mod/__init__.py',
      'src/pkg/calc.py',
      'calc/core.py',
    ];
    const named = harnessNamed(files, (file) => base[file] ?? '', ['python3 -m pytest']);
    expect([...named].sort()).toEqual(
      [
        'calc/plugin.py',
        'other_plugin.py',
        'shared/__init__.py',
        'src/pkg/deep.py',
        'src/pkg/fix.py',
        'tests/hooks.py',
        'third/mod/__init__.py',
      ].sort(),
    );
  });
});

describe('splitChange', () => {
  const block = (file: string, header = `diff --git a/${file} b/${file}`): string =>
    `${header}\nindex 1111111..2222222 100644\n--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;

  it('judges product source, runs tests and prose after, refuses harness', () => {
    const text = [
      block('src/a.py'),
      block('tests/test_a.py'),
      block('README.md'),
      block('.pytest.ini'),
    ].join('');
    const split = splitChange(text, new Set());
    expect(split.paths).toEqual({
      source: ['src/a.py'],
      test: ['tests/test_a.py'],
      docs: ['README.md'],
      harness: ['.pytest.ini'],
    });
    expect(split.judged).toBe(block('src/a.py'));
    expect(split.unjudged).toBe(block('tests/test_a.py') + block('README.md'));
  });

  it('a rename is as strict as its strictest side; a quoted path is read', () => {
    const rename =
      'diff --git a/src/a.py b/conftest.py\nsimilarity index 100%\nrename from src/a.py\nrename to conftest.py\n';
    const quoted =
      'diff --git "a/src/\\303\\244.py" "b/src/\\303\\244.py"\nindex 1..2 100644\n--- "a/src/\\303\\244.py"\n+++ "b/src/\\303\\244.py"\n@@ -1 +1 @@\n-a\n+b\n';
    const split = splitChange(rename + quoted, new Set());
    expect(split.paths.harness).toEqual(['src/a.py', 'conftest.py']);
    expect(split.paths.source).toEqual(['src/ä.py']);
  });

  it('an added line that looks like a header names no path', () => {
    const text =
      'diff --git a/src/a.py b/src/a.py\nindex 1..2 100644\n--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1,2 @@\n-a\n+++ b/src/conftest.py\n+b\n';
    expect(diffBlocks(text)[0]?.paths).toEqual(['src/a.py']);
  });

  it('a binary patch keeps the blank line that closes it', () => {
    const binary =
      'diff --git a/src/a.js b/src/a.js\nindex 1..2 100644\nGIT binary patch\nliteral 3\nKcmZ>9O8@`|2><`\n\nliteral 0\nHcmV?d00001\n\n';
    const split = splitChange(binary + block('tests/t.py'), new Set());
    expect(split.judged).toBe(binary);
    expect(split.paths.test).toEqual(['tests/t.py']);
  });

  it('a recipe or the config may allow a protected file into the judged part', () => {
    const split = splitChange(block('package-lock.json'), new Set(), (file) =>
      file.endsWith('package-lock.json'),
    );
    expect(split.paths.source).toEqual(['package-lock.json']);
  });
});

describe('linkEscape walks the changed tree', () => {
  const links = (map: Record<string, string>) => (file: string) => map[file];

  it('follows a chain that climbs out', () => {
    const tree = links({ here: '.', up: 'here/..' });
    expect(linkEscape('here', '.', tree)).toBeUndefined();
    expect(linkEscape('up', 'here/..', tree)).toMatch(/climbs out/);
  });

  it('refuses .git, absolute hops and loops; keeps inside links', () => {
    expect(linkEscape('a/b', '../.git/config', links({}))).toMatch(/\.git/);
    expect(linkEscape('x', 'abs/y', links({ abs: '/etc' }))).toMatch(/absolute/);
    expect(linkEscape('l1', 'l2', links({ l1: 'l2', l2: 'l1' }))).toMatch(/loop/);
    expect(linkEscape('src/link.js', '../lib/x.js', links({}))).toBeUndefined();
    expect(linkEscape('deep/a/l', '../../b', links({}))).toBeUndefined();
    expect(linkEscape('deep/a/l', '../../../b', links({}))).toMatch(/climbs out/);
  });
});

describe('counts from a runner-written report', () => {
  const junit = `<?xml version="1.0"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4">
<testcase classname="test_calc" name="test_add[1-2]" />
<testcase classname="test_calc" name="test_add[2-2]"><failure message="boom">x</failure></testcase>
<testcase classname="test_calc" name="test_zero"><skipped message="no" /></testcase>
<testcase classname="test_calc" name="test_one" time="0.1"></testcase>
</testsuite></testsuites>`;

  it('counts each parametrised case and names the failing ones', () => {
    const counted = junitCounts(junit);
    expect(counted).toMatchObject({ passed: 2, failed: 1, skipped: 1 });
    expect([...counted.failing]).toEqual(['test_calc::test_add[2-2]']);
  });

  it('a report outranks what the run printed; go -v never counts a package as a test', () => {
    const printed = '===== 9 passed in 0.1s =====\n';
    const run = { exitCode: 0, timedOut: false, output: printed, droppedBytes: 0, durationMs: 1 };
    expect(readRun({ ...run, proof: { junit, goVerbose: true } }).counts?.passed).toBe(2);
    expect(readRun(run).counts?.passed).toBe(9);
    const goOk = 'ok  \texample.com/calc\t0.01s\n';
    expect(readRun({ ...run, output: goOk }).counts?.passed).toBe(1);
    expect(
      readRun({ ...run, output: goOk, proof: { junit: undefined, goVerbose: true } }).counts
        ?.passed,
    ).toBe(0);
  });
});
