import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import {
  DEFAULT_COMMAND_LIMITS,
  type Sandbox,
  type SandboxKind,
  type SandboxPolicy,
} from './sandbox.ts';
import { createBubblewrapSandbox } from './sandbox-bubblewrap.ts';
import { createNoneSandbox } from './sandbox-none.ts';

/** A factory for one job's sandbox; the registry of adapters. */
export type SandboxFactory = (policy: SandboxPolicy) => Promise<Sandbox>;

export const SANDBOX_KINDS: readonly SandboxKind[] = ['bubblewrap', 'none'];

/** The old name of the bubblewrap sandbox (it named a library regreen no longer uses). */
const OLD_NAMES: Record<string, SandboxKind> = { asrt: 'bubblewrap' };

/**
 * A sandbox named by a person (a flag, `REGREEN_SANDBOX`, the Action's input):
 * the kind, with a notice for an old name; a usage error for anything else.
 */
export const sandboxKindOf = (
  name: string | undefined,
  notice: (message: string) => void,
): SandboxKind => {
  const given = (name ?? '').trim() || 'bubblewrap';
  if ((SANDBOX_KINDS as readonly string[]).includes(given)) return given as SandboxKind;
  const renamed = OLD_NAMES[given];
  if (renamed) {
    notice(`--sandbox ${given} is the old name of the ${renamed} sandbox: say ${renamed}`);
    return renamed;
  }
  throw new RegreenError(
    'usage',
    `the sandbox must be ${SANDBOX_KINDS.join(' or ')}, not ${JSON.stringify(given)}`,
  );
};

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
