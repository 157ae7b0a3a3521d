import type { Spend } from '../agent/ledger.ts';
import type { Env } from '../config/env.ts';
import type { Outcome } from '../job/outcome.ts';
import type { Logger } from '../logger.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import type { EvalTask } from './tasks.ts';

export type Policy = 'agent' | 'oracle' | 'empty';

export interface CommandCheck {
  readonly command: string;
  readonly ok: boolean;
  readonly exitCode: number | null;
  readonly tail: string;
}

export interface TaskResult {
  readonly id: string;
  readonly kind: EvalTask['kind'];
  /** Every fail_to_pass passes and no pass_to_pass breaks. */
  readonly resolved: boolean;
  /** The harness could not run the task (clone, patch, sandbox): not a judgement of the fix. */
  readonly error?: string;
  readonly outcome?: Outcome['status'];
  readonly reason?: string;
  /**
   * Proposed as a draft a person must confirm (it corrects a test's expectation, or has
   * code that acts by who runs it): resolved this way counts apart, "resolved, edits tests".
   */
  readonly draft?: boolean;
  /** A pull request would have been proposed, but the person's tests fail. */
  readonly falseFix: boolean;
  /** Checks that failed (e.g. a weakened test caught). */
  readonly checksFired: readonly string[];
  readonly diffLines: number;
  readonly goldLines: number;
  /** Files the change touched that the gold patch did not. */
  readonly outsideGold: readonly string[];
  readonly failToPass: readonly CommandCheck[];
  readonly passToPass: readonly CommandCheck[];
  readonly spend?: Spend;
  /** From the trace: how the agent worked. */
  readonly testRuns: number;
  readonly failedEdits: number;
  readonly wallMs: number;
  readonly tracePath?: string;
  /** The change the job made, as a patch file. */
  readonly changePath?: string;
}

/** What judging needs: where the sandbox lives and what it starts from. */
export type JudgeOptions = Pick<EvalRunOptions, 'sandbox' | 'env' | 'logger' | 'signal'>;

export interface EvalRunOptions {
  readonly tasks: readonly EvalTask[];
  readonly policy: Policy;
  readonly model?: string;
  readonly concurrency: number;
  readonly disableTools: readonly string[];
  readonly outDir: string;
  readonly sandbox: SandboxKind;
  readonly env: Env;
  readonly logger: Logger;
  /** One line per finished task (the CLI prints it on stderr). */
  readonly progress?: (line: string) => void;
  readonly signal?: AbortSignal;
  /** Skip the tasks a previous report.json in the out dir already finished. */
  readonly resume?: boolean;
  /**
   * Throughput (default on): dependencies installed once per (repo, lockfiles)
   * and restored copy-on-write, and task repositories cloned from one mirror
   * per repository instead of from the source each time.
   */
  readonly reuse?: boolean;
  /**
   * Runs one task somewhere else (a worker taking it from the queue); by
   * default tasks run here, bounded by this machine's memory.
   */
  readonly runner?: (task: EvalTask) => Promise<TaskResult>;
  /**
   * What each task hands the pipeline: its test command (default), or its CI job replayed with
   * no command (`job`) where the task names its `ci_job`.
   */
  readonly replay?: 'command' | 'job';
}

export interface EvalReport {
  readonly policy: Policy;
  readonly model?: string;
  readonly tasks: readonly TaskResult[];
  readonly summary: {
    readonly total: number;
    readonly resolved: number;
    /** Of the resolved, those proposed only as a draft a person must confirm ("resolved, edits tests"). */
    readonly resolvedDrafts?: number;
    readonly rate: number;
    readonly falseFixes: number;
    readonly errors: number;
    readonly costUsd: number;
    readonly wallMs: number;
  };
}
