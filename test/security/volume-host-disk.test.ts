import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openJobVolume } from '../../src/workspace/sandbox/job-volume.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, inSandbox } from './support.ts';

const isRoot = process.geteuid?.() === 0;
const MiB = 1024 * 1024;

/**
 * ATTACK: fill the host's disk through the image.
 *
 * The data dir's file system here is a small ext4 (what an operator's data
 * disk is, scaled down) with 20% of its blocks reserved for root, and
 * everything else already used: as on a busy runner. Before the volume,
 * the sandbox wrote as the unprivileged sandbox uid, and the host kernel
 * refused it at the reserve. The volume's image is written by the loop
 * driver (a kernel worker with root's credentials), and it is sparse, so
 * nothing checked the host had its size free: the job eats the root
 * reserve, leaving the host file system with 0 bytes free for root too.
 */
describe.runIf(isRoot)('the job volume and the host disk it lives on', () => {
  const temp = makeTempDir('regreen-h-hostdisk-');
  const hostfs = path.join(temp.dir, 'hostfs');
  const free = () => {
    const s = statfsSync(hostfs);
    return { forRoot: s.bfree * s.bsize, forUsers: s.bavail * s.bsize };
  };
  beforeAll(() => {
    const image = path.join(temp.dir, 'host.img');
    execFileSync('truncate', ['-s', '160M', image]);
    execFileSync('mkfs.ext4', ['-q', '-F', '-m', '20', '-O', '^has_journal', image]);
    mkdirSync(hostfs);
    execFileSync('mount', ['-o', 'loop', image, hostfs]);
    // Everything unprivileged users may use is taken; root's reserve (~30 MiB) is left.
    const { forUsers } = free();
    execFileSync('fallocate', ['-l', String(forUsers - 256 * 1024), path.join(hostfs, 'filler')]);
    execFileSync('sync');
  });
  afterAll(() => {
    execFileSync('sync');
    for (const point of readFileSync('/proc/self/mountinfo', 'utf8')
      .split('\n')
      .map((line) => line.split(' ')[4] ?? '')
      .filter((p) => p.startsWith(`${temp.dir}/`))
      .reverse())
      execFileSync('umount', ['-l', point], { stdio: 'ignore' });
    temp.cleanup();
  });

  it('without the volume: the sandbox uid stops at the root reserve (held, the baseline)', async () => {
    const before = free();
    expect(before.forRoot).toBeGreaterThan(20 * MiB);
    const sandbox = await attackSandbox({
      root: path.join(hostfs, 'off'),
      workspace: path.join(hostfs, 'off', 'workspace'),
      limits: { processes: 64, memoryMb: 512, diskMb: 64 },
    });
    try {
      const result = await inSandbox(sandbox, 'dd if=/dev/zero of=big bs=1M count=40 2>&1; sync');
      expect(result.output).toMatch(/No space left on device/);
    } finally {
      await sandbox.dispose();
    }
    execFileSync('sync');
    expect(free().forRoot).toBeGreaterThan(20 * MiB);
  }, 120_000);

  it('with the volume: none is made where users cannot write its size, so root’s reserve stays', async () => {
    const answer = await openJobVolume({ dir: path.join(hostfs, 'jobs', 'j'), sizeMb: 64 });
    // The loop device writes as root, past the reserve: a volume the host cannot hold is refused.
    expect('unavailable' in answer && answer.unavailable).toMatch(
      /MiB free for users, less than this job's 64 MiB/,
    );
    expect(existsSync(path.join(hostfs, 'jobs', 'j', 'volume.img'))).toBe(false);
    expect(free().forRoot).toBeGreaterThan(20 * MiB);
  }, 180_000);
});

/**
 * ATTACK: what a job deleted stays on the host. The private tmp and home,
 * and the fresh trees, "go" when their sandbox is disposed; on the volume
 * their blocks stay allocated in the image (no discard, no trim before the
 * unmount), so a job leaves its high-water mark — up to
 * REGREEN_MAX_DISK_MB — on the host until `jobs prune`, where before it
 * left only its workspace.
 */
describe.runIf(isRoot)('what a job deleted on its volume', () => {
  const temp = makeTempDir('regreen-h-highwater-');
  afterAll(temp.cleanup);

  it('is still taken on the host after the job (held: the volume is mounted with discard)', async () => {
    const answer = await openJobVolume({ dir: path.join(temp.dir, 'job'), sizeMb: 128 });
    if ('unavailable' in answer) throw new Error(answer.unavailable);
    const { volume } = answer;
    const sandbox = await attackSandbox({
      root: temp.dir,
      workspace: path.join(volume.root, 'workspace'),
      privateDir: path.join(volume.root, 'job-private'),
      limits: { processes: 64, memoryMb: 512, diskMb: 128 },
    });
    try {
      const result = await inSandbox(
        sandbox,
        'head -c 96M /dev/urandom > "$TMPDIR/x"; sync; rm -f "$TMPDIR/x"; ls -A "$TMPDIR" | wc -l',
      );
      expect(result.output.trim()).toBe('0');
      // What should hold: nothing is left of 96 MiB written and deleted, while the job still runs.
      const image = statSync(path.join(temp.dir, 'job', 'volume.img'));
      const heldMiB = Math.floor((image.blocks * 512) / MiB);
      expect(heldMiB, `${heldMiB} MiB of deleted data held by the image`).toBeLessThan(16);
    } finally {
      await sandbox.dispose();
      await volume.dispose();
    }
    // And the image itself goes with the job.
    expect(existsSync(path.join(temp.dir, 'job', 'volume.img'))).toBe(false);
  }, 120_000);
});
