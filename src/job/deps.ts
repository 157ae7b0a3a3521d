import type { Env } from '../config/env.ts';
import type { ResumeAgent } from '../agent/suspend.ts';
import type { QuestionChannel, WaitClock } from '../questions/channel.ts';
import type { Forge } from '../forge/types.ts';
import type { Logger } from '../logger.ts';
import type { Budget } from '../config/operator-bounds.ts';
import type { Price } from '../model/prices.ts';
import type { Model } from '../model/types.ts';

/** What the job knows when it asks for its model. */
export interface ModelChoice {
  readonly workspace: () => string;
  /** The repository config's `model`, when it names one. */
  readonly configModel: string | undefined;
  /** The config's price table entries (USD per million tokens). */
  readonly prices: Readonly<Record<string, Price>>;
  /** The worker tier asking, when a worker asks. */
  readonly tier?: 'fast' | 'good';
  /** A model named for a purpose (a worker tier); `{label}` in it is replaced by the worker's label. */
  readonly spec?: string;
  readonly label?: string;
}
import type { Clock } from '../util/clock.ts';
import type { SandboxFactory } from '../workspace/sandbox/registry.ts';
import type { SetupCache } from '../workspace/setup/cache.ts';

/** What a job reports while it runs, for a front door to show (the CLI's live line, the App's check run). */
export type ProgressEvent =
  /** A stage began. */
  | { readonly kind: 'start'; readonly stage: string }
  /** A stage ended: its outcome in a few words. */
  | {
      readonly kind: 'stage';
      readonly stage: string;
      readonly outcome: string;
      readonly durationMs: number;
    }
  /** The last line a running command printed (setup, the failing command, a test run). */
  | {
      readonly kind: 'output';
      readonly line: string;
      /** From a set-up running beside the stage (a fresh tree made ahead), not the stage's own command. */
      readonly background?: boolean;
    }
  /** Something fetched the first time it is needed (a language server): said while it downloads. */
  | { readonly kind: 'fetching'; readonly what: string }
  /**
   * The agent is at work on turn N: asking the model (no tool), or calling a tool with a
   * short input; what it has spent of its budget. Sent as each begins, for a live line.
   */
  | {
      readonly kind: 'calling';
      readonly turn: number;
      readonly tool?: string;
      readonly input?: string;
      readonly spentUsd: number;
      readonly budgetUsd: number;
    }
  /** The agent's turn N: the tool it called (and a short input), what it has spent of its budget. */
  | {
      readonly kind: 'turn';
      readonly turn: number;
      readonly tool?: string;
      readonly input?: string;
      readonly spentUsd: number;
      readonly budgetUsd: number;
    };

export type Progress = (event: ProgressEvent) => void;

/** Everything `runJob` needs from the outside world, passed in by a front door. */
export interface JobDeps {
  readonly forge: Forge;
  /** Created once the workspace and its config exist; undefined means recipes only. */
  readonly model: (choice: ModelChoice) => Model | undefined;
  /** Limits given on the command line (or as Action inputs): the ceilings the repository's config chooses within. */
  readonly budget?: Partial<Budget>;
  /** Where `ask_user` reaches a person; without one the tool is not registered. */
  readonly questions?: {
    readonly channel: QuestionChannel;
    readonly clock?: WaitClock;
    /** Stop the job while a question waits, to be resumed with the answer (the App). */
    readonly suspend?: boolean;
  };
  /** A suspended job's state and the answer it waited for: the job goes on from there. */
  readonly resume?: ResumeAgent;
  /** What is left of the repository's monthly spend cap: the job's dollars never exceed it. */
  readonly costCeilingUsd?: number;
  /** Globs the fix must not touch, added to the repository config's (an Action input). */
  readonly protectedPaths?: readonly string[];
  /** Tools withheld from the agent, added to the config's (eval ablations). */
  readonly disabledTools?: readonly string[];
  /** A time limit per command in seconds, overriding the config's (an eval task's timeout_s). */
  readonly commandTimeoutSeconds?: number;
  /** Restores dependencies installed before for the same lockfiles (the eval harness). */
  readonly setupCache?: SetupCache;
  /** False: the deterministic recipes do not run (eval's oracle and empty policies). */
  readonly recipes?: boolean;
  readonly sandbox: SandboxFactory;
  readonly logger: Logger;
  readonly clock: Clock;
  /** regreen's data dir: jobs, proposals. */
  readonly dataDir: string;
  /** The user's home (for the credential deny-list). */
  readonly home: string;
  /** The environment sandboxed commands start from (scrubbed again inside). */
  readonly env: Env;
  /** Hosts the setup step may reach: asked of the clients when a setup step first needs them (`lazily`). */
  readonly registryHosts: Promise<readonly string[]>;
  readonly progress?: Progress;
  readonly signal?: AbortSignal;
}
