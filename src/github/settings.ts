import { RegreenError } from '../errors.ts';
import { DEFAULT_GUARDS, type Guards } from './run-failure.ts';

type Env = Readonly<Record<string, string | undefined>>;

const count = (env: Env, name: string, fallback: number): number => {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new RegreenError('usage', `${name} must be a whole number, not "${raw}"`);
  return value;
};

/** The guards of the App (environment) or the Action (inputs mapped to the same names). */
export const guardsFromEnv = (env: Env): Guards => ({
  maxAttempts: count(env, 'REGREEN_MAX_ATTEMPTS', DEFAULT_GUARDS.maxAttempts),
  maxOpenPrs: count(env, 'REGREEN_MAX_OPEN_PRS', DEFAULT_GUARDS.maxOpenPrs),
  maxPrsPerHour: count(env, 'REGREEN_MAX_PRS_PER_HOUR', DEFAULT_GUARDS.maxPrsPerHour),
  allowRepos: (env.REGREEN_ALLOW_REPOS ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean),
});
