import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { userRegistryHosts } from '../workspace/registries.ts';

export type Env = Readonly<Record<string, string | undefined>>;

export const homeOf = (env: Env): string => env.HOME ?? os.homedir();

/** regreen's data dir: `--data-dir`, else `$REGREEN_DATA_DIR`, else under the user's cache dir. */
export const defaultDataDir = (env: Env): string =>
  env.REGREEN_DATA_DIR ??
  path.join(env.XDG_CACHE_HOME ?? path.join(homeOf(env), '.cache'), 'regreen');

const readText = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** What npm itself reports as its registry, asked outside any repository. */
const npmEffectiveRegistry = (home: string, env: Env): string[] => {
  try {
    const out = execFileSync('npm', ['config', 'get', 'registry'], {
      cwd: home,
      env: env,
      timeout: 15_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return [out.toString('utf8').trim()].filter(Boolean);
  } catch {
    return [];
  }
};

/** The registry hosts of the user's own configuration, for the setup step. */
export const registryHostsFor = (env: Env): string[] => {
  const home = homeOf(env);
  return userRegistryHosts({ home, env, readText, effectiveUrls: npmEffectiveRegistry(home, env) });
};
