import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { discardDir } from '../../src/util/discard.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('discardDir', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('removes the folder at once by name and deletes it without following a link out of it', async () => {
    const outside = path.join(temp.dir, 'outside');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'keep.txt'), 'kept\n');
    const dir = path.join(temp.dir, 'fresh');
    mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'node_modules', 'link'));
    symlinkSync(path.join(outside, 'keep.txt'), path.join(dir, 'file-link'));
    discardDir(dir);
    expect(existsSync(dir)).toBe(false);
    // The detached rm finishes on its own; wait for it here.
    for (let i = 0; i < 100; i += 1) {
      const left = (await import('node:fs'))
        .readdirSync(temp.dir)
        .filter((n) => n.startsWith('fresh.discarded-'));
      if (left.length === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(readFileSync(path.join(outside, 'keep.txt'), 'utf8')).toBe('kept\n');
    discardDir(path.join(temp.dir, 'absent')); // nothing there: nothing to do
  });
});
