import type { Message } from '../model/types.ts';

export interface ClearingPolicy {
  /** Above this many characters of conversation, old tool results are cleared. */
  readonly maxChars: number;
  /** Clearing goes on until the conversation is below this many characters. */
  readonly targetChars: number;
  /** The newest messages are never cleared. */
  readonly keepRecent: number;
}

export const DEFAULT_CLEARING: ClearingPolicy = {
  maxChars: 400_000,
  targetChars: 200_000,
  keepRecent: 6,
};

export const CLEARED_STUB =
  '[older tool output cleared to save context; call the tool again if you need it]';

export const conversationChars = (messages: readonly Message[]): number =>
  JSON.stringify(messages).length;

/**
 * Replaces the oldest tool results by a short stub when the conversation
 * grows past the threshold. It clears from the oldest and in one batch down to
 * the target, so the system prompt and tools stay a cached prefix and the
 * cleared conversation becomes the new stable prefix for the turns after.
 */
export const clearOldToolResults = (
  messages: readonly Message[],
  policy: ClearingPolicy,
): { messages: Message[]; cleared: number } => {
  const out = [...messages];
  let size = conversationChars(out);
  if (size <= policy.maxChars) return { messages: out, cleared: 0 };
  let cleared = 0;
  const last = out.length - policy.keepRecent;
  for (let index = 0; index < last && size > policy.targetChars; index += 1) {
    const message = out[index];
    if (message?.role !== 'user') continue;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result') return block;
      const isStub =
        block.content.length === 1 &&
        block.content[0]?.type === 'text' &&
        block.content[0].text === CLEARED_STUB;
      if (isStub) return block;
      changed = true;
      cleared += 1;
      return { ...block, content: [{ type: 'text' as const, text: CLEARED_STUB }] };
    });
    if (changed) {
      out[index] = { role: 'user', content };
      size = conversationChars(out);
    }
  }
  return { messages: out, cleared };
};
