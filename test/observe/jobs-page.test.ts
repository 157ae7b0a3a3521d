/**
 * The jobs page as a person sees it, in headless Chromium: a pull request's
 * text rendered (not Markdown source), the change as a coloured diff, icons
 * for emoji, tool calls as readable arguments, a triage job not shown failed.
 * The App's end-to-end test (test/e2e/github-app.test.ts) looks at the same
 * page after real jobs; this one brings every case the page must handle.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDiff } from '../../checks/diff.ts';
import { fixSpec, triageSpec } from '../../src/github/processor.ts';
import { prText } from '../../src/job/pr-text.ts';
import type { JobResult, JobSpec } from '../../src/queue/jobs.ts';
import { jobsPageHandler } from '../../src/observe/jobs-page.ts';
import { openJobStore } from '../../src/store/sqlite.ts';
import type { JobStore } from '../../src/store/types.ts';
import type { Browser } from 'playwright-core';
import { emojiText, launchChromium, screenshot } from '../support/browser.ts';
import { lookAtFixJob } from './fix-job-look.ts';
import { makeTempDir } from '../support/tmp.ts';

const SECRET = 'page-secret';
const AT = Date.UTC(2026, 0, 12, 9, 30);
const TARGET = {
  owner: 'acme',
  repo: 'range',
  branch: 'main',
  headSha: '52a9bef464bec9b2e0f85b4719cb2f2389b7329c',
  cloneUrl: 'https://github.com/acme/range.git',
};
const PATCH =
  'diff --git a/src/range.js b/src/range.js\n--- a/src/range.js\n+++ b/src/range.js\n@@ -1,3 +1,3 @@\n export function range(n) {\n-  for (let i = 0; i < n - 1; i += 1) out.push(i);\n+  for (let i = 0; i < n; i += 1) out.push(i);\n }\n';

/** A fix job's trace as the agent writes it: stages, turns, tool calls with absolute paths. */
const traceOf = (workspace: string): string =>
  [
    { type: 'stage', stage: 'intake', phase: 'end', outcome: 'acme/range run 7', durationMs: 20 },
    {
      type: 'stage',
      stage: 'reproduce',
      phase: 'end',
      outcome: 'failed (exit 1), fingerprint 4f15a4ff5020',
      durationMs: 600,
    },
    {
      type: 'model',
      turn: 1,
      stopReason: 'tool_use',
      costUsd: 0.0021,
      text: 'The test expects `range(3)` to be **[0, 1, 2]**.',
    },
    {
      type: 'tool',
      name: 'read',
      input: { path: `${workspace}/src/range.js`, from: 1, to: 40 },
      output: 'export function range(n) {',
      isError: false,
      durationMs: 3,
    },
    {
      type: 'model',
      turn: 2,
      stopReason: 'tool_use',
      costUsd: 0.0018,
      text: 'The loop stops at `n - 1`.',
    },
    {
      type: 'tool',
      name: 'edit',
      input: { path: `${workspace}/src/range.js`, old: 'i < n - 1', new: 'i < n' },
      output: 'edited src/range.js at line 2',
      isError: false,
      durationMs: 5,
    },
    { type: 'model', turn: 3, stopReason: 'tool_use', costUsd: 0.0012 },
    {
      type: 'tool',
      name: 'run_tests',
      input: {},
      output: 'pass\n✔ range(3) yields 0 to 2\n✔ sum adds the range',
      isError: false,
      durationMs: 900,
    },
    { type: 'stage', stage: 'agent', phase: 'end', outcome: 'done', durationMs: 1000 },
    { type: 'stage', stage: 'checks', phase: 'end', outcome: '14/14 passed', durationMs: 800 },
  ]
    .map((event) => JSON.stringify(event))
    .join('\n');

/** A job through the store as the queue reports it: queued, started, completed with its result. */
const record = (store: JobStore, id: string, spec: JobSpec, result: JobResult): void => {
  store.record({ type: 'queued', id, spec, at: AT });
  store.record({ type: 'started', id, attempt: 1, at: AT + 1_000 });
  store.record({ type: 'completed', id, at: AT + 48_000, result });
};

describe('the jobs page in Chromium', () => {
  const temp = makeTempDir('regreen-jobs-page-');
  let server: Server;
  let browser: Browser;
  let url = '';
  const fixId = 'f'.repeat(32);
  const diagnosisId = 'd'.repeat(32);
  const triageId = 't'.repeat(32);

  beforeAll(async () => {
    const store = openJobStore(path.join(temp.dir, 'jobs.db'));
    const jobDir = path.join(temp.dir, 'jobs', fixId);
    mkdirSync(jobDir, { recursive: true });
    writeFileSync(path.join(jobDir, 'trace.jsonl'), traceOf(path.join(jobDir, 'workspace')));
    const report = { repo: 'acme/range', trigger: 'app' as const, fingerprint: '4f15a4ff5020' };
    const spec = (key: string) =>
      fixSpec({ installationId: 1, target: TARGET, report, key, force: false });
    const asked = { id: '0123456789abcdef', where: 'github', askedAt: AT + 20_000 };
    const pr = prText({
      command: 'npm test',
      fixedBy: 'agent',
      plan: '1. Read `src/range.js`.\n2. Fix the **loop bound** (`n - 1` → `n`).',
      summary: 'range() stopped one element early; it now runs to `n`.',
      diff: parseDiff(PATCH),
      checks: [
        { name: 'failing-command-passes', ok: true, detail: 'exit 0' },
        { name: 'protected-files', ok: true, detail: 'none touched' },
      ],
      testOutput: '✔ range(3) yields 0 to 2\n✔ sum adds the range\nℹ tests 2',
      fingerprint: '4f15a4ff5020',
      sandboxKind: 'bubblewrap',
      reproduction: 'the same failing test as CI',
      questions: [
        {
          ...asked,
          kind: 'question',
          question: 'Stop before n?',
          answer: { kind: 'answer', labels: ['Stop before n'], by: 'maya', at: AT + 140_000 },
        },
        {
          ...asked,
          kind: 'permission',
          question: 'May I run `npm ci`?',
          answer: { kind: 'timeout', at: AT + 620_000 },
        },
      ],
    });
    record(store, fixId, spec('fix'), {
      status: 'proposed',
      summary: 'fix: make `npm test` pass',
      detail: pr.body,
      prUrl: 'https://github.com/acme/range/pull/12',
      costUsd: 0.0051,
      turns: 3,
      tracePath: path.join(jobDir, 'trace.jsonl'),
    });
    record(store, diagnosisId, spec('diagnosis'), {
      status: 'diagnosis',
      summary: 'checks failed',
      detail: `checks failed ⚠️ <img src=x onerror="alert(1)"> [click](javascript:alert(1))\n\n\`\`\`diff\n${PATCH}\`\`\``,
    });
    const build = { target: TARGET, source: { kind: 'run' as const, runId: 7 } };
    record(store, triageId, triageSpec(1, build), {
      status: 'triaged',
      summary: '1 failure(s)',
    });
    server = createServer((req, res) => {
      if (!jobsPageHandler({ store, secret: SECRET })(req, res)) res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
    temp.cleanup();
  });

  it('lists a triage job as triaged (not failed) beside a proposed fix', async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/jobs?key=${SECRET}`);
    const triage = page.locator(`#jobs tr:has(a[href="/jobs/${triageId}"])`);
    expect(await triage.getAttribute('data-status')).toBe('info');
    expect(await triage.locator('.result svg').getAttribute('aria-label')).toMatch(/^triaged/);
    const fix = page.locator(`#jobs tr:has(a[href="/jobs/${fixId}"])`);
    expect(await fix.getAttribute('data-status')).toBe('pass');
    expect(await page.locator('#jobs tr[data-status="fail"]').count()).toBe(0);
    await screenshot(page, 'jobs-page-list');
  });

  it("renders a fix's pull request text, its change as a diff and its tool calls as arguments", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${url}/jobs/${fixId}?key=${SECRET}`);
    const text = page.locator('details.text .markdown');
    expect(await text.locator('h3', { hasText: 'Checks' }).count()).toBe(1);
    expect(await text.locator('table.md td svg.icon[aria-label="pass"]').count()).toBe(2);
    expect(await text.locator('ol > li').count()).toBe(2);
    expect(await text.locator('ul > li > code', { hasText: 'src/range.js' }).count()).toBe(1);
    expect(await text.locator('strong', { hasText: 'loop bound' }).count()).toBe(1);
    expect(await text.locator('svg.icon[aria-label="lock"]').count()).toBe(1);
    await screenshot(page, 'jobs-page-pr-text');
    // What the App's end-to-end test looks at too: the text, the stages, the edit call.
    await lookAtFixJob(page);
    const reproduce = page.locator('p.stage', { hasText: 'stage reproduce' });
    expect(await reproduce.locator('svg').getAttribute('aria-label')).toBe('reproduced');
    // The change: the agent's edit as removed and added lines.
    const changes = page.locator('section details', {
      has: page.locator('summary', { hasText: /^changes$/ }),
    });
    await changes.locator('summary').first().click();
    expect(await changes.locator('.diff .del').textContent()).toBe('-i < n - 1');
    expect(await changes.locator('.diff .add').textContent()).toBe('+i < n');
    // Every call's arguments readable.
    const closedTurn = page.locator('details.turn:not([open]) > summary');
    while ((await closedTurn.count()) > 0) await closedTurn.first().click();
    const summaries = await page.locator('details.call > summary').allTextContents();
    expect(summaries.map((s) => s.replace(/\s+/g, ' ').trim())).toEqual([
      'read path=src/range.js lines 1–40 3 ms',
      'edit path=src/range.js 5 ms',
      'run_tests all tests 900 ms',
    ]);
    const closedCall = page.locator('details.call:not([open]) > summary');
    while ((await closedCall.count()) > 0) await closedCall.first().click();
    expect(await page.locator('details.call .diff .add').count()).toBe(1);
    expect((await page.locator('details.call').allTextContents()).join('\n')).not.toMatch(/\{"|":/);
    expect(await emojiText(page)).toEqual([]);
    await screenshot(page, 'jobs-page-trajectory');
  });

  it("renders a diagnosis's diff fence coloured and its hostile parts as text", async () => {
    const page = await browser.newPage();
    await page.goto(`${url}/jobs/${diagnosisId}?key=${SECRET}`);
    const text = page.locator('details.text .markdown');
    expect(await text.locator('pre.diff .add').count()).toBe(1);
    expect(await text.locator('pre.diff .del').count()).toBe(1);
    expect(await text.textContent()).toContain('<img src=x onerror="alert(1)">');
    expect(await page.locator('img, script, a[href^="javascript"]').count()).toBe(0);
    expect(await page.locator('section h2 svg').getAttribute('aria-label')).toMatch(/diagnosis/);
    expect(await emojiText(page)).toEqual([]);
    await screenshot(page, 'jobs-page-diagnosis');
  });
});
