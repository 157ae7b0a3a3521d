import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient } from '../../src/forge/github/client.ts';
import { createGitHubForge } from '../../src/forge/github/forge.ts';
import { silentLogger } from '../../src/logger.ts';
import { resolveRepoSource } from '../../src/workspace/repo/clone.ts';
import { gitRemote } from '../../src/workspace/repo/git-remote.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const listen = async (handler: (req: IncomingMessage, res: ServerResponse) => void) => {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, port: (server.address() as { port: number }).port };
};

const pkt = (line: string): string => (line.length + 4).toString(16).padStart(4, '0') + line;

/**
 * Issue 61, 4a: the clone credential went to git as an `http.<origin>/.extraHeader`, which git adds
 * to every request once the URL it was given matches; with git's default `followRedirects=initial`,
 * a host that redirects its `info/refs` moves git's base to another origin, and the next POST
 * carried `Authorization: Basic x-access-token:ghs_…` there. Host A redirects everything to host B
 * (another port: another origin); B answers as a smart-HTTP server would, so that git's next
 * request (no redirect in it) goes to B too, and records every Authorization it receives.
 */
describe('a clone credential reaches its own origin only, never one it redirects to (issue 61, 4a)', () => {
  const temp = makeTempDir();
  const seenByB: string[] = [];
  let a: Awaited<ReturnType<typeof listen>>;
  let b: Awaited<ReturnType<typeof listen>>;
  const TOKEN = 'ghs_SECRETredirect61';

  beforeAll(async () => {
    b = await listen((req, res) => {
      seenByB.push(`${req.method ?? ''} ${req.url ?? ''} ${req.headers.authorization ?? ''}`);
      const service = /service=(git-[a-z-]+)/.exec(req.url ?? '')?.[1];
      if (service)
        res
          .writeHead(200, { 'content-type': `application/x-${service}-advertisement` })
          .end(
            `${pkt(`# service=${service}\n`)}0000${pkt(`${'1'.repeat(40)} refs/heads/main\0report-status side-band-64k no-done\n`)}0000`,
          );
      else res.writeHead(500).end();
    });
    a = await listen((req, res) =>
      res.writeHead(301, { location: `http://127.0.0.1:${b.port}${req.url ?? '/'}` }).end(),
    );
  });
  afterAll(() => {
    a.server.close();
    b.server.close();
    temp.cleanup();
  });

  const leaked = (): string[] => seenByB.filter((line) => !line.endsWith(' '));

  it("the CLI's clone of a URL with a credential: B never sees it", async () => {
    seenByB.length = 0;
    const { stdout, stderr } = await runCli([
      'fix',
      '--repo',
      `http://x-access-token:${TOKEN}@127.0.0.1:${a.port}/r.git`,
      '--model',
      'none',
      '--data-dir',
      path.join(temp.dir, 'data'),
      '--json',
    ]);
    expect(leaked()).toEqual([]);
    expect(`${stdout}${stderr}`).not.toContain(TOKEN);
    // The clone failed with a clear word: git was told not to follow the redirect.
    expect(stdout).toMatch(/redirect/);
  });

  it("the App's and the Action's forge: its clone, fetch and push send B nothing", async () => {
    seenByB.length = 0;
    const url = `http://127.0.0.1:${a.port}/acme/r.git`;
    const forge = createGitHubForge({
      client: createGitHubClient({
        auth: { kind: 'token', token: TOKEN },
        baseUrl: 'http://127.0.0.1:9',
        logger: silentLogger(),
      }),
      target: { owner: 'acme', repo: 'r', branch: 'main', headSha: '1'.repeat(40), cloneUrl: url },
      token: () => Promise.resolve(TOKEN),
      logger: silentLogger(),
    });
    const auth = await forge.gitAuth!();
    const source = await resolveRepoSource(url);
    const work = path.join(temp.dir, 'work');
    execFileSync('git', ['init', '--quiet', work]);
    execFileSync('git', ['-C', work, 'remote', 'add', 'origin', source.location]);
    execFileSync('git', [
      '-C',
      work,
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t.invalid',
      'commit',
      '--quiet',
      '--allow-empty',
      '-m',
      'x',
    ]);
    const said: string[] = [];
    for (const args of [
      ['clone', '--quiet', '--no-checkout', '--', url, path.join(temp.dir, 'clone')],
      ['ls-remote', '--', 'origin', 'refs/heads/main'],
      ['fetch', '--quiet', '--', 'origin', '+refs/heads/main:refs/regreen/remote'],
      ['push', '--quiet', '--no-verify', 'origin', 'HEAD:refs/heads/regreen/x'],
    ]) {
      said.push(
        await gitRemote(args, { cwd: args[0] === 'clone' ? temp.dir : work, auth }).then(
          () => `${args[0] ?? ''}: taken`,
          (error: Error) => error.message,
        ),
      );
    }
    expect(leaked()).toEqual([]);
    expect(said.join('\n')).not.toContain(TOKEN);
    expect(said.join('\n')).toMatch(/redirect/);
  });
});
