import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger };

/** The root logger. Entry points choose the destination; library code receives a child. */
export const createLogger = (
  options: { level?: string; destination?: DestinationStream } = {},
): Logger =>
  pino(
    { level: options.level ?? 'info', base: undefined },
    options.destination ?? pino.destination(2),
  );

/** A logger that discards everything (tests, `tools call`). */
export const silentLogger = (): Logger => pino({ level: 'silent' });
