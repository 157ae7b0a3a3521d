import { settingsOf, type Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';

/**
 * How long a stopping server or worker lets its running jobs finish: under
 * the 30 s a container orchestrator (Kubernetes, ECS) gives between SIGTERM
 * and SIGKILL, so that what is left is handed back, not killed.
 */
export const DEFAULT_DRAIN_SECONDS = 25;

export const drainSecondsOf = (env: Env): number =>
  settingsOf(env).drainSeconds ?? DEFAULT_DRAIN_SECONDS;

export const parseSeconds = (text: string, what: string): number => {
  if (!/^\d+$/.test(text.trim()))
    throw new RegreenError('usage', `${what} must be a whole number of seconds, not "${text}"`);
  return Number(text);
};

/**
 * Ends the process now, with 0 (a drain that handed jobs back is a clean stop): jobs handed back
 * may still be running here (a sandbox, a model call), and nothing of theirs
 * is recorded any more.
 */
export const endNow = (why: string): never => {
  process.stderr.write(`[regreen] ${why}; exiting\n`);
  process.exit(0);
};
