import { settingsOf, unknownSettings, type Env } from '../config/env.ts';
import { RegreenError, isRegreenError } from '../errors.ts';
import { createLogger, type Logger } from '../logger.ts';
import { createLive, readableLogs, type Live, type Verbosity } from './live.ts';
import { exitCodeOfError } from './output.ts';

/** What a front door that writes to stderr starts with: the live writer and a logger printing through it. */
export interface Terminal {
  readonly live: Live;
  readonly logger: Logger;
}

export const openTerminal = (
  env: Env,
  output: {
    verbosity: Verbosity;
    logFormat: 'text' | 'json';
    /** A long-running service (serve, worker) logs each job's turns: info, not warn, unless told. */
    service?: boolean;
  },
): Terminal => {
  const settings = settingsOf(env);
  const tty = Boolean(process.stderr.isTTY);
  const color = tty && settings.noColor === undefined;
  const live = createLive({
    write: (text) => process.stderr.write(text),
    tty,
    columns: () => process.stderr.columns || 100,
    color,
    verbosity: output.verbosity,
    now: () => Date.now(),
  });
  const logger = createLogger({
    level:
      settings.logLevel ??
      (output.verbosity === 'verbose' ? 'debug' : output.service ? 'info' : 'warn'),
    ...(output.logFormat === 'json' ? {} : { destination: readableLogs(live.print, color) }),
  });
  for (const warning of unknownSettings(env)) logger.warn(warning);
  return { live, logger };
};

/** An error that escaped a front door: one line on stderr, and the exit code it maps to. */
export const reportEscaped = (
  error: unknown,
  live: Live | undefined,
  /** `--json` was given: the error is a JSON object on stdout too, where the outcome would be. */
  json = false,
): number => {
  const known = isRegreenError(error)
    ? error
    : new RegreenError('internal', String(error), { cause: error });
  live?.stop();
  process.stderr.write(`regreen: ${known.message}\n`);
  const exit = exitCodeOfError(known.code);
  if (json) writeJsonError(known.code, known.message, exit);
  return exit;
};

/** An error as `--json` prints it: `{"error": {"code", "message", "exit"}}`. */
export const writeJsonError = (code: string, message: string, exit: number): void => {
  process.stdout.write(`${JSON.stringify({ error: { code, message, exit } })}\n`);
};
