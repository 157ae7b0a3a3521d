import {
  APIConnectionError,
  AuthenticationError,
  InternalServerError,
  RateLimitError,
} from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { RegreenError } from '../../src/errors.ts';
import { classifyAnthropicError } from '../../src/model/anthropic.ts';
import { costOf, DEFAULT_PRICES, priceFor } from '../../src/model/prices.ts';
import { retryAfterMs, withRetries, type Failure } from '../../src/model/retry.ts';

const policy = (delays: number[]) => ({
  maxAttempts: 4,
  baseDelayMs: 100,
  maxDelayMs: 5000,
  sleep: (ms: number) => {
    delays.push(ms);
    return Promise.resolve();
  },
});

describe('withRetries', () => {
  it('honours retry-after, else backs off exponentially, then succeeds', async () => {
    const delays: number[] = [];
    const failures: Failure[] = [
      { retry: true, reason: 'HTTP 429', retryAfterMs: 3000 },
      { retry: true, reason: 'HTTP 529' },
    ];
    let calls = 0;
    const value = await withRetries(
      () => {
        calls += 1;
        if (calls <= failures.length) return Promise.reject(new Error(`fail ${calls}`));
        return Promise.resolve('ok');
      },
      () => failures[calls - 1] ?? { retry: false, reason: 'x' },
      policy(delays),
      new AbortController().signal,
    );
    expect(value).toBe('ok');
    expect(delays).toEqual([3000, 200]);
  });

  it('caps the wait and the attempts', async () => {
    const delays: number[] = [];
    const attempt = withRetries(
      () => Promise.reject(new Error('down')),
      () => ({ retry: true, reason: 'HTTP 500', retryAfterMs: 999_999 }),
      policy(delays),
      new AbortController().signal,
    );
    await expect(attempt).rejects.toThrow(/HTTP 500 \(gave up after 4 attempts\)/);
    expect(delays).toEqual([5000, 5000, 5000]);
  });

  it('never retries a permanent failure', async () => {
    const delays: number[] = [];
    const attempt = withRetries(
      () => Promise.reject(new Error('no')),
      () => ({ retry: false, reason: 'HTTP 401' }),
      policy(delays),
      new AbortController().signal,
    );
    await expect(attempt).rejects.toBeInstanceOf(RegreenError);
    expect(delays).toEqual([]);
  });
});

describe('classifyAnthropicError', () => {
  const headers = (values: Record<string, string>) => new Headers(values);
  it.each([
    [
      new RateLimitError(429, undefined, 'slow down', headers({ 'retry-after': '7' })),
      { retry: true, retryAfterMs: 7000 },
    ],
    [new InternalServerError(529, undefined, 'overloaded', headers({})), { retry: true }],
    [new APIConnectionError({ message: 'socket hang up' }), { retry: true }],
    [new AuthenticationError(401, undefined, 'bad key', headers({})), { retry: false }],
  ])('%s', (error, expected) => {
    expect(classifyAnthropicError(error)).toMatchObject(expected);
  });

  it('reads retry-after as seconds, milliseconds or a date', () => {
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(headers({ 'retry-after-ms': '150' }))).toBe(150);
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(
      6000,
    );
    expect(retryAfterMs(headers({}))).toBeUndefined();
  });
});

describe('prices', () => {
  it('prices every kind of token, cache reads cheapest', () => {
    const price = priceFor('claude-sonnet-4-6', DEFAULT_PRICES);
    expect(price).toEqual({ input: 3, output: 15 });
    const cost = costOf(
      {
        inputTokens: 1_000_000,
        outputTokens: 1_000_000,
        cacheReadTokens: 1_000_000,
        cacheWriteTokens: 1_000_000,
      },
      price,
    );
    expect(cost).toBeCloseTo(3 + 15 + 0.3 + 3.75, 6);
    expect(
      costOf(
        { inputTokens: 5, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0 },
        undefined,
      ),
    ).toBe(0);
  });
});
