import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, trajectory } from '../../fixtures/build.ts';
import { runCli } from '../support/cli.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { expectNoSecretWritten } from '../support/no-secret.ts';
import { makeTempDir } from '../support/tmp.ts';

/** Every file under `dir`: its path (names included) and its bytes. */
const everything = (dir: string): { name: string; bytes: Buffer }[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true }).flatMap((entry) => {
    const name = path.join(entry.parentPath, entry.name);
    return entry.isFile()
      ? [{ name, bytes: readFileSync(name) }]
      : [{ name, bytes: Buffer.alloc(0) }];
  });

/**
 * Issue 61, class 4: `regreen fix --repo http://user:TOKEN@host/r.git` printed the token in the
 * intake line, the outcome, the trace and the proposals folder's name. The URL is split once at
 * entry: git alone gets the credential (through its environment), everything else the URL without it.
 */
describe('a credential in the clone URL reaches git only (issue 61)', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'data');
  const argvLog = path.join(temp.dir, 'git-argv.log');
  const wrapperDir = path.join(temp.dir, 'bin');
  let gh: EmulatedGitHub;

  beforeAll(async () => {
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
    buildOffByOneFixture(path.join(temp.dir, 'range'));
    gh.addRepo({ owner: 'acme', name: 'range', source: path.join(temp.dir, 'range') });
    // Every host git's argv, as /proc shows it to anyone on the machine.
    mkdirSync(wrapperDir);
    const realGit = path.join(wrapperDir, 'git');
    writeFileSync(
      realGit,
      `#!/bin/sh\nprintf '%s\\n' "$*" >> ${JSON.stringify(argvLog)} 2>/dev/null\nexec /usr/bin/git "$@"\n`,
    );
    chmodSync(realGit, 0o755);
  });
  afterAll(async () => {
    await gh.close();
    temp.cleanup();
  });

  it('clones with the token and writes it nowhere: output, outcome, trace, store, data dir, argv', async () => {
    const token = gh.userToken('alice');
    const url = `${gh.url.replace('://', `://alice:${token}@`)}/acme/range.git`;
    const { code, stdout, stderr } = await runCli(
      [
        'fix',
        '--repo',
        url,
        '--model',
        `script:${trajectory('off-by-one-fix')}`,
        '--data-dir',
        dataDir,
        '--json',
      ],
      { PATH: `${wrapperDir}:${process.env.PATH ?? ''}` },
    );
    const outcome = JSON.parse(stdout) as Record<string, unknown>;
    // The clone worked: the token reached git, which the server let in.
    expect(outcome.status, `${stdout}\n${stderr}`).toBe('proposed');
    expect(code).toBe(0);
    // The display form is what the person reads.
    expect(stderr).toContain(`${gh.url}/acme/range.git`);
    const argv = readFileSync(argvLog, 'utf8');
    expect(argv).toContain(
      `clone --no-hardlinks --quiet --no-checkout -- ${gh.url}/acme/range.git`,
    );
    const seen = [stdout, stderr, argv].join('\n');
    expect(seen).not.toContain(token);
    expect(seen).not.toContain('alice:');
    const files = everything(dataDir);
    expect(files.some((f) => f.name.endsWith('trace.jsonl'))).toBe(true);
    expect(files.some((f) => f.name.includes(`${path.sep}proposals${path.sep}`))).toBe(true);
    // The kept workspace's clone: its remote is the display form.
    const config = files.find((f) => f.name.endsWith(`${path.sep}.git${path.sep}config`));
    expect(config?.bytes.toString('utf8')).toContain(`url = ${gh.url}/acme/range.git`);
    expectNoSecretWritten(dataDir, [token, `alice:${token}`]);
  });
});
