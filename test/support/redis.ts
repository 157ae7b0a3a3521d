import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';

/** A free loopback port (the kernel's pick, released for the server to take). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });

export interface RedisServer {
  readonly url: string;
  readonly port: number;
  /** Stops the server (SIGTERM: it writes its append-only file first). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data dir. */
  start(): Promise<void>;
  /** redis-cli against this server. */
  cli(...args: string[]): string;
}

/** A real redis-server (Debian's), on a free port, with an fsync-always AOF so a restart loses nothing. */
export const startRedis = async (dir: string): Promise<RedisServer> => {
  mkdirSync(dir, { recursive: true });
  const port = await freePort();
  let child: ChildProcess | undefined;
  const cli = (...args: string[]): string =>
    spawnSync('redis-cli', ['-p', String(port), ...args], { encoding: 'utf8' }).stdout.trim();
  const start = async (): Promise<void> => {
    child = spawn(
      'redis-server',
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--appenddirname',
        'aof',
      ],
      { stdio: 'ignore' },
    );
    for (let i = 0; i < 100; i += 1) {
      if (cli('ping') === 'PONG') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`redis-server did not start on port ${port}`);
  };
  const stop = async (): Promise<void> => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, stop, start, cli };
};
