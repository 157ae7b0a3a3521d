import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * A `regreen worker` process running the probe processor (test/support/probe-processor.ts),
 * resolved once it takes jobs.
 */
export const startProbeWorker = (options: {
  redisUrl: string;
  concurrency: number;
  env?: Record<string, string>;
  graceSeconds?: number;
}): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT, 'bin/regreen.js'),
        'worker',
        '--processor',
        path.join(ROOT, 'test/support/probe-processor.ts'),
        '--concurrency',
        String(options.concurrency),
        ...(options.graceSeconds ? ['--grace', String(options.graceSeconds)] : []),
      ],
      {
        cwd: ROOT,
        env: { ...process.env, REDIS_URL: options.redisUrl, ...options.env },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    const onExit = (): void => reject(new Error(`the worker exited before taking jobs: ${stderr}`));
    child.once('exit', onExit);
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      if (stderr.includes('taking jobs')) {
        child.off('exit', onExit);
        resolve(child);
      }
    });
  });
