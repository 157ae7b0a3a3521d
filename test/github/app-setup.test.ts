import { generateKeyPairSync } from 'node:crypto';
/**
 * The App's first run: `regreen serve` with no credentials serves the
 * manifest flow; a person registers the App on the emulated GitHub; the code
 * comes back, is exchanged, the credentials land in a `.env` (mode 0600), and
 * the App starts with them.
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnvFile } from '../../src/config/dotenv.ts';
import { envFileText, manifestFor, writeEnvFile } from '../../src/entrypoints/app-setup.ts';
import { runCli } from '../support/cli.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { makeTempDir } from '../support/tmp.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'regreen.js');
const temp = makeTempDir('regreen-app-setup-');
let gh: EmulatedGitHub;
beforeAll(async () => {
  gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
});
afterAll(async () => {
  await gh?.close();
  temp.cleanup();
});

const unescape = (text: string): string =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('the App’s first run (manifest flow)', () => {
  it('registers the App from app.yml, writes .env 0600, and starts', async () => {
    const cwd = path.join(temp.dir, 'app');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(cwd);
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd,
      env: {
        ...process.env,
        APP_ID: '',
        PRIVATE_KEY: '',
        WEBHOOK_SECRET: '',
        GITHUB_SERVER_URL: gh.url,
        GITHUB_API_URL: gh.apiUrl,
        REGREEN_DATA_DIR: path.join(temp.dir, 'data'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    const seen = (pattern: RegExp): Promise<RegExpExecArray> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`timed out waiting for ${pattern}: ${stderr}`)),
          60_000,
        );
        const check = (): void => {
          const match = pattern.exec(stderr);
          if (match) {
            clearTimeout(timer);
            resolve(match);
          }
        };
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          check();
        });
        check();
      });
    try {
      const [, setupUrl] = await seen(/open (http:\/\/127\.0\.0\.1:\d+) to register/);
      // The page: one form that posts app.yml's manifest to GitHub.
      const page = await (await fetch(setupUrl ?? '')).text();
      const action = unescape(/<form id="register" action="([^"]+)"/.exec(page)?.[1] ?? '');
      const manifest = unescape(/name="manifest" value="([^"]+)"/.exec(page)?.[1] ?? '');
      expect(action).toMatch(new RegExp(`^${gh.url}/settings/apps/new\\?state=[0-9a-f]{32}$`));
      const posted = JSON.parse(manifest) as Record<string, unknown>;
      expect(posted).toMatchObject({
        name: 'regreen',
        redirect_url: `${setupUrl}/setup/callback`,
        hook_attributes: { url: `${setupUrl}/api/github/webhooks` },
      });
      expect(posted.default_permissions).not.toHaveProperty('workflows');
      // A forged callback (another state) is refused and writes nothing.
      const forged = await fetch(`${setupUrl}/setup/callback?code=x&state=${'0'.repeat(32)}`);
      expect(forged.status).toBe(400);
      // The person clicks "Create GitHub App": GitHub sends the browser back with a code.
      const created = await fetch(action, {
        method: 'POST',
        body: new URLSearchParams({ manifest }),
        redirect: 'manual',
      });
      expect(created.status).toBe(302);
      const back = await fetch(created.headers.get('location') ?? '');
      expect(back.status).toBe(200);
      expect(await back.text()).toMatch(/regreen is registered/);
      await seen(/App listening on http:\/\/127\.0\.0\.1:\d+\/api\/github\/webhooks/);
      // The address to open is said once, not once as a log record and again as a line.
      expect(stderr.match(/no App credentials/g)).toHaveLength(1);
      const envFile = path.join(cwd, '.env');
      expect(statSync(envFile).mode & 0o777).toBe(0o600);
      const written = readEnvFile(envFile);
      expect(written).toEqual({
        APP_ID: String(gh.appId),
        WEBHOOK_SECRET: gh.webhookSecret,
        PRIVATE_KEY: gh.privateKey.trim(),
      });
      expect(gh.registeredManifests.at(-1)?.default_events).toContain('workflow_run');
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 120_000);

  it('a .env gives the App its credentials and the model key, and nothing else', async () => {
    const cwd = path.join(temp.dir, 'planted');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(cwd);
    writeFileSync(
      path.join(cwd, '.env'),
      `${envFileText({ appId: String(gh.appId), privateKey: gh.privateKey, webhookSecret: gh.webhookSecret })}REGREEN_DASHBOARD_SECRET=planted\nANTHROPIC_API_KEY=sk-from-the-env-file\n`,
    );
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0'], {
      cwd,
      env: {
        ...process.env,
        APP_ID: '',
        PRIVATE_KEY: '',
        WEBHOOK_SECRET: '',
        REGREEN_DASHBOARD_SECRET: '',
        ANTHROPIC_API_KEY: '',
        REGREEN_MODEL: '',
        HOST: '',
        GITHUB_API_URL: gh.apiUrl,
        REGREEN_DATA_DIR: path.join(temp.dir, 'data-planted'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = '';
        const timer = setTimeout(() => reject(new Error(stderr)), 60_000);
        child.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString('utf8');
          const match = /App listening on (http:\/\/127\.0\.0\.1:\d+)\/.*\n/.exec(stderr);
          if (match?.[1]) {
            clearTimeout(timer);
            // The start line says who can reach it and which model the jobs get (the file's key).
            expect(match[0]).toMatch(/this machine only: .*--host 0\.0\.0\.0/);
            expect(match[0]).toMatch(/model: anthropic \(ANTHROPIC_API_KEY is set\)/);
            resolve(match[1]);
          }
        });
      });
      // The App started with the file's credentials; the file's dashboard secret was not taken.
      const page = await fetch(`${url}/jobs?key=planted`, { redirect: 'manual' });
      expect(page.status).toBe(404);
      expect(await page.text()).toMatch(/jobs page is off/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  }, 120_000);

  it('some of the credentials but not all is an error naming the missing ones, not a second App', async () => {
    const run = await runCli(
      ['serve', '--port', '0', '--dotenv', path.join(temp.dir, 'none.env')],
      {
        APP_ID: '123',
        PRIVATE_KEY: '',
        WEBHOOK_SECRET: '',
      },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/PRIVATE_KEY and WEBHOOK_SECRET are not set .* while APP_ID is/);
    expect(run.stderr).not.toMatch(/open http/);
  }, 60_000);

  it('a port in use, an address it cannot listen on or a port that is no number is one line and exit 2, never a stack', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const none = path.join(temp.dir, 'none.env');
      const cases: [string[], RegExp][] = [
        [['--port', String(port)], new RegExp(`port ${port} is in use on 127\\.0\\.0\\.1`)],
        [
          ['--port', '0', '--host', 'no-such-host.invalid'],
          /the address no-such-host\.invalid does not resolve here/,
        ],
        [['--port', 'abc'], /--port must be a whole number from 0 to 65535, not "abc"/],
        [['--port', '99999'], /--port must be a whole number from 0 to 65535, not "99999"/],
      ];
      for (const [flags, message] of cases) {
        const run = await runCli(['serve', ...flags, '--dotenv', none]);
        expect(run.code, run.stderr).toBe(2);
        expect(run.stderr).toMatch(message);
        expect(run.stderr).not.toMatch(/\n\s+at /);
      }
    } finally {
      holder.close();
    }
  }, 60_000);

  it('never overwrites a .env, and reads back what it wrote', () => {
    const file = path.join(temp.dir, 'exists.env');
    writeFileSync(file, 'APP_ID=1\n');
    expect(() => writeEnvFile(file, 'APP_ID=2\n')).toThrow(/never overwritten/);
    expect(readFileSync(file, 'utf8')).toBe('APP_ID=1\n');
    const fresh = path.join(temp.dir, 'fresh.env');
    writeEnvFile(
      fresh,
      envFileText({ appId: '7', privateKey: '-----BEGIN\nabc\n-----END\n', webhookSecret: 's' }),
    );
    expect(readEnvFile(fresh)).toEqual({
      APP_ID: '7',
      WEBHOOK_SECRET: 's',
      PRIVATE_KEY: '-----BEGIN\nabc\n-----END',
    });
    expect(() => manifestFor('name: x\n', 'http://h')).toThrow(/not an App manifest/);
  });

  it("a quote left open is named by its file and line, not by what it swallowed (a new user's R10)", () => {
    const open = path.join(temp.dir, 'open.env');
    writeFileSync(open, 'APP_ID=7\nPRIVATE_KEY="-----BEGIN\nabc\n-----END\nWEBHOOK_SECRET="s"\n');
    expect(() => readEnvFile(open)).toThrow(
      `${open}:2: the value of PRIVATE_KEY opens a double quote that no line closes before WEBHOOK_SECRET= on line 5`,
    );
    const never = path.join(temp.dir, 'never.env');
    writeFileSync(never, 'PRIVATE_KEY="-----BEGIN\nabc\n');
    expect(() => readEnvFile(never)).toThrow(/never\.env:1: .* no line closes\. Close it/);
    // A PEM quoted over its lines, as pasted, is still read whole.
    const pem = path.join(temp.dir, 'pem.env');
    writeFileSync(pem, 'PRIVATE_KEY="-----BEGIN\nabc\nAbC1==\n-----END"\nAPP_ID=7\n');
    // Its last base64 line (`AbC1==`) is not an assignment the quote would swallow.
    expect(readEnvFile(pem)).toEqual({
      PRIVATE_KEY: '-----BEGIN\nabc\nAbC1==\n-----END',
      APP_ID: '7',
    });
  });

  it('reads the lines dotenv reads (export, blanks around =, single quotes) and names each line it cannot, never its text', () => {
    const file = path.join(temp.dir, 'shapes.env');
    writeFileSync(
      file,
      "# the App\nexport APP_ID=7\nWEBHOOK_SECRET = 's3\\n#x'\n\nPRIVATE_KEY: secret-text\ngarbage\n",
    );
    const ignored: number[] = [];
    expect(readEnvFile(file, (line) => ignored.push(line))).toEqual({
      APP_ID: '7',
      WEBHOOK_SECRET: 's3\\n#x',
    });
    expect(ignored).toEqual([5, 6]);
  });
});

describe('App credentials', () => {
  it('a key that cannot sign, or an id that is not one, fails at start naming the variable', async () => {
    const { appCredentials } = await import('../../src/entrypoints/app-wiring.ts');
    expect(() => appCredentials({ APP_ID: '1', PRIVATE_KEY: 'garbage' }, 'regreen serve')).toThrow(
      /PRIVATE_KEY is not a PEM private key/,
    );
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    expect(() =>
      appCredentials({ APP_ID: 'my-app', PRIVATE_KEY: privateKey }, 'regreen serve'),
    ).toThrow(/APP_ID must be the App's numeric id/);
    expect(
      appCredentials({ APP_ID: '42', PRIVATE_KEY: privateKey.replaceAll('\n', '\\n') }, 'x'),
    ).toEqual({
      appId: '42',
      privateKey,
    });
  });

  it("a .env's PEM pasted over lines in double quotes, or a PRIVATE_KEY_PATH, gives the key as it is", async () => {
    const { appCredentials } = await import('../../src/entrypoints/app-wiring.ts');
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const pasted = path.join(temp.dir, 'pasted.env');
    writeFileSync(pasted, `APP_ID=42\nPRIVATE_KEY="${privateKey.trimEnd()}"\nWEBHOOK_SECRET=s\n`);
    const read = readEnvFile(pasted);
    expect(read).toEqual({ APP_ID: '42', PRIVATE_KEY: privateKey.trimEnd(), WEBHOOK_SECRET: 's' });
    expect(appCredentials(read, 'x').privateKey).toBe(privateKey.trimEnd());
    const pem = path.join(temp.dir, 'app.pem');
    writeFileSync(pem, privateKey);
    expect(appCredentials({ APP_ID: '42', PRIVATE_KEY_PATH: pem }, 'x').privateKey).toBe(
      privateKey,
    );
    expect(() =>
      appCredentials({ APP_ID: '42', PRIVATE_KEY_PATH: path.join(temp.dir, 'absent.pem') }, 'x'),
    ).toThrow(/PRIVATE_KEY_PATH names .*absent\.pem, which cannot be read \(ENOENT\)/);
  });
});
