import { z } from 'zod';
import { SuspendJob } from '../../src/questions/pending.ts';
import type { Trace } from '../../src/observe/trace.ts';
import { describeError } from '../../src/errors.ts';
import {
  answerText,
  questionId,
  type AskedQuestion,
  type Question,
} from '../../src/questions/card.ts';

export type { AskedQuestion };
import type { QuestionChannel, WaitClock } from '../../src/questions/channel.ts';
import { defineTool, fail, ok, type Tool, type ToolResult } from '../types.ts';

export interface AskDeps {
  readonly channel: QuestionChannel;
  /** Names the job in question ids (a card found again after a restart is the same question). */
  readonly jobKey: string;
  /** The repository's default wait (`ask_user.timeout_minutes`). */
  readonly timeoutMinutes: number;
  readonly clock: WaitClock;
  /** The ledger's wall clock stops while a person is being waited for. */
  readonly pause: () => void;
  readonly resume: () => void;
  readonly trace: Trace;
  /**
   * Stop the job while a question waits (the App: the worker is freed and the
   * job resumes when the answer or the deadline comes) instead of polling here.
   */
  readonly suspend?: boolean;
  /** Questions a resumed job already asked (and their answers). */
  readonly asked?: readonly AskedQuestion[];
}

const OptionSchema = z
  .object({
    label: z.string().min(1).max(200),
    description: z.string().max(500).optional(),
  })
  .strict();

const AskSchema = z
  .object({
    question: z.string().min(1).max(2000).describe('What to ask, in one or two sentences'),
    context: z.string().max(4000).optional().describe('Why you ask and what depends on the answer'),
    options: z.array(OptionSchema).max(10).default([]).describe('Choices, numbered on the card'),
    allow_free_text: z.boolean().default(true).describe('Whether a written answer is accepted'),
    multi_select: z.boolean().default(false).describe('Whether several options may be chosen'),
    timeout_minutes: z
      .number()
      .positive()
      .max(24 * 60)
      .optional()
      .describe("How long to wait (default: the repository's setting)"),
  })
  .strict()
  .refine((q) => q.options.length > 0 || q.allow_free_text, {
    message: 'a question with no options must allow free text',
    path: ['allow_free_text'],
  });

const normalise = (text: string): string => text.toLowerCase().replace(/\W+/g, ' ').trim();

/**
 * ask_user, and the permission gate that renders the same card. Waiting is
 * the channel's (a PR comment polled with backoff, a terminal prompt); while
 * it waits no model call is made and the ledger's clock is stopped.
 */
export const askFamily = (deps: AskDeps) => {
  const asked: AskedQuestion[] = [...(deps.asked ?? [])];
  /** Tools a maintainer allowed for the rest of the job. */
  const allowedForJob = new Set<string>();

  const ask = async (
    question: Question,
    timeoutMinutes: number,
    signal: AbortSignal,
  ): Promise<AskedQuestion> => {
    const id = questionId(`${deps.jobKey} ${asked.length}`, question);
    const askedAt = deps.clock.now();
    deps.pause();
    try {
      const { where, pullNumber } = await deps.channel.open(id, question, timeoutMinutes);
      deps.trace.emit({
        type: 'note',
        message: 'question',
        data: { id, kind: question.kind, question: question.question, where, timeoutMinutes },
      });
      if (deps.suspend && question.kind === 'question')
        throw new SuspendJob({
          id,
          question,
          where,
          ...(pullNumber ? { pullNumber } : {}),
          askedAt,
          deadline: askedAt + timeoutMinutes * 60_000,
        });
      const answer = await deps.channel.wait(
        id,
        question,
        askedAt + timeoutMinutes * 60_000,
        signal,
      );
      await deps.channel
        .close(id, question, answer)
        .catch((error: unknown) =>
          deps.trace.emit({ type: 'note', message: 'card not closed', data: describeError(error) }),
        );
      const entry = {
        id,
        kind: question.kind,
        question: question.question,
        where,
        askedAt,
        answer,
      };
      asked.push(entry);
      deps.trace.emit({ type: 'note', message: 'answer', data: entry });
      return entry;
    } finally {
      deps.resume();
    }
  };

  const askUser = defineTool({
    name: 'ask_user',
    level: 'read',
    description:
      'Ask a person (a maintainer of the repository) a question and wait for the answer. Use it only when the fix depends on something you cannot find out from the code, the tests or the logs — an intended behaviour, a choice between designs. Give numbered options when you can. The answer may be a choice, text, `skip` or no answer in time: on a skip or a timeout go on under a stated assumption. Ask each question once; never write a question as a plain message (that ends your turn).',
    schema: AskSchema,
    run: async (input, _ctx, signal): Promise<ToolResult> => {
      const same = asked.find(
        (a) => a.kind === 'question' && normalise(a.question) === normalise(input.question),
      );
      if (same)
        return fail(`already asked; go on with the answer you have: ${answerText(same.answer)}`);
      const question: Question = {
        question: input.question,
        ...(input.context ? { context: input.context } : {}),
        options: input.options,
        allowFreeText: input.allow_free_text,
        multiSelect: input.multi_select,
        kind: 'question',
      };
      try {
        const entry = await ask(question, input.timeout_minutes ?? deps.timeoutMinutes, signal);
        const text = answerText(entry.answer);
        return entry.answer.kind === 'timeout' ? fail(text) : ok(text);
      } catch (error) {
        if (error instanceof SuspendJob) throw error;
        return fail(
          `the question could not be asked (${describeError(error)}). Go on under a stated assumption.`,
        );
      }
    },
  });

  /** Before an exec-level tool: a maintainer says yes (once, or for the job) or no. */
  const permission = async (
    tool: string,
    input: unknown,
    signal: AbortSignal,
  ): Promise<ToolResult | undefined> => {
    if (allowedForJob.has(tool)) return undefined;
    const shown = JSON.stringify(input, null, 2);
    const question: Question = {
      question: `May regreen run the \`${tool}\` tool?`,
      context: `With this input:\n${shown.length > 1500 ? `${shown.slice(0, 1500)}…` : shown}`,
      options: [
        { label: 'Yes, this time' },
        { label: `Yes, every ${tool} call of this job` },
        { label: 'No' },
      ],
      allowFreeText: false,
      multiSelect: false,
      kind: 'permission',
    };
    let entry: AskedQuestion;
    try {
      entry = await ask(question, deps.timeoutMinutes, signal);
    } catch (error) {
      return fail(
        `${tool} needs a maintainer's permission, which could not be asked (${describeError(error)}). Go on without it.`,
      );
    }
    const { answer } = entry;
    if (answer.kind === 'answer' && answer.labels[0]?.startsWith('Yes')) {
      if (answer.labels[0].startsWith('Yes, every')) allowedForJob.add(tool);
      return undefined;
    }
    const why =
      answer.kind === 'answer'
        ? `@${answer.by} said no`
        : answer.kind === 'skip'
          ? `@${answer.by} skipped the request`
          : 'no maintainer answered in time';
    return fail(
      `Not allowed to run ${tool}: ${why}. Go on without it and do not ask again for this call.`,
    );
  };

  return { tools: [askUser] as Tool[], asked, permission };
};
