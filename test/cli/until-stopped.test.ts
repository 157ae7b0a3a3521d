import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const CONTEXT = path.join(import.meta.dirname, '..', '..', 'src', 'cli', 'context.ts');

describe('a server or worker being stopped', () => {
  it('waits for its work on the first signal, and stops at once on the second', async () => {
    // What serve does: wait for a signal, then for jobs that may never end (a service down).
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { untilStopped } = await import(${JSON.stringify(CONTEXT)});
setInterval(() => {}, 1000); // the server's handle
// Ready once the listeners are in place: a signal before them would kill it outright.
const stopped = untilStopped('stopping: the jobs running here finish first');
process.stdout.write('ready\\n');
await stopped;
process.stdout.write('waiting\\n');
await new Promise(() => {});`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const seen = (text: string) =>
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (stdout.includes(text)) resolve();
        };
        child.stdout.on('data', (chunk: Buffer) => {
          stdout += chunk.toString('utf8');
          check();
        });
        check();
      });
    await seen('ready');
    child.kill('SIGTERM');
    await seen('waiting');
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toMatch(/SIGTERM: stopping: the jobs running here finish first \(send it again/);
    expect(stderr).toMatch(/SIGINT again: stopped at once/);
  }, 60_000);
});
