import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

/**
 * A workflow whose failing step carries a step `env` value of `size` characters (once: a workflow
 * over 256 KiB is refused before it is read, `attack61-quadratic-scanners.test.ts`).
 */
const workflow = (size: number, setupExit: number): string => {
  const value = `${'A'.repeat(size - 3)}END`;
  return `name: ci
on: push
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: exit ${setupExit}
      - run: exit 1
        env:
          BIG: ${value}
`;
};

/**
 * Issue 61 ("Also"): a step `env` value of 400 KB was repeated whole in the error outcome (the
 * sandbox's "could not start `<script>`", after three attempts, as if the sandbox were broken).
 * A command or variable no program can be started with is said as that, unquoted; and every
 * outcome's one-line fields are bounded where the outcome leaves the job
 * (`test/job/outcome-bounds.test.ts`).
 */
describe("a replayed step's large env is not repeated in the outcome (issue 61)", () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it.each([['200 KB, past what the kernel takes as one argument', 200_000, 0]])(
    '%s',
    async (name, size, setupExit) => {
      const repo = path.join(temp.dir, `repo-${size}`);
      makeRepo(repo, { '.github/workflows/ci.yml': workflow(size, setupExit) });
      const { stdout, stderr } = await runCli([
        'fix',
        '--repo',
        repo,
        '--job',
        'test',
        '--model',
        'none',
        '--data-dir',
        path.join(temp.dir, `data-${size}`),
        '--json',
      ]);
      const outcome = JSON.parse(stdout) as { status: string; code?: string; reason: string };
      // Said as what it is (no program can take a 200 KB argument), not a sandbox that failed to start.
      expect(outcome.status, `${name}: ${stdout.slice(0, 2000)}`).toBe('error');
      expect(outcome.code).toBe('config');
      expect(outcome.reason).toMatch(/more than the 128 KiB Linux passes as one argument/);
      // The outcome a few kilobytes, not the value again.
      expect(stdout.length, stdout.slice(0, 2000)).toBeLessThan(64 * 1024);
      expect(stdout).not.toContain('A'.repeat(1000));
      expect(stderr).not.toContain('A'.repeat(1000));
      expect(stderr.length).toBeLessThan(64 * 1024);
    },
  );
});
