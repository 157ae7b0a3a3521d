/**
 * What a sandbox keeps ready for its next command: a launcher waiting in its
 * cgroup (`launcher.ts`), or a sandbox made for a command with no network
 * and nothing held (`waiting-sandbox.ts`). A command takes what fits it and
 * starts cold otherwise; after it, what it would have taken is made again.
 */
import type { Logger } from '../../logger.ts';
import type { PinnedFds } from './bubblewrap-fds.ts';
import type { WaitingLauncher } from './launcher.ts';
import type { WaitingSandbox } from './waiting-sandbox.ts';

export interface CommandsAhead {
  /** The waiting launcher, or a new one. */
  takeLauncher(): WaitingLauncher;
  /** The waiting sandbox when it is what this command's own would be (its pins `prepared`); else it goes. */
  takeWaiting(prepared: PinnedFds): WaitingSandbox | undefined;
  /**
   * Makes ready what the next command likely takes: one like the last (a
   * plain command: a waiting sandbox; a setup step or a held run: a
   * launcher). Only one is made at a time: each costs regreen a process start.
   */
  keep(next: 'sandbox' | 'launcher'): void;
  dispose(): void;
}

export const commandsAhead = (options: {
  readonly newLauncher: () => WaitingLauncher;
  /** Throws when no sandbox can be made now (a link where `.git` was): the next command starts cold. */
  readonly makeWaiting: (launcher: WaitingLauncher) => WaitingSandbox;
  /** A command's own sandbox as the waiting one would compare to it. */
  readonly fits: (prepared: PinnedFds) => { argv: string[]; identity: string[] };
  readonly logger: Logger;
}): CommandsAhead => {
  let spare: WaitingLauncher | undefined;
  let waiting: WaitingSandbox | undefined;
  const takeLauncher = (): WaitingLauncher => {
    const ready = spare?.waiting ? spare : undefined;
    if (!ready) spare?.discard();
    spare = undefined;
    return ready ?? options.newLauncher();
  };
  return {
    takeLauncher,
    takeWaiting: (prepared) => {
      const ready = waiting;
      waiting = undefined;
      if (!ready) return undefined;
      const now = options.fits(prepared);
      if (ready.fits(now.argv, now.identity)) return ready;
      ready.discard();
      return undefined;
    },
    keep: (next) => {
      if (next === 'launcher') {
        spare ??= options.newLauncher();
        return;
      }
      if (waiting === undefined) {
        const launcher = takeLauncher();
        try {
          waiting = options.makeWaiting(launcher);
        } catch (error) {
          launcher.discard();
          options.logger.debug(
            { error: (error as Error).message },
            'no sandbox made ahead of the next command',
          );
        }
      }
    },
    dispose: () => {
      spare?.discard();
      spare = undefined;
      waiting?.discard();
      waiting = undefined;
    },
  };
};
