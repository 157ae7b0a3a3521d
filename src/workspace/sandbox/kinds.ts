import { RegreenError } from '../../errors.ts';
import type { SandboxKind } from './sandbox.ts';

/** The sandboxes regreen has, by name: a module of its own, so naming one loads neither. */
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
  /** Where the name came from, as the person wrote it: the flag, or a variable. */
  from: '--sandbox' | 'REGREEN_SANDBOX' = '--sandbox',
): SandboxKind => {
  const given = (name ?? '').trim() || 'bubblewrap';
  if ((SANDBOX_KINDS as readonly string[]).includes(given)) return given as SandboxKind;
  const renamed = OLD_NAMES[given];
  const written = from === '--sandbox' ? `--sandbox ${given}` : `${from}=${given}`;
  if (renamed) {
    notice(`${written} is the old name of the ${renamed} sandbox: say ${renamed}`);
    return renamed;
  }
  throw new RegreenError(
    'usage',
    `${from === '--sandbox' ? 'the sandbox' : from} must be ${SANDBOX_KINDS.join(' or ')}, not ${JSON.stringify(given)}`,
  );
};

/**
 * Where a job's commands ran, in the words of an outcome: a run with no
 * sandbox is never said to have been in one.
 */
export const whereRan = (kind: SandboxKind): string =>
  kind === 'none' ? 'on the host, with no sandbox' : "in regreen's sandbox";
