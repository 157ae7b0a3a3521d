import { describe, expect, it } from 'vitest';
import { parseDiff } from '../../checks/diff.ts';
import { diffLimits } from '../../checks/diff-limits.ts';
import { failingCommandPasses } from '../../checks/failing-command-passes.ts';
import { failingTestNames } from '../../checks/failing-tests.ts';
import { noRegression } from '../../checks/no-regression.ts';
import { noSecrets } from '../../checks/no-secrets.ts';
import { noWeakenedTests } from '../../checks/no-weakened-tests.ts';
import { protectedFiles } from '../../checks/protected-files.ts';
import type { CheckContext } from '../../checks/types.ts';
import type { CommandResult } from '../../src/workspace/run-process.ts';

const run = (exitCode: number, output = ''): CommandResult => ({
  exitCode,
  timedOut: false,
  output,
  droppedBytes: 0,
  durationMs: 1,
});

/** A one-file diff: `+` and `-` lines for a path. */
const diffOf = (
  files: { path: string; added?: string[]; removed?: string[]; status?: 'new' | 'deleted' }[],
): string =>
  files
    .map((file) =>
      [
        `diff --git a/${file.path} b/${file.path}`,
        ...(file.status === 'new'
          ? ['new file mode 100644']
          : file.status === 'deleted'
            ? ['deleted file mode 100644']
            : []),
        `--- ${file.status === 'new' ? '/dev/null' : `a/${file.path}`}`,
        `+++ ${file.status === 'deleted' ? '/dev/null' : `b/${file.path}`}`,
        `@@ -${(file.removed ?? []).length > 0 ? 1 : 0},${(file.removed ?? []).length} +${(file.added ?? []).length > 0 ? 1 : 0},${(file.added ?? []).length} @@`,
        ...(file.removed ?? []).map((line) => `-${line}`),
        ...(file.added ?? []).map((line) => `+${line}`),
      ].join('\n'),
    )
    .join('\n');

const context = (overrides: Partial<CheckContext> & { diffText?: string } = {}): CheckContext => ({
  diff: parseDiff(
    overrides.diffText ?? diffOf([{ path: 'src/a.js', added: ['x'], removed: ['y'] }]),
  ),
  baseFiles: ['src/a.js', 'test/a.test.js', 'package.json', 'package-lock.json'],
  baseContent: () => undefined,
  newContent: () => undefined,
  failingCommand: 'npm test',
  testCommand: 'npm test',
  failingBefore: run(1),
  freshFailing: run(0),
  testsBefore: run(1),
  testsAfter: run(0),
  protectedGlobs: [],
  allowedProtected: [],
  unprotectedGlobs: [],
  limits: { maxFiles: 10, maxLines: 400, maxBytes: 256 * 1024 },
  linkIn: () => undefined,
  split: {
    judged: '',
    unjudged: '',
    paths: { source: ['src/a.js'], test: [], docs: [], harness: [] },
  },
  shadowing: [],
  changeTests: undefined,
  heldStill: { changed: [], replaced: [], enforced: true },
  ...overrides,
});

describe('parseDiff', () => {
  it('reads files, statuses and changed lines', () => {
    const diff = parseDiff(
      diffOf([
        { path: 'a.js', added: ['1', '2'], removed: ['3'] },
        { path: 'b.js', added: ['x'], status: 'new' },
        { path: 'c.js', removed: ['y'], status: 'deleted' },
      ]),
    );
    expect(diff.files.map((file) => [file.path, file.status])).toEqual([
      ['a.js', 'modified'],
      ['b.js', 'added'],
      ['c.js', 'deleted'],
    ]);
    expect(diff.changedLines).toBe(5);
  });
});

describe('failing-command-passes', () => {
  it.each([
    [run(0), true],
    [run(1, 'boom'), false],
    [{ ...run(0), exitCode: null, timedOut: true }, false],
  ])('fresh run %j → ok %s', (freshFailing, ok) => {
    expect(failingCommandPasses(context({ freshFailing })).ok).toBe(ok);
  });
});

describe('no-regression', () => {
  it('passes when the tests pass', () => {
    expect(noRegression(context()).ok).toBe(true);
  });
  it('passes when only tests that failed on the base still fail', () => {
    const result = noRegression(
      context({
        testsBefore: run(1, 'not ok 1 - a\nnot ok 2 - b'),
        testsAfter: run(1, 'not ok 2 - b'),
      }),
    );
    expect(result.ok).toBe(true);
  });
  it('fails on a newly failing test, naming it', () => {
    const result = noRegression(
      context({
        testsBefore: run(1, 'not ok 1 - a'),
        testsAfter: run(1, 'not ok 1 - a\nnot ok 2 - parses dates'),
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('parses dates');
  });
  it('fails when nothing can be compared', () => {
    expect(noRegression(context({ testsAfter: run(1, 'segfault') })).ok).toBe(false);
  });
});

describe('failingTestNames', () => {
  it.each([
    ['not ok 3 - adds numbers # time=1ms', 'adds numbers'],
    ['✖ range works (2.1ms)', 'range works'],
    ['   × src/a.test.ts > sums 5ms', 'src/a.test.ts > sums'],
    ['FAILED tests/test_x.py::test_parse - AssertionError', 'tests/test_x.py::test_parse'],
    ['--- FAIL: TestParse (0.00s)', 'TestParse'],
  ])('%s → %s', (line, name) => {
    expect([...failingTestNames(line)]).toEqual([name]);
  });
});

describe('protected-files', () => {
  it.each([
    ['a source file', 'src/a.js', true],
    ['an existing test file', 'test/a.test.js', false],
    ['a workflow', '.github/workflows/ci.yml', false],
    ['the lockfile', 'package-lock.json', false],
    ['the manifest', 'package.json', false],
  ])('%s', (_label, file, ok) => {
    expect(protectedFiles(context({ diffText: diffOf([{ path: file, added: ['x'] }]) })).ok).toBe(
      ok,
    );
  });
  it('allows a new test file', () => {
    expect(
      protectedFiles(
        context({ diffText: diffOf([{ path: 'test/new.test.js', added: ['x'], status: 'new' }]) }),
      ).ok,
    ).toBe(true);
  });
  it("honours the config's globs and a recipe's allowance", () => {
    expect(protectedFiles(context({ protectedGlobs: ['src/**'] })).ok).toBe(false);
    const lock = diffOf([{ path: 'package-lock.json', added: ['x'] }]);
    const allowed = [{ path: 'package-lock.json', content: 'as the recipe left it' }];
    expect(
      protectedFiles(
        context({
          diffText: lock,
          allowedProtected: allowed,
          newContent: () => 'as the recipe left it',
        }),
      ).ok,
    ).toBe(true);
    // The agent changed the lockfile after the recipe: the allowance no longer covers it.
    expect(
      protectedFiles(
        context({ diffText: lock, allowedProtected: allowed, newContent: () => 'rewritten' }),
      ).ok,
    ).toBe(false);
  });
});

describe('diff-limits', () => {
  it('counts files and lines against the limits', () => {
    const big = diffOf([{ path: 'a.js', added: Array.from({ length: 30 }, String) }]);
    expect(
      diffLimits(
        context({ diffText: big, limits: { maxFiles: 10, maxLines: 20, maxBytes: 256 * 1024 } }),
      ).ok,
    ).toBe(false);
    expect(
      diffLimits(
        context({ diffText: big, limits: { maxFiles: 10, maxLines: 30, maxBytes: 256 * 1024 } }),
      ).ok,
    ).toBe(true);
    const many = diffOf(['a', 'b', 'c'].map((name) => ({ path: `${name}.js`, added: ['x'] })));
    expect(
      diffLimits(
        context({ diffText: many, limits: { maxFiles: 2, maxLines: 400, maxBytes: 256 * 1024 } }),
      ).ok,
    ).toBe(false);
  });

  it('counts the bytes of the changed lines: one line of a megabyte is over a 256 KiB limit', () => {
    const oneLine = diffOf([{ path: 'pkg/blob.py', added: ['x'.repeat(1024 * 1024)] }]);
    const limits = { maxFiles: 10, maxLines: 400, maxBytes: 256 * 1024 };
    const result = diffLimits(context({ diffText: oneLine, limits }));
    expect(result.ok).toBe(false);
    expect(result.detail).toMatch(
      /1 changed line\(s\), 1024 KiB \(limits: 10 files, 400 lines, 256 KiB\)/,
    );
  });
});

describe('no-weakened-tests', () => {
  it.each([
    ["it.skip('adds', () => {})"],
    ["describe.only('x', () => {})"],
    ["xit('adds', () => {})"],
    ["test.todo('later')"],
    ['@pytest.mark.skip(reason="flaky")'],
  ])('flags an added %s', (line) => {
    const result = noWeakenedTests(
      context({ diffText: diffOf([{ path: 'test/new.test.js', added: [line], status: 'new' }]) }),
    );
    expect(result.ok).toBe(false);
  });
  it('flags fewer assertions in a touched test file', () => {
    const result = noWeakenedTests(
      context({
        diffText: diffOf([{ path: 'test/a.test.js', removed: ['expect(a).toBe(1);'] }]),
        baseContent: () => 'expect(a).toBe(1);\nexpect(b).toBe(2);\n',
        newContent: () => 'expect(b).toBe(2);\n',
      }),
    );
    expect(result.ok).toBe(false);
    expect(result.detail).toContain('1 fewer assertion');
  });
  it('flags a rewritten snapshot and a deleted test file', () => {
    expect(
      noWeakenedTests(
        context({ diffText: diffOf([{ path: 'src/__snapshots__/a.test.ts.snap', added: ['x'] }]) }),
      ).ok,
    ).toBe(false);
    expect(
      noWeakenedTests(
        context({
          diffText: diffOf([{ path: 'test/a.test.js', removed: ['x'], status: 'deleted' }]),
        }),
      ).ok,
    ).toBe(false);
  });
  it('accepts a source-only change', () => {
    expect(noWeakenedTests(context()).ok).toBe(true);
  });
});

describe('no-secrets', () => {
  it.each([
    ['GitHub token', `const t = "ghp_${'a'.repeat(36)}";`],
    ['AWS access key', 'key = AKIAIOSFODNN7EXAMPLE'],
    ['private key', '-----BEGIN OPENSSH PRIVATE KEY-----'],
    ['Anthropic key', `ANTHROPIC_API_KEY=sk-ant-${'b'.repeat(30)}`],
  ])('finds a %s', (kind, line) => {
    const result = noSecrets(context({ diffText: diffOf([{ path: 'src/a.js', added: [line] }]) }));
    expect(result.ok).toBe(false);
    expect(result.detail).toContain(kind);
  });
  it('accepts ordinary code', () => {
    expect(
      noSecrets(
        context({ diffText: diffOf([{ path: 'src/a.js', added: ['const token = getToken();'] }]) }),
      ).ok,
    ).toBe(true);
  });
});
