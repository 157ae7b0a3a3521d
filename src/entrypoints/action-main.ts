/**
 * The Action's own entry: what the committed bundle (`action/index.mjs`) runs.
 * Only the Action's code is reachable from here (no commander, no App, no
 * worker), so the bundle stays small and starts fast.
 */
import { openTerminal, reportEscaped } from '../cli/terminal.ts';
import type { Env } from '../config/env.ts';
import { runAction } from './action.ts';

export const actionMain = async (env: Env = process.env): Promise<number> => {
  const { live, logger } = openTerminal(env, { verbosity: 'normal', logFormat: 'text' });
  try {
    return await runAction(env, logger);
  } catch (error) {
    return reportEscaped(error, live);
  } finally {
    live.stop();
  }
};

process.exitCode = await actionMain();
