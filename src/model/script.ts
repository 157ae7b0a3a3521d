import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { NO_USAGE, type AssistantBlock, type Model } from './types.ts';

const ScriptSchema = z.object({
  turns: z.array(
    z.object({
      content: z.array(
        z.discriminatedUnion('type', [
          z.object({ type: z.literal('text'), text: z.string() }),
          z.object({
            type: z.literal('tool_use'),
            id: z.string().min(1),
            name: z.string().min(1),
            input: z.unknown(),
          }),
        ]),
      ),
      /** How long the recorded model took to answer: replayed as a wait (a model's latency). */
      thinkMs: z.number().int().nonnegative().max(600_000).optional(),
    }),
  ),
});

export type Script = z.infer<typeof ScriptSchema>;

/** Replaces the literal `$WORKSPACE` in every string of a tool input. */
const substitute = (value: unknown, workspace: string): unknown => {
  if (typeof value === 'string') return value.replaceAll('$WORKSPACE', workspace);
  if (Array.isArray(value)) return value.map((item) => substitute(item, workspace));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, substitute(item, workspace)]),
    );
  }
  return value;
};

export const loadScript = (file: string): Script => {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RegreenError(
      'usage',
      `cannot read the model script ${file}: ${(error as Error).message}`,
      { cause: error },
    );
  }
  const parsed = ScriptSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RegreenError(
      'usage',
      `invalid model script ${file}: ${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''}`,
    );
  }
  return parsed.data;
};

/**
 * Replays recorded assistant turns, one per call, whatever the conversation
 * says — but never a turn the conversation already holds, so a job resumed
 * from a saved conversation goes on where it stopped. When the script runs
 * out the model ends its turn. Costs nothing.
 */
export const createScriptModel = (options: { file: string; workspace: () => string }): Model => {
  const script = loadScript(options.file);
  let next = 0;
  return {
    id: `script:${options.file}`,
    pricePerToken: { input: 0, output: 0 },
    next: (request) => {
      const answered = request.messages.filter((m) => m.role === 'assistant').length;
      next = Math.max(next, answered);
      const turn = script.turns[next];
      next += 1;
      if (!turn)
        return Promise.resolve({
          content: [],
          stopReason: 'end_turn',
          usage: NO_USAGE,
          costUsd: 0,
        });
      const content = turn.content.map((block): AssistantBlock =>
        block.type === 'tool_use'
          ? { ...block, input: substitute(block.input, options.workspace()) }
          : block,
      );
      const stopReason = content.some((block) => block.type === 'tool_use')
        ? 'tool_use'
        : 'end_turn';
      const answer = { content, stopReason, usage: NO_USAGE, costUsd: 0 } as const;
      return turn.thinkMs
        ? delay(turn.thinkMs, answer, { signal: request.signal })
        : Promise.resolve(answer);
    },
  };
};
