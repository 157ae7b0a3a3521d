import type { Usage } from './types.ts';

/** USD per million tokens. Cache writes and reads are priced relative to input unless given. */
export interface Price {
  readonly input: number;
  readonly output: number;
  readonly cacheWrite?: number;
  readonly cacheRead?: number;
}

/**
 * Default prices by model-name prefix (the longest matching prefix wins).
 * The operator adds entries (`REGREEN_PRICES`); a repository's `prices:` may only raise one.
 */
export const DEFAULT_PRICES: Readonly<Record<string, Price>> = {
  'claude-opus-4-1': { input: 15, output: 75 },
  'claude-opus-4-0': { input: 15, output: 75 },
  'claude-opus-4-2025': { input: 15, output: 75 },
  'claude-opus-': { input: 5, output: 25 },
  'claude-sonnet-': { input: 3, output: 15 },
  'claude-haiku-': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4o': { input: 2.5, output: 10 },
};

/** A current model (the SDK warns about deprecated ones: claude-sonnet-4-6 reaches end of life on 2026-11-30). */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';

/** A price as configuration writes it (`cache_write`, `cache_read`). */
export interface PriceConfig {
  readonly input: number;
  readonly output: number;
  readonly cache_write?: number | undefined;
  readonly cache_read?: number | undefined;
}

/** A table of configured prices as the adapters read it. */
export const pricesFromConfig = (
  table: Readonly<Record<string, PriceConfig>>,
): Record<string, Price> =>
  Object.fromEntries(
    Object.entries(table).map(([name, p]) => [
      name,
      {
        input: p.input,
        output: p.output,
        ...(p.cache_write === undefined ? {} : { cacheWrite: p.cache_write }),
        ...(p.cache_read === undefined ? {} : { cacheRead: p.cache_read }),
      },
    ]),
  );

export const priceFor = (
  model: string,
  table: Readonly<Record<string, Price>>,
): Price | undefined => {
  const match = Object.keys(table)
    .filter((prefix) => model.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return match === undefined ? undefined : table[match];
};

/**
 * USD per token for the estimate made before a call is sent: input at the
 * dearest way it can be billed (a cache write costs 1.25× input), output at
 * its price.
 */
export const estimatePerToken = (price: Price): { input: number; output: number } => ({
  input: Math.max(price.input, price.cacheWrite ?? price.input * 1.25) / 1_000_000,
  output: price.output / 1_000_000,
});

/** The cost of one turn. An unknown model costs nothing here, and the ledger's token limits still hold. */
export const costOf = (usage: Usage, price: Price | undefined): number => {
  if (!price) return 0;
  const perToken = (usd: number): number => usd / 1_000_000;
  return (
    usage.inputTokens * perToken(price.input) +
    usage.outputTokens * perToken(price.output) +
    usage.cacheWriteTokens * perToken(price.cacheWrite ?? price.input * 1.25) +
    usage.cacheReadTokens * perToken(price.cacheRead ?? price.input * 0.1)
  );
};

/**
 * A cached prompt token's write price over its read price: written at the
 * cache-write price (Anthropic: 1.25× input) or, where the provider caches by
 * itself, at the input price (OpenAI); read at the cache-read price (0.1×
 * input unless given). An unknown model counts with those proportions.
 */
export const cacheWriteToRead = (
  price: Price | undefined,
  writtenAt: 'cache-write' | 'input',
): number => {
  const input = price?.input ?? 1;
  const write = writtenAt === 'input' ? input : (price?.cacheWrite ?? input * 1.25);
  const read = price?.cacheRead ?? input * 0.1;
  return read > 0 ? write / read : Number.POSITIVE_INFINITY;
};

/** What a model adapter says of its price: per-token estimates, or that none is known. */
export const pricing = (
  model: string,
  prices: Readonly<Record<string, Price>>,
): {
  readonly price: Price | undefined;
  readonly pricePerToken: { readonly input: number; readonly output: number };
  readonly unpriced?: true;
} => {
  const price = priceFor(model, prices);
  return price
    ? { price, pricePerToken: estimatePerToken(price) }
    : { price, pricePerToken: { input: 0, output: 0 }, unpriced: true };
};
