import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { BIN, runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';
import { mountTable } from './support.ts';

const isRoot = process.geteuid?.() === 0;

const mountsUnder = (dir: string): string[] =>
  mountTable()
    .map((fields) => fields[4] ?? '')
    .filter((point) => point.startsWith(`${dir}/`));

const waitFor = async (what: () => boolean, ms: number): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (what()) return true;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return what();
};

/**
 * ATTACK: leave a mount behind. A regreen that dies mid-job (SIGKILL, the
 * OOM killer, a container restart) cannot unmount its job's volume. It
 * used to stay mounted for ever, and `regreen jobs prune` then emptied it
 * through `rm`, failed on the mount point (EBUSY) and stopped before every
 * later job. Now prune lets such a volume go before removing it, and the
 * next job in the same data dir releases every volume whose owner is gone.
 */
describe.runIf(isRoot)('a job killed mid-command leaves its volume mounted', () => {
  const temp = makeTempDir('regreen-h-leftover-');
  const data = path.join(temp.dir, 'data');
  afterAll(() => {
    for (const point of mountsUnder(temp.dir).reverse())
      execFileSync('umount', ['-l', point], { stdio: 'ignore' });
    temp.cleanup();
  });

  const killMidJob = async (name: string): Promise<void> => {
    const repo = makeRepo(path.join(temp.dir, name), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'sleep 300' } })}\n`,
    });
    const child = spawn(
      process.execPath,
      [
        BIN,
        'fix',
        '--repo',
        repo,
        '--model',
        'none',
        '--data-dir',
        data,
        '--command',
        'sleep 300',
        '--json',
      ],
      {
        env: { ...process.env, REGREEN_JOB_VOLUME: 'auto', REGREEN_MAX_DISK_MB: '64' },
        stdio: 'ignore',
      },
    );
    expect(await waitFor(() => mountsUnder(data).length > 0, 60_000)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 3000));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 2000));
  };

  it('SIGKILL of regreen mid-job: its volume stays mounted (nothing of a dead process can unmount it)', async () => {
    await killMidJob('repo');
    expect(mountsUnder(data).length).toBe(1);
  }, 120_000);

  it('`regreen jobs prune` lets it go, then frees the job', async () => {
    const jobs = path.join(data, 'jobs');
    const [job] = readdirSync(jobs);
    const dir = path.join(jobs, job ?? '');
    // Found later: prune keeps a job with no outcome whose trace moved in the last two hours.
    const later = new Date(Date.now() - 3 * 60 * 60 * 1000);
    utimesSync(path.join(dir, 'trace.jsonl'), later, later);
    const prune = await runCli(['jobs', 'prune', '--older-than', '0', '--data-dir', data]);
    // What should hold: prune succeeds, and the job's image and mount are gone.
    expect({ code: prune.code, stderr: prune.stderr }).toEqual({ code: 0, stderr: '' });
    expect(existsSync(path.join(dir, 'volume.img'))).toBe(false);
    expect(mountsUnder(data)).toEqual([]);
  }, 60_000);

  it('the next job in the data dir releases a volume whose regreen is gone', async () => {
    await killMidJob('repo-2');
    expect(mountsUnder(data).length).toBe(1);
    const repo = makeRepo(path.join(temp.dir, 'next'), { 'README.md': 'x\n' });
    const next = spawnSync(
      process.execPath,
      [
        BIN,
        'fix',
        '--repo',
        repo,
        '--model',
        'none',
        '--data-dir',
        data,
        '--command',
        'true',
        '--json',
      ],
      {
        env: { ...process.env, REGREEN_JOB_VOLUME: 'auto', REGREEN_MAX_DISK_MB: '64' },
        encoding: 'utf8',
      },
    );
    expect(next.stdout).toMatch(/"status"/);
    expect(mountsUnder(data)).toEqual([]);
  }, 120_000);
});
