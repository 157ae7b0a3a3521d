import { existsSync } from 'node:fs';
import path from 'node:path';
import { RegreenError } from '../errors.ts';
import { gitRemote } from '../workspace/repo/git-remote.ts';
import { shownRepoText } from '../workspace/repo/repo-url.ts';
import { quote } from '../util/text.ts';
import { readTextInside } from '../workspace/repo/confined-fs.ts';
import type { EvalTask } from './tasks.ts';
import type { Validation } from './validate.ts';

/** Test files by the usual conventions of JavaScript, Python, Go, Rust, Java and Ruby projects. */
export const isTestFile = (file: string): boolean =>
  /(^|\/)(tests?|__tests__|spec)\//.test(file) ||
  /\.(test|spec)\.[cm]?[jt]sx?$/.test(file) ||
  // One test file named for what it is, as many small packages keep it (`test.js`).
  /(^|\/)tests?\.[cm]?[jt]sx?$/.test(file) ||
  /(^|\/)test_[^/]+\.py$|_test\.py$/.test(file) ||
  /_test\.go$/.test(file) ||
  /(Test|Tests|IT)\.(java|kt)$/.test(file) ||
  /_spec\.rb$/.test(file);

/** Changes that neither fix nor test anything. */
const isDocumentation = (file: string): boolean =>
  /\.(md|rst|txt|adoc)$/i.test(file) ||
  /^(docs?|\.github)\//.test(file) ||
  /^(LICENSE|CHANGELOG|AUTHORS)/.test(file);

/** A path as a shell word: bare when it is plain, quoted otherwise. */
const word = (file: string): string => (/^[\w./-]+$/.test(file) ? file : quote(file));

/** Go test functions a test patch adds or changes: `func TestX(t *testing.T)` on a `+` line. */
const goTestNames = (patch: string): string[] =>
  [
    ...new Set(
      [...patch.matchAll(/^\+\s*func (Test\w+)\(\s*\w+ \*testing\.T\)/gm)].map((m) => m[1] ?? ''),
    ),
  ].filter(Boolean);

/** A command line's words that are not Go package patterns (flags and the command itself). */
const withoutPackages = (command: string): string =>
  command
    .split(/\s+/)
    .filter((w) => w && !/^\.{1,2}(?:\/|$)/.test(w) && !/^[\w.-]+(?:\/[\w.-]+)*\/\.\.\.$/.test(w))
    .join(' ');

/**
 * The command that runs the given test files with the repository's own
 * runner, selecting them as that runner selects: files for node's runner,
 * vitest, jest, mocha, tape, ava and pytest; packages and `-run` with the
 * test functions the patch touched for Go (a Go file is not an argument
 * `go test` takes with packages); `--test` targets for cargo's integration
 * tests; `-Dtest` with the changed test classes for Maven's surefire. A
 * given test command is used for its runner and flags.
 */
/** The files a test runner takes: test sources, by extension. */
const TEST_SOURCE = /\.(?:py|go|rs|[cm]?[jt]sx?|rb|java|kt|c|cc|cpp|h)$/;

/** Test classes surefire runs by default: `Test*`, `*Test`, `*Tests`, `*TestCase`. */
const SUREFIRE_CLASS = /^(?:Test\w*|\w*(?:Test|Tests|TestCase))$/;

/**
 * A Maven command that runs the changed test classes as surefire selects
 * them: `-Dtest` with their simple names (a helper among them that surefire
 * would not run is left out), in every module, none of which fails for not
 * having them. A given command keeps its flags, not a `-Dtest` of its own.
 */
const mavenTestsCommand = (files: readonly string[], testCommand: string): string => {
  const classes = [
    ...new Set(
      files
        .filter((f) => /\.(?:java|kt)$/.test(f))
        .map((f) => path.basename(f).replace(/\.(?:java|kt)$/, '')),
    ),
  ];
  const runnable = classes.filter((name) => SUREFIRE_CLASS.test(name));
  const selected = runnable.length > 0 ? runnable : classes;
  const base = testCommand
    .split(/\s+/)
    .filter((w) => w && !/^-Dtest=/.test(w))
    .join(' ');
  return selected.length > 0
    ? `${base} -Dtest=${selected.join(',')} -Dsurefire.failIfNoSpecifiedTests=false`
    : base;
};

const isMaven = (command: string): boolean => /^(?:mvn|\.\/mvnw|mvnw)\b/.test(command);

export const testFilesCommand = (
  repo: string,
  files: readonly string[],
  testCommand?: string,
  testPatch = '',
): string => {
  // A test's data (`tests/points.geojson`) is not what a runner is given, nor what decides it.
  const code = files.filter((file) => TEST_SOURCE.test(file));
  const runnable = code.length > 0 ? code : files;
  const list = runnable.map(word).join(' ');
  const first = runnable[0] ?? '';
  if (first.endsWith('_test.go') || (testCommand !== undefined && /^go test\b/.test(testCommand))) {
    const packages = [
      ...new Set(files.filter((f) => f.endsWith('.go')).map((f) => `./${path.dirname(f)}`)),
    ];
    const names = goTestNames(testPatch);
    const base = testCommand ? withoutPackages(testCommand) : 'go test';
    return `${base} ${packages.join(' ')}${names.length > 0 ? ` -run ${quote(`^(${names.join('|')})$`)}` : ''}`;
  }
  if (first.endsWith('.rs') || (testCommand !== undefined && /^cargo test\b/.test(testCommand))) {
    const targets = files
      .filter((f) => /^tests\/[^/]+\.rs$/.test(f))
      .map((f) => `--test ${word(path.basename(f, '.rs'))}`);
    return `${testCommand ?? 'cargo test'}${targets.length > 0 ? ` ${targets.join(' ')}` : ''}`;
  }
  if (
    testCommand !== undefined
      ? isMaven(testCommand)
      : /\.(?:java|kt)$/.test(first) && existsSync(path.join(repo, 'pom.xml'))
  )
    return mavenTestsCommand(
      runnable,
      testCommand ?? `${existsSync(path.join(repo, 'mvnw')) ? './mvnw' : 'mvn'} -B test`,
    );
  // make, CMake's ctest and the like run their own test targets: they take no test files.
  if (testCommand !== undefined && /^(make|ctest|cmake|meson|ninja)\b/.test(testCommand))
    return testCommand;
  if (testCommand) return `${testCommand} ${list}`;
  if (first.endsWith('.py')) return `python3 -m pytest ${list}`;
  let script = '';
  try {
    const manifest = JSON.parse(readTextInside(repo, path.join(repo, 'package.json')) ?? '{}') as {
      scripts?: Record<string, string>;
    };
    script = manifest.scripts?.test ?? '';
  } catch {
    script = '';
  }
  if (/\bvitest\b/.test(script)) return `npx vitest run ${list}`;
  if (/\bjest\b/.test(script)) return `npx jest ${list}`;
  if (/\bmocha\b/.test(script)) return `npx mocha ${list}`;
  if (/\btape\b/.test(script)) return `npx tape ${list}`;
  if (/\bava\b/.test(script)) return `npx ava ${list}`;
  return `node --test ${list}`;
};

/** A candidate that did not validate: why, the command, and the end of its output. */
export interface Rejection {
  readonly commit: string;
  readonly command: string;
  readonly reason: string;
  readonly tail?: string;
}

const indentTail = (tail: string): string =>
  tail
    .trimEnd()
    .split('\n')
    .slice(-12)
    .map((line) => `    ${line}`)
    .join('\n');

export interface MineOptions {
  readonly repo: string;
  readonly since?: string;
  readonly max: number;
  readonly testCommand?: string;
  readonly validate: (task: EvalTask) => Promise<Validation>;
  readonly progress?: (line: string) => void;
  /** Each candidate as soon as it is judged: a long mining run loses nothing when stopped. */
  readonly judged?: (result: { task: EvalTask } | { rejection: Rejection }) => void;
}

/**
 * Walks a repository's history for commits that change both test files and
 * source files, splits each diff into the person's tests and their fix,
 * derives the fail_to_pass commands from the changed test files, validates
 * every candidate by running it, and keeps only the valid ones.
 */
export const mineTasks = async (
  options: MineOptions,
): Promise<{ tasks: EvalTask[]; rejected: Rejection[] }> => {
  const repo = path.resolve(options.repo);
  if (!existsSync(path.join(repo, '.git')))
    throw new RegreenError('not-a-repo', `not a git repository: ${shownRepoText(repo)}`);
  const range = options.since ? `${options.since}..HEAD` : 'HEAD';
  const commits = (await gitRemote(['rev-list', '--no-merges', '--reverse', range], { cwd: repo }))
    .split('\n')
    .filter(Boolean);
  const tasks: EvalTask[] = [];
  const rejected: Rejection[] = [];
  const name = path.basename(repo).replace(/[^\w.-]+/g, '-');
  for (const commit of commits.reverse()) {
    if (tasks.length >= options.max) break;
    const parents = (await gitRemote(['rev-list', '--parents', '-n', '1', commit], { cwd: repo }))
      .trim()
      .split(' ')
      .slice(1);
    const parent = parents[0];
    if (!parent) continue;
    const changed = (
      await gitRemote(['diff', '--name-status', '--no-renames', parent, commit], { cwd: repo })
    )
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [status = '', file = ''] = line.split('\t');
        return { status, file };
      });
    const tests = changed.filter((c) => isTestFile(c.file));
    const sources = changed.filter((c) => !isTestFile(c.file) && !isDocumentation(c.file));
    if (tests.length === 0 || sources.length === 0) continue;
    const runnable = tests.filter((t) => t.status !== 'D').map((t) => t.file);
    if (runnable.length === 0) continue;
    const diff = (files: readonly string[]) =>
      gitRemote(
        ['diff', '--binary', '--no-ext-diff', '--no-textconv', parent, commit, '--', ...files],
        { cwd: repo },
      );
    const testPatch = await diff(tests.map((t) => t.file));
    const task: EvalTask = {
      id: `${name}-${commit.slice(0, 10)}`,
      repo,
      base_commit: parent,
      test_patch: testPatch,
      gold_patch: await diff(sources.map((s) => s.file)),
      test_command: options.testCommand ?? testFilesCommand(repo, runnable, undefined, testPatch),
      fail_to_pass: [testFilesCommand(repo, runnable, options.testCommand, testPatch)],
      pass_to_pass: [],
      env: {},
      timeout_s: 600,
      kind: 'ci',
    };
    const validation = await options.validate(task);
    options.progress?.(
      `[mine] ${commit.slice(0, 10)}: ${validation.valid ? 'valid' : `invalid (${validation.reason ?? ''})`}${!validation.valid && validation.tail ? `\n${indentTail(validation.tail)}` : ''}`,
    );
    if (validation.valid) {
      tasks.push(task);
      options.judged?.({ task });
    } else {
      const rejection: Rejection = {
        commit,
        command: task.fail_to_pass[0] ?? '',
        reason: validation.reason ?? 'invalid',
        ...(validation.tail ? { tail: validation.tail } : {}),
      };
      rejected.push(rejection);
      options.judged?.({ rejection });
    }
  }
  return { tasks, rejected };
};
