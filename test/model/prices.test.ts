import { describe, expect, it } from 'vitest';
import { createModel } from '../../src/model/index.ts';
import { createAnthropicModel } from '../../src/model/anthropic.ts';
import { cacheWriteToRead, DEFAULT_PRICES, priceFor } from '../../src/model/prices.ts';
import { DEFAULT_RETRY } from '../../src/model/retry.ts';
import { silentLogger } from '../../src/logger.ts';

describe('cacheWriteToRead', () => {
  it('weighs a cache write against a cache read from the price table', () => {
    const sonnet = priceFor('claude-sonnet-4-6', DEFAULT_PRICES);
    expect(cacheWriteToRead(sonnet, 'cache-write')).toBeCloseTo(12.5);
    // A provider that caches by itself bills the write as plain input.
    expect(cacheWriteToRead(priceFor('gpt-4o', DEFAULT_PRICES), 'input')).toBeCloseTo(10);
    expect(cacheWriteToRead({ input: 2, output: 8, cacheRead: 0.5 }, 'input')).toBeCloseTo(4);
    expect(cacheWriteToRead(undefined, 'cache-write')).toBeCloseTo(12.5);
  });

  it('is what the adapters tell the loop, and absent when nothing is cached', () => {
    const deps = {
      env: { anthropicApiKey: 'k' },
      workspace: () => '/nowhere',
      logger: silentLogger(),
    };
    expect(
      createModel({ kind: 'anthropic', name: 'claude-sonnet-4-6' }, deps)?.cacheWriteToRead,
    ).toBeCloseTo(12.5);
    expect(createModel({ kind: 'openai', name: 'gpt-4o' }, deps)?.cacheWriteToRead).toBeCloseTo(10);
    const options = {
      apiKey: 'k',
      model: 'claude-sonnet-4-6',
      timeoutMs: 1000,
      prices: DEFAULT_PRICES,
      retry: DEFAULT_RETRY,
      logger: silentLogger(),
    };
    expect(createAnthropicModel({ ...options, caching: false }).cacheWriteToRead).toBeUndefined();
    expect(createAnthropicModel(options).cacheWriteToRead).toBeCloseTo(12.5);
  });
});
