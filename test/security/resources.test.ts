import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, inSandbox } from './support.ts';

/** Bombs: each is bounded by the operator's limits, and the result says which limit stopped it. */
describe('resources a command can exhaust', () => {
  const temp = makeTempDir();
  const workspace = path.join(temp.dir, 'data', 'jobs', 'j', 'workspace');
  let sandbox: Sandbox;

  beforeAll(async () => {
    sandbox = await attackSandbox({
      root: temp.dir,
      workspace,
      limits: { processes: 64, memoryMb: 512, diskMb: 100 },
    });
  });

  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  it('a fork bomb stops at the process limit', async () => {
    const bomb = [
      'import os, sys, time',
      'n = 0',
      'for i in range(2000):',
      '    try:',
      '        pid = os.fork()',
      '    except OSError as error:',
      '        print("fork failed:", error)',
      '        break',
      '    if pid == 0:',
      '        time.sleep(30)',
      '        os._exit(0)',
      '    n += 1',
      'print("forked", n)',
      'sys.exit(1)',
    ].join('\n');
    const result = await inSandbox(sandbox, `python3 -c '${bomb}'`, { timeoutMs: 60_000 });
    const forked = Number(/forked (\d+)/.exec(result.output)?.[1]);
    expect(forked).toBeGreaterThan(10);
    expect(forked).toBeLessThan(64);
    expect(result.limit).toMatch(/limit of 64 processes/);
  });

  it('a classic fork bomb ends without taking the host down', async () => {
    const result = await inSandbox(
      sandbox,
      'bomb() { bomb | bomb & }; bomb; sleep 2; echo survived',
      {
        timeoutMs: 20_000,
      },
    );
    // It ends — by itself or at the time limit — and is said to have hit the process limit.
    expect(result.timedOut || result.exitCode !== null).toBe(true);
    expect(result.limit).toMatch(/limit of 64 processes/);
    // Nothing of it is left: the next command runs as usual.
    const next = await inSandbox(sandbox, 'echo next; ls /proc | grep -c "^[0-9]"');
    expect(next.exitCode).toBe(0);
    expect(Number(next.output.trim().split('\n').at(-1))).toBeLessThan(10);
  });

  it('a memory bomb stops at the memory limit', async () => {
    const result = await inSandbox(
      sandbox,
      'python3 -c "b = bytearray(1536 * 1024 * 1024); print(\'ALLOCATED\')"',
    );
    expect(result.output).not.toContain('ALLOCATED');
    expect(result.output).toContain('MemoryError');
    expect(result.limit).toMatch(/memory limit of 512 MiB/);
  });

  it('one huge file stops at the file size limit', async () => {
    const result = await inSandbox(sandbox, 'dd if=/dev/zero of=big.bin bs=1M count=300 2>&1');
    expect(result.exitCode).not.toBe(0);
    expect(result.limit).toMatch(/file size limit/);
  });

  it('many files stop at the disk limit', async () => {
    const result = await inSandbox(
      sandbox,
      'rm -f big.bin; mkdir -p many; for i in $(seq 40); do dd if=/dev/zero of=many/f$i bs=1M count=10 2>/dev/null; sleep 0.4; done; echo finished',
      { timeoutMs: 60_000 },
    );
    expect(result.output).not.toContain('finished');
    expect(result.limit).toMatch(/more than 100 MiB/);
    expect(readdirSync(path.join(workspace, 'many')).length).toBeLessThan(40);
  });
});
