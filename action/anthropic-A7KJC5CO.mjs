import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  APIConnectionError,
  APIError,
  Anthropic,
  AnthropicError
} from "./chunk-2KNQO4WU.mjs";
import {
  sdkErrorClassifier,
  withRetries
} from "./chunk-AKRLX3F5.mjs";
import {
  cacheWriteToRead,
  costOf,
  pricing
} from "./chunk-JCOJM3WN.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-LINFLWR3.mjs";

// src/model/anthropic.ts
var EPHEMERAL = { type: "ephemeral" };
var toolResultContent = (content) => {
  if (content.length === 0) return [{ type: "text", text: "(no output)" }];
  return content.map(
    (block) => block.type === "text" ? { type: "text", text: block.text || "(empty)" } : {
      type: "image",
      source: {
        type: "base64",
        media_type: block.source.media_type,
        data: block.source.data
      }
    }
  );
};
var toParam = (message) => {
  if (message.role === "assistant") {
    return {
      role: "assistant",
      content: message.content.map(
        (block) => block.type === "text" ? { type: "text", text: block.text } : {
          type: "tool_use",
          id: block.id,
          name: block.name,
          input: block.input
        }
      )
    };
  }
  return {
    role: "user",
    content: message.content.map(
      (block) => block.type === "text" ? { type: "text", text: block.text } : {
        type: "tool_result",
        tool_use_id: block.tool_use_id,
        content: toolResultContent(block.content),
        is_error: block.is_error
      }
    )
  };
};
var buildParams = (model, request, caching = true) => {
  const messages = request.messages.map(toParam);
  const last = messages.at(-1);
  if (caching && last && Array.isArray(last.content) && last.content.length > 0) {
    const blocks = [...last.content];
    const final = blocks[blocks.length - 1];
    blocks[blocks.length - 1] = { ...final, cache_control: EPHEMERAL };
    messages[messages.length - 1] = { ...last, content: blocks };
  }
  const tools = request.tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    ...caching && index === request.tools.length - 1 ? { cache_control: EPHEMERAL } : {}
  }));
  return {
    model,
    max_tokens: request.maxOutputTokens,
    system: [
      { type: "text", text: request.system, ...caching ? { cache_control: EPHEMERAL } : {} }
    ],
    tools,
    messages
  };
};
var classifyAnthropicError = sdkErrorClassifier(
  { connection: APIConnectionError, api: APIError, base: AnthropicError },
  {
    server: "the Anthropic API",
    keyVariable: "ANTHROPIC_API_KEY",
    malformed: "malformed or interrupted stream"
  }
);
var createAnthropicModel = (options) => {
  const client = new Anthropic({
    apiKey: options.apiKey,
    maxRetries: 0,
    // retries are ours: they cover streams that break after they started
    timeout: options.timeoutMs,
    ...options.baseURL ? { baseURL: options.baseURL } : {}
  });
  const { price, ...priced } = pricing(options.model, options.prices);
  const caching = options.caching ?? true;
  return {
    id: `anthropic:${options.model}`,
    ...priced,
    ...caching ? { cacheWriteToRead: cacheWriteToRead(price, "cache-write") } : {},
    next: async (request) => {
      const params = buildParams(options.model, request, caching);
      const message = await withRetries(
        () => client.messages.stream(params, { signal: request.signal }).finalMessage(),
        classifyAnthropicError,
        options.retry,
        request.signal
      );
      const usage = {
        inputTokens: message.usage.input_tokens,
        outputTokens: message.usage.output_tokens,
        cacheWriteTokens: message.usage.cache_creation_input_tokens ?? 0,
        cacheReadTokens: message.usage.cache_read_input_tokens ?? 0
      };
      const content = message.content.flatMap((block) => {
        if (block.type === "text") return [{ type: "text", text: block.text }];
        if (block.type === "tool_use")
          return [{ type: "tool_use", id: block.id, name: block.name, input: block.input }];
        return [];
      });
      const stopReason = message.stop_reason === "tool_use" ? "tool_use" : message.stop_reason === "max_tokens" ? "max_tokens" : "end_turn";
      return { content, stopReason, usage, costUsd: costOf(usage, price) };
    }
  };
};
export {
  buildParams,
  classifyAnthropicError,
  createAnthropicModel
};
