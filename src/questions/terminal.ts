import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { parseReply, renderTextCard, type Answer } from './card.ts';
import type { QuestionChannel } from './channel.ts';

/**
 * Questions in the terminal (`regreen fix` with a TTY): the card is printed,
 * the answer is typed at the prompt. An invalid answer is corrected and asked
 * again; at the deadline the prompt gives up.
 */
export const terminalQuestionChannel = (options: {
  input: Readable;
  output: Writable;
  user: string;
  now?: () => number;
}): QuestionChannel => {
  const now = options.now ?? (() => Date.now());
  return {
    kind: 'terminal',
    open: (_id, question) => {
      options.output.write(`\n${renderTextCard(question)}\n`);
      return Promise.resolve({ where: 'the terminal' });
    },
    wait: async (_id, question, deadline, signal) => {
      const rl = createInterface({ input: options.input, output: options.output, terminal: false });
      const lines = rl[Symbol.asyncIterator]();
      try {
        for (;;) {
          options.output.write('answer> ');
          const left = deadline - now();
          if (left <= 0 || signal.aborted) return { kind: 'timeout', at: now() };
          let timer: NodeJS.Timeout | undefined;
          const next = await Promise.race([
            lines.next(),
            new Promise<'timeout'>((resolve) => {
              timer = setTimeout(() => resolve('timeout'), left);
              signal.addEventListener('abort', () => resolve('timeout'), { once: true });
            }),
          ]);
          clearTimeout(timer);
          if (next === 'timeout' || next.done) {
            options.output.write('\n');
            return { kind: 'timeout', at: now() } satisfies Answer;
          }
          const parsed = parseReply(String(next.value), question);
          if (parsed.ok)
            return parsed.answer.kind === 'skip'
              ? { kind: 'skip', by: options.user, at: now() }
              : { ...parsed.answer, by: options.user, at: now() };
          options.output.write(`${parsed.correction}\n`);
        }
      } finally {
        rl.close();
      }
    },
    close: (_id, _question, answer) => {
      options.output.write(
        answer.kind === 'timeout' ? 'no answer in time: going on without one\n' : 'thank you\n',
      );
      return Promise.resolve();
    },
  };
};
