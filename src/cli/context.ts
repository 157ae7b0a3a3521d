import { Option } from 'commander';
import type { Env } from '../config/env.ts';
import type { Logger } from '../logger.ts';
import type { Live, Verbosity } from './live.ts';
import { SANDBOX_KINDS, sandboxKindOf } from '../workspace/sandbox/kinds.ts';

/** What every command is registered with: the environment, the logger, the terminal's live writer, where its exit code goes. */
export interface CliContext {
  readonly env: Env;
  readonly logger: Logger;
  readonly live: Live;
  readonly setExit: (code: number) => void;
  /** `--quiet`, `--verbose` or neither. */
  readonly verbosity?: Verbosity;
}

export const sandboxOption = (): Option =>
  new Option('--sandbox <kind>', SANDBOX_KINDS.join(' or '))
    .choices([...SANDBOX_KINDS])
    .default('bubblewrap')
    .argParser((value: string) =>
      sandboxKindOf(value, (message) => process.stderr.write(`regreen: ${message}\n`)),
    );

/** `--data-dir`, the same for every command. */
export const dataDirOption = (): Option =>
  new Option(
    '--data-dir <dir>',
    "regreen's data dir: jobs, traces, proposals (default: $REGREEN_DATA_DIR, else $XDG_CACHE_HOME/regreen, else ~/.cache/regreen)",
  );

/**
 * Runs until SIGINT or SIGTERM (a server, a worker); `stopping` says what the
 * shutdown waits for. A second signal, of either kind, stops the process at
 * once: a job that waits on a service that is down never holds it.
 */
export const untilStopped = (stopping = 'stopping'): Promise<void> =>
  new Promise<void>((resolve) => {
    const force = (signal: NodeJS.Signals): void => {
      process.stderr.write(`[regreen] ${signal} again: stopped at once\n`);
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop).off('SIGTERM', stop);
      process.on('SIGINT', force).on('SIGTERM', force);
      process.stderr.write(`[regreen] ${signal}: ${stopping} (send it again to stop at once)\n`);
      resolve();
    };
    process.on('SIGINT', stop).on('SIGTERM', stop);
  });
