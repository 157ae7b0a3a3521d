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
    "regreen's data dir: jobs, traces, proposals (default: $REGREEN_DATA_DIR, else ~/.cache/regreen)",
  );

/** Runs until SIGINT or SIGTERM (a server, a worker). */
export const untilStopped = (): Promise<void> =>
  new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
