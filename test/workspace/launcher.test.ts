import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { superviseProcess } from '../../src/workspace/run-process.ts';
import { waitingLauncher } from '../../src/workspace/sandbox/launcher.ts';
import { makeTempDir } from '../support/tmp.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const supervise = (launched: ReturnType<ReturnType<typeof waitingLauncher>['start']>) =>
  superviseProcess(launched.child, { timeoutMs: 20_000, maxOutputBytes: 1 << 20 }, launched.ready);

describe('a launcher waiting for its command', () => {
  const temp = makeTempDir('regreen-launcher-');
  afterAll(temp.cleanup);
  const dir = path.join(temp.dir, 'private');
  mkdirSync(dir, { recursive: true });

  it("hands regreen's descriptors over as 3, 4, … with the ready pipe after them, once its first command has run", async () => {
    const first = path.join(temp.dir, 'first.txt');
    const a = path.join(temp.dir, 'a.txt');
    const b = path.join(temp.dir, 'b.txt');
    writeFileSync(a, 'from a');
    writeFileSync(b, 'from b');
    const fdA = openSync(a, 'r');
    const fdB = openSync(b, 'r');
    try {
      const launched = waitingLauncher(dir, undefined).start({
        fds: [fdA, fdB],
        first: ['/bin/sh', '-c', `echo ran > ${first}`],
        argv: [
          '/bin/bash',
          '-c',
          'cat <&3; echo; cat <&4; echo; printf R >&5; ls /proc/$$/fd | sort -n | tr "\\n" " "',
        ],
      });
      const result = await supervise(launched);
      launched.done();
      expect(result.exitCode).toBe(0);
      expect(result.signalled).toBe(true);
      expect(result.output).toContain('from a\nfrom b\n');
      // stdio, the two descriptors and the ready pipe: nothing else.
      expect(result.output.trim().split('\n').at(-1)?.trim().split(' ').map(Number)).toEqual([
        0, 1, 2, 3, 4, 5,
      ]);
      expect(readFileSync(first, 'utf8')).toBe('ran\n');
    } finally {
      closeSync(fdA);
      closeSync(fdB);
    }
  });

  it('never runs the command when its first command fails, and says why', async () => {
    const marker = path.join(temp.dir, 'never.txt');
    const launched = waitingLauncher(dir, undefined).start({
      fds: [],
      first: ['/bin/false'],
      argv: ['/bin/sh', '-c', `echo ran > ${marker}`],
    });
    const result = await supervise(launched);
    launched.done();
    expect(result.exitCode).toBe(125);
    expect(result.signalled).toBe(false);
    expect(result.output).toContain('could not take over its folders');
    expect(() => readFileSync(marker)).toThrow();
  });

  it('keeps neither the event loop nor the exit of the process that made it waiting, and ends with it', async () => {
    const script = path.join(temp.dir, 'leave.mts');
    writeFileSync(
      script,
      [
        `import { waitingLauncher } from ${JSON.stringify(path.join(ROOT, 'src/workspace/sandbox/launcher.ts'))};`,
        `const launcher = waitingLauncher(${JSON.stringify(dir)}, undefined);`,
        'process.stdout.write(`${launcher.waiting} ${launcher.pid}`);',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(run.error).toBeUndefined();
    expect(run.status).toBe(0);
    const [waiting, pid] = run.stdout.split(' ');
    expect(waiting).toBe('true');
    // Its word's pipe closed with that process: the launcher ends instead of waiting on.
    const gone = async (): Promise<boolean> => {
      for (let i = 0; i < 100; i += 1) {
        try {
          if (/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'))) return true;
        } catch {
          return true;
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return false;
    };
    await expect(gone()).resolves.toBe(true);
  });

  it('a discarded launcher ends without running anything', () => {
    const launcher = waitingLauncher(dir, undefined);
    expect(launcher.waiting).toBe(true);
    launcher.discard();
    expect(launcher.waiting).toBe(false);
  });

  it('is heard to end even when it ended before anyone supervised it', async () => {
    const launched = waitingLauncher(dir, undefined).start(
      { fds: [], first: [], argv: ['/bin/sh', '-c', 'exit 3'] },
      { idle: true },
    );
    // It ends while nothing listens for its exit (a waiting sandbox killed during the hand-over).
    await launched.settled.exited;
    await new Promise((resolve) => setTimeout(resolve, 50));
    launched.ref();
    const result = await Promise.race([
      superviseProcess(
        launched.child,
        { timeoutMs: 20_000, maxOutputBytes: 1 << 20 },
        launched.ready,
        launched.settled,
      ),
      new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 5_000).unref()),
    ]);
    launched.done();
    expect(result).not.toBe('hung');
    expect(result).toMatchObject({ exitCode: 3, signalled: false });
  });

  it('refuses a field that holds a NUL: it would end early and the rest be read as the next fields', () => {
    const launcher = waitingLauncher(dir, undefined);
    try {
      expect(() =>
        launcher.start({ fds: [], first: [], argv: ['/bin/sh', '-c', 'true\0--bind\0/\0/host'] }),
      ).toThrow(/NUL/);
      // Refused before it was taken: it still waits for a word.
      expect(launcher.waiting).toBe(true);
    } finally {
      launcher.discard();
    }
  });
});
