import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isRegreenError } from '../../src/errors.ts';
import { resolveRepoSource } from '../../src/workspace/repo/clone.ts';
import { gitRemote } from '../../src/workspace/repo/git-remote.ts';
import { shownRepoText } from '../../src/workspace/repo/repo-url.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

/** Every file's name and bytes under `dir`, as one text. */
const allOf = (dir: string): string =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .map((entry) => {
      const name = path.join(entry.parentPath, entry.name);
      return `${name}\n${entry.isFile() ? readFileSync(name, 'latin1') : ''}`;
    })
    .join('\n');

/**
 * Issue 61, 4b and 4c: `--repo` text that holds a credential in a form the entry split did not
 * read. 4b: a token as the user name of a scheme other than http(s) (`ftps://TOKEN@h`,
 * `git+https://TOKEN@h`) was kept as the display form, so the intake line, the outcome's `reason`,
 * trace.jsonl and git's argv held it. 4c: text that is no URL to git but a folder (a leading blank,
 * one slash after the scheme, a remote helper's `https::` form) was repeated whole in the
 * `no such folder` error, on stderr and in the `--json` outcome.
 */
const CASES: [string, string][] = [
  ['4b: git+https, the token as the user', 'git+https://ghp_TOKEN4b1@127.0.0.1:9/r.git'],
  ['4b: ftps, the token as the user', 'ftps://ghp_TOKEN4b2@127.0.0.1:9/r.git'],
  ['4b: ftp, user and token', 'ftp://u:ghp_TOKEN4b3@127.0.0.1:9/r.git'],
  ['4b: git://, the token as the user', 'git://ghp_TOKEN4b4@127.0.0.1:9/r.git'],
  ['4c: a leading blank', ' https://u:ghp_TOKEN4c1@127.0.0.1:9/r.git'],
  ['4c: one slash after the scheme', 'https:/u:ghp_TOKEN4c2@127.0.0.1:9/r.git'],
  ['4c: a remote helper form', 'https::https://u:ghp_TOKEN4c3@127.0.0.1:9/r.git'],
  ['4c: a remote helper form, token as user', 'ext::https://ghp_TOKEN4c4@127.0.0.1:9/r.git'],
];

const tokenOf = (url: string): string => /ghp_TOKEN4\w+/.exec(url)?.[0] ?? 'unreachable';

describe('--repo text with a credential in any spelling is repeated nowhere (issue 61, 4b, 4c)', () => {
  const temp = makeTempDir();
  afterAll(() => temp.cleanup());

  it.each(CASES)('%s: refused, and the token is in no error', async (_what, url) => {
    const error = await resolveRepoSource(url).then(
      (source) => new Error(`taken as ${source.location}`),
      (e: Error) => e,
    );
    expect(isRegreenError(error)).toBe(true);
    expect(error.message).not.toContain(tokenOf(url));
  });

  it.each(CASES)(
    '%s: the CLI says so, and stdout, stderr and the data dir hold no token',
    async (_what, url) => {
      const dataDir = path.join(temp.dir, tokenOf(url).slice(-3));
      const { code, stdout, stderr } = await runCli([
        'fix',
        '--repo',
        url,
        '--model',
        'none',
        '--data-dir',
        dataDir,
        '--json',
      ]);
      expect(code).not.toBe(0);
      // A usage error, said before any work: nothing was cloned, traced or kept.
      const said = JSON.parse(stdout) as { error?: { code: string; message: string } };
      expect(said.error?.message).toMatch(/--repo|no such folder/);
      expect(`${stdout}\n${stderr}`).not.toContain(tokenOf(url));
      expect(allOf(temp.dir)).not.toContain(tokenOf(url));
    },
  );

  it.each([
    ['clone', '--', 'ftps://ghp_TOKEN4bX@127.0.0.1:9/r.git', '/tmp/none'],
    ['fetch', '--', 'git+https://ghp_TOKEN4bY@127.0.0.1:9/r.git', 'main'],
    ['ls-remote', '--', 'https::https://u:ghp_TOKEN4bZ@127.0.0.1:9/r.git'],
    ['ls-remote', '--', 'ssh://git:ghp_TOKEN4bW@127.0.0.1:9/r.git'],
  ])(
    'host git gets no URL with userinfo in argv, whatever the scheme: %s %s %s',
    async (...args) => {
      const error = await gitRemote(args, { cwd: '/' }).catch((e: unknown) => e);
      expect(isRegreenError(error) && error.code).toBe('usage');
      expect(String((error as Error).message)).not.toContain('ghp_');
    },
  );

  it('an ssh user name is an account, not a credential: kept, and given to git', async () => {
    for (const url of ['ssh://git@127.0.0.1:9/r.git', 'git@127.0.0.1:r.git']) {
      expect((await resolveRepoSource(url)).location).toBe(url);
    }
  });

  it.each([
    ['/w/ https:/u:T0K@h/r.git', '/w/ https:/***@h/r.git'],
    ['/w/https::https:/u:T0K@h/r.git', '/w/https::https:/***@h/r.git'],
    ['/home/me/node_modules/@scope/pkg', '/home/me/node_modules/@scope/pkg'],
    ['a@b@c/d', '***@***@c/d'],
  ])('a folder that is not there is named without its userinfo: %s', (raw, shown) => {
    expect(shownRepoText(raw)).toBe(shown);
  });
});
