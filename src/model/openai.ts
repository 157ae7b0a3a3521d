import OpenAI from 'openai';
import { APIConnectionError, APIError, OpenAIError } from 'openai';
import type { Logger } from '../logger.ts';
import { cacheWriteToRead, costOf, pricing, type Price } from './prices.ts';
import { sdkErrorClassifier, withRetries, type RetryPolicy } from './retry.ts';
import type { AssistantBlock, Message, Model, ModelRequest, ModelTurn } from './types.ts';

type ChatMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

const toChat = (message: Message): ChatMessage[] => {
  if (message.role === 'assistant') {
    const text = message.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n');
    const calls = message.content.flatMap((block) =>
      block.type === 'tool_use'
        ? [
            {
              id: block.id,
              type: 'function' as const,
              function: {
                name: block.name,
                arguments:
                  typeof block.input === 'string' ? block.input : JSON.stringify(block.input),
              },
            },
          ]
        : [],
    );
    return [
      {
        role: 'assistant',
        content: text || null,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  return message.content.map((block): ChatMessage => {
    if (block.type === 'text') return { role: 'user', content: block.text };
    const text = block.content
      .map((part) =>
        part.type === 'text'
          ? part.text
          : '[image omitted: this model API takes no images in tool results]',
      )
      .join('\n');
    return {
      role: 'tool',
      tool_call_id: block.tool_use_id,
      content: block.is_error ? `ERROR: ${text}` : text,
    };
  });
};

/** A tool call's arguments; invalid JSON is passed on as the raw string, which the tool's schema then rejects with its message. */
const parseArguments = (raw: string): unknown => {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
};

export const classifyOpenAIError = sdkErrorClassifier(
  { connection: APIConnectionError, api: APIError, base: OpenAIError },
  { server: 'the model server', keyVariable: 'OPENAI_API_KEY', malformed: 'malformed response' },
);

export interface OpenAIOptions {
  readonly apiKey: string;
  readonly model: string;
  readonly baseURL?: string;
  readonly timeoutMs: number;
  readonly prices: Readonly<Record<string, Price>>;
  readonly retry: RetryPolicy;
  readonly logger: Logger;
}

/** OpenAI-compatible chat completions (OpenAI, vLLM, Ollama, LiteLLM) with tool calls. */
export const createOpenAIModel = (options: OpenAIOptions): Model => {
  const client = new OpenAI({
    apiKey: options.apiKey,
    maxRetries: 0,
    timeout: options.timeoutMs,
    ...(options.baseURL ? { baseURL: options.baseURL } : {}),
  });
  const { price, ...priced } = pricing(options.model, options.prices);
  return {
    id: `openai:${options.model}`,
    ...priced,
    cacheWriteToRead: cacheWriteToRead(price, 'input'),
    next: async (request: ModelRequest): Promise<ModelTurn> => {
      const completion = await withRetries(
        () =>
          client.chat.completions.create(
            {
              model: options.model,
              max_tokens: request.maxOutputTokens,
              messages: [
                { role: 'system', content: request.system },
                ...request.messages.flatMap(toChat),
              ],
              tools: request.tools.map((tool) => ({
                type: 'function' as const,
                function: {
                  name: tool.name,
                  description: tool.description,
                  parameters: tool.inputSchema,
                },
              })),
            },
            { signal: request.signal },
          ),
        classifyOpenAIError,
        options.retry,
        request.signal,
      );
      const choice = completion.choices[0];
      const content: AssistantBlock[] = [];
      if (choice?.message.content) content.push({ type: 'text', text: choice.message.content });
      for (const call of choice?.message.tool_calls ?? []) {
        if (call.type === 'function')
          content.push({
            type: 'tool_use',
            id: call.id,
            name: call.function.name,
            input: parseArguments(call.function.arguments),
          });
      }
      const cached = completion.usage?.prompt_tokens_details?.cached_tokens ?? 0;
      const usage = {
        inputTokens: (completion.usage?.prompt_tokens ?? 0) - cached,
        outputTokens: completion.usage?.completion_tokens ?? 0,
        cacheReadTokens: cached,
        cacheWriteTokens: 0,
      };
      const stopReason =
        choice?.finish_reason === 'tool_calls'
          ? 'tool_use'
          : choice?.finish_reason === 'length'
            ? 'max_tokens'
            : 'end_turn';
      return { content, stopReason, usage, costUsd: costOf(usage, price) };
    },
  };
};
