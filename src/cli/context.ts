import { Option } from 'commander';
import type { Env } from '../config/env.ts';
import type { Progress } from '../job/deps.ts';
import type { Logger } from '../logger.ts';
import { SANDBOX_KINDS } from '../workspace/sandbox-registry.ts';

/** What every command is registered with: the environment, the logger, and where its exit code goes. */
export interface CliContext {
  readonly env: Env;
  readonly logger: Logger;
  readonly setExit: (code: number) => void;
}

export const sandboxOption = (): Option =>
  new Option('--sandbox <kind>', 'asrt (bubblewrap) or none')
    .choices(SANDBOX_KINDS)
    .default('asrt');

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;

/** A stage's line on stderr when it ends. */
export const progress: Progress = ({ stage, outcome, durationMs }) =>
  process.stderr.write(
    `[regreen] ${stage.padEnd(9)} ${seconds(durationMs).padStart(7)}  ${outcome}\n`,
  );

/** Runs until SIGINT or SIGTERM (a server, a worker). */
export const untilStopped = (): Promise<void> =>
  new Promise<void>((resolve) => {
    const stop = (): void => resolve();
    process.once('SIGINT', stop).once('SIGTERM', stop);
  });
