import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { createAnthropicModel } from './anthropic.ts';
import { createOpenAIModel } from './openai.ts';
import { DEFAULT_ANTHROPIC_MODEL, DEFAULT_PRICES, type Price } from './prices.ts';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.ts';
import { createScriptModel } from './script.ts';
import type { Model } from './types.ts';

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

export interface ModelDeps {
  readonly env: ModelEnvironment;
  readonly workspace: () => string;
  readonly prices?: Readonly<Record<string, Price>>;
  readonly retry?: RetryPolicy;
  readonly timeoutMs?: number;
  readonly logger: Logger;
}

/** The registry of model adapters. */
export const createModel = (spec: ModelSpec, deps: ModelDeps): Model | undefined => {
  const prices = { ...DEFAULT_PRICES, ...deps.prices };
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
        throw new RegreenError('usage', `--model anthropic:${spec.name} needs ANTHROPIC_API_KEY`);
      return createAnthropicModel({
        ...common,
        apiKey: deps.env.anthropicApiKey,
        model: spec.name,
        ...(deps.env.anthropicBaseURL ? { baseURL: deps.env.anthropicBaseURL } : {}),
      });
    case 'openai':
      return createOpenAIModel({
        ...common,
        apiKey: deps.env.openaiApiKey ?? 'none',
        model: spec.name,
        ...(deps.env.openaiBaseURL ? { baseURL: deps.env.openaiBaseURL } : {}),
      });
  }
};
