import { describe, expect, it } from 'vitest';
import { jobHtml } from '../../src/observe/jobs-page.ts';
import type { JobRecord } from '../../src/store/types.ts';

const VOLUME_WORKSPACE = '/data/jobs/20261203T090000-abc/volume/workspace';
const RECIPE_DIFF =
  'diff --git a/package.json b/package.json\n--- a/package.json\n+++ b/package.json\n@@ -1,3 +1,4 @@\n {\n   "name": "calc",\n+  "engines": { "node": ">=20" },\n   "private": true\n';

const job = (events: readonly object[]): JobRecord => ({
  id: 'j1',
  key: 'acme/calc#1',
  kind: 'fix',
  repo: 'acme/calc',
  sha: null,
  fingerprint: null,
  trigger: null,
  state: 'completed',
  outcome: 'proposed',
  summary: 'fixed by recipe engines',
  prUrl: null,
  costUsd: 0,
  turns: 0,
  attempts: 1,
  queuedAt: null,
  startedAt: null,
  finishedAt: null,
  tracePath: '/data/jobs/20261203T090000-abc/trace.jsonl',
  traceText: events.map((e) => JSON.stringify(e)).join('\n'),
  detail: 'A pull request without a diff fence.',
  error: null,
  note: null,
  interruptions: 0,
});

/** The real change set is kept with the job: a recipe's change shows, not only the agent's edits. */
describe('the change a job proposed', () => {
  it('a recipe’s change, recorded by the checks, is the page’s change', () => {
    const html = jobHtml(
      job([
        { type: 'workspace', path: VOLUME_WORKSPACE },
        {
          type: 'stage',
          stage: 'recipes',
          phase: 'end',
          outcome: 'fixed by engines',
          durationMs: 3,
        },
        { type: 'change', diff: RECIPE_DIFF },
      ]),
    );
    expect(html).toContain('The change the checks judged');
    expect(html).toMatch(/class="add"[^>]*>\+ {2}&quot;engines&quot;/);
    expect(html).not.toContain("a recipe's change is not among them");
  });

  it('tool calls on a workspace on the job’s volume are shown relative to it', () => {
    const html = jobHtml(
      job([
        { type: 'workspace', path: VOLUME_WORKSPACE },
        { type: 'model', turn: 1, stopReason: 'tool_use', costUsd: 0, text: '' },
        {
          type: 'tool',
          name: 'read',
          input: { path: `${VOLUME_WORKSPACE}/src/range.js`, from: 1, to: 4 },
          output: 'x',
          isError: false,
          durationMs: 1,
        },
      ]),
    );
    expect(html).toContain('<span class="key">path</span>=<code>src/range.js</code>');
    expect(html).not.toContain(`${VOLUME_WORKSPACE}/src`);
  });
});
