import type { ResumeAgent } from '../../agent/suspend.ts';
import type { UserBlock } from '../../model/types.ts';
import { answerText, type AskedQuestion } from '../../questions/card.ts';

/** The question as the resumed job records it. */
export const resumedEntry = (resume: ResumeAgent): AskedQuestion => ({
  id: resume.pending.id,
  kind: resume.pending.question.kind,
  question: resume.pending.question.question,
  where: resume.pending.where,
  askedAt: resume.pending.askedAt,
  answer: resume.answer,
});

/** The user message that continues a suspended conversation: the answer, and the calls that did not run. */
export const continuation = (resume: ResumeAgent): UserBlock[] => [
  ...resume.results,
  {
    type: 'tool_result',
    tool_use_id: resume.callId,
    content: [{ type: 'text', text: answerText(resume.answer) }],
    is_error: resume.answer.kind === 'timeout',
  },
  ...resume.remaining.map((id): UserBlock => ({
    type: 'tool_result',
    tool_use_id: id,
    content: [
      {
        type: 'text',
        text: 'Not run: the job stopped to wait for the answer before this call. Call it again if you still need it.',
      },
    ],
    is_error: true,
  })),
];
