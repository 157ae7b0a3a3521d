/**
 * attack4: the sandbox shows `/opt` whole, as a system folder, and keeps the
 * runner's temp and the source checkout out only by not mounting them: they
 * are in no list of masks (`secretRoots` holds the data dir alone). A
 * self-hosted runner installed under `/opt` (`/opt/actions-runner`, a common
 * place) keeps both there: `_work/_temp` ($RUNNER_TEMP: the step scripts,
 * the env and output files) and `_work/<repo>/<repo>` (the checkout, the
 * token actions/checkout persists in `.git/config`), world-readable as the
 * runner writes them. Simulated in a private mount namespace (a tmpfs over
 * `/opt` that only this test's processes see), through `regreen sandbox run`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';
import { CANARY } from './support.ts';

const temp = makeTempDir('regreen-attack4-opt-');
afterAll(() => temp.cleanup());

const RUNNER = '/opt/actions-runner';
const RUNNER_TEMP = `${RUNNER}/_work/_temp`;
const CHECKOUT = `${RUNNER}/_work/app/app`;

/** Runs `script` in a mount namespace of its own where /opt is a fresh tmpfs holding a runner. */
const withRunnerUnderOpt = (script: string, env: Record<string, string>): string =>
  execFileSync(
    'unshare',
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      [
        'mount -t tmpfs tmpfs /opt',
        `mkdir -p ${RUNNER_TEMP}/_runner_file_commands ${CHECKOUT}/.git`,
        `printf 'SECRET=%s\\n' "$CANARY" > ${RUNNER_TEMP}/_runner_file_commands/set_env_1`,
        `printf '[http "https://github.com/"]\\n\\textraheader = AUTHORIZATION: basic %s\\n' "$CANARY" > ${CHECKOUT}/.git/config`,
        script,
      ].join(' && '),
    ],
    { env: { ...process.env, ...env, CANARY }, encoding: 'utf8', timeout: 120_000 },
  );

describe('attack4: a runner installed under /opt', () => {
  it.runIf(process.getuid?.() === 0)(
    "its temp and the checkout's persisted token are not readable in the sandbox",
    () => {
      const workspace = path.join(temp.dir, 'workspace');
      mkdirSync(workspace, { recursive: true });
      writeFileSync(path.join(workspace, 'control'), CANARY);
      const sandboxed = (command: string): string =>
        withRunnerUnderOpt(
          `node ${BIN} sandbox run --workspace ${workspace} -- '${command}; echo RAN' 2>&1 || true`,
          {
            RUNNER_TEMP,
            GITHUB_WORKSPACE: CHECKOUT,
            RUNNER_WORKSPACE: `${RUNNER}/_work/app`,
            REGREEN_DATA_DIR: path.join(temp.dir, 'data'),
          },
        );
      // The same command can print the canary where it may read it.
      expect(sandboxed(`cat ${workspace}/control`)).toContain(CANARY);
      const out = sandboxed(
        `cat ${RUNNER_TEMP}/_runner_file_commands/set_env_1 ${CHECKOUT}/.git/config`,
      );
      expect(out).toContain('RAN');
      expect(out).not.toContain(CANARY);
    },
    200_000,
  );
});
