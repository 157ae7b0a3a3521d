import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { RegreenError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';

const SYSCTL = 'kernel.apparmor_restrict_unprivileged_userns';
const PROC = '/proc/sys/kernel/apparmor_restrict_unprivileged_userns';

/**
 * Ubuntu 24.04 runners forbid unprivileged user namespaces through AppArmor,
 * and bubblewrap needs them. On a runner (passwordless sudo) the restriction
 * is lifted; elsewhere regreen stops and says how.
 */
export const ensureUserNamespaces = (options: {
  logger: Logger;
  read?: () => string | undefined;
  sudo?: (args: readonly string[]) => void;
  isRoot?: boolean;
}): void => {
  const read =
    options.read ??
    (() => {
      try {
        return readFileSync(PROC, 'utf8').trim();
      } catch {
        return undefined;
      }
    });
  if (read() !== '1') return;
  const sudo =
    options.sudo ??
    ((args: readonly string[]) => {
      const root = options.isRoot ?? process.getuid?.() === 0;
      execFileSync(root ? (args[0] ?? '') : 'sudo', root ? args.slice(1) : ['-n', ...args], {
        stdio: 'ignore',
      });
    });
  try {
    sudo(['sysctl', '-w', `${SYSCTL}=0`]);
    options.logger.warn(`lifted ${SYSCTL} so that bubblewrap can create its sandbox`);
  } catch {
    throw new RegreenError(
      'sandbox-unavailable',
      `${SYSCTL}=1 forbids the user namespaces bubblewrap needs, and it could not be lifted: run \`sudo sysctl -w ${SYSCTL}=0\` before regreen (the runner has passwordless sudo), or set sandbox: none for trusted code only`,
    );
  }
};
