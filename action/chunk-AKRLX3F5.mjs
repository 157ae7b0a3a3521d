import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  RegreenError
} from "./chunk-2SKYD2FN.mjs";

// src/model/retry.ts
var sleep = (ms, signal) => new Promise((resolve, reject) => {
  if (signal.aborted) {
    reject(new RegreenError("cancelled", "cancelled"));
    return;
  }
  const timer = setTimeout(resolve, ms);
  signal.addEventListener(
    "abort",
    () => {
      clearTimeout(timer);
      reject(new RegreenError("cancelled", "cancelled"));
    },
    { once: true }
  );
});
var DEFAULT_RETRY = {
  maxAttempts: 5,
  baseDelayMs: 1e3,
  maxDelayMs: 6e4,
  sleep
};
var retryAfterMs = (headers, now = Date.now()) => {
  const ms = headers?.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const value = headers?.get("retry-after");
  if (!value) return void 0;
  if (Number.isFinite(Number(value))) return Number(value) * 1e3;
  const date = Date.parse(value);
  return Number.isNaN(date) ? void 0 : Math.max(0, date - now);
};
var withRetries = async (call, classify, policy, signal) => {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if (signal.aborted) throw new RegreenError("cancelled", "cancelled", { cause: error });
      const failure = classify(error);
      if (!failure.retry) throw new RegreenError("model", failure.reason, { cause: error });
      if (attempt >= policy.maxAttempts) {
        throw new RegreenError("model", `${failure.reason} (gave up after ${attempt} attempts)`, {
          cause: error
        });
      }
      const backoff = policy.baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.min(policy.maxDelayMs, failure.retryAfterMs ?? backoff);
      policy.onRetry?.({ attempt, delayMs, reason: failure.reason });
      await policy.sleep(delayMs, signal);
    }
  }
};
var classifyHttpStatus = (status, headers, message, who) => {
  if (status === 401 || status === 403) {
    return {
      retry: false,
      reason: `${who.server} rejected the API key (HTTP ${status}): check ${who.keyVariable}`
    };
  }
  if (status === 408 || status === 409 || status === 429 || status >= 500) {
    const after = retryAfterMs(headers);
    const kind = status === 529 ? "overloaded" : status === 429 ? "rate limited" : "server error";
    return {
      retry: true,
      reason: `HTTP ${status} ${kind}`,
      ...after === void 0 ? {} : { retryAfterMs: after }
    };
  }
  return { retry: false, reason: `${who.server} refused the request (HTTP ${status}): ${message}` };
};
var sdkErrorClassifier = (sdk, who) => (error) => {
  if (error instanceof sdk.connection)
    return { retry: true, reason: `connection failed: ${error.message}` };
  if (error instanceof sdk.api && typeof error.status === "number") {
    const headers = error.headers;
    return classifyHttpStatus(error.status, headers, error.message, who);
  }
  if (error instanceof sdk.base || error instanceof SyntaxError)
    return { retry: true, reason: `${who.malformed}: ${error.message}` };
  return { retry: false, reason: error instanceof Error ? error.message : String(error) };
};

export {
  DEFAULT_RETRY,
  withRetries,
  sdkErrorClassifier
};
