import { settingsOf, type Env } from '../config/env.ts';
import { DEFAULT_GUARDS, type Guards } from './run-failure.ts';

/** The guards of the App (environment) or the Action (inputs mapped to the same names). */
export const guardsFromEnv = (env: Env): Guards => {
  const settings = settingsOf(env);
  return {
    maxAttempts: settings.maxAttempts ?? DEFAULT_GUARDS.maxAttempts,
    maxOpenPrs: settings.maxOpenPrs ?? DEFAULT_GUARDS.maxOpenPrs,
    maxPrsPerHour: settings.maxPrsPerHour ?? DEFAULT_GUARDS.maxPrsPerHour,
    allowRepos: (settings.allowRepos ?? '')
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
  };
};
