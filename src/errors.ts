/** Error codes a user can act on; the CLI maps them to exit codes and messages. */
export type ErrorCode =
  | 'usage'
  | 'config'
  | 'not-a-repo'
  | 'ref-not-found'
  | 'clone-failed'
  | 'sandbox-unavailable'
  | 'command-not-found'
  | 'model'
  | 'forge'
  /** The forge refuses for good (a person pushed to regreen's branch): retrying ends the same way. */
  | 'forge-refused'
  | 'cancelled'
  | 'internal';

/** A typed error with a code and a cause. Classify by `code`, never by message text. */
export class RegreenError extends Error {
  override readonly name = 'RegreenError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export const isRegreenError = (error: unknown): error is RegreenError =>
  error instanceof RegreenError;

/** A short, single-line description of any thrown value. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? error.message : String(error);
