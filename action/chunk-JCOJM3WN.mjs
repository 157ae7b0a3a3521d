import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/model/prices.ts
var DEFAULT_PRICES = {
  "claude-opus-4-1": { input: 15, output: 75 },
  "claude-opus-4-0": { input: 15, output: 75 },
  "claude-opus-4-2025": { input: 15, output: 75 },
  "claude-opus-": { input: 5, output: 25 },
  "claude-sonnet-": { input: 3, output: 15 },
  "claude-haiku-": { input: 1, output: 5 },
  "claude-3-5-haiku": { input: 0.8, output: 4 },
  "gpt-4.1": { input: 2, output: 8 },
  "gpt-4o": { input: 2.5, output: 10 }
};
var DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-6";
var pricesFromConfig = (table) => Object.fromEntries(
  Object.entries(table).map(([name, p]) => [
    name,
    {
      input: p.input,
      output: p.output,
      ...p.cache_write === void 0 ? {} : { cacheWrite: p.cache_write },
      ...p.cache_read === void 0 ? {} : { cacheRead: p.cache_read }
    }
  ])
);
var priceFor = (model, table) => {
  const match = Object.keys(table).filter((prefix) => model.startsWith(prefix)).sort((a, b) => b.length - a.length)[0];
  return match === void 0 ? void 0 : table[match];
};
var estimatePerToken = (price) => ({
  input: Math.max(price.input, price.cacheWrite ?? price.input * 1.25) / 1e6,
  output: price.output / 1e6
});
var costOf = (usage, price) => {
  if (!price) return 0;
  const perToken = (usd) => usd / 1e6;
  return usage.inputTokens * perToken(price.input) + usage.outputTokens * perToken(price.output) + usage.cacheWriteTokens * perToken(price.cacheWrite ?? price.input * 1.25) + usage.cacheReadTokens * perToken(price.cacheRead ?? price.input * 0.1);
};
var cacheWriteToRead = (price, writtenAt) => {
  const input = price?.input ?? 1;
  const write = writtenAt === "input" ? input : price?.cacheWrite ?? input * 1.25;
  const read = price?.cacheRead ?? input * 0.1;
  return read > 0 ? write / read : Number.POSITIVE_INFINITY;
};
var pricing = (model, prices) => {
  const price = priceFor(model, prices);
  return price ? { price, pricePerToken: estimatePerToken(price) } : { price, pricePerToken: { input: 0, output: 0 }, unpriced: true };
};

export {
  DEFAULT_PRICES,
  DEFAULT_ANTHROPIC_MODEL,
  pricesFromConfig,
  priceFor,
  costOf,
  cacheWriteToRead,
  pricing
};
