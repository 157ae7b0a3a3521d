import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runActionLogged, type ActionLog } from '../../src/entrypoints/action.ts';
import { createWorkflowLog } from '../../src/github/workflow-log.ts';
import { silentLogger } from '../../src/logger.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-action-failed-');
afterAll(() => temp.cleanup());

describe('the Action when it cannot run', () => {
  it('sets outcome=error and writes the summary, so a later step can react', async () => {
    const output = path.join(temp.dir, 'output');
    const summary = path.join(temp.dir, 'summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    let written = '';
    const actionLog: ActionLog = {
      log: createWorkflowLog({ write: (text) => (written += text) }),
      logger: silentLogger(),
    };
    const code = await runActionLogged(
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
      actionLog,
    );
    expect(code).toBe(2);
    expect(readFileSync(output, 'utf8')).toMatch(/^outcome<<(regreen_[0-9a-f]+)\nerror\n\1\n$/);
    expect(readFileSync(summary, 'utf8')).toMatch(
      /regreen failed to run\n\nthe github-token input is empty: the secret it names/,
    );
    expect(written).toMatch(/::error title=regreen::regreen failed to run/);
  });

  it("says which setting names GitHub's API when it cannot be reached (a new user's R13)", async () => {
    const event = path.join(temp.dir, 'event.json');
    writeFileSync(
      event,
      JSON.stringify({
        action: 'completed',
        workflow_run: {
          id: 7,
          conclusion: 'failure',
          head_sha: 'a'.repeat(40),
          head_branch: 'main',
        },
        repository: {
          full_name: 'acme/range',
          owner: { login: 'acme' },
          name: 'range',
          clone_url: 'http://127.0.0.1:9/acme/range.git',
        },
      }),
    );
    // A port that was just free: nothing listens there.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const closed = `http://127.0.0.1:${port}`;
    let written = '';
    const actionLog: ActionLog = {
      log: createWorkflowLog({ write: (text) => (written += text) }),
      logger: silentLogger(),
    };
    const code = await runActionLogged(
      {
        'INPUT_GITHUB-TOKEN': 'ghs_test',
        INPUT_SANDBOX: 'none',
        GITHUB_EVENT_NAME: 'workflow_run',
        GITHUB_EVENT_PATH: event,
        GITHUB_REPOSITORY: 'acme/range',
        GITHUB_API_URL: closed,
        RUNNER_TEMP: temp.dir,
      },
      actionLog,
    );
    expect(code).not.toBe(0);
    expect(written).toMatch(
      /regreen: GitHub's API at http:\/\/127\.0\.0\.1:\d+ could not be reached \(ECONNREFUSED: .*\)\. The runner sets GITHUB_API_URL/,
    );
  }, 60_000);
});
