import { RegreenError } from '../errors.ts';

/** How a failed model call is classified by its adapter. */
export type Failure =
  | { readonly retry: true; readonly reason: string; readonly retryAfterMs?: number }
  | { readonly retry: false; readonly reason: string };

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Told about every retry (for the trace). */
  readonly onRetry?: (event: { attempt: number; delayMs: number; reason: string }) => void;
}

export const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new RegreenError('cancelled', 'cancelled'));
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RegreenError('cancelled', 'cancelled'));
      },
      { once: true },
    );
  });

export const DEFAULT_RETRY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 60_000,
  sleep,
};

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, in milliseconds. */
export const retryAfterMs = (
  headers: { get(name: string): string | null } | undefined,
  now = Date.now(),
): number | undefined => {
  const ms = headers?.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (Number.isFinite(Number(value))) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
};

/**
 * Runs one model call, retrying what the classifier says is transient
 * (honouring `retry-after`, else exponential backoff), up to the cap.
 * A permanent failure or the last transient one becomes a `model` error.
 */
export const withRetries = async <T>(
  call: () => Promise<T>,
  classify: (error: unknown) => Failure,
  policy: RetryPolicy,
  signal: AbortSignal,
): Promise<T> => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (signal.aborted) throw new RegreenError('cancelled', 'cancelled', { cause: error });
      const failure = classify(error);
      if (!failure.retry) throw new RegreenError('model', failure.reason, { cause: error });
      if (attempt >= policy.maxAttempts) {
        throw new RegreenError('model', `${failure.reason} (gave up after ${attempt} attempts)`, {
          cause: error,
        });
      }
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.min(policy.maxDelayMs, failure.retryAfterMs ?? backoff);
      policy.onRetry?.({ attempt, delayMs, reason: failure.reason });
      await policy.sleep(delayMs, signal);
    }
  }
};

/**
 * The HTTP part of classifying a model API failure, the same for every
 * provider: a rejected key is permanent, rate limits, overload and server
 * errors are transient (with the server's `retry-after`), the rest permanent.
 */
export const classifyHttpStatus = (
  status: number,
  headers: { get(name: string): string | null } | undefined,
  message: string,
  who: { readonly server: string; readonly keyVariable: string },
): Failure => {
  if (status === 401 || status === 403) {
    return {
      retry: false,
      reason: `${who.server} rejected the API key (HTTP ${status}): check ${who.keyVariable}`,
    };
  }
  if (status === 408 || status === 409 || status === 429 || status >= 500) {
    const after = retryAfterMs(headers);
    const kind = status === 529 ? 'overloaded' : status === 429 ? 'rate limited' : 'server error';
    return {
      retry: true,
      reason: `HTTP ${status} ${kind}`,
      ...(after === undefined ? {} : { retryAfterMs: after }),
    };
  }
  return { retry: false, reason: `${who.server} refused the request (HTTP ${status}): ${message}` };
};

/** The error classes an SDK generated for a model API throws (both official SDKs have them). */
export interface SdkErrors {
  readonly connection: abstract new (...args: never[]) => Error;
  readonly api: abstract new (...args: never[]) => Error & { status?: unknown; headers?: unknown };
  readonly base: abstract new (...args: never[]) => Error;
}

/**
 * A classifier for one SDK's errors: a failed connection and a broken or
 * malformed response are transient; an HTTP status is judged the same for
 * every provider; anything else is permanent.
 */
export const sdkErrorClassifier =
  (
    sdk: SdkErrors,
    who: { readonly server: string; readonly keyVariable: string; readonly malformed: string },
  ) =>
  (error: unknown): Failure => {
    if (error instanceof sdk.connection)
      return { retry: true, reason: `connection failed: ${error.message}` };
    if (error instanceof sdk.api && typeof error.status === 'number') {
      const headers = error.headers as { get(name: string): string | null } | undefined;
      return classifyHttpStatus(error.status, headers, error.message, who);
    }
    if (error instanceof sdk.base || error instanceof SyntaxError)
      return { retry: true, reason: `${who.malformed}: ${error.message}` };
    return { retry: false, reason: error instanceof Error ? error.message : String(error) };
  };
