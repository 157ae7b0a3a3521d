/** Fixture repositories of every ecosystem, and the scripted fix that the e2e tests run on them. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.ts';

export const write = (root: string, files: Record<string, string>): void => {
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
};

export const commit = (repo: string): void => {
  for (const args of [
    ['init', '-q', '-b', 'main'],
    ['add', '-A'],
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'initial'],
  ])
    execFileSync('git', args, { cwd: repo });
};

/** A model that makes these tool calls, one a turn, then says what it did. */
export const callsScript = (
  dir: string,
  name: string,
  calls: readonly { name: string; input: Record<string, unknown> }[],
  closing = 'The tests pass now.',
): string => {
  const script = path.join(dir, `${name}.json`);
  writeFileSync(
    script,
    JSON.stringify({
      turns: [
        ...calls.map((call, index) => ({
          content: [{ type: 'tool_use', id: `t${index + 1}`, name: call.name, input: call.input }],
        })),
        { content: [{ type: 'text', text: closing }] },
      ],
    }),
  );
  return script;
};

/** A model that reads the file, makes one edit, runs the tests and says what it did. */
export const editScript = (
  dir: string,
  name: string,
  file: string,
  old: string,
  replacement: string,
): string =>
  callsScript(
    dir,
    name,
    [
      { name: 'read', input: { path: `$WORKSPACE/${file}` } },
      { name: 'edit', input: { path: `$WORKSPACE/${file}`, old, new: replacement } },
      { name: 'run_tests', input: {} },
    ],
    'add() subtracted; it adds now and the tests pass.',
  );

export interface Fixed {
  readonly status: string;
  readonly branch?: string;
  readonly prTextPath?: string;
  readonly reproduction?: string;
  readonly checks?: { name: string; ok: boolean }[];
  readonly tracePath?: string;
}

export const fix = async (
  repo: string,
  script: string,
  env: Record<string, string | undefined> = {},
  extra: readonly string[] = [],
): Promise<{ outcome: Fixed; stderr: string }> => {
  const run = await runCli(
    [
      'fix',
      '--repo',
      repo,
      '--model',
      `script:${script}`,
      '--data-dir',
      path.join(repo, '..', `${path.basename(repo)}-data`),
      '--json',
      ...extra,
    ],
    env,
  );
  let outcome: Fixed;
  try {
    outcome = JSON.parse(run.stdout) as Fixed;
  } catch {
    throw new Error(`no outcome (exit ${run.code}):\n${run.stdout}\n${run.stderr}`);
  }
  return { outcome, stderr: run.stderr };
};

export const expectProposed = (
  result: { outcome: Fixed; stderr: string },
  repo: string,
  file: string,
  fixed: string,
): void => {
  expect(result.outcome.status, result.stderr).toBe('proposed');
  expect(result.outcome.checks?.every((check) => check.ok)).toBe(true);
  const shown = execFileSync('git', ['show', `${result.outcome.branch ?? ''}:${file}`], {
    cwd: repo,
    encoding: 'utf8',
  });
  expect(shown).toContain(fixed);
};

/** One tool call of a recorded trajectory. */
export type Call = { readonly name: string; readonly input: Record<string, unknown> };
/** A job's outcome with the checks it ran. */
export type JudgedOutcome = Omit<Fixed, 'checks'> & {
  checks?: { name: string; ok: boolean; detail: string }[];
};

/**
 * `attempt(make, calls)`: a fresh repository under `dir` that `make` builds,
 * fixed by a model making `calls` through the real pipeline; the outcome,
 * the checks that failed and each check's detail. No check at all is an error.
 */
export const judgedAttempts = (dir: string) => {
  let count = 0;
  return async (
    make: (repo: string) => void,
    calls: readonly Call[],
    extra: readonly string[] = [],
    env: Record<string, string> = {},
  ): Promise<{
    outcome: JudgedOutcome;
    failed: string[];
    detail: (name: string) => string;
  }> => {
    count += 1;
    const repo = path.join(dir, `repo-${count}`);
    make(repo);
    const script = callsScript(dir, `calls-${count}`, calls);
    const fixed = await fix(repo, script, env, extra);
    const outcome = fixed.outcome as JudgedOutcome;
    const checks = outcome.checks ?? [];
    if (checks.length === 0)
      throw new Error(`no checks ran: ${JSON.stringify(outcome)}\n${fixed.stderr}`);
    return {
      outcome,
      failed: checks.filter((check) => !check.ok).map((check) => check.name),
      detail: (name) => checks.find((check) => check.name === name)?.detail ?? '',
    };
  };
};

export const writeCall = (file: string, content: string): Call => ({
  name: 'write',
  input: { path: `$WORKSPACE/${file}`, content },
});
export const editCall = (file: string, old: string, replacement: string): Call => ({
  name: 'edit',
  input: { path: `$WORKSPACE/${file}`, old, new: replacement },
});

/** A flat Python project run by pytest: `add` subtracts. */
export const pythonProject = (repo: string): void => {
  write(repo, {
    'calc.py': 'def add(a, b):\n    return a - b\n',
    'test_calc.py':
      'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n\n\ndef test_zero():\n    assert add(0, 0) == 0\n',
  });
  commit(repo);
};
export const PYTEST = ['--command', 'python3 -m pytest -q'];
