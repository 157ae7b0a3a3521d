import Anthropic from '@anthropic-ai/sdk';
import { APIConnectionError, APIError, AnthropicError } from '@anthropic-ai/sdk';
import type { Logger } from '../logger.ts';
import type { ToolContent } from './types.ts';
import { cacheWriteToRead, costOf, pricing, type Price } from './prices.ts';
import { sdkErrorClassifier, withRetries, type RetryPolicy } from './retry.ts';
import type { AssistantBlock, Message, Model, ModelRequest, ModelTurn } from './types.ts';

type Param = Anthropic.Messages.MessageCreateParamsNonStreaming;
type BlockParam = Anthropic.Messages.ContentBlockParam;
const EPHEMERAL = { type: 'ephemeral' } as const;

const toolResultContent = (
  content: readonly ToolContent[],
): Anthropic.Messages.ToolResultBlockParam['content'] => {
  if (content.length === 0) return [{ type: 'text', text: '(no output)' }];
  return content.map((block) =>
    block.type === 'text'
      ? { type: 'text' as const, text: block.text || '(empty)' }
      : {
          type: 'image' as const,
          source: {
            type: 'base64' as const,
            media_type: block.source.media_type as 'image/png',
            data: block.source.data,
          },
        },
  );
};

const toParam = (message: Message): Anthropic.Messages.MessageParam => {
  if (message.role === 'assistant') {
    return {
      role: 'assistant',
      content: message.content.map((block): BlockParam =>
        block.type === 'text'
          ? { type: 'text', text: block.text }
          : {
              type: 'tool_use',
              id: block.id,
              name: block.name,
              input: block.input as Record<string, unknown>,
            },
      ),
    };
  }
  return {
    role: 'user',
    content: message.content.map((block): BlockParam =>
      block.type === 'text'
        ? { type: 'text', text: block.text }
        : {
            type: 'tool_result',
            tool_use_id: block.tool_use_id,
            content: toolResultContent(block.content),
            is_error: block.is_error,
          },
    ),
  };
};

/**
 * The request with its stable prefix marked for the prompt cache: the tool
 * definitions and the system prompt (which carries the repository context)
 * never change within a job, and a moving breakpoint on the newest message
 * makes every turn read the conversation so far from the cache.
 */
export const buildParams = (model: string, request: ModelRequest, caching = true): Param => {
  const messages = request.messages.map(toParam);
  const last = messages.at(-1);
  if (caching && last && Array.isArray(last.content) && last.content.length > 0) {
    const blocks = [...last.content];
    const final = blocks[blocks.length - 1] as BlockParam;
    blocks[blocks.length - 1] = { ...final, cache_control: EPHEMERAL } as BlockParam;
    messages[messages.length - 1] = { ...last, content: blocks } as Anthropic.Messages.MessageParam;
  }
  const tools = request.tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Anthropic.Messages.Tool.InputSchema,
    ...(caching && index === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}),
  }));
  return {
    model,
    max_tokens: request.maxOutputTokens,
    system: [
      { type: 'text', text: request.system, ...(caching ? { cache_control: EPHEMERAL } : {}) },
    ],
    tools,
    messages,
  };
};

/** Transient: rate limits, overload, server errors, dropped or malformed streams. Permanent: the rest. */
export const classifyAnthropicError = sdkErrorClassifier(
  { connection: APIConnectionError, api: APIError, base: AnthropicError },
  {
    server: 'the Anthropic API',
    keyVariable: 'ANTHROPIC_API_KEY',
    malformed: 'malformed or interrupted stream',
  },
);

export interface AnthropicOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseURL?: string;
  readonly timeoutMs: number;
  readonly prices: Readonly<Record<string, Price>>;
  readonly retry: RetryPolicy;
  readonly logger: Logger;
  /** Prompt caching (default on); off only to measure what it saves. */
  readonly caching?: boolean;
}

/** The Messages API over the official SDK, streaming, with prompt caching. */
export const createAnthropicModel = (options: AnthropicOptions): Model => {
  const client = new Anthropic({
    apiKey: options.apiKey,
    maxRetries: 0, // retries are ours: they cover streams that break after they started
    timeout: options.timeoutMs,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  const { price, ...priced } = pricing(options.model, options.prices);
  const caching = options.caching ?? true;
  return {
    id: `anthropic:${options.model}`,
    ...priced,
    ...(caching ? { cacheWriteToRead: cacheWriteToRead(price, 'cache-write') } : {}),
    next: async (request: ModelRequest): Promise<ModelTurn> => {
      const params = buildParams(options.model, request, caching);
      const message = await withRetries(
        () => client.messages.stream(params, { signal: request.signal }).finalMessage(),
        classifyAnthropicError,
        options.retry,
        request.signal,
      );
      const usage = {
        inputTokens: message.usage.input_tokens,
        outputTokens: message.usage.output_tokens,
        cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
        cacheReadTokens: message.usage.cache_read_input_tokens ?? 0,
      };
      const content = message.content.flatMap((block): AssistantBlock[] => {
        if (block.type === 'text') return [{ type: 'text', text: block.text }];
        if (block.type === 'tool_use')
          return [{ type: 'tool_use', id: block.id, name: block.name, input: block.input }];
        return [];
      });
      const stopReason =
        message.stop_reason === 'tool_use'
          ? 'tool_use'
          : message.stop_reason === 'max_tokens'
            ? 'max_tokens'
            : 'end_turn';
      return { content, stopReason, usage, costUsd: costOf(usage, price) };
    },
  };
};
