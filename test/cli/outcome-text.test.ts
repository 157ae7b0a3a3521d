import { describe, expect, it } from 'vitest';
import { outcomeJson, outcomeText } from '../../src/cli/output.ts';
import type { Outcome } from '../../src/job/outcome.ts';

const checks = Array.from({ length: 12 }, (_, i) => ({
  name: `check-${i}`,
  ok: true,
  detail: `fine ${i}\nmore`,
}));

const proposed: Outcome = {
  status: 'proposed',
  branch: 'regreen/abc123',
  title: 'fix: add adds',
  prText: Array.from({ length: 55 }, (_, i) => `## line ${i} of the PR body`).join('\n'),
  prTextPath: '/data/proposals/x/abc123.md',
  patchPath: '/data/proposals/x/abc123.patch',
  repository: '/home/me/my repo',
  updated: false,
  fixedBy: 'agent',
  fingerprint: 'abc123',
  checks,
  tracePath: '/data/jobs/j/trace.jsonl',
  spend: {
    turns: 3,
    inputTokens: 1000,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 100,
    costUsd: 0.0123,
    elapsedMs: 4500,
  },
  changed: { files: ['a.py', 'b.py', 'c.py', 'd.py'], added: 5, removed: 3 },
  baseSha: '0123456789abcdef0123',
};

describe('the outcome at a terminal', () => {
  it('is at most ten lines, with what changed, the checks, the spend and the next command; the PR body only when verbose', () => {
    const text = outcomeText(proposed);
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(text).toContain('proposed: fix: add adds');
    expect(text).toContain('branch: regreen/abc123 (created), fixed by agent');
    expect(text).toContain('changed: 4 files, +5 -3: a.py, b.py, c.py and 1 more');
    expect(text).toContain('checks: all 12 passed');
    expect(text).toContain('spend: 3 turns, $0.0123, 4.5s');
    // Run from anywhere: the repository the branch is in is named.
    expect(text).toContain("next: git -C '/home/me/my repo' diff 0123456789ab regreen/abc123");
    expect(text).toContain('patch: /data/proposals/x/abc123.patch');
    // A URL target keeps no branch of the person's: its patch is what they apply.
    const urlTarget = { ...proposed, repository: undefined } as Outcome;
    expect(outcomeText(urlTarget)).toContain(
      'next: git apply /data/proposals/x/abc123.patch (in your checkout)',
    );
    expect(text).not.toContain('## line');
    const verbose = outcomeText(proposed, { verbose: true });
    expect(verbose).toContain('## line 54 of the PR body');
    expect(outcomeJson(proposed)).toMatchObject({
      changed: { added: 5 },
      baseSha: '0123456789abcdef0123',
    });
  });

  it('a diagnosis names the failed checks in one line, and where to look next', () => {
    const text = outcomeText({
      status: 'diagnosis',
      category: 'checks-failed',
      reason: 'checks failed: no-regression (2 fewer passed)\nmore detail',
      checks: [...checks, { name: 'no-regression', ok: false, detail: '2 fewer passed\nlist' }],
      tracePath: '/data/jobs/j/trace.jsonl',
    });
    const lines = text.split('\n');
    expect(lines.length).toBeLessThanOrEqual(10);
    expect(text).toContain(
      'diagnosis (checks-failed): checks failed: no-regression (2 fewer passed)',
    );
    expect(text).toContain('checks: 12 of 13 passed; failed: no-regression\n');
    expect(text).toContain('next: regreen trace show j');
  });

  it('a refused change says its reason once, wrapped, however long the checks’ details are', () => {
    const detail = `${'the base-tests-intact check found the expected value rewritten '.repeat(9).trim()}`;
    const text = outcomeText({
      status: 'diagnosis',
      category: 'checks-failed',
      reason: `checks failed: base-tests-intact (${detail}); no-regression (2 fewer passed)`,
      checks: [
        ...checks,
        { name: 'base-tests-intact', ok: false, detail },
        { name: 'no-regression', ok: false, detail: '2 fewer passed' },
      ],
      tracePath: '/data/jobs/j/trace.jsonl',
    });
    expect(detail.length).toBeGreaterThan(500);
    // The reason once; the checks line counts them, by name.
    expect(text.split('expected value rewritten').length - 1).toBe(9);
    expect(text).toContain('checks: 12 of 14 passed; failed: base-tests-intact, no-regression');
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it('every outcome with a trace ends with the command to read it', () => {
    for (const outcome of [
      {
        status: 'not-reproduced',
        reason: 'the command passed',
        tracePath: '/d/jobs/20261203T1-ab/trace.jsonl',
      },
      {
        status: 'error',
        code: 'usage',
        reason: 'bad',
        tracePath: '/d/jobs/20261203T1-ab/trace.jsonl',
      },
    ] as const) {
      const lines = outcomeText(outcome as never).split('\n');
      expect(lines.at(-1)).toBe('next: regreen trace show 20261203T1-ab');
      // A job given --data-dir is read from there: the command says so.
      const elsewhere = outcomeText(outcome as never, { dataDir: '/tmp/my data' }).split('\n');
      expect(elsewhere.at(-1)).toBe(
        "next: regreen trace show 20261203T1-ab --data-dir '/tmp/my data'",
      );
    }
  });
});
