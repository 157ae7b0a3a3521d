import type { ToolLevel } from '../config/repo-config.ts';

/** A block of a tool's result: text, or an image the model can see. */
export type ToolContent =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image';
      readonly source: {
        readonly type: 'base64';
        readonly media_type: string;
        readonly data: string;
      };
    };

/** What the model is told about one tool. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly level: ToolLevel;
  readonly inputSchema: Record<string, unknown>;
}

export type TextBlock = { readonly type: 'text'; readonly text: string };
export type ToolUseBlock = {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
};
export type ToolResultBlock = {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  readonly content: readonly ToolContent[];
  readonly is_error: boolean;
};

export type AssistantBlock = TextBlock | ToolUseBlock;
export type UserBlock = TextBlock | ToolResultBlock;

export type Message =
  | { readonly role: 'user'; readonly content: readonly UserBlock[] }
  | { readonly role: 'assistant'; readonly content: readonly AssistantBlock[] };

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
}

export const NO_USAGE: Usage = {
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
};

export interface ModelRequest {
  readonly system: string;
  readonly messages: readonly Message[];
  readonly tools: readonly ToolDefinition[];
  /** The most the answer may spend (what is left of the output budget, capped). */
  readonly maxOutputTokens: number;
  readonly signal: AbortSignal;
}

export interface ModelTurn {
  readonly content: readonly AssistantBlock[];
  readonly stopReason: 'end_turn' | 'tool_use' | 'max_tokens';
  readonly usage: Usage;
  readonly costUsd: number;
}

/** The port every model adapter implements. */
export interface Model {
  /** e.g. `script:fixes.json`, `anthropic:claude-…`. */
  readonly id: string;
  /** USD per token, used to price a call before it is sent (0 when unknown or free). */
  readonly pricePerToken: { readonly input: number; readonly output: number };
  /** No price is known for it: a dollar budget cannot hold, so the job refuses it. */
  readonly unpriced?: boolean;
  /**
   * How much dearer a prompt token written to the provider's cache is than one
   * read back from it; absent when the adapter caches nothing. Context clearing
   * weighs what it saves against the rewrite it causes with it.
   */
  readonly cacheWriteToRead?: number;
  next(request: ModelRequest): Promise<ModelTurn>;
}
