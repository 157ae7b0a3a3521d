import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { BIN } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const isRoot = process.geteuid?.() === 0;
const MiB = 1024 * 1024;

/** Bytes under `dir` on the data dir's own file system (not inside the mounted volume). */
const hostBytes = (dir: string): number => {
  try {
    return Number(execFileSync('du', ['-sx', '-B1', dir], { encoding: 'utf8' }).split('\t')[0]);
  } catch {
    return 0;
  }
};

/**
 * ATTACK: write past the volume through regreen's own copies. The setup's
 * node_modules is copied by regreen (as root, on the host) into
 * `<job>/setup-snapshot`, which is on the data dir's file system, not on
 * the volume. With REGREEN_SETUP_SNAPSHOT=always — or the default `cow` on
 * a data dir that copies by reflink (xfs, btrfs): the probe runs in the job
 * folder there, but a reflink across two file systems is a full copy — the
 * job's bytes leave the kernel's bound: the host holds the volume's
 * contents a second time for the job's lifetime.
 */
describe.runIf(isRoot)('the setup snapshot of a job on a volume', () => {
  const temp = makeTempDir('regreen-h-snapshot-');
  afterAll(temp.cleanup);

  it('keeps its copy of what the sandbox wrote on the volume, inside the bound', async () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'sleep 12; exit 1' } })}\n`,
      '.gitignore': 'node_modules/\n',
      '.github/regreen.yml':
        'setup_command: mkdir -p node_modules/big && head -c 80M /dev/urandom > node_modules/big/blob\n',
    });
    const data = path.join(temp.dir, 'data');
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
        'sleep 12; exit 1',
        '--json',
      ],
      {
        env: {
          ...process.env,
          REGREEN_JOB_VOLUME: 'auto',
          REGREEN_MAX_DISK_MB: '128',
          REGREEN_SETUP_SNAPSHOT: 'always',
        },
        stdio: 'ignore',
      },
    );
    let most = 0;
    let sawVolume = false;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let done = false;
    void exited.then(() => (done = true));
    while (!done) {
      const jobs = path.join(data, 'jobs');
      for (const job of existsSync(jobs) ? readdirSync(jobs) : []) {
        if (existsSync(path.join(jobs, job, 'volume.img'))) sawVolume = true;
        most = Math.max(most, hostBytes(path.join(jobs, job, 'setup-snapshot')));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(sawVolume).toBe(true);
    // What should hold: what the job's commands wrote stays within the volume.
    expect(Math.round(most / MiB), 'MiB copied out of the volume onto the host').toBeLessThan(16);
  }, 180_000);
});
