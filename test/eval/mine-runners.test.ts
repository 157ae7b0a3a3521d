/**
 * Mining selects tests as each runner does, and says why a candidate was
 * rejected with the end of its output — on a real Go module, mined and
 * validated in the sandbox.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isTestFile, testFilesCommand } from '../../src/eval/mine.ts';
import { loadTasks } from '../../src/eval/tasks.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-mine-runners-');
afterAll(() => temp.cleanup());

const GO_PATCH = `--- a/calc/calc_test.go
+++ b/calc/calc_test.go
@@ -1,3 +1,9 @@
+func TestSum(t *testing.T) {
+	if Sum(2, 2) != 4 { t.Fatal("sum") }
+}
+func TestDouble(t *testing.T) {
+	if Double(2) != 4 { t.Fatal("double") }
+}
`;

describe('test selection per runner', () => {
  it('a package whose one test file is test.js has its tests found, and no look-alike is', () => {
    for (const file of ['test.js', 'test.mjs', 'lib/test.ts', 'tests.cjs'])
      expect(isTestFile(file), file).toBe(true);
    for (const file of ['contest.js', 'test.json', 'latest.js', 'index.test-d.ts'])
      expect(isTestFile(file), file).toBe(false);
  });

  it('go: packages and -run with the test functions the patch touched, never file names', () => {
    expect(testFilesCommand('/r', ['calc/calc_test.go'], undefined, GO_PATCH)).toBe(
      "go test ./calc -run '^(TestSum|TestDouble)$'",
    );
    // The repository's own command keeps its flags; its package patterns give way to the packages.
    expect(testFilesCommand('/r', ['calc/calc_test.go'], 'go test -race ./...', GO_PATCH)).toBe(
      "go test -race ./calc -run '^(TestSum|TestDouble)$'",
    );
  });

  it('cargo: --test targets for integration tests; pytest and tape: files', () => {
    expect(testFilesCommand('/r', ['tests/parse.rs', 'tests/emit.rs'])).toBe(
      'cargo test --test parse --test emit',
    );
    // A data file among the changed tests neither picks the runner nor is given to it.
    expect(testFilesCommand('/r', ['tests/twopoints.geojson', 'tests/test_cli.py'])).toBe(
      'python3 -m pytest tests/test_cli.py',
    );
    expect(testFilesCommand('/r', ['tests/test_cart.py'])).toBe(
      'python3 -m pytest tests/test_cart.py',
    );
    // make and ctest run their own targets: no files appended.
    expect(testFilesCommand('/r', ['test/tests.c'], 'make test')).toBe('make test');
    expect(testFilesCommand('/r', ['tests/a.c'], 'ctest --test-dir build')).toBe(
      'ctest --test-dir build',
    );
    const tape = path.join(temp.dir, 'tape');
    mkdirSync(tape);
    writeFileSync(path.join(tape, 'package.json'), '{"scripts":{"test":"tape test/*.js"}}');
    expect(testFilesCommand(tape, ['test/a.js'])).toBe('npx tape test/a.js');
  });
  it('maven: -Dtest with the changed test classes, the given command keeping its flags', () => {
    const files = [
      'core/src/test/java/org/example/ParserTest.java',
      'core/src/test/java/org/example/Fixtures.java',
      'core/src/test/resources/cases.json',
      'ext/src/test/java/org/example/ext/EmitTests.java',
    ];
    // A helper surefire would not run as a test is not selected; data is not a class.
    expect(testFilesCommand('/r', files, 'mvn -o -q test')).toBe(
      'mvn -o -q test -Dtest=ParserTest,EmitTests -Dsurefire.failIfNoSpecifiedTests=false',
    );
    // A -Dtest of the given command's own gives way to the changed classes.
    expect(testFilesCommand('/r', [files[0] ?? ''], 'mvn -B -Dtest=AllTests test')).toBe(
      'mvn -B test -Dtest=ParserTest -Dsurefire.failIfNoSpecifiedTests=false',
    );
    // Without a command, a Maven project (its pom.xml) runs `mvn -B test`, never file paths.
    const maven = path.join(temp.dir, 'maven');
    mkdirSync(maven);
    writeFileSync(path.join(maven, 'pom.xml'), '<project/>');
    expect(testFilesCommand(maven, [files[0] ?? ''])).toBe(
      'mvn -B test -Dtest=ParserTest -Dsurefire.failIfNoSpecifiedTests=false',
    );
  });
});

describe('mining a Go module', () => {
  const git = (repo: string, ...args: string[]): string =>
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], {
      cwd: repo,
      encoding: 'utf8',
    }).trim();

  it('mines the fix with its test functions selected, and records why the other was rejected', async () => {
    const repo = path.join(temp.dir, 'gomod');
    mkdirSync(path.join(repo, 'calc'), { recursive: true });
    git(temp.dir, 'init', '-q', repo);
    const write = (file: string, text: string): void => writeFileSync(path.join(repo, file), text);
    write('go.mod', 'module example.com/gomod\n\ngo 1.18\n');
    write('calc/calc.go', 'package calc\n\nfunc Sum(a, b int) int { return a - b }\n');
    write(
      'calc/calc_test.go',
      'package calc\n\nimport "testing"\n\nfunc TestZero(t *testing.T) {\n\tif Sum(0, 0) != 0 {\n\t\tt.Fatal("zero")\n\t}\n}\n',
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'calc');
    // A real fix: the source and a new test of it.
    write('calc/calc.go', 'package calc\n\nfunc Sum(a, b int) int { return a + b }\n');
    write(
      'calc/calc_test.go',
      'package calc\n\nimport "testing"\n\nfunc TestZero(t *testing.T) {\n\tif Sum(0, 0) != 0 {\n\t\tt.Fatal("zero")\n\t}\n}\n\nfunc TestSum(t *testing.T) {\n\tif Sum(2, 2) != 4 {\n\t\tt.Fatalf("Sum(2, 2) = %d", Sum(2, 2))\n\t}\n}\n',
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'fix: sum adds');
    // Not a fix: its new test fails with the change too.
    write(
      'calc/calc.go',
      'package calc\n\nfunc Sum(a, b int) int { return a + b }\n\n// Double is not done yet.\nfunc Double(a int) int { return a }\n',
    );
    write(
      'calc/calc_test.go',
      `${readFileSync(path.join(repo, 'calc/calc_test.go'), 'utf8')}\nfunc TestDouble(t *testing.T) {\n\tif Double(2) != 4 {\n\t\tt.Fatalf("Double(2) = %d", Double(2))\n\t}\n}\n`,
    );
    git(repo, 'add', '-A');
    git(repo, 'commit', '-qm', 'wip: double');
    const out = path.join(temp.dir, 'go-tasks.jsonl');
    const mined = await runCli([
      'eval',
      'mine',
      '--repo',
      repo,
      '--test-command',
      'go test ./...',
      '--out',
      out,
    ]);
    expect(mined.code, mined.stderr).toBe(0);
    expect(mined.stdout).toMatch(/^1 valid task\(s\) written/);
    const { tasks } = loadTasks(out);
    expect(tasks[0]?.fail_to_pass).toEqual(["go test ./calc -run '^(TestSum)$'"]);
    const rejected = readFileSync(`${out}.rejected.jsonl`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { reason: string; command: string; tail?: string });
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.command).toBe("go test ./calc -run '^(TestDouble)$'");
    expect(rejected[0]?.reason).toMatch(/the gold patch does not pass/);
    expect(rejected[0]?.tail).toMatch(/Double\(2\) = 2/);
    expect(mined.stderr).toMatch(/invalid \(the gold patch does not pass[\s\S]*Double\(2\) = 2/);
  }, 300_000);
});
