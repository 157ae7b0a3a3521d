import { RegreenError } from '../../errors.ts';
import { HostGitError, hostGit } from './git.ts';

/** Environment that makes git authenticate to one origin without writing the token anywhere. */
export type GitAuthEnv = Readonly<Record<string, string>>;

/**
 * Git credentials for an HTTPS origin, passed through the environment of the
 * one git process that needs them (`GIT_CONFIG_*`): never in `.git/config`,
 * never in argv, never in the sandbox, which does not run these processes.
 *
 * Git adds an `extraHeader` to every request of the process once the URL it
 * was given matches, wherever a redirect took it (with git's default
 * `followRedirects=initial`, the next POST went to the other origin, header
 * and all: issue 61, 4a). So the same scope refuses every redirect: git talks
 * to the URL's origin or to nothing, and with no redirect followed no
 * `http-alternates` are either. A repository that moved is a clear error
 * (`gitRemote`), never a credential sent on.
 */
export const httpAuthEnv = (url: string, username: string, token: string): GitAuthEnv => {
  const scope = `http.${new URL(url).origin}/`;
  return {
    GIT_CONFIG_COUNT: '2',
    GIT_CONFIG_KEY_0: `${scope}.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`${username}:${token}`).toString('base64')}`,
    GIT_CONFIG_KEY_1: `${scope}.followRedirects`,
    GIT_CONFIG_VALUE_1: 'false',
    GIT_TERMINAL_PROMPT: '0',
    GIT_ASKPASS: '/bin/false',
  };
};

/** Schemes whose user name is an account (ssh logs in with a key), not a credential. */
const SSH_SCHEMES = new Set(['ssh', 'git+ssh', 'ssh+git']);

const isSchemeChar = (c: string): boolean => /[A-Za-z0-9+.-]/.test(c);

/**
 * Whether `arg` holds, anywhere, a URL with userinfo other than an ssh user name
 * (`scheme://user:token@host`, `ftps://TOKEN@host`, `https::https://u:T@host`):
 * what argv must never hold. Every `://` in it is read, whatever the scheme.
 */
export const holdsUserinfo = (arg: string): boolean => {
  for (let at = arg.indexOf('://'); at >= 0; at = arg.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && isSchemeChar(arg[start - 1] ?? '')) start -= 1;
    const scheme = arg.slice(start, at).toLowerCase();
    let end = at + 3;
    while (end < arg.length && !'/\\?#'.includes(arg[end] ?? '')) end += 1;
    const authority = arg.slice(at + 3, end);
    if (!authority.includes('@')) continue;
    const userinfo = authority.slice(0, authority.lastIndexOf('@'));
    if (!SSH_SCHEMES.has(scheme) || userinfo.includes(':') || userinfo === '') return true;
  }
  return false;
};

/** Git's words for a redirect it was told not to follow. */
const refusedRedirect = (text: string): boolean => / returned error: 30[1278]\b/.test(text);

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
    const said = text.replace(/^git (\S+) failed/, `git ${args[0] ?? ''} failed`);
    throw new RegreenError(
      'forge',
      options.auth && refusedRedirect(text)
        ? `${said}\n(the server redirected elsewhere: with a credential, git follows no redirect, which would carry it to another host; give the URL it redirects to)`
        : said,
    );
  }
};
