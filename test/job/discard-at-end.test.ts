import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { discardAtEnd } from '../../src/job/stages/scratch.ts';
import { makeTempDir } from '../support/tmp.ts';

const tree = (root: string, name: string): string => {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'node_modules', 'left-pad'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', 'left-pad', 'index.js'), 'module.exports = 1;\n');
  return dir;
};

describe('a tree of the job’s scratch space, when the job ends', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('on a volume of the job’s own: left for the volume, which goes whole right after', () => {
    const dir = tree(temp.dir, 'on-volume');
    discardAtEnd({ scratchOnVolume: true }, dir)();
    expect(existsSync(path.join(dir, 'node_modules', 'left-pad', 'index.js'))).toBe(true);
  });

  it('in the job’s folder: discarded (renamed aside at once, then removed)', async () => {
    const dir = tree(temp.dir, 'in-folder');
    discardAtEnd({ scratchOnVolume: false }, dir)();
    expect(existsSync(dir)).toBe(false);
    for (
      let tries = 0;
      readdirSync(temp.dir).some((n) => n.startsWith('in-folder')) && tries < 100;
      tries++
    )
      await sleep(50);
    expect(readdirSync(temp.dir).filter((n) => n.startsWith('in-folder'))).toEqual([]);
  });
});
