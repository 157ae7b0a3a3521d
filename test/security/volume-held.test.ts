import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import type { JobVolume } from '../../src/workspace/sandbox/job-volume.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';
import { inSandbox, mountTable, volumeSandbox } from './support.ts';

const isRoot = process.geteuid?.() === 0;
const optionsOf = (dir: string): string | undefined =>
  mountTable().find((fields) => fields[4] === dir)?.[5];

/** Attacks on the volume that held, kept as tests. */
describe.runIf(isRoot)('the job volume: what held', () => {
  const temp = makeTempDir('regreen-h-held-');
  let volume: JobVolume;
  let sandbox: Sandbox;
  let dispose: () => Promise<void>;
  beforeAll(async () => {
    ({ volume, sandbox, dispose } = await volumeSandbox({
      root: temp.dir,
      sizeMb: 64,
      limits: { processes: 256, memoryMb: 512, diskMb: 4096 },
    }));
  });
  afterAll(async () => {
    await dispose();
    temp.cleanup();
  });

  it('is nosuid,nodev on the host and in every bind the sandbox sees; no device node can be made', async () => {
    expect(optionsOf(volume.root)).toMatch(/nosuid/);
    expect(optionsOf(volume.root)).toMatch(/nodev/);
    const result = await inSandbox(
      sandbox,
      [
        'grep -E "job-private|workspace" /proc/self/mountinfo | awk \'{print $5, $6}\'',
        'mknod ./null c 1 3 2>&1 | tail -1; echo "mknod $?"',
        'mkfifo ./f && echo fifo-ok',
        'cp /bin/true ./t && chmod u+s,g+s ./t 2>&1; stat -c %A ./t',
        'ls -ld /dev/shm; touch /dev/shm/x 2>&1 | tail -1',
      ].join('; '),
    );
    for (const line of result.output
      .split('\n')
      .filter((l) => l.includes('/job-private') || l.includes('/workspace')))
      expect(line).toMatch(/nosuid,nodev/);
    expect(result.output).toMatch(/Operation not permitted/);
    expect(existsSync(path.join(volume.root, 'workspace', 'null'))).toBe(false);
    // /dev is bubblewrap's own tmpfs: its shm is root's, not the sandbox's to fill.
    expect(result.output).toMatch(/\/dev\/shm\/x.*Permission denied/);
  });

  it('inodes, hard links, xattrs and directory entries all count against the one volume', async () => {
    const py = [
      'import os, errno',
      'def fill(make, cap):',
      '    n = 0',
      '    while n < cap:',
      '        try: make(n)',
      '        except OSError as e:',
      '            print(errno.errorcode[e.errno]); break',
      '        n += 1',
      '    return n',
      'os.mkdir("many")',
      'print("files", fill(lambda n: open("many/f%d" % n, "w").close(), 20000))',
      'os.system("rm -rf many")',
      'os.mkdir("links"); open("links/seed", "w").close()',
      'print("links", fill(lambda n: os.link("links/seed", "links/%0200d" % n), 400000))',
      'os.system("rm -rf links")',
      'open("x", "w").close()',
      'print("xattrs", fill(lambda n: os.setxattr("x", "user.a%d" % n, b"a" * 200), 100000))',
    ].join('\n');
    const result = await inSandbox(sandbox, `python3 -c '${py}'; df -k . | tail -1`, {
      timeoutMs: 300_000,
    });
    const files = Number(/files (\d+)/.exec(result.output)?.[1]);
    const links = Number(/links (\d+)/.exec(result.output)?.[1]);
    // Each ends at the volume (ENOSPC), far below the loops' caps; xattrs end at ext4's per-inode room.
    expect(files, result.output).toBeLessThan(20000);
    expect(links, result.output).toBeLessThan(400000);
    expect(result.output).toMatch(/ENOSPC/);
  }, 400_000);
});

describe.runIf(isRoot)('`jobs list` and `jobs prune` after a job on a volume', () => {
  const temp = makeTempDir('regreen-h-prune-');
  afterAll(temp.cleanup);

  it('the image goes with the job: nothing of what its commands wrote is left for prune (held)', async () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'exit 1' } })}\n`,
      '.github/regreen.yml':
        'setup_command: head -c 40M /dev/urandom > "$TMPDIR/x"; sync; rm "$TMPDIR/x"\n',
    });
    const data = path.join(temp.dir, 'repo-data');
    await runCli(
      [
        'fix',
        '--repo',
        repo,
        '--model',
        'none',
        '--data-dir',
        data,
        '--command',
        'exit 1',
        '--json',
      ],
      { REGREEN_JOB_VOLUME: 'auto', REGREEN_MAX_DISK_MB: '64' },
    );
    const jobs = readdirSync(path.join(data, 'jobs'));
    expect(jobs).toHaveLength(1);
    expect(existsSync(path.join(data, 'jobs', jobs[0] ?? '', 'volume.img'))).toBe(false);
    const list = await runCli(['jobs', 'list', '--data-dir', data]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^\d{8}T\d{6}-\w+ /m);
    const dry = await runCli([
      'jobs',
      'prune',
      '--older-than',
      '0',
      '--dry-run',
      '--data-dir',
      data,
    ]);
    // The 40 MiB written went with the image: the trace and small records are what is left, and
    // they are no files to prune.
    expect(dry.stdout).toMatch(/nothing to prune/);
    expect(list.stdout).not.toMatch(/\bfiles\b/);
    const prune = await runCli(['jobs', 'prune', '--older-than', '0', '--data-dir', data]);
    expect(prune.code, prune.stderr).toBe(0);
    const after = await runCli(['jobs', 'list', '--data-dir', data]);
    const rows = after.stdout.split('\n').filter((line) => /^\d{8}T/.test(line));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).not.toMatch(/\bfiles\b/);
  }, 300_000);
});
