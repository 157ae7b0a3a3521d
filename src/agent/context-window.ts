import type { Message } from '../model/types.ts';

export interface ClearingPolicy {
  /** Above this many characters of conversation, old tool results are cleared whatever it costs. */
  readonly maxChars: number;
  /** At or below this many characters nothing is cleared: the agent keeps what it has read. */
  readonly minChars: number;
  /** The newest messages are never cleared. */
  readonly keepRecent: number;
}

/**
 * 400k characters (about 100k tokens) as the hard bound, as Anthropic's
 * context editing triggers by default; the six newest messages (three tool
 * results) kept, as its `keep` and SWE-agent's last observations; nothing
 * cleared under 100k characters.
 */
export const DEFAULT_CLEARING: ClearingPolicy = {
  maxChars: 400_000,
  minChars: 100_000,
  keepRecent: 6,
};

export const CLEARED_STUB =
  '[older tool output cleared to save context; call the tool again if you need it]';

export const conversationChars = (messages: readonly Message[]): number =>
  JSON.stringify(messages).length;

const isStub = (content: readonly { type: string; text?: string }[]): boolean =>
  content.length === 1 && content[0]?.type === 'text' && content[0].text === CLEARED_STUB;

/** Every tool result older than the newest `keepRecent` messages, replaced by the stub. */
const clearAllOld = (
  messages: readonly Message[],
  keepRecent: number,
): { messages: Message[]; cleared: number; first: number } => {
  let cleared = 0;
  let first = -1;
  const last = messages.length - keepRecent;
  const out = messages.map((message, index): Message => {
    if (index >= last || message.role !== 'user') return message;
    let changed = false;
    const content = message.content.map((block) => {
      if (block.type !== 'tool_result' || isStub(block.content)) return block;
      changed = true;
      cleared += 1;
      return { ...block, content: [{ type: 'text' as const, text: CLEARED_STUB }] };
    });
    if (!changed) return message;
    if (first < 0) first = index;
    return { role: 'user', content };
  });
  return { messages: out, cleared, first };
};

/**
 * Replaces old tool results by a short stub, all of them at once (everything
 * but the newest messages), when it pays or when the conversation passes the
 * hard bound. The system prompt and tools stay a cached prefix; what follows
 * the first cleared result must be written to the cache again, at
 * `writeToRead` times the price of reading it. Clearing X characters saves
 * reading them on every later turn, so with the conversation growing by `s`
 * characters a turn and `R` characters rewritten, the cost per turn is least
 * when clearing waits until X² ≥ 2·(writeToRead − 1)·s·R: rarely and deeply.
 * Without a cache (`writeToRead` 1) a rewrite costs no more than a read, and
 * clearing begins at `minChars`.
 */
export const clearOldToolResults = (
  messages: readonly Message[],
  policy: ClearingPolicy,
  writeToRead = 1,
): { messages: Message[]; cleared: number } => {
  const unchanged = { messages: [...messages], cleared: 0 };
  const size = conversationChars(messages);
  if (size <= policy.minChars) return unchanged;
  const candidate = clearAllOld(messages, policy.keepRecent);
  if (candidate.cleared === 0) return unchanged;
  const result = { messages: candidate.messages, cleared: candidate.cleared };
  if (size > policy.maxChars) return result;
  const freed = size - conversationChars(candidate.messages);
  const rewritten = conversationChars(candidate.messages.slice(candidate.first));
  const turns = messages.filter((message) => message.role === 'assistant').length;
  const growth = size / Math.max(1, turns);
  const pays = freed * freed >= 2 * Math.max(0, writeToRead - 1) * growth * rewritten;
  return pays ? result : unchanged;
};
