import { RegreenError } from '../errors.ts';

const APPLY_SECCOMP = /(?<=^|\s)[^\s'"]*\/apply-seccomp(?=\s)/g;
const BWRAP_AT_START = /^(\S*bwrap)(?=\s)/;

const unexpected = (what: string): RegreenError =>
  new RegreenError(
    'sandbox-unavailable',
    `cannot prepare the sandbox for a debugger: ${what} in sandbox-runtime's command (has the library changed?)`,
  );

/**
 * Turns sandbox-runtime's wrapped command into one for a process that traces
 * its children with ptrace: bubblewrap itself applies regreen's seccomp
 * filter (`--seccomp FD`, see seccomp-filter.ts) with no reaper (`--as-pid-1`),
 * and the library's seccomp helper, whose nested PID namespace hides the
 * debuggee's `/proc` entry from the debugger, is left out. Every other part
 * of the policy (mounts, denied paths, environment, network namespace) is the
 * library's own. Strict about the shape it expects: anything else is an error,
 * never a weaker sandbox.
 */
export const tracerArgv = (argv: readonly string[], filterFd: number): string[] => {
  const flags = ['--seccomp', String(filterFd), '--as-pid-1'];
  const helpers = argv.reduce((count, part) => count + (part.match(APPLY_SECCOMP)?.length ?? 0), 0);
  if (helpers > 1) throw unexpected(`${helpers} seccomp helpers`);
  const stripped = argv.map((part) => part.replace(APPLY_SECCOMP, ''));
  if (stripped.some((part) => part.includes('apply-seccomp')))
    throw unexpected('a quoted seccomp helper');
  const [first, ...rest] = stripped;
  if (first === undefined) throw unexpected('an empty command');
  if (/(^|\/)bwrap$/.test(first)) return [first, ...flags, ...rest];
  const at = stripped.findIndex((part) => BWRAP_AT_START.test(part));
  if (at < 0) throw unexpected('no bubblewrap invocation');
  return stripped.map((part, index) =>
    index === at ? part.replace(BWRAP_AT_START, `$1 ${flags.join(' ')}`) : part,
  );
};
