import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-dotenv-mode-');
afterAll(() => temp.cleanup());

/** A `.env` with the App's secrets (a key that cannot sign: serve stops right after reading it). */
const dotenv = (name: string, mode: number): string => {
  const file = path.join(temp.dir, name);
  writeFileSync(
    file,
    'APP_ID=1\nPRIVATE_KEY="not a pem"\nWEBHOOK_SECRET=s3cret\nPRIVATE_KEY_PATH=\n',
  );
  chmodSync(file, mode);
  return file;
};

const noCredentials = { APP_ID: '', PRIVATE_KEY: '', PRIVATE_KEY_PATH: '', WEBHOOK_SECRET: '' };

describe('a .env that others may read while it holds secrets (#37)', () => {
  it('serve says so in one line naming the file and chmod 600; not for a file of mode 0600', async () => {
    const open = dotenv('open.env', 0o644);
    const run = await runCli(['serve', '--port', '0', '--dotenv', open], noCredentials);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('chmod'));
    expect(warnings, run.stderr).toEqual([
      `[regreen] warn: ${open} holds PRIVATE_KEY, WEBHOOK_SECRET and others may read it (mode 0644): chmod 600 ${open}`,
    ]);
    const closed = dotenv('closed.env', 0o600);
    const quiet = await runCli(['serve', '--port', '0', '--dotenv', closed], noCredentials);
    // It read the file all the same: the key in it is the one that cannot sign.
    expect(quiet.stderr).toMatch(/PRIVATE_KEY is not a PEM private key/);
    expect(quiet.stderr).not.toMatch(/chmod/);
  }, 60_000);

  it('doctor says so, naming the file and chmod 600 as the fix', async () => {
    const open = dotenv('doctor.env', 0o640);
    const run = await runCli(['doctor', '--dotenv', open]);
    expect(run.stdout).toContain(
      `missing  ${open} readable by its owner only — it holds PRIVATE_KEY, WEBHOOK_SECRET and others may read it (mode 0640)\n         fix: chmod 600 ${open}  [regreen serve]`,
    );
    const json = await runCli(['doctor', '--json', '--dotenv', open]);
    expect(JSON.parse(json.stdout)).toContainEqual(
      expect.objectContaining({ ok: false, fix: `chmod 600 ${open}`, required: false }),
    );
    chmodSync(open, 0o600);
    expect((await runCli(['doctor', '--dotenv', open])).stdout).not.toContain(open);
  }, 60_000);
});
