import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { AnthropicOptions } from './anthropic.ts';
import type { OpenAIOptions } from './openai.ts';
import { z } from 'zod';
import {
  cacheWriteToRead,
  DEFAULT_ANTHROPIC_MODEL,
  DEFAULT_PRICES,
  priceFor,
  pricesFromConfig,
  pricing,
  type Price,
} from './prices.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { createScriptModel } from './script.ts';
import type { Model } from './types.ts';
import { settingsOf, type Env } from '../config/env.ts';

/** `none` means recipes only. */
export type ModelSpec =
  | { kind: 'none' }
  | { kind: 'script'; file: string }
  | { kind: 'anthropic'; name: string }
  | { kind: 'openai'; name: string };

export const parseModelSpec = (value: string): ModelSpec => {
  if (value === 'none') return { kind: 'none' };
  const colon = value.indexOf(':');
  const kind = colon === -1 ? value : value.slice(0, colon);
  const arg = colon === -1 ? '' : value.slice(colon + 1);
  if (kind === 'script' && arg) return { kind: 'script', file: arg };
  if (kind === 'anthropic') return { kind: 'anthropic', name: arg || DEFAULT_ANTHROPIC_MODEL };
  if (kind === 'openai' && arg) return { kind: 'openai', name: arg };
  throw new RegreenError(
    'usage',
    `unknown model "${value}": use anthropic[:NAME], openai:NAME, script:FILE or none`,
  );
};

/** Credentials and endpoints, read from the environment by the front door. */
export interface ModelEnvironment {
  readonly anthropicApiKey?: string | undefined;
  readonly anthropicBaseURL?: string | undefined;
  readonly openaiApiKey?: string | undefined;
  readonly openaiBaseURL?: string | undefined;
}

/**
 * Which model a job uses: the explicit choice (CLI, Action input), else the
 * repository config's, else Anthropic's default when a key is set, else none.
 */
export const chooseModel = (
  explicit: string | undefined,
  fromConfig: string | undefined,
  env: ModelEnvironment,
): ModelSpec => {
  if (explicit !== undefined) return parseModelSpec(explicit);
  if (fromConfig !== undefined) return parseModelSpec(fromConfig);
  return env.anthropicApiKey
    ? { kind: 'anthropic', name: DEFAULT_ANTHROPIC_MODEL }
    : { kind: 'none' };
};

/**
 * The repository's model (its config's `model`, a worker tier), used only when
 * the operator named none. It can choose a model, never a program: a
 * `script:` path would be a file on the host the repository picked.
 */
export const repositoryModel = (
  tier: string | undefined,
  fromConfig: string | undefined,
  env: ModelEnvironment,
): ModelSpec => {
  const spec = chooseModel(tier, fromConfig, env);
  if (spec.kind === 'script')
    throw new RegreenError(
      'config',
      `.github/regreen.yml names a script model (${spec.file}): a repository may choose anthropic or openai models only; recorded trajectories are the operator's (--model script:FILE)`,
    );
  return spec;
};

const PriceSchema = z
  .object({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    cache_write: z.number().nonnegative().optional(),
    cache_read: z.number().nonnegative().optional(),
  })
  .strict();

/** The operator's prices (`REGREEN_PRICES`, JSON: `{"model-prefix": {"input": 3, "output": 15}}`) over the built-in table. */
export const operatorPrices = (env: Env): Record<string, Price> => {
  const prices = settingsOf(env).prices;
  if (!prices) return { ...DEFAULT_PRICES };
  let parsed: unknown;
  try {
    parsed = JSON.parse(prices);
  } catch {
    throw new RegreenError('usage', 'REGREEN_PRICES is not valid JSON');
  }
  const result = z.record(z.string(), PriceSchema).safeParse(parsed);
  if (!result.success)
    throw new RegreenError(
      'usage',
      `REGREEN_PRICES: ${result.error.issues[0]?.message ?? 'invalid'}`,
    );
  return { ...DEFAULT_PRICES, ...pricesFromConfig(result.data) };
};

/**
 * The prices a job counts with: the operator's, where the repository's may
 * only raise a price the operator knows (a pessimistic estimate is harmless);
 * a repository can neither lower a price nor price a model the operator did not.
 */
export const effectivePrices = (
  operator: Readonly<Record<string, Price>>,
  repository: Readonly<Record<string, Price>> = {},
): Record<string, Price> => {
  const table: Record<string, Price> = { ...operator };
  for (const [name, price] of Object.entries(repository)) {
    const known = priceFor(name, operator);
    if (!known) continue;
    const max = (a: number | undefined, b: number | undefined, fallback: number): number =>
      Math.max(a ?? fallback, b ?? fallback);
    table[name] = {
      input: Math.max(known.input, price.input),
      output: Math.max(known.output, price.output),
      cacheWrite: max(known.cacheWrite, price.cacheWrite, known.input * 1.25),
      cacheRead: max(known.cacheRead, price.cacheRead, known.input * 0.1),
    };
  }
  return table;
};

export interface ModelDeps {
  readonly env: ModelEnvironment;
  readonly workspace: () => string;
  /** The operator's price table (built-in plus `REGREEN_PRICES`). */
  readonly prices?: Readonly<Record<string, Price>>;
  /** The repository config's `prices`: they may only raise a known price. */
  readonly repositoryPrices?: Readonly<Record<string, Price>>;
  readonly retry?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly logger: Logger;
}

/**
 * An adapter whose SDK loads in the background when the model is made (the
 * SDKs take a tenth of a second to import, which a job spends cloning and
 * reproducing anyway); its first turn waits for it. A command that never
 * reaches a model (`--help`, a recipe fix) never pays for it.
 */
const lazyModel = (
  id: string,
  name: string,
  prices: Readonly<Record<string, Price>>,
  writtenAt: 'cache-write' | 'input',
  load: () => Promise<Model>,
): Model => {
  const { price, pricePerToken, unpriced } = pricing(name, prices);
  let loaded: Promise<Model> | undefined;
  const model = (): Promise<Model> => (loaded ??= load());
  setImmediate(() => void model().catch(() => undefined));
  return {
    id,
    pricePerToken,
    ...(unpriced ? { unpriced } : {}),
    cacheWriteToRead: cacheWriteToRead(price, writtenAt),
    next: async (request) => (await model()).next(request),
  };
};

/** The registry of model adapters. */
export const createModel = (spec: ModelSpec, deps: ModelDeps): Model | undefined => {
  const prices = effectivePrices(deps.prices ?? DEFAULT_PRICES, deps.repositoryPrices);
  const common = {
    prices,
    retry: deps.retry ?? DEFAULT_RETRY,
    timeoutMs: deps.timeoutMs ?? 600_000,
    logger: deps.logger,
  };
  switch (spec.kind) {
    case 'none':
      return undefined;
    case 'script':
      return createScriptModel({ file: spec.file, workspace: deps.workspace });
    case 'anthropic':
      if (!deps.env.anthropicApiKey)
        throw new RegreenError(
          'usage',
          `anthropic:${spec.name} needs ANTHROPIC_API_KEY (set it, or choose --model none for recipes only)`,
        );
      return lazyModel(`anthropic:${spec.name}`, spec.name, prices, 'cache-write', async () =>
        (await import('./anthropic.ts')).createAnthropicModel({
          ...common,
          apiKey: deps.env.anthropicApiKey ?? '',
          model: spec.name,
          ...(deps.env.anthropicBaseURL ? { baseURL: deps.env.anthropicBaseURL } : {}),
        } satisfies AnthropicOptions),
      );
    case 'openai':
      return lazyModel(`openai:${spec.name}`, spec.name, prices, 'input', async () =>
        (await import('./openai.ts')).createOpenAIModel({
          ...common,
          apiKey: deps.env.openaiApiKey ?? 'none',
          model: spec.name,
          ...(deps.env.openaiBaseURL ? { baseURL: deps.env.openaiBaseURL } : {}),
        } satisfies OpenAIOptions),
      );
  }
};
