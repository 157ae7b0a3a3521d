import type { Spend } from './ledger.ts';
import type { Message, UserBlock } from '../model/types.ts';
import type { Question } from '../questions/card.ts';
import type { AskedQuestion } from '../../tools/ask/index.ts';

/** A question whose card is up, waited for outside the job (the App frees its worker). */
export interface PendingQuestion {
  readonly id: string;
  readonly question: Question;
  readonly where: string;
  /** The pull request the card is on (the failing one, or regreen's draft). */
  readonly pullNumber?: number;
  readonly askedAt: number;
  readonly deadline: number;
}

/**
 * Thrown by ask_user when the job should stop and wait: the loop ends with
 * status `suspended`, and the job is saved to be resumed with the answer.
 */
export class SuspendJob extends Error {
  override readonly name = 'SuspendJob';
  constructor(readonly pending: PendingQuestion) {
    super(`waiting for an answer to question ${pending.id}`);
  }
}

/** Everything a suspended job needs to go on, possibly in another process. Plain JSON. */
export interface SuspendedAgent {
  readonly pending: PendingQuestion;
  /** The conversation up to and including the turn that asked. */
  readonly messages: readonly Message[];
  /** Results of that turn's calls before ask_user. */
  readonly results: readonly UserBlock[];
  /** The ask_user call waiting for its result, and the calls after it (not run). */
  readonly callId: string;
  readonly remaining: readonly string[];
  readonly spend: Spend;
  readonly asked: readonly AskedQuestion[];
  readonly plan: string;
}

/** A suspended agent with what came back: the job resumes from here. */
export interface ResumeAgent extends SuspendedAgent {
  readonly answer: AskedQuestion['answer'];
  /** The workspace's change at suspension, applied to the fresh clone. */
  readonly diff: string;
}
