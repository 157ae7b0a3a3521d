/**
 * Each ecosystem reproduces as its CI did and gets its fix proposed, end to
 * end through the CLI with nothing but the repository: regreen detects the
 * setup and the test command, runs the setup with the ecosystem's real client
 * (its dependencies from a local registry: a Go module proxy on disk in the
 * operator's module cache, a Maven repository the tests resolved once, a
 * path dependency of a Cargo workspace), sees the failing test, and a scripted agent's fix passes
 * every check.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { commit, editScript, expectProposed, fix, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-ecosystems-');
const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');
const MAVEN_REPOSITORY = path.resolve(import.meta.dirname, '..', '.registry', 'maven');
afterAll(() => temp.cleanup());

/** A Go module proxy on disk, as `go mod download` leaves one in a module cache. */
const goProxyModule = (
  cache: string,
  module: string,
  version: string,
  files: Record<string, string>,
): void => {
  const dir = path.join(cache, 'cache', 'download', module, '@v');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'list'), `${version}\n`);
  writeFileSync(
    path.join(dir, `${version}.info`),
    JSON.stringify({ Version: version, Time: '2024-01-01T00:00:00Z' }),
  );
  writeFileSync(path.join(dir, `${version}.mod`), files['go.mod'] ?? `module ${module}\n`);
  execFileSync('python3', [
    '-c',
    'import sys, json, zipfile\nz = zipfile.ZipFile(sys.argv[1], "w")\nfor name, text in json.loads(sys.argv[3]).items(): z.writestr(sys.argv[2] + "/" + name, text)\nz.close()',
    path.join(dir, `${version}.zip`),
    `${module}@${version}`,
    JSON.stringify(files),
  ]);
};

describe('every ecosystem, set up by its own client and fixed', () => {
  it("Go: the module downloads from the operator's module cache with the network closed; go test fails, the fix is proposed", async () => {
    const cache = path.join(temp.dir, 'gomodcache');
    goProxyModule(cache, 'example.com/nums', 'v1.0.0', {
      'go.mod': 'module example.com/nums\n\ngo 1.19\n',
      'nums.go': 'package nums\n\n// Two is two.\nfunc Two() int { return 2 }\n',
    });
    const repo = path.join(temp.dir, 'go-calc');
    write(repo, {
      'go.mod': 'module example.com/calc\n\ngo 1.19\n\nrequire example.com/nums v1.0.0\n',
      'calc.go': 'package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a - b }\n',
      'calc_test.go':
        'package calc\n\nimport (\n\t"testing"\n\n\t"example.com/nums"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif got := Add(nums.Two(), nums.Two()); got != 4 {\n\t\tt.Fatalf("Add(2, 2) = %d, want 4", got)\n\t}\n}\n',
    });
    const goEnv = {
      GOMODCACHE: cache,
      GOPROXY: 'off',
      GOFLAGS: '-mod=mod',
      GONOSUMDB: 'example.com',
    };
    // The go.sum CI has: written by go itself, from the same proxy.
    execFileSync('go', ['mod', 'tidy'], {
      cwd: repo,
      env: { ...process.env, ...goEnv, GOPROXY: `file://${path.join(cache, 'cache', 'download')}` },
    });
    commit(repo);
    const script = editScript(temp.dir, 'go', 'calc.go', 'return a - b', 'return a + b');
    const result = await fix(repo, script, { GOMODCACHE: cache, GOPROXY: 'off' });
    expect(result.stderr).toMatch(/prepare .*setup: go mod download → exit 0/);
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'calc.go', 'return a + b');
  }, 300_000);

  it('Rust: cargo fetches the workspace (a path dependency), cargo test fails, the fix is proposed', async () => {
    const repo = path.join(temp.dir, 'rust-calc');
    write(repo, {
      'Cargo.toml':
        '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\nnums = { path = "nums" }\n',
      'src/lib.rs':
        'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(nums::two(), nums::two()), 4);\n    }\n}\n',
      'nums/Cargo.toml': '[package]\nname = "nums"\nversion = "0.1.0"\nedition = "2021"\n',
      'nums/src/lib.rs': 'pub fn two() -> i32 {\n    2\n}\n',
      '.gitignore': '/target\n',
    });
    commit(repo);
    const script = editScript(temp.dir, 'rust', 'src/lib.rs', '    a - b', '    a + b');
    const result = await fix(repo, script);
    expect(result.stderr).toMatch(/prepare .*setup: cargo fetch → exit 0/);
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 101\)/);
    expectProposed(result, repo, 'src/lib.rs', 'a + b');
    // The judged runs built first and held the test binaries, and the fix still passed.
    expect(readFileSync(result.outcome.tracePath ?? '', 'utf8')).toMatch(
      /built first \(\( cargo test --no-run \)\), [1-9]\d* entries of target held/,
    );
  }, 300_000);

  it("Java: Maven resolves JUnit and its plugins from the operator's repository, mvn test fails, the fix is proposed", async () => {
    const repo = path.join(temp.dir, 'java-calc');
    cpSync(path.join(FIXTURES, 'maven-calc'), repo, { recursive: true });
    commit(repo);
    const script = editScript(
      temp.dir,
      'java',
      'src/main/java/calc/Calc.java',
      'return a - b;',
      'return a + b;',
    );
    // The operator's Maven repository is the tests' own (what scripts/test-deps.sh resolved for
    // this project), in a home of the test's, not this machine's ~/.m2.
    const home = path.join(temp.dir, 'java-home');
    if (!existsSync(path.join(MAVEN_REPOSITORY, '.fetched')))
      throw new Error(`${MAVEN_REPOSITORY} is missing: run scripts/test-deps.sh`);
    cpSync(MAVEN_REPOSITORY, path.join(home, '.m2', 'repository'), { recursive: true });
    const result = await fix(repo, script, { HOME: home });
    expect(result.stderr).toMatch(/prepare .*setup: mvn -B -q -DskipTests test-compile → exit 0/);
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'src/main/java/calc/Calc.java', 'return a + b;');
    expect(readFileSync(result.outcome.tracePath ?? '', 'utf8')).toMatch(
      /built first \(\( mvn [^)]*-DskipTests \)\), [1-9]\d* entries of target\/classes/,
    );
  }, 300_000);

  it('Java: CI’s usual `mvn -B clean test` — the build first begins with the clean, the judged run goes on without it, the fix is proposed', async () => {
    const repo = path.join(temp.dir, 'java-clean');
    cpSync(path.join(FIXTURES, 'maven-calc'), repo, { recursive: true });
    commit(repo);
    const script = editScript(
      temp.dir,
      'java-clean',
      'src/main/java/calc/Calc.java',
      'return a - b;',
      'return a + b;',
    );
    const home = path.join(temp.dir, 'java-clean-home');
    cpSync(MAVEN_REPOSITORY, path.join(home, '.m2', 'repository'), { recursive: true });
    const result = await fix(repo, script, { HOME: home }, ['--command', 'mvn -B clean test']);
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'src/main/java/calc/Calc.java', 'return a + b;');
    // The held class files could not have been cleaned: the judged run went on without the clean.
    expect(readFileSync(result.outcome.tracePath ?? '', 'utf8')).toMatch(
      /built first \(\( mvn -B clean test -DskipTests \)\), [1-9]\d* entries of target\/classes/,
    );
  }, 300_000);

  it("Java: Gradle resolves JUnit from the operator's repository, each test's outcome comes from Gradle's own listener, the fix is proposed", async () => {
    const repo = path.join(temp.dir, 'gradle-calc');
    cpSync(path.join(FIXTURES, 'gradle-calc'), repo, { recursive: true });
    write(repo, { '.gitignore': '/build/\n/.gradle/\n' });
    commit(repo);
    const script = editScript(
      temp.dir,
      'gradle',
      'src/main/java/calc/Calc.java',
      'return a - b;',
      'return a + b;',
    );
    // The build names Maven Central, which the set-up cannot reach: JUnit comes from the
    // operator's repository (the tests' own, in a home of the test's), which the sandbox's
    // Gradle init script puts first.
    const home = path.join(temp.dir, 'gradle-home');
    if (!existsSync(path.join(MAVEN_REPOSITORY, 'junit', 'junit', '4.13.2')))
      throw new Error(`${MAVEN_REPOSITORY} holds no JUnit 4: run scripts/test-deps.sh`);
    cpSync(MAVEN_REPOSITORY, path.join(home, '.m2', 'repository'), { recursive: true });
    const result = await fix(repo, script, { HOME: home });
    expect(result.stderr).toMatch(/prepare .*setup: gradle --no-daemon -q testClasses → exit 0/);
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expectProposed(result, repo, 'src/main/java/calc/Calc.java', 'return a + b;');
    // Gradle printed no test when they passed: the counts are its listener's report.
    const trace = readFileSync(result.outcome.tracePath ?? '', 'utf8');
    expect(trace).toContain("the runner's JUnit report");
    expect(trace).toMatch(/2 passed/);
    expect(trace).toMatch(
      /built first \(\( gradle [^)]*-x test testClasses \)\), [1-9]\d* entries of build\/classes/,
    );
  }, 300_000);

  it('a workflow job replays as CI ran it: earlier steps as setup, its toolchain, what $GITHUB_ENV carries', async () => {
    // The runner's tool cache holds a Python of the version the workflow asks for: a venv of
    // Debian's python3 (sys.prefix tells it from every other python3 of the machine).
    const version = execFileSync(
      '/usr/bin/python3',
      ['-c', 'import sys; print("%d.%d.%d" % sys.version_info[:3])'],
      { encoding: 'utf8' },
    ).trim();
    const minor = version.split('.').slice(0, 2).join('.');
    const toolCache = path.join(temp.dir, 'toolcache');
    const toolchain = path.join(toolCache, 'Python', version, 'x64');
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--without-pip', toolchain]);
    const repo = path.join(temp.dir, 'replayed');
    write(repo, {
      '.github/workflows/ci.yml': [
        'on: push',
        'jobs:',
        '  test:',
        '    runs-on: ubuntu-latest',
        '    steps:',
        '      - uses: actions/checkout@v4',
        '      - uses: actions/setup-python@v5',
        '        with:',
        `          python-version: '${minor}'`,
        '      - name: Prepare',
        '        run: |',
        '          echo "GREETING=hello" >> "$GITHUB_ENV"',
        '          mkdir -p build && python3 -c "import sys; print(sys.prefix, \'%d.%d\' % sys.version_info[:2])" > build/prefix.txt',
        '      - name: Unit tests',
        '        run: |',
        '          test "$GREETING" = hello || { echo "NOTHING CARRIED"; exit 3; }',
        // setup-python's Python is the job's own (issue 57): a venv made from the toolchain's.
        `          grep -qx "[^ ]*/\\.regreen-toolchains/python ${minor}" build/prefix.txt || { echo "WRONG PYTHON"; exit 3; }`,
        '          node test.js',
        '      - name: Never',
        '        run: echo never',
      ].join('\n'),
      'test.js':
        "const assert = require('node:assert');\nassert.strictEqual(require('./sum.js')(2, 2), 4, 'sum(2, 2) should be 4');\n",
      'sum.js': 'module.exports = (a, b) => a - b;\n',
      '.gitignore': '/build\n',
    });
    commit(repo);
    const data = path.join(temp.dir, 'replayed-data');
    // A home of the test's own: the toolchain is the tool cache's, whatever this machine keeps.
    const home = path.join(temp.dir, 'replayed-home');
    mkdirSync(home, { recursive: true });
    const run = await runCli(
      ['fix', '--repo', repo, '--job', 'test', '--data-dir', data, '--json'],
      { HOME: home, RUNNER_TOOL_CACHE: toolCache },
    );
    const outcome = JSON.parse(run.stdout) as {
      status: string;
      tracePath?: string;
      reportedAt?: string;
    };
    expect(outcome.status, run.stderr).toBe('diagnosis');
    expect(run.stderr).toMatch(/prepare .*setup: .*→ exit 0/);
    const trace = readFileSync(outcome.tracePath ?? '', 'utf8');
    expect(trace).toMatch(/replay: replayed from ci\.yml, job test: 4 step\(s\)/);
    expect(trace).toContain(`replay: python ${minor} (actions/setup-python@v5): ${version} at `);
    expect(trace).toMatch(
      /replay: skipped \\"actions\/checkout@v4\\": the workspace is the checkout/,
    );
    const diagnosis = readFileSync(outcome.reportedAt ?? '', 'utf8');
    expect(diagnosis).toMatch(/sum\(2, 2\) should be 4/);
    expect(diagnosis).not.toMatch(/^(NOTHING CARRIED|WRONG PYTHON|never)$/m);
    // The toolchain is on the sandbox's PATH: the command a person reads is the one CI ran.
    expect(diagnosis).not.toMatch(/export PATH/);
    expect(diagnosis).toMatch(/node test\.js/);
  }, 300_000);
});
