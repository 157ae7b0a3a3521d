import { RegreenError } from '../../errors.ts';
import { holdsUserinfo, httpAuthEnv, type GitAuthEnv } from './git-remote.ts';

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

/** The URL schemes taken, and what each may carry before its host. */
const SCHEMES: Readonly<Record<string, 'credential' | 'account' | 'nothing'>> = {
  'https:': 'credential',
  'http:': 'credential',
  'ssh:': 'account',
  'git+ssh:': 'account',
  'ssh+git:': 'account',
  'git:': 'nothing',
  'file:': 'nothing',
};

const isSeparator = (c: string): boolean => c === '/' || c === '\\' || /\s/.test(c);

/**
 * `--repo` text as it may be shown when it is not taken (a folder that does
 * not exist, a URL git cannot read): every run of characters that ends in an
 * `@` and starts after a `/`, a `\`, a blank or the start (userinfo in any
 * spelling: `https:/u:TOKEN@h`, ` https://u:TOKEN@h`, `https::https://TOKEN@h`)
 * reads `***`. Nothing that reaches a person repeats the raw text.
 */
export const shownRepoText = (raw: string): string => {
  let shown = '';
  let from = 0;
  for (let at = raw.indexOf('@'); at >= 0; at = raw.indexOf('@', at + 1)) {
    let start = at;
    while (start > from && !isSeparator(raw[start - 1] ?? '')) start -= 1;
    shown += raw.slice(from, start) + (start < at ? '***' : '') + '@';
    from = at + 1;
  }
  return shown + raw.slice(from);
};

/**
 * Splits a repository URL once, where it enters. Only https, http, ssh, git
 * and file URLs are taken (any other scheme, a remote helper's `x::` form
 * included, is refused unrepeated). An HTTP(S) URL's userinfo (`user:token@`,
 * or a token alone as the user) becomes a `RepoCredential` and the display
 * form has none; a query or a fragment is refused (git appends its own paths
 * to the URL, so a token there could not be sent apart from it). An ssh user
 * name (`git@host:r.git`, `ssh://git@host/r.git`) is the account a key logs
 * into, not a credential, and stays; a password there is refused (ssh takes
 * none from the URL), and so is any userinfo in git:// or file://.
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
  const carries = SCHEMES[url.protocol];
  if (carries === undefined) throw refused('only https, http, ssh, git and file URLs are taken');
  if (carries !== 'credential') {
    // Read by hand too (`holdsUserinfo`, as argv is guarded), not only as the parser found it.
    if (url.password || holdsUserinfo(raw) || (carries === 'nothing' && url.username))
      throw refused(`userinfo in a ${url.protocol}// URL other than an ssh user name is not taken`);
    return { display: raw };
  }
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw refused('userinfo that is not valid percent-encoding is not taken');
  }
  url.username = '';
  url.password = '';
  if (url.search || url.hash || raw.includes('?') || raw.includes('#'))
    throw refused(
      `a query or fragment in a repository URL is not taken (${url.origin}${url.pathname}: git cannot send it apart from the paths it adds; give a token as https://user:TOKEN@host/… instead)`,
    );
  // What is shown and cloned is read as argv is guarded: no userinfo, whatever the parser made of it.
  if (holdsUserinfo(url.href))
    throw refused('userinfo that does not split from the URL is not taken');
  return {
    display: url.href,
    ...(username || password ? { credential: new RepoCredential(username, password) } : {}),
  };
};
