import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** regreen's own command, as a user runs it. */
export const BIN = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'bin',
  'regreen.js',
);

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real `regreen` binary as a user would. */
export const runCli = (
  args: readonly string[],
  env: Record<string, string | undefined> = {},
): Promise<CliRun> =>
  new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });

export const runJson = async (
  args: readonly string[],
): Promise<CliRun & { json: Record<string, unknown> }> => {
  const result = await runCli([...args, '--json']);
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not JSON (exit ${result.code}):\n${result.stdout}\n${result.stderr}`);
  }
  return { ...result, json };
};

/**
 * Runs `regreen` and kills it (SIGKILL) past a deadline: for a host that may
 * hang in its own event loop, where regreen's own time limits cannot fire.
 * `signal` is the signal that ended it, null when it ended by itself.
 */
export const runCliWithin = (
  args: readonly string[],
  deadlineMs: number,
): Promise<{ code: number | null; signal: string | null; stdout: string; seconds: number }> => {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { timeout: deadlineMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : null) : 0,
          signal: error?.signal ?? null,
          stdout,
          seconds: Math.round((Date.now() - started) / 1000),
        }),
    );
  });
};
