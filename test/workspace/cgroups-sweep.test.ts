import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepStaleGroups } from '../../src/workspace/sandbox/cgroups.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('the groups a killed regreen left behind', () => {
  const temp = makeTempDir('regreen-cgroups-sweep-');
  afterAll(temp.cleanup);

  it("go once they are a minute old and empty; a live regreen's, a fresh one and a busy one stay", () => {
    // A pid that has just exited (its process is gone).
    const dead = spawnSync('true').pid ?? 0;
    expect(dead).toBeGreaterThan(0);
    const group = (name: string, ageMs: number): string => {
      const dir = path.join(temp.dir, name);
      mkdirSync(dir);
      const at = (Date.now() - ageMs) / 1000;
      utimesSync(dir, at, at);
      return dir;
    };
    const stale = group(`regreen-${dead}-deadbeef`, 120_000);
    const fresh = group(`regreen-${dead}-cafebabe`, 1_000);
    const live = group(`regreen-${process.pid}-0badf00d`, 120_000);
    const busy = group(`regreen-${dead}-feedface`, 120_000);
    writeFileSync(path.join(busy, 'cgroup.procs'), '42\n');
    const other = group('someone-else', 120_000);

    expect(sweepStaleGroups(temp.dir)).toBe(1);
    expect(existsSync(stale)).toBe(false);
    for (const kept of [fresh, live, busy, other]) expect(existsSync(kept)).toBe(true);
  });
});
