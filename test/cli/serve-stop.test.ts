import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openJobStore } from '../../src/store/sqlite.ts';
import { appEnv } from '../support/app-env.ts';
import { BIN } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';
import { waitFor } from '../support/wait.ts';
import { emulatedPayload } from '../support/webhook-payloads.ts';

describe('regreen serve on SIGTERM (#59)', () => {
  const temp = makeTempDir('regreen-serve-stop-');
  // A GitHub that takes connections and never answers: the job hangs, as on a network that drops packets.
  const held: Socket[] = [];
  const blackHole = createServer((socket) => held.push(socket));
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((resolve) => blackHole.close(resolve));
    temp.cleanup();
  });

  it('logs the job it runs, drains for REGREEN_DRAIN_SECONDS, records the job to run again and exits 0', async () => {
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    const { port } = blackHole.address() as { port: number };
    const dataDir = path.join(temp.dir, 'data');
    const env = appEnv(dataDir, {
      GITHUB_API_URL: `http://127.0.0.1:${port}`,
      REGREEN_DRAIN_SECONDS: '1',
    });
    const child = spawn(
      process.execPath,
      [BIN, 'serve', '--port', '0', '--dotenv', path.join(temp.dir, '.env')],
      {
        env: env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    await waitFor('the server to listen', () => /App listening on (\S+)\/api/.test(stderr), 60_000);
    const url = /App listening on (\S+)\/api/.exec(stderr)?.[1] ?? '';

    const payload = emulatedPayload(
      { url: 'http://127.0.0.1:1', installationId: 77 },
      'acme/range',
      'workflow_run',
      'completed',
    );
    Object.assign(payload.workflow_run as Record<string, unknown>, {
      id: 991,
      status: 'completed',
      conclusion: 'failure',
      head_sha: 'a'.repeat(40),
      head_branch: 'main',
      pull_requests: [],
    });
    const body = JSON.stringify(payload);
    const delivered = await fetch(`${url}/api/github/webhooks`, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'workflow_run',
        'x-github-delivery': 'delivery-1',
        'x-hub-signature-256': `sha256=${createHmac('sha256', String(env.WEBHOOK_SECRET)).update(body).digest('hex')}`,
      },
    });
    expect(delivered.status).toBe(200);
    await waitFor('the job to start, in the log', () => /job started/.test(stderr), 60_000);
    await waitFor('GitHub to be called', () => held.length > 0, 60_000);

    child.kill('SIGTERM');
    expect(await exited, stderr).toBe(0);
    expect(stderr).toMatch(/the jobs running here have 1 s to finish/);
    expect(stderr).toMatch(/1 unfinished job\(s\) recorded to run at the next start; exiting/);
    const store = openJobStore(path.join(dataDir, 'regreen.db'));
    const [job] = store.list();
    store.close();
    expect(job).toMatchObject({ kind: 'triage', state: 'queued', interruptions: 1 });
    expect(job?.note).toMatch(/interrupted: the server stopped before it finished \(its 1 s drain/);
    // Its log lines carry its id.
    expect(stderr).toContain(job?.id ?? '-');
  }, 120_000);
});
