import type { Forge } from '../forge/types.ts';
import type { Logger } from '../logger.ts';
import type { Model } from '../model/types.ts';
import type { Clock } from '../util/clock.ts';
import type { SandboxFactory } from '../workspace/sandbox-index.ts';

/** A one-line progress report per stage (the CLI prints it on stderr). */
export type Progress = (event: { stage: string; outcome: string; durationMs: number }) => void;

/** Everything `runJob` needs from the outside world, passed in by a front door. */
export interface JobDeps {
  readonly forge: Forge;
  /** Created once the workspace exists; undefined means recipes only. */
  readonly model: ((workspace: () => string) => Model | undefined) | undefined;
  readonly sandbox: SandboxFactory;
  readonly logger: Logger;
  readonly clock: Clock;
  /** regreen's data dir: jobs, proposals. */
  readonly dataDir: string;
  /** The user's home (for the credential deny-list). */
  readonly home: string;
  /** The environment sandboxed commands start from (scrubbed again inside). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Hosts the setup step may reach. */
  readonly registryHosts: readonly string[];
  readonly progress?: Progress;
  readonly signal?: AbortSignal;
}
