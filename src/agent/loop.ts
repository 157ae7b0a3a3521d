import { isRegreenError, type ErrorCode } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { resultText, type ToolContext } from '../../tools/types.ts';
import type { Message, Model, ToolResultBlock, UserBlock } from '../model/types.ts';
import {
  clearOldToolResults,
  conversationChars,
  DEFAULT_CLEARING,
  type ClearingPolicy,
} from './context-window.ts';
import type { Ledger, Spend } from './ledger.ts';
import { SuspendJob, type PendingQuestion } from '../questions/pending.ts';
import { DEFAULT_LOOP_LIMITS, LoopDetector, type LoopLimits } from './loop-detector.ts';
import type { ToolFilter, ToolRegistry } from './tool-registry.ts';
import type { Trace } from '../observe/trace.ts';

export type AgentResult =
  | { status: 'done'; finalText: string; plan: string; messages: readonly Message[]; spend: Spend }
  | {
      status: 'budget' | 'loop';
      reason: string;
      plan: string;
      messages: readonly Message[];
      spend: Spend;
    }
  | {
      status: 'error';
      reason: string;
      code: ErrorCode;
      plan: string;
      messages: readonly Message[];
      spend: Spend;
    }
  | {
      /** ask_user stopped the job to wait for a person: save it and resume with the answer. */
      status: 'suspended';
      reason: string;
      pending: PendingQuestion;
      results: readonly UserBlock[];
      callId: string;
      remaining: readonly string[];
      plan: string;
      messages: readonly Message[];
      spend: Spend;
    };

const TRACE_OUTPUT_CHARS = 4000;
/** Characters per token, for estimating a request before it is sent (pessimistic: real tokenisers do better on code). */
const CHARS_PER_TOKEN = 3;

export const PLAN_REMINDER =
  'Before going on, state your plan in a few lines: the files you expect to touch and how you will verify the fix.';

export interface LoopOptions {
  readonly model: Model;
  readonly registry: ToolRegistry;
  readonly filter: ToolFilter;
  readonly ctx: ToolContext;
  readonly system: string;
  readonly task: string;
  readonly ledger: Ledger;
  readonly trace: Trace;
  readonly logger: Logger;
  readonly signal: AbortSignal;
  readonly clearing?: ClearingPolicy;
  readonly loopLimits?: LoopLimits;
  /** An earlier conversation to continue (a worker given more to do); `task` is appended to it. */
  readonly history?: readonly Message[];
  /** Instead of `task`: the user message that continues `history` (a resumed job's tool results). */
  readonly continueWith?: readonly UserBlock[];
  /** A plan stated before a suspension. */
  readonly plan?: string;
  /** Hears each step as it begins: the model asked for turn N, or a tool called (a live line). */
  readonly onStep?: (step: { turn: number; tool?: { name: string; input: unknown } }) => void;
}

/**
 * The model loop: ask the model, run the tools it calls, hand back the
 * results, until it ends its turn, the ledger refuses the next call, or it
 * loops. Model-agnostic: everything it knows of the model is the `Model` port.
 */
export const runAgentLoop = async (options: LoopOptions): Promise<AgentResult> => {
  const { model, registry, filter, ctx, ledger, trace, signal } = options;
  let messages: Message[] = [
    ...(options.history ?? []),
    { role: 'user', content: options.continueWith ?? [{ type: 'text', text: options.task }] },
  ];
  const tools = registry.definitions(filter);
  const levels = new Map(registry.visible(filter).map((tool) => [tool.name, tool.level]));
  const detector = new LoopDetector(options.loopLimits ?? DEFAULT_LOOP_LIMITS);
  let plan = options.plan ?? '';
  const end = <T extends { status: AgentResult['status'] }>(result: T) => {
    const spend = ledger.spend();
    trace.emit({ type: 'note', message: `agent ${result.status}`, data: { ...result, spend } });
    return { ...result, plan, messages, spend };
  };
  for (;;) {
    if (signal.aborted)
      return end({ status: 'error', code: 'cancelled', reason: 'cancelled' } as const);
    const cleared = clearOldToolResults(
      messages,
      options.clearing ?? DEFAULT_CLEARING,
      model.cacheWriteToRead,
    );
    if (cleared.cleared > 0) {
      messages = cleared.messages;
      trace.emit({
        type: 'note',
        message: 'context cleared',
        data: { toolResults: cleared.cleared, chars: conversationChars(messages) },
      });
    }
    const estimate = Math.ceil(
      (options.system.length + JSON.stringify(tools).length + conversationChars(messages)) /
        CHARS_PER_TOKEN,
    );
    const admission = ledger.admit({
      inputTokens: estimate,
      inputPrice: model.pricePerToken.input,
      outputPrice: model.pricePerToken.output,
    });
    if (!admission.ok) return end({ status: 'budget', reason: admission.reason } as const);
    options.onStep?.({ turn: ledger.turnsTaken + 1 });
    const started = Date.now();
    let turn;
    try {
      turn = await model.next({
        system: options.system,
        messages,
        tools,
        maxOutputTokens: admission.maxOutputTokens,
        signal,
      });
    } catch (error) {
      ledger.release(admission.reservation);
      const code = isRegreenError(error) ? error.code : 'model';
      return end({
        status: 'error',
        code,
        reason: error instanceof Error ? error.message : String(error),
      } as const);
    }
    ledger.record(turn.usage, turn.costUsd, admission.reservation);
    const text = turn.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n')
      .trim();
    trace.emit({
      type: 'model',
      turn: ledger.turnsTaken,
      stopReason: turn.stopReason,
      usage: turn.usage,
      costUsd: turn.costUsd,
      durationMs: Date.now() - started,
      request: {
        messages: messages.length,
        estimatedInputTokens: estimate,
        maxOutputTokens: admission.maxOutputTokens,
      },
      text,
    });
    const firstTurn = ledger.turnsTaken === 1;
    if (!plan && text) {
      plan = text;
      trace.emit({ type: 'note', message: 'plan', data: { plan } });
    }
    messages.push({ role: 'assistant', content: turn.content });
    const calls = turn.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    if (calls.length === 0) return end({ status: 'done', finalText: text } as const);
    const results: UserBlock[] = [];
    for (const call of calls) {
      if (signal.aborted) {
        messages.push({ role: 'user', content: results });
        return end({ status: 'error', code: 'cancelled', reason: 'cancelled' } as const);
      }
      options.onStep?.({ turn: ledger.turnsTaken, tool: { name: call.name, input: call.input } });
      const callStarted = Date.now();
      let result;
      try {
        result = await registry.call(call.name, call.input, ctx, signal, filter);
      } catch (error) {
        if (!(error instanceof SuspendJob)) throw error;
        const after = calls.slice(calls.indexOf(call) + 1).map((c) => c.id);
        return end({
          status: 'suspended',
          reason: error.message,
          pending: error.pending,
          results: [...results],
          callId: call.id,
          remaining: after,
        } as const);
      }
      const output = resultText(result);
      trace.emit({
        type: 'tool',
        id: call.id,
        name: call.name,
        input: call.input,
        isError: result.isError,
        durationMs: Date.now() - callStarted,
        output: output.slice(0, TRACE_OUTPUT_CHARS),
      });
      options.logger.debug({ tool: call.name, isError: result.isError }, 'tool call');
      detector.observe(
        { name: call.name, input: call.input, level: levels.get(call.name) },
        { isError: result.isError, ...(result.tests ? { tests: result.tests } : {}) },
      );
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: result.content,
        is_error: result.isError,
      } satisfies ToolResultBlock);
    }
    const verdict = detector.endTurn();
    if (verdict.kind === 'stop') {
      messages.push({ role: 'user', content: results });
      return end({ status: 'loop', reason: verdict.reason } as const);
    }
    if (verdict.kind === 'warn') {
      trace.emit({ type: 'note', message: 'loop warning', data: { message: verdict.message } });
      results.push({ type: 'text', text: verdict.message });
    }
    if (firstTurn && !plan) results.push({ type: 'text', text: PLAN_REMINDER });
    messages.push({ role: 'user', content: results });
  }
};
