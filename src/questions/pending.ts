import type { Question } from './card.ts';

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
