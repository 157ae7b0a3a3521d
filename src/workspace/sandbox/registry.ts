import type { Logger } from '../../logger.ts';
import {
  DEFAULT_COMMAND_LIMITS,
  type Sandbox,
  type SandboxKind,
  type SandboxPolicy,
} from './sandbox.ts';
import { createBubblewrapSandbox } from './bubblewrap.ts';
import { warmBubblewrapHost } from './bubblewrap-host.ts';
import { createNoneSandbox } from './none.ts';

/**
 * A factory for one job's sandbox; the registry of adapters. `warm` begins
 * what its sandboxes need of the host, while the job does something else.
 */
export type SandboxFactory = ((policy: SandboxPolicy) => Promise<Sandbox>) & {
  readonly warm?: () => void;
};

export const sandboxFactory = (kind: SandboxKind, logger: Logger): SandboxFactory => {
  switch (kind) {
    case 'bubblewrap':
      return Object.assign((policy: SandboxPolicy) => createBubblewrapSandbox(policy, logger), {
        warm: warmBubblewrapHost,
      });
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
