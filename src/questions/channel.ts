import type { Answer, Question } from './card.ts';

/** Time for waiting: injectable so that tests drive timeouts with a fake clock. */
export interface WaitClock {
  now(): number;
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

export const systemWaitClock: WaitClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      }
      signal.addEventListener('abort', done, { once: true });
    }),
};

/** The port: where a question's card appears and where its answer comes from. */
export interface QuestionChannel {
  readonly kind: 'github' | 'terminal';
  /** Shows the card (once: opening an id already shown finds its card again). Returns where it is. */
  open(
    id: string,
    question: Question,
    timeoutMinutes: number,
  ): Promise<{ where: string; pullNumber?: number }>;
  /** The answer, a skip, or — at `deadline` — a timeout. */
  wait(id: string, question: Question, deadline: number, signal: AbortSignal): Promise<Answer>;
  /** Says on the card how it ended. */
  close(id: string, question: Question, answer: Answer): Promise<void>;
}
