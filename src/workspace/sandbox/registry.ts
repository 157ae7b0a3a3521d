import type { Logger } from '../../logger.ts';
import {
  DEFAULT_COMMAND_LIMITS,
  type Sandbox,
  type SandboxKind,
  type SandboxPolicy,
} from './sandbox.ts';
import { createBubblewrapSandbox } from './bubblewrap.ts';
import { createNoneSandbox } from './none.ts';

/** A factory for one job's sandbox; the registry of adapters. */
export type SandboxFactory = (policy: SandboxPolicy) => Promise<Sandbox>;

export const sandboxFactory = (kind: SandboxKind, logger: Logger): SandboxFactory => {
  switch (kind) {
    case 'bubblewrap':
      return (policy) => createBubblewrapSandbox(policy, logger);
    case 'none':
      return (policy) => Promise.resolve(createNoneSandbox(policy, logger));
  }
};

/**
 * A sandbox that runs nothing: for describing tools (`regreen tools list`)
 * whose families need a sandbox but are never called there.
 */
export const describingSandbox = (): Sandbox => {
  const refuse = (): Promise<never> =>
    Promise.reject(new Error('this sandbox only describes tools; it runs nothing'));
  return {
    kind: 'none',
    policy: {
      workspace: '/',
      privateDir: '/',
      readable: [],
      registryHosts: [],
      limits: DEFAULT_COMMAND_LIMITS,
      baseEnv: {},
    },
    run: refuse,
    spawn: refuse,
    dispose: () => Promise.resolve(),
  };
};
