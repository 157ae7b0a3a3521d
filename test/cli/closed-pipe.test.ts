import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLOSED_PIPE_EXIT } from '../../src/cli/closed-pipe.ts';
import { BIN } from '../support/cli.ts';

/** Runs regreen with its stdout a pipe whose reader is gone before regreen writes a byte. */
const intoClosedReader = (
  args: readonly string[],
): Promise<{ code: number | null; signal: string | null; stderr: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    // The reading end closes now, long before the child has started: its first write meets EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });

describe('a closed pipe (#59: `regreen --help | head`)', () => {
  it.each([[['--help']], [['fix', '--help']], [['--version']]])(
    'regreen %j into a reader that went away ends quietly, with the exit git has',
    async (args) => {
      const { code, signal, stderr } = await intoClosedReader(args);
      expect(stderr).toBe('');
      expect(signal).toBeNull();
      expect(code).toBe(CLOSED_PIPE_EXIT);
    },
    60_000,
  );
});
