import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitHubClient, type GitHubClient } from '../../src/forge/github/client.ts';
import { createGitHubForge, type GitHubTarget } from '../../src/forge/github/forge.ts';
import { silentLogger } from '../../src/logger.ts';
import { hostRootsOf, neutralizeHostPaths } from '../../src/util/host-paths.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { buildRedRepo, git } from '../support/github-fixture.ts';
import { stagedTree } from '../support/staged-tree.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('no host path in any text sent to GitHub (#59)', () => {
  const temp = makeTempDir();
  const dataDir = path.join(temp.dir, 'operator', 'data');
  const home = path.join(temp.dir, 'home', 'ops');
  const jobId = '4f2a9c0d1e2b3a4f';
  const fresh = path.join(dataDir, 'jobs', jobId, 'volume', 'fresh');
  let gh: EmulatedGitHub;
  let client: GitHubClient;
  let target: GitHubTarget;
  let red: { sha: string };

  beforeAll(async () => {
    mkdirSync(fresh, { recursive: true });
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
    red = buildRedRepo(path.join(temp.dir, 'lib'));
    gh.addRepo({ owner: 'acme', name: 'lib', source: path.join(temp.dir, 'lib') });
    client = createGitHubClient({
      auth: { kind: 'token', token: gh.userToken('acme') },
      baseUrl: gh.apiUrl,
      logger: silentLogger(),
      hostRoots: hostRootsOf({
        dataDir,
        home,
        toolsDir: path.join(home, '.cache', 'regreen-tools'),
      }),
    });
    target = {
      owner: 'acme',
      repo: 'lib',
      branch: 'main',
      headSha: red.sha,
      cloneUrl: `${gh.url}/acme/lib.git`,
    };
  });
  afterAll(async () => {
    await gh?.close();
    temp.cleanup();
  });

  it('names job folders, the data dir and the home neutrally, whole segments only', () => {
    const roots = hostRootsOf({ dataDir, home });
    expect(
      neutralizeHostPaths(
        `rootdir: ${fresh}\n${fresh}/tests/test_range.py:12: AssertionError\ncache ${dataDir}/cache, tools ${home}/.cache/x; ${dataDir}2/other ${home}er`,
        roots,
      ),
    ).toBe(
      `rootdir: <job>/volume/fresh\n<job>/volume/fresh/tests/test_range.py:12: AssertionError\ncache <regreen-data>/cache, tools ~/.cache/x; ${dataDir}2/other ${home}er`,
    );
  });

  it('a pull request, its commit, a diagnosis comment and a check run carry no host folder and no job id', async () => {
    const ws = path.join(temp.dir, 'ws');
    execFileSync('git', ['clone', '-q', path.join(temp.dir, 'lib'), ws]);
    git(ws, 'remote', 'set-url', 'origin', `${gh.url}/acme/lib.git`);
    writeFileSync(path.join(ws, 'src', 'range.js'), 'export const range = (n) => [n];\n');
    const forge = createGitHubForge({
      client,
      target,
      token: () => Promise.resolve(gh.userToken('acme')),
      logger: silentLogger(),
    });
    const runnerOutput = `rootdir: ${fresh}\n${fresh}/tests/test_range.py::test_bounds PASSED\nconfig ${home}/.config/pip/pip.conf`;
    const before = gh.requestBodies.length;
    const proposed = await forge.propose({
      workspace: ws,
      baseSha: red.sha,
      tree: await stagedTree(ws),
      branch: 'regreen/feedfacecafe',
      fingerprint: 'feedfacecafe',
      title: `fix: make \`pytest ${fresh}/tests\` pass`,
      body: `regreen reproduced a failure of \`pytest\` in ${fresh} and proposes this fix (fingerprint \`feedfacecafe\`, fixed by agent).\n\n## Checks\n\n| check | result |\n| --- | --- |\n| tests | ✅ |\n\n## Test output\n\n\`\`\`\n${runnerOutput}\n\`\`\``,
    });
    expect(proposed.url).toMatch(/\/pull\/\d+$/);
    await forge.diagnose({
      fingerprint: 'f00dfeed0000',
      title: 'checks failed',
      body: `the run in ${fresh} failed:\n\n\`\`\`\n${runnerOutput}\n\`\`\``,
    });
    await client.rest.checks.create({
      owner: 'acme',
      repo: 'lib',
      name: 'regreen',
      head_sha: red.sha,
      status: 'completed',
      conclusion: 'neutral',
      output: { title: 'diagnosis', summary: `reproduced in ${fresh}`, text: runnerOutput },
    });

    const sent = gh.requestBodies.slice(before);
    const writes = sent.filter((r) => r.method !== 'GET');
    expect(writes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /repos/acme/lib/pulls',
        'POST /repos/acme/lib/commits/' + red.sha + '/comments',
        'POST /repos/acme/lib/check-runs',
      ]),
    );
    for (const request of sent) {
      expect(request.body, `${request.method} ${request.path}`).not.toContain(temp.dir);
      expect(request.body, `${request.method} ${request.path}`).not.toContain(jobId);
    }
    // What is left says where, without saying whose machine.
    const pr = gh.repo('acme/lib').pulls.find((p) => p.head === 'regreen/feedfacecafe');
    expect(pr?.title).toBe('fix: make `pytest <job>/volume/fresh/tests` pass');
    expect(pr?.body).toContain('<job>/volume/fresh/tests/test_range.py::test_bounds PASSED');
    expect(pr?.body).toContain('~/.config/pip/pip.conf');

    // The commit: a title and a short paragraph, no checks table, no runner output, no host path.
    const sha = gh.branchSha('acme/lib', 'regreen/feedfacecafe') ?? '';
    const message = git(gh.repo('acme/lib').bare, 'log', '-1', '--format=%B', sha);
    const lines = message.trimEnd().split('\n');
    expect(lines[0]).toBe('fix: make `pytest <job>/volume/fresh/tests` pass');
    expect(lines[1]).toBe('');
    expect(lines.length).toBeLessThanOrEqual(8);
    expect(lines.every((line) => line.length <= 72)).toBe(true);
    expect(message).not.toContain('## Checks');
    expect(message).not.toContain('PASSED');
    expect(message).not.toContain(temp.dir);
    expect(message).toContain('proposes this fix');
  }, 60_000);
});
