import { RegreenError } from '../../errors.ts';
import { HostGitError, hostGit } from './git.ts';

/** Environment that makes git authenticate to one origin without writing the token anywhere. */
export type GitAuthEnv = Readonly<Record<string, string>>;

/**
 * Git credentials for an HTTPS origin, passed through the environment of the
 * one git process that needs them (`GIT_CONFIG_*`): never in `.git/config`,
 * never in argv, never in the sandbox, which does not run these processes.
 */
export const httpAuthEnv = (url: string, username: string, token: string): GitAuthEnv => {
  const origin = new URL(url).origin;
  return {
    GIT_CONFIG_COUNT: '1',
    GIT_CONFIG_KEY_0: `http.${origin}/.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`,
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
  };
};

/** An HTTP(S) URL with userinfo (`https://user:token@host/…`): what argv must never hold. */
const holdsUserinfo = (arg: string): boolean => {
  if (!/^https?:\/\//i.test(arg)) return false;
  const authority = arg.slice(arg.indexOf('//') + 2).split(/[/?#]/, 1)[0] ?? '';
  return authority.includes('@');
};

/**
 * Runs a host-side git command that may talk to a remote (clone, fetch,
 * ls-remote, push), hardened as every host git is (see git.ts); the
 * credentials' values are removed from any error text. A URL with a
 * credential in it is refused before git starts, unrepeated: argv is what
 * `/proc` shows everyone, and a clone writes its URL to `.git/config`
 * (credentials come in `auth`, see `splitRepoUrl`).
 */
export const gitRemote = async (
  args: readonly string[],
  options: { cwd: string; auth?: GitAuthEnv; timeoutMs?: number },
): Promise<string> => {
  if (args.some(holdsUserinfo))
    throw new RegreenError(
      'usage',
      `git ${args[0] ?? ''}: a URL with a credential in it is not given to git (it would be in argv and the clone's .git/config); give the URL without it and the credential apart`,
    );
  try {
    return await hostGit(args, {
      cwd: options.cwd,
      ...(options.auth ? { env: options.auth } : {}),
      ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    });
  } catch (error) {
    let text = error instanceof HostGitError ? error.message : String(error);
    for (const value of Object.values(options.auth ?? {})) {
      if (value.length > 8) text = text.replaceAll(value, '***');
    }
    throw new RegreenError(
      'forge',
      text.replace(/^git (\S+) failed/, `git ${args[0] ?? ''} failed`),
    );
  }
};
