import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ACTION_PACING,
  APP_PACING,
  createGitHubClient,
  type GitHubClient,
} from '../../src/forge/github/client.ts';
import { silentLogger } from '../../src/logger.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { buildRedRepo } from '../support/github-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';

/** Writes are spaced per token (octokit's throttling), never for the whole process. */
describe('the REST client paces writes per installation', () => {
  const temp = makeTempDir();
  let gh: EmulatedGitHub;
  const appClient = (installationId: number): GitHubClient =>
    createGitHubClient({
      auth: { kind: 'app', appId: gh.appId, privateKey: gh.privateKey, installationId },
      baseUrl: gh.apiUrl,
      logger: silentLogger(),
    });

  beforeAll(async () => {
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
    buildRedRepo(path.join(temp.dir, 'lib'));
    gh.addRepo({ owner: 'acme', name: 'lib', source: path.join(temp.dir, 'lib') });
  });
  afterAll(async () => {
    await gh?.close();
    temp.cleanup();
  });

  it("one installation's queued comment does not hold back another installation's", async () => {
    const first = appClient(101);
    const second = appClient(202);
    const comment = (client: GitHubClient, body: string) =>
      client.rest.issues.createComment({ owner: 'acme', repo: 'lib', issue_number: 1, body });
    await comment(first, 'first-1');
    // The first installation's next comment waits its turn (notifying writes are spaced)...
    const queued = comment(first, 'first-2');
    // ...and the second installation's comment does not wait behind it.
    await comment(second, 'second-1');
    await queued;
    const bodies = gh.repo('acme/lib').comments.map((c) => c.body);
    expect(bodies).toEqual(['first-1', 'second-1', 'first-2']);
  });

  it('the Action, one workflow run with a handful of writes, spaces them less than the App', () => {
    expect(ACTION_PACING.writeMs).toBeLessThan(APP_PACING.writeMs);
    expect(ACTION_PACING.notificationMs).toBeLessThan(APP_PACING.notificationMs);
    expect(ACTION_PACING.notificationMs).toBeGreaterThanOrEqual(ACTION_PACING.writeMs);
  });
});
