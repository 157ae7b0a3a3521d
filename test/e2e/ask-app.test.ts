import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trajectory } from '../../fixtures/build.ts';
import { traceSteps } from '../../src/observe/trace-read.ts';
import { serve, type Served } from '../../src/entrypoints/app.ts';
import { silentLogger } from '../../src/logger.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { addRedRun, buildRedRepo, git } from '../support/github-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';
import { waitFor as waitUntil } from '../support/wait.ts';
import { pullCommentPayload, workflowRunPayload } from '../support/webhook-payloads.ts';

/**
 * A failure on a pull request; the agent asks its people. The App frees the
 * job while it waits (its state in the store), and resumes it from the store
 * when the answer comes — here in a new App process — or when the deadline
 * passes.
 */
const waitFor = (what: string, check: () => boolean) => waitUntil(what, check, 120_000);

describe('ask_user in the App: the job waits in the store, not in a worker', () => {
  const temp = makeTempDir();
  let gh: EmulatedGitHub;
  let app: Served | undefined;

  const start = (name: string, model: string, extra: Record<string, string> = {}) =>
    serve(
      {
        ...process.env,
        APP_ID: String(gh.appId),
        PRIVATE_KEY: gh.privateKey,
        WEBHOOK_SECRET: gh.webhookSecret,
        GITHUB_API_URL: gh.apiUrl,
        REGREEN_MODEL: `script:${model}`,
        REGREEN_DATA_DIR: path.join(temp.dir, `data-${name}`),
        ANTHROPIC_API_KEY: undefined,
        ...extra,
      },
      silentLogger(),
      { port: 0 },
    );
  const deliver = async (served: Served, event: string, payload: Record<string, unknown>) => {
    const delivery = await gh.signedDelivery(event, payload);
    const response = await fetch(`${served.url}/api/github/webhooks`, {
      method: 'POST',
      headers: delivery.headers as Record<string, string>,
      body: delivery.body,
    });
    await response.text();
    expect(response.status).toBe(200);
  };
  /** A repository whose `feature` branch is red, with a pull request from it. */
  const redPull = (name: string) => {
    const source = path.join(temp.dir, name);
    const red = buildRedRepo(source);
    git(source, 'branch', 'feature');
    gh.addRepo({ owner: 'acme', name, source });
    const repo = gh.repo(`acme/${name}`);
    repo.permissions.set('maya', 'write');
    repo.permissions.set('visitor', 'read');
    const pull = gh.addPull(`acme/${name}`, {
      head: 'feature',
      base: 'main',
      title: 'feature',
      login: 'maya',
    });
    const run = addRedRun(gh, `acme/${name}`, red, {
      head_branch: 'feature',
      event: 'pull_request',
      pull_requests: [
        { number: pull.number, head: { ref: 'feature', sha: red.sha }, base: { ref: 'main' } },
      ] as never,
    });
    return { repo, pull, run, red };
  };
  const cardOf = (repo: ReturnType<EmulatedGitHub['repo']>, pull: number) =>
    repo.comments.find((c) => c.on === `issue:${pull}` && c.body.includes('regreen:question'));

  beforeAll(async () => {
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
  });
  afterAll(async () => {
    await app?.close();
    await gh?.close();
    temp.cleanup();
  });

  it('asks on the pull request, stops; after a restart of the App the answer resumes the job, which finishes with a PR', async () => {
    const { repo, pull, run } = redPull('range');
    app = await start('restart', trajectory('off-by-one-ask'));
    await deliver(app, 'workflow_run', workflowRunPayload(gh, 'acme/range', run));
    const first = app;
    await waitFor(
      'the job to stop for its question',
      () => first.store.suspendedAll().length === 1,
    );
    await first.queue.idle();
    const card = cardOf(repo, pull.number);
    expect(card?.body).toMatch(/Should range\(n\) stop before n\?/);
    // Stopped, not waiting in a worker: nothing runs, no PR yet, the check says it waits.
    expect(await first.queue.counts()).toMatchObject({ active: 0, waiting: 0 });
    expect(repo.pulls.filter((p) => p.head.startsWith('regreen/'))).toEqual([]);
    expect(repo.checkRuns.find((c) => c.name === 'regreen')?.output?.title).toBe(
      'regreen is waiting for an answer',
    );
    const [waiting] = first.store.suspendedAll();
    await first.close();

    // A reply from someone without write access, then the maintainer's, while the App is down.
    const noise = gh.addComment('acme/range', pull.number, 'visitor', '2');
    const answer = gh.addComment('acme/range', pull.number, 'maya', '1');
    app = await start('restart', trajectory('off-by-one-ask'));
    const second = app;
    expect(second.store.suspendedAll().map((s) => s.questionId)).toEqual([waiting?.questionId]);
    await deliver(
      second,
      'issue_comment',
      pullCommentPayload(gh, 'acme/range', pull.number, {
        id: noise.id,
        body: noise.body,
        login: 'visitor',
      }),
    );
    await deliver(
      second,
      'issue_comment',
      pullCommentPayload(gh, 'acme/range', pull.number, {
        id: answer.id,
        body: answer.body,
        login: 'maya',
      }),
    );
    await waitFor('the fix', () => repo.pulls.some((p) => p.head.startsWith('regreen/')));
    await second.queue.idle();
    const fix = repo.pulls.find((p) => p.head.startsWith('regreen/'));
    expect(fix?.body).toMatch(
      /## Questions asked\n\n- ❓ Should range\(n\) stop before n\? \(asked .*\) — @maya at .*: Stop before n/,
    );
    expect(second.store.suspendedAll()).toEqual([]);
    expect(cardOf(repo, pull.number)?.body).toMatch(/✅ Answered by @maya: Stop before n\./);
    // The job's records: one stopped for the question, one resumed and proposed.
    const outcomes = second.store.list().map((j) => `${j.kind}:${j.outcome ?? j.state}`);
    expect(outcomes).toContain('resume:proposed');
    // It went on from the saved conversation: the next turn's edit, not the question again.
    const resumed = second.store.list().find((j) => j.kind === 'resume');
    const steps = traceSteps(resumed?.traceText ?? '');
    expect(steps.some((s) => s.kind === 'note' && s.message === 'resumed')).toBe(true);
    const calls = steps.flatMap((s) => (s.kind === 'turn' ? s.calls : []));
    expect(calls.some((c) => c.name === 'ask_user')).toBe(false);
    expect(calls.some((c) => c.name === 'edit' && !c.isError)).toBe(true);
    expect(repo.checkRuns.filter((c) => c.name === 'regreen').at(-1)).toMatchObject({
      conclusion: 'success',
    });
  }, 300_000);

  it('with no answer by the deadline the job resumes on its own and says so', async () => {
    const { repo, pull, run } = redPull('range2');
    const quick = JSON.parse(
      (await import('node:fs')).readFileSync(trajectory('off-by-one-ask'), 'utf8'),
    ) as { turns: { content: { type: string; input?: Record<string, unknown> }[] }[] };
    const ask = quick.turns[0]?.content.find((b) => b.type === 'tool_use');
    if (ask?.input) ask.input.timeout_minutes = 0.02;
    // Edit first, then ask: the change made before the question must survive the wait.
    const [askTurn, editTurn, ...rest] = quick.turns;
    quick.turns = [editTurn, askTurn, ...rest] as typeof quick.turns;
    const file = path.join(temp.dir, 'quick-ask.json');
    writeFileSync(file, JSON.stringify(quick));
    await app?.close();
    app = await start('deadline', file, { REGREEN_QUESTION_SWEEP_MS: '200' });
    await deliver(app, 'workflow_run', workflowRunPayload(gh, 'acme/range2', run));
    await waitFor('the fix', () => repo.pulls.some((p) => p.head.startsWith('regreen/')));
    const fix = repo.pulls.find((p) => p.head.startsWith('regreen/'));
    expect(fix?.body).toMatch(/Should range\(n\) stop before n\? \(asked .*\) — no answer by/);
    expect(cardOf(repo, pull.number)?.body).toMatch(/⌛ No answer in time/);
    // The edit made before the question is in the pushed fix.
    const branchSha = gh.branchSha('acme/range2', fix?.head ?? '') ?? '';
    expect(git(repo.bare, 'show', `${branchSha}:src/range.js`)).toMatch(/i < n;/);
  }, 300_000);

  it('a failure not on a pull request: the question goes on the own draft PR of regreen, which becomes the fix', async () => {
    const source = path.join(temp.dir, 'range3');
    const red = buildRedRepo(source);
    gh.addRepo({ owner: 'acme', name: 'range3', source });
    const repo = gh.repo('acme/range3');
    repo.permissions.set('maya', 'write');
    const run = addRedRun(gh, 'acme/range3', red);
    await app?.close();
    app = await start('draft', trajectory('off-by-one-ask'));
    const served = app;
    await deliver(served, 'workflow_run', workflowRunPayload(gh, 'acme/range3', run));
    await waitFor(
      'the job to stop for its question',
      () => served.store.suspendedAll().length === 1,
    );
    const draft = repo.pulls.find((p) => p.head.startsWith('regreen/'));
    expect(draft).toMatchObject({ draft: true, base: 'main' });
    const card = cardOf(repo, draft?.number ?? 0);
    expect(card?.body).toMatch(/Should range\(n\) stop before n\?/);
    const answer = gh.addComment('acme/range3', draft?.number ?? 0, 'maya', '1');
    await deliver(
      served,
      'issue_comment',
      pullCommentPayload(gh, 'acme/range3', draft?.number ?? 0, {
        id: answer.id,
        body: answer.body,
        login: 'maya',
      }),
    );
    await waitFor('the fix', () => repo.pulls.some((p) => p.body.includes('## Checks')));
    await served.queue.idle();
    // One pull request: the draft, now ready, with the fix and the question's answer.
    expect(repo.pulls).toHaveLength(1);
    const fix = repo.pulls[0];
    expect(gh.requests.filter((r) => /graphql/.test(r))).toEqual(['POST /graphql']);
    expect(fix?.draft).toBe(false);
    expect(fix?.body).toMatch(/## Questions asked[\s\S]*@maya at .*: Stop before n/);
    const branchSha = gh.branchSha('acme/range3', fix?.head ?? '') ?? '';
    expect(git(repo.bare, 'show', `${branchSha}:src/range.js`)).toMatch(/i < n;/);
    expect(git(repo.bare, 'rev-parse', `${branchSha}^`)).toBe(red.sha);
  }, 300_000);
});
