import { generateKeyPairSync } from 'node:crypto';
import path from 'node:path';
import type { Env } from '../../src/config/env.ts';
import type { JobSpec } from '../../src/queue/jobs.ts';

let key: string | undefined;

/** What `serve` needs to start without GitHub: an App id, a real RSA key, a webhook secret, a data dir. */
export const appEnv = (dataDir: string, extra: Env = {}): Env => {
  key ??= generateKeyPairSync('rsa', { modulusLength: 2048 })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    APP_ID: '4242',
    PRIVATE_KEY: key,
    WEBHOOK_SECRET: 'webhook-secret-for-tests',
    REGREEN_DATA_DIR: dataDir,
    REGREEN_STORE: path.join(dataDir, 'regreen.db'),
    REGREEN_DASHBOARD_SECRET: 'dashboard-secret-for-tests',
    ...extra,
  };
};

/** A `custom` job (the probe's kind): its own group unless one is given. */
export const customJob = (
  key: string,
  data: Record<string, unknown> = {},
  group = `acme/${key}`,
): JobSpec => ({
  key,
  group,
  repo: group,
  payload: { kind: 'custom', name: 'probe', group, data },
});
