import type { Spend } from './ledger.ts';
import type { Message, UserBlock } from '../model/types.ts';
import type { AskedQuestion } from '../questions/card.ts';
import type { PendingQuestion } from '../questions/pending.ts';

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
