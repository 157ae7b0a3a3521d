import type { Server } from 'node:http';
import { RegreenError } from '../errors.ts';

/** A port as the person typed it: a whole number a socket can take, else a usage error. */
export const parsePort = (text: string, what = '--port'): number => {
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || !Number.isInteger(port) || port < 0 || port > 65_535)
    throw new RegreenError(
      'usage',
      `${what} must be a whole number from 0 to 65535, not "${text}"`,
    );
  return port;
};

/**
 * Listens, and says in one line why it cannot: a port in use, an address this
 * machine does not have or cannot resolve (never an unhandled 'error' event).
 */
export const listenOn = (server: Server, port: number, host: string): Promise<void> =>
  new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const why =
        error.code === 'EADDRINUSE'
          ? `port ${port} is in use on ${host}: stop what holds it, or choose another (--port N, or PORT)`
          : error.code === 'EACCES'
            ? `port ${port} on ${host} needs privileges this process lacks: choose one above 1023 (--port N)`
            : error.code === 'ENOTFOUND' || error.code === 'EAI_AGAIN'
              ? `the address ${host} does not resolve here: give an address of this machine (--host, or HOST)`
              : error.code === 'EADDRNOTAVAIL'
                ? `the address ${host} is not one of this machine's: give one it has (--host, or HOST)`
                : `cannot listen on ${host}:${port}: ${error.message}`;
      reject(new RegreenError('usage', why, { cause: error }));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve();
    });
  });
