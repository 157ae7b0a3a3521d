import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { isRegreenError } from '../../src/errors.ts';
import { intake } from '../../src/job/stages/intake.ts';
import { resolveRepoSource } from '../../src/workspace/repo/clone.ts';
import { splitRepoUrl } from '../../src/workspace/repo/repo-url.ts';
import { gitRemote } from '../../src/workspace/repo/git-remote.ts';

const TOKEN = 'ghp_0123456789abcdefSECRET';

const refusal = async (raw: string): Promise<string> => {
  try {
    await resolveRepoSource(raw);
  } catch (error) {
    expect(isRegreenError(error) && error.code).toBe('usage');
    return String((error as Error).message);
  }
  throw new Error(`taken: ${raw}`);
};

describe('a repository URL split from its credential where it enters (issue 61)', () => {
  it.each([
    [`https://alice:${TOKEN}@git.example/acme/r.git`, 'https://git.example/acme/r.git'],
    [`https://${TOKEN}@git.example/acme/r.git`, 'https://git.example/acme/r.git'],
    [`http://x-access-token:${TOKEN}@127.0.0.1:8080/r.git`, 'http://127.0.0.1:8080/r.git'],
    [`https://alice:${encodeURIComponent('p@ss:w/rd')}@git.example/r`, 'https://git.example/r'],
  ])('%s is shown as %s, the credential only as git receives it', async (raw, display) => {
    const source = await resolveRepoSource(raw);
    expect(source.location).toBe(display);
    expect(source.credential).toBeDefined();
    // However the source is printed, the credential reads as a placeholder.
    for (const shown of [JSON.stringify(source), inspect(source), `${String(source.credential)}`])
      expect(shown).not.toMatch(/SECRET|p%40ss|p@ss/);
    // Git receives it through its environment, for this origin only.
    const env = source.credential?.gitAuth(display) ?? {};
    expect(env.GIT_CONFIG_KEY_0).toBe(`http.${new URL(display).origin}/.extraHeader`);
    const header = env.GIT_CONFIG_VALUE_0 ?? '';
    const basic = Buffer.from(header.replace(/^Authorization: Basic /, ''), 'base64').toString();
    expect(basic).toMatch(/SECRET|p@ss:w\/rd/);
  });

  it.each([
    'https://git.example/acme/r.git',
    'git@github.com:acme/r.git',
    'ssh://git@github.com/acme/r.git',
  ])('%s has no credential and is kept as given', async (raw) => {
    const source = await resolveRepoSource(raw);
    expect(source.location).toBe(raw);
    expect(source.credential).toBeUndefined();
  });

  it.each([
    `https://git.example/acme/r.git?token=${TOKEN}`,
    `https://git.example/acme/r.git#${TOKEN}`,
    `ssh://git:${TOKEN}@github.com/acme/r.git`,
    `git:${TOKEN}@github.com:acme/r.git`,
    `https://alice:${TOKEN}@[::1/r.git`,
  ])('%s is refused, the token not repeated', async (raw) => {
    expect(await refusal(raw)).not.toContain(TOKEN);
  });

  it('a display form keeps its path', () => {
    expect(splitRepoUrl(`https://a:${TOKEN}@h.example/o/r.git`, false).display).toBe(
      'https://h.example/o/r.git',
    );
  });

  it('a report that still holds a credential fails closed at intake, unrepeated', async () => {
    const error = await intake({
      repo: `https://alice:${TOKEN}@git.example/acme/r.git`,
      trigger: 'cli',
    }).catch((e: unknown) => e);
    expect(isRegreenError(error)).toBe(true);
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });
});

describe('host git never gets a credential in argv (issue 61)', () => {
  it.each([
    ['clone', '--quiet', '--', `https://alice:${TOKEN}@127.0.0.1:9/r.git`, '/tmp/none'],
    ['fetch', '--quiet', '--', `http://${TOKEN}@127.0.0.1:9/r.git`, 'main'],
  ])('git %s with a URL holding a credential is refused before git starts', async (...args) => {
    const error = await gitRemote(args, { cwd: '/' }).catch((e: unknown) => e);
    expect(isRegreenError(error) && error.code).toBe('usage');
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });

  it('a URL without userinfo, and an @ past the host, go to git', async () => {
    const error = await gitRemote(['ls-remote', '--', 'http://127.0.0.1:9/a@b.git'], {
      cwd: '/',
      timeoutMs: 10_000,
    }).catch((e: unknown) => e);
    // git ran and could not connect: not the refusal.
    expect(String((error as Error).message)).not.toMatch(/a URL with a credential/);
  });
});
