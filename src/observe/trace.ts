import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Clock } from '../util/clock.ts';
import { redactSecrets } from '../util/secrets.ts';

/** A stage's verdict: it went as it should, failed, needs a look, waits for a person, or did not run. */
export type StageStatus = 'pass' | 'fail' | 'warn' | 'info' | 'skip';

export type TraceEvent = (
  | { type: 'stage'; stage: string; phase: 'start' }
  | {
      type: 'stage';
      stage: string;
      phase: 'end';
      outcome: string;
      /** Whether the stage went as it should, as the stage itself judged (the pages show it). */
      status?: StageStatus;
      /** A word for that verdict when the outcome's line alone would mislead ("reproduced"). */
      verdict?: string;
      durationMs: number;
      detail?: unknown;
    }
  | {
      type: 'model';
      turn: number;
      stopReason: string;
      usage: unknown;
      costUsd: number;
      durationMs: number;
      request: unknown;
      text?: string;
    }
  | {
      type: 'tool';
      id: string;
      name: string;
      input: unknown;
      isError: boolean;
      durationMs: number;
      output: string;
    }
  | { type: 'note'; message: string; data?: unknown }
  /**
   * A command run in a sandbox: the whole call (`wallMs`) and the command's own
   * run within it (`ranMs`); the difference is the sandbox's cost.
   */
  | {
      type: 'run';
      command: string;
      exitCode: number | null;
      wallMs: number;
      ranMs: number;
    }
  /** Where the job's workspace is (its paths are shown relative to it). */
  | { type: 'workspace'; path: string }
  /** The change the checks judged, as `git diff` printed it (recipes' and the agent's alike). */
  | { type: 'change'; diff: string; truncated?: boolean }
) & {
  /** Set on the events of a background worker, nesting its transcript under the job. */
  worker?: string;
};

/** Where trace events go. */
export interface Trace {
  readonly path: string | undefined;
  emit(event: TraceEvent): void;
}

/** A JSONL file in the job's folder, one event per line with a timestamp. */
export const fileTrace = (file: string, clock: Clock): Trace => {
  mkdirSync(path.dirname(file), { recursive: true });
  return {
    path: file,
    // Every event is redacted as a whole: tool inputs, outputs and model text alike.
    emit: (event) =>
      appendFileSync(
        file,
        `${redactSecrets(JSON.stringify({ ts: new Date(clock.now()).toISOString(), ...event }))}
`,
      ),
  };
};

export const memoryTrace = (): Trace & { events: TraceEvent[] } => {
  const events: TraceEvent[] = [];
  return { path: undefined, events, emit: (event) => events.push(event) };
};

/** The job's trace seen from one worker: every event carries the worker's id. */
export const workerTrace = (trace: Trace, worker: string): Trace => ({
  path: trace.path,
  emit: (event) => trace.emit({ ...event, worker }),
});
