/**
 * The Action's own entry: what the committed bundle (`action/index.mjs`) runs.
 * Only the Action's code is reachable from here (no commander, no App, no
 * worker), so the bundle stays small and starts fast.
 */
import type { Env } from '../config/env.ts';
import { openActionLog, runActionLogged } from './action.ts';

export const actionMain = async (env: Env = process.env): Promise<number> =>
  runActionLogged(env, openActionLog(env));

process.exitCode = await actionMain();
