import { mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliWithin } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';
import { mountTable } from './support.ts';

const isRoot = process.geteuid?.() === 0;

/**
 * Issue 61 ("Also", two attacks of the previous round): the disk limit did not bind
 * `regreen sandbox run` (nor `regreen tools`' kernels, the same ad hoc sandbox): its tmp and home
 * were on the data dir, only watched, and `fallocate`s each under the file-size limit passed the
 * limit many times over before the watch looked. They are on a volume of the limit's size now,
 * as a job's trees are; the person's --workspace is watched only, and each run says so.
 */
describe.runIf(isRoot)('an ad hoc sandbox’s tmp and home are on a volume (issue 61)', () => {
  const temp = makeTempDir('regreen-adhoc-volume-');
  afterAll(temp.cleanup);

  it('fallocates past the disk limit in $TMPDIR and $HOME are refused by the kernel', async () => {
    const workspace = path.join(temp.dir, 'ws');
    mkdirSync(workspace);
    const dataDir = path.join(temp.dir, 'data');
    const { code, stdout, stderr } = await runCli(
      [
        'sandbox',
        'run',
        '--workspace',
        workspace,
        '--data-dir',
        dataDir,
        '--',
        'for i in 1 2 3 4 5 6; do fallocate -l 40M "$TMPDIR/t$i" || echo "refused t$i"; fallocate -l 40M "$HOME/h$i" || echo "refused h$i"; done; echo "total $(du -cm "$TMPDIR" "$HOME" | tail -1 | cut -f1)"',
      ],
      // Tests keep jobs' trees off volumes (test/support/setup.ts); this one asks for it.
      { REGREEN_MAX_DISK_MB: '64', REGREEN_JOB_VOLUME: 'auto' },
    );
    expect(code, stderr).toBe(0);
    // The second 40 MiB file is past a 64 MiB volume: refused at once, and every one after it.
    expect(stdout).toMatch(/refused h1/);
    expect(stdout).toMatch(/refused t6/);
    const total = Number(/total (\d+)/.exec(stdout)?.[1]);
    expect(total).toBeLessThanOrEqual(64);
    // Said: what is bounded, and that the person's folder is watched only.
    expect(stderr).toMatch(
      /tmp and home are on a 64 MiB volume.*--workspace is your own folder, watched/,
    );
    // Nothing of the run stays mounted or on disk.
    expect(mountTable().some((fields) => (fields[4] ?? '').startsWith(dataDir))).toBe(false);
    expect(readdirSync(path.join(dataDir, 'adhoc'))).toEqual([]);
  });

  it("a kernel's cell (`regreen tools call eval`) is bounded the same way", async () => {
    const workspace = path.join(temp.dir, 'ws-kernel');
    mkdirSync(workspace);
    const cell = [
      'import os, tempfile',
      'out = []',
      'for i in range(6):',
      '    fd = os.open(os.path.join(tempfile.gettempdir(), f"k{i}"), os.O_CREAT | os.O_WRONLY)',
      '    try:',
      '        os.posix_fallocate(fd, 0, 40 << 20)',
      '        out.append("ok")',
      '    except OSError:',
      '        out.append("refused")',
      'print(out)',
    ].join('\n');
    const { stdout, stderr } = await runCli(
      [
        'tools',
        'call',
        'eval',
        '--workspace',
        workspace,
        '--data-dir',
        path.join(temp.dir, 'kernel'),
        '--input',
        JSON.stringify({ description: 'fill the temporary folder with large files', code: cell }),
      ],
      { REGREEN_MAX_DISK_MB: '64', REGREEN_JOB_VOLUME: 'auto' },
    );
    const result = JSON.parse(stdout) as { content: { text?: string }[]; isError: boolean };
    expect(result.isError, stdout + stderr).toBe(false);
    expect(result.content[0]?.text).toBe(
      "['ok', 'refused', 'refused', 'refused', 'refused', 'refused']",
    );
  });

  it('with no volume, each run says the disk is only watched', async () => {
    const workspace = path.join(temp.dir, 'ws-off');
    mkdirSync(workspace);
    const { code, stderr } = await runCli(
      [
        'sandbox',
        'run',
        '--workspace',
        workspace,
        '--data-dir',
        path.join(temp.dir, 'off'),
        '--',
        'true',
      ],
      { REGREEN_JOB_VOLUME: 'off' },
    );
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(
      /tmp, home and --workspace are watched while the command runs, not bounded by the kernel \(REGREEN_JOB_VOLUME=off\)/,
    );
  });

  it('a relative --data-dir runs the command (it held `sandbox run` before its command started)', async () => {
    const workspace = path.join(temp.dir, 'ws-relative');
    mkdirSync(workspace);
    const relative = path.relative(process.cwd(), path.join(temp.dir, 'relative-data'));
    const result = await runCliWithin(
      ['sandbox', 'run', '--workspace', workspace, '--data-dir', relative, '--', 'echo ran'],
      120_000,
    );
    expect(result.signal).toBeNull();
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('ran\n');
  });
});
