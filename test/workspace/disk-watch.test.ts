import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedByFilesystem, watchDisk } from '../../src/workspace/sandbox/limits.ts';
import { makeTempDir } from '../support/tmp.ts';

const MiB = 1024 * 1024;

/** The polled disk watch is for folders the kernel does not bound; one on a small enough filesystem is the kernel's. */
describe('the disk watch', () => {
  const temp = makeTempDir();
  const small = path.join(temp.dir, 'small');
  const open = path.join(temp.dir, 'open');

  beforeAll(() => {
    mkdirSync(small);
    mkdirSync(open);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', small]);
  });

  afterAll(() => {
    execFileSync('umount', ['-l', small]);
    temp.cleanup();
  });

  it('knows a folder bounded by its filesystem, and unknown is unbounded', () => {
    expect(boundedByFilesystem(small, 16 * MiB)).toBe(true);
    expect(boundedByFilesystem(small, 8 * MiB)).toBe(false);
    expect(boundedByFilesystem(open, 16 * MiB)).toBe(false);
    expect(boundedByFilesystem(path.join(temp.dir, 'gone'), Number.MAX_SAFE_INTEGER)).toBe(false);
  });

  it('still stops growth past the limit in a folder the kernel does not bound', async () => {
    let told = 0;
    const watch = await watchDisk({
      dirs: [small, open],
      limitBytes: 2 * MiB,
      intervalMs: 20,
      onExceeded: () => (told += 1),
    });
    writeFileSync(path.join(open, 'grown.bin'), Buffer.alloc(4 * MiB, 1));
    for (let waited = 0; !watch.exceeded && waited < 10_000; waited += 20)
      await new Promise((resolve) => setTimeout(resolve, 20));
    watch.stop();
    expect(watch.exceeded).toBe(true);
    expect(told).toBe(1);
  });

  it('leaves a bounded folder to the kernel, which refuses the write past it', async () => {
    const watch = await watchDisk({
      dirs: [small],
      limitBytes: 16 * MiB,
      intervalMs: 20,
      onExceeded: () => undefined,
    });
    expect(() => writeFileSync(path.join(small, 'too-big.bin'), Buffer.alloc(20 * MiB, 1))).toThrow(
      /ENOSPC/,
    );
    watch.stop();
    expect(watch.exceeded).toBe(false);
  });
});
