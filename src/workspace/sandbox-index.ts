import type { Logger } from '../logger.ts';
import type { Sandbox, SandboxKind, SandboxPolicy } from './sandbox.ts';
import { createAsrtSandbox } from './sandbox-asrt.ts';
import { createNoneSandbox } from './sandbox-none.ts';

/** A factory for one job's sandbox; the registry of adapters. */
export type SandboxFactory = (policy: SandboxPolicy) => Promise<Sandbox>;

export const SANDBOX_KINDS: readonly SandboxKind[] = ['asrt', 'none'];

export const sandboxFactory = (kind: SandboxKind, logger: Logger): SandboxFactory => {
  switch (kind) {
    case 'asrt':
      return (policy) => createAsrtSandbox(policy, logger);
    case 'none':
      return (policy) => Promise.resolve(createNoneSandbox(policy, logger));
  }
};
