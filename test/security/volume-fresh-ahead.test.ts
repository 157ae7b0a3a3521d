import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture } from '../../fixtures/build.ts';
import { callsScript, expectProposed, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const isRoot = process.geteuid?.() === 0;

const notes = (tracePath: string | undefined): string[] =>
  readFileSync(tracePath ?? '', 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; message?: string })
    .filter((event) => event.type === 'note')
    .map((event) => event.message ?? '');

/**
 * Second cross-device break of the same kind (regreen's own files in the
 * job folder, the trees on the volume): the fresh check begun ahead reads
 * the change through `git read-tree --index-output=<job>/ahead.index`, and
 * git writes that index next to the workspace's own (on the volume) and
 * renames it across: "unable to write new index file". On the volume the
 * fresh check is never begun ahead; the job falls back silently (a trace
 * note), so disk-volume.test.ts's real job still passes.
 */
describe.runIf(isRoot)('the fresh check begun ahead, on the volume', () => {
  const temp = makeTempDir('regreen-h-ahead-');
  afterAll(temp.cleanup);

  const run = async (volume: 'auto' | 'off') => {
    const repo = buildOffByOneFixture(path.join(temp.dir, `calc-${volume}`));
    const script = callsScript(temp.dir, `calc-${volume}`, [
      { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' } },
      { name: 'run_tests', input: {} },
    ]);
    const result = await fix(repo, script, {
      REGREEN_JOB_VOLUME: volume,
      REGREEN_MAX_DISK_MB: '256',
    });
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    return notes(result.outcome.tracePath);
  };

  it('off the volume: begun ahead (the baseline)', async () => {
    const seen = await run('off');
    expect(seen.some((n) => n.startsWith('fresh check: begun'))).toBe(true);
  }, 300_000);

  it('on the volume: begun ahead as well (the index was renamed across devices)', async () => {
    const seen = await run('auto');
    expect(seen.some((n) => /volume of their own/.test(n))).toBe(true);
    expect(seen.filter((n) => n.startsWith('fresh check: not begun'))).toEqual([]);
    expect(seen.some((n) => n.startsWith('fresh check: begun'))).toBe(true);
  }, 300_000);
});
