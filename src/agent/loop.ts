import type { Logger } from '../logger.ts';
import { resultText, type ToolContext } from '../../tools/types.ts';
import type { Message, Model, ToolResultBlock } from '../model/types.ts';
import type { Ledger } from './ledger.ts';
import type { ToolFilter, ToolRegistry } from './tool-registry.ts';
import type { Trace } from './trace.ts';

export type AgentResult =
  | { status: 'done'; finalText: string; messages: readonly Message[] }
  | { status: 'budget'; reason: string; messages: readonly Message[] }
  | { status: 'error'; reason: string; messages: readonly Message[] };

const TRACE_OUTPUT_CHARS = 4000;

/**
 * The model loop: ask the model, run the tools it calls, hand back the
 * results, until it ends its turn or the ledger refuses another call.
 * Model-agnostic: everything it knows of the model is the `Model` port.
 */
export const runAgentLoop = async (options: {
  model: Model;
  registry: ToolRegistry;
  filter: ToolFilter;
  ctx: ToolContext;
  system: string;
  task: string;
  ledger: Ledger;
  trace: Trace;
  logger: Logger;
  signal: AbortSignal;
}): Promise<AgentResult> => {
  const { model, registry, filter, ctx, ledger, trace, signal } = options;
  const messages: Message[] = [{ role: 'user', content: [{ type: 'text', text: options.task }] }];
  const tools = registry.definitions(filter);
  for (;;) {
    const verdict = ledger.check();
    if (!verdict.ok) return { status: 'budget', reason: verdict.reason, messages };
    if (signal.aborted) return { status: 'error', reason: 'cancelled', messages };
    let turn;
    try {
      turn = await model.next({ system: options.system, messages, tools, signal });
    } catch (error) {
      return {
        status: 'error',
        reason: `model call failed: ${error instanceof Error ? error.message : String(error)}`,
        messages,
      };
    }
    ledger.record(turn.usage, turn.costUsd);
    const text = turn.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n');
    trace.emit({
      type: 'model',
      turn: ledger.turns,
      stopReason: turn.stopReason,
      usage: turn.usage,
      costUsd: turn.costUsd,
      text,
    });
    messages.push({ role: 'assistant', content: turn.content });
    const calls = turn.content.flatMap((block) => (block.type === 'tool_use' ? [block] : []));
    if (calls.length === 0) return { status: 'done', finalText: text, messages };
    const results: ToolResultBlock[] = [];
    for (const call of calls) {
      const started = Date.now();
      const result = await registry.call(call.name, call.input, ctx, signal, filter);
      trace.emit({
        type: 'tool',
        id: call.id,
        name: call.name,
        input: call.input,
        isError: result.isError,
        durationMs: Date.now() - started,
        output: resultText(result).slice(0, TRACE_OUTPUT_CHARS),
      });
      options.logger.debug({ tool: call.name, isError: result.isError }, 'tool call');
      results.push({
        type: 'tool_result',
        tool_use_id: call.id,
        content: result.content,
        is_error: result.isError,
      });
    }
    messages.push({ role: 'user', content: results });
  }
};
