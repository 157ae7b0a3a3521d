/**
 * What starting one command costs: `true` run three ways, interleaved, in the
 * same run — a bare spawn of bash, bare bubblewrap (the host's `bwrap` with
 * the root read-only and every namespace unshared, nothing else), and
 * regreen's bubblewrap sandbox as a job's commands run in it (its mounts,
 * seccomp filter, cgroup, disk watch and ready signal, its folders on a job
 * volume where this host gives regreen one, as a job's are). Each of
 * regreen's starts is followed by a pause (`PAUSE_MS`), as a job's commands
 * are: regreen makes the next command's sandbox then (`ahead.ts`), which is
 * the start the next run measures. Used by `bench:overhead`; printed beside
 * its own-time figures.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../src/logger.ts';
import { runProcess } from '../src/workspace/run-process.ts';
import { bubblewrapReady } from '../src/workspace/sandbox/bubblewrap-host.ts';
import { buildSandboxPolicy } from '../src/workspace/sandbox/policy.ts';
import { sandboxFactory } from '../src/workspace/sandbox/registry.ts';
import { openJobVolume } from '../src/workspace/sandbox/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../src/workspace/sandbox/sandbox.ts';
import { median } from './results.ts';

/** The pause after each of regreen's starts, in which it makes the next command's sandbox. */
export const PAUSE_MS = 100;

/** The goal for regreen's sandbox over a bare spawn, a command (issue #36). */
export const SANDBOX_GOAL_MS = 15;

const timed = async (work: () => Promise<{ exitCode: number | null }>): Promise<number> => {
  const started = performance.now();
  const { exitCode } = await work();
  if (exitCode !== 0) throw new Error(`\`true\` exited ${exitCode} in the sandbox-start bench`);
  return performance.now() - started;
};

/** Median milliseconds of `runs` interleaved starts of `true` each way, under `root` (a fresh folder). */
export const sandboxStart = async (
  root: string,
  runs: number,
): Promise<{ spawn: number; bwrap: number; regreen: number; folders: string }> => {
  // As a job's: the workspace, tmp and home on a volume of the disk limit's size, else watched.
  const answer = await openJobVolume({
    dir: path.join(root, 'job'),
    sizeMb: DEFAULT_COMMAND_LIMITS.diskMb,
  });
  const volume = 'volume' in answer ? answer.volume : undefined;
  const folders = volume
    ? "the sandbox's folders on a job volume, as a job's"
    : `the sandbox's folders on the host's disk, watched (no job volume: ${'unavailable' in answer ? answer.unavailable : ''})`;
  const base = volume?.root ?? root;
  const workspace = path.join(base, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const sandbox = await sandboxFactory(
    'bubblewrap',
    silentLogger(),
  )(
    buildSandboxPolicy({
      workspace,
      privateDir: path.join(base, 'private'),
      home: path.join(root, 'home'),
      dataDir: path.join(root, 'data'),
      registryHosts: [],
      baseEnv: { PATH: process.env.PATH },
    }),
  );
  const { bwrap } = await bubblewrapReady();
  const plain = { cwd: workspace, env: { PATH: '/usr/bin:/bin' }, timeoutMs: 30_000 };
  const times = { spawn: [] as number[], bwrap: [] as number[], regreen: [] as number[] };
  try {
    // One untimed start of each: the file cache and the sandbox's first-use work.
    for (let i = -1; i < runs; i += 1) {
      const spawn = await timed(() =>
        runProcess({ ...plain, file: '/bin/bash', args: ['-c', 'true'], maxOutputBytes: 4096 }),
      );
      const bare = await timed(() =>
        runProcess({
          ...plain,
          file: bwrap,
          args: [
            '--ro-bind',
            '/',
            '/',
            '--dev',
            '/dev',
            '--unshare-all',
            '/bin/bash',
            '-c',
            'true',
          ],
          maxOutputBytes: 4096,
        }),
      );
      const ours = await timed(() =>
        sandbox.run({ command: 'true', cwd: workspace, network: 'off', timeoutMs: 30_000 }),
      );
      // A job's commands are seconds apart, and regreen makes the next one's sandbox in between:
      // that work is let finish here, so that it never runs inside the next bare start's timing.
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      if (i < 0) continue;
      times.spawn.push(spawn);
      times.bwrap.push(bare);
      times.regreen.push(ours);
    }
  } finally {
    await sandbox.dispose();
    await volume?.dispose();
  }
  return {
    spawn: median(times.spawn),
    bwrap: median(times.bwrap),
    regreen: median(times.regreen),
    folders,
  };
};
