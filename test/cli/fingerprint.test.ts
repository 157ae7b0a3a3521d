/**
 * One failure, one fingerprint: `regreen triage` of CI's log (what the App
 * and the Action key their jobs and pull requests by), `regreen fix`
 * reproducing it, and `regreen fix --log` with that log all name it alike.
 * They gave three before: the triage hashed the step's title, `fix` the raw
 * error lines of its own run, and `fix --log` the log's excerpt.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runJson } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-fingerprint-');
afterAll(() => temp.cleanup());

/** A GitHub Actions log of a step that ran `command` and printed `output`. */
const actionsLog = (step: string, command: string, output: string): string =>
  [
    `##[group]Run ${step}`,
    command,
    '##[endgroup]',
    ...output.trimEnd().split('\n'),
    '##[error]Process completed with exit code 1.',
  ]
    .map((line, i) => `2026-12-03T10:00:${String(i % 60).padStart(2, '0')}.1234567Z ${line}`)
    .join('\n');

const repository = (name: string, files: Record<string, string>): string => {
  const dir = path.join(temp.dir, name);
  mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(path.join(dir, file), text);
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['add', '-A'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], {
    cwd: dir,
  });
  return dir;
};

describe('one failure, one fingerprint', () => {
  it.each<{ name: string; command: string; step: string; files: Record<string, string> }>([
    {
      name: 'pytest',
      command: 'python3 -m pytest',
      step: 'Tests',
      files: {
        'calc.py': 'def add(a, b):\n    return a - b\n',
        'test_calc.py': 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n',
      },
    },
    {
      name: 'node --test',
      command: 'node --test',
      step: 'node --test',
      files: {
        'calc.js': 'exports.add = (a, b) => a - b;\n',
        'calc.test.js':
          "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('./calc.js');\ntest('adds', () => assert.strictEqual(add(2, 2), 4));\n",
      },
    },
  ])(
    'triage of CI’s log, fix and fix --log agree ($name)',
    async ({ name, command, step, files }) => {
      const repo = repository(name.replace(/\W+/g, '-'), files);
      // What CI printed: the same command, in CI's own checkout (another path, other timings).
      let output = '';
      try {
        execFileSync('sh', ['-c', command], { cwd: repo, encoding: 'utf8', stdio: 'pipe' });
      } catch (error) {
        const failed = error as { stdout: string; stderr: string };
        output = `${failed.stdout}${failed.stderr}`;
      }
      expect(output).not.toBe('');
      const log = path.join(temp.dir, `${name.replace(/\W+/g, '-')}.log`);
      writeFileSync(
        log,
        actionsLog(step, command, output.split(repo).join('/home/runner/work/p/p')),
      );
      const dataDir = path.join(temp.dir, 'data');

      const triage = await runJson(['triage', '--log', log]);
      const fix = await runJson([
        'fix',
        '--repo',
        repo,
        '--command',
        command,
        '--model',
        'none',
        '--data-dir',
        dataDir,
      ]);
      const withLog = await runJson([
        'fix',
        '--repo',
        repo,
        '--command',
        command,
        '--log',
        log,
        '--model',
        'none',
        '--data-dir',
        dataDir,
      ]);

      expect(fix.json.status, fix.stdout).toBe('diagnosis');
      expect(triage.json.fingerprint).toMatch(/^[0-9a-f]{12}$/);
      expect(fix.json.fingerprint).toBe(triage.json.fingerprint);
      expect(withLog.json.fingerprint).toBe(triage.json.fingerprint);
    },
  );
});
