import { RegreenError } from '../../errors.ts';
import { httpAuthEnv, type GitAuthEnv } from './git-remote.ts';

const HIDDEN = '[credential]';

/**
 * A credential a repository URL carried (`https://user:token@host/r.git`). Its
 * parts are private: printed, logged, traced or serialised it reads
 * `[credential]`; the only way out is the environment of the one host git
 * process that talks to the URL's origin (see `httpAuthEnv`), never argv,
 * never `.git/config`, never the sandbox.
 */
export class RepoCredential {
  readonly #username: string;
  readonly #password: string;

  constructor(username: string, password: string) {
    this.#username = username;
    this.#password = password;
  }

  /** The environment that lets host git authenticate to `url`'s origin. */
  gitAuth(url: string): GitAuthEnv {
    return httpAuthEnv(url, this.#username, this.#password);
  }

  toJSON(): string {
    return HIDDEN;
  }

  toString(): string {
    return HIDDEN;
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return HIDDEN;
  }
}

/** A repository URL as it may be shown (`display`), and the credential only git receives. */
export interface SplitRepoUrl {
  /** The URL without userinfo: what is cloned, written to `.git/config`, logged, traced and sent. */
  readonly display: string;
  readonly credential?: RepoCredential;
}

const refused = (why: string): RegreenError =>
  new RegreenError(
    'usage',
    `--repo: ${why} (the URL is not repeated here: it may hold a credential)`,
  );

/** The userinfo of an scp-like `user@host:path` (the part before the first `@`). */
const scpUser = (url: string): string => url.slice(0, url.indexOf('@'));

/**
 * Splits a repository URL once, where it enters: an HTTP(S) URL's userinfo
 * (`user:token@`, or a token alone as the user) becomes a `RepoCredential`
 * and the display form has none. A query or a fragment is refused (git
 * appends its own paths to the URL, so a token there could not be sent
 * apart from it); so is a password in any other scheme (ssh takes none from
 * the URL). A user name alone in ssh (`git@host:r.git`) is an account, not a
 * credential, and stays.
 */
export const splitRepoUrl = (raw: string, scpLike: boolean): SplitRepoUrl => {
  if (scpLike) {
    if (scpUser(raw).includes(':')) throw refused('a password in an ssh address is not taken');
    return { display: raw };
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('not a URL git can read');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    if (url.password) throw refused(`a password in a ${url.protocol}// URL is not taken`);
    return { display: raw };
  }
  const username = decodeURIComponent(url.username);
  const password = decodeURIComponent(url.password);
  url.username = '';
  url.password = '';
  if (url.search || url.hash || raw.includes('?') || raw.includes('#'))
    throw refused(
      `a query or fragment in a repository URL is not taken (${url.origin}${url.pathname}: git cannot send it apart from the paths it adds; give a token as https://user:TOKEN@host/… instead)`,
    );
  return {
    display: url.href,
    ...(username || password ? { credential: new RepoCredential(username, password) } : {}),
  };
};
