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

/**
 * Runs a host-side git command that may talk to a remote (clone, fetch,
 * ls-remote, push), hardened as every host git is (see git.ts); the
 * credentials' values are removed from any error text.
 */
export const gitRemote = async (
  args: readonly string[],
  options: { cwd: string; auth?: GitAuthEnv; timeoutMs?: number },
): Promise<string> => {
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
