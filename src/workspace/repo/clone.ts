import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { RegreenError, describeError } from '../../errors.ts';
import { git, type HostRepo } from './git.ts';
import { isFullObjectId } from './git-objects.ts';
import { gitRemote, type GitAuthEnv } from './git-remote.ts';
import { shownRepoText, splitRepoUrl, type RepoCredential } from './repo-url.ts';

/**
 * scp-like `user@host:path`, as `/^[^/\s]+@[^:\s]+:/` reads it: an `@` past the start and before
 * any `/`, then a host, then a `:`, all in the first word. By hand: that pattern backtracks over
 * every `@` of a long word.
 */
const scpLike = (repo: string): boolean => {
  const word = /^\S*/.exec(repo)?.[0] ?? '';
  const slash = word.indexOf('/');
  const colon = word.lastIndexOf(':');
  for (let at = word.indexOf('@', 1); at > 0; at = word.indexOf('@', at + 1)) {
    if (slash >= 0 && at > slash) return false;
    if (at + 1 < word.length && word[at + 1] !== ':' && colon > at + 1) return true;
  }
  return false;
};

const hasScheme = (repo: string): boolean => /^[a-z][a-z0-9+.-]*:\/\//i.test(repo);

/** The repository a job works on: a local checkout, or a URL. */
export interface RepoSource {
  /**
   * The folder, or the URL without any credential (see `splitRepoUrl`): what is cloned and the
   * only form that reaches logs, traces, paths, outcomes and the forge.
   */
  readonly location: string;
  /** The top level of the local checkout; undefined for a URL. */
  readonly localRoot?: string;
  /** What the URL carried for git (`user:token@`); only host git's environment receives it. */
  readonly credential?: RepoCredential;
}

/**
 * Validates a `--repo` argument, where it enters: a local git repository or a git URL (split from
 * any credential it holds). The raw text is repeated in no error: a folder that is not there is
 * named by `shownRepoText` (` https://u:TOKEN@h`, `https:/u:TOKEN@h` are folders to git too).
 */
export const resolveRepoSource = async (repo: string): Promise<RepoSource> => {
  if (hasScheme(repo) || scpLike(repo)) {
    const { display, credential } = splitRepoUrl(repo, !hasScheme(repo));
    return { location: display, ...(credential ? { credential } : {}) };
  }
  const dir = path.resolve(repo);
  const shown = shownRepoText(dir);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new RegreenError(
      'not-a-repo',
      `${existsSync(dir) ? 'not a directory' : 'no such folder'}: ${shown}. --repo takes the folder of a git clone (or a URL)`,
    );
  }
  try {
    const top = (await git(dir).revparse(['--show-toplevel'])).trim();
    return { location: top, localRoot: top };
  } catch (error) {
    throw new RegreenError(
      'not-a-repo',
      `not a git repository: ${shown}. --repo takes the folder of a git clone (git clone URL DIR makes one)`,
      { cause: error },
    );
  }
};

export interface ClonedWorkspace {
  readonly root: string;
  /** The commit the job starts from. */
  readonly baseSha: string;
  /** The branch checked out, under the name CI had (undefined: detached, as CI is for a bare sha). */
  readonly branch: string | undefined;
}

/** Branch names git has judged (its answer depends on the name alone), and what it said. */
const judgedBranches = new Map<string, string | undefined>();

/** A name git takes for a branch, or undefined. */
const validBranch = async (dir: string, name: string | undefined): Promise<string | undefined> => {
  if (name === undefined || name === '' || name.startsWith('-')) return undefined;
  if (judgedBranches.has(name)) return judgedBranches.get(name);
  let valid: string | undefined;
  try {
    valid = (await git(dir).raw(['check-ref-format', '--branch', name])).trim() || undefined;
  } catch {
    valid = undefined;
  }
  if (judgedBranches.size >= 256) judgedBranches.clear();
  judgedBranches.set(name, valid);
  return valid;
};

/** What checking out a commit writes, by its full id (the tree's sizes are fixed by it). */
const checkoutSizes = new Map<string, number>();

const checkoutBytes = async (repo: HostRepo, baseSha: string): Promise<number> => {
  const known = checkoutSizes.get(baseSha);
  if (known !== undefined) return known;
  const listing = await repo.raw(['ls-tree', '-r', '-l', '-z', '--end-of-options', baseSha]);
  const bytes = listing
    .split('\0')
    .map((entry) => Number(/^\d+ blob [0-9a-f]+ +(\d+)\t/.exec(entry)?.[1] ?? 0))
    .reduce((sum, size) => sum + size, 0);
  if (!isFullObjectId(baseSha)) return bytes;
  if (checkoutSizes.size >= 256) checkoutSizes.clear();
  checkoutSizes.set(baseSha, bytes);
  return bytes;
};

/**
 * The branch CI had checked out: the one the trigger names; else the ref when
 * it is a branch of the source; else, with no ref, the source's own current
 * branch (its HEAD, as the clone's origin/HEAD). A sha or a tag: none.
 */
const ciBranch = async (
  dest: string,
  ref: string | undefined,
  named: string | undefined,
): Promise<string | undefined> => {
  if (named !== undefined) return validBranch(dest, named);
  const repo = git(dest);
  try {
    if (ref === undefined) {
      const head = (await repo.raw(['symbolic-ref', '-q', 'refs/remotes/origin/HEAD'])).trim();
      return validBranch(dest, head.replace(/^refs\/remotes\/origin\//, ''));
    }
    await repo.raw(['show-ref', '--verify', '--quiet', `refs/remotes/origin/${ref}`]);
    return validBranch(dest, ref);
  } catch {
    return undefined;
  }
};

/**
 * Clones the source into `dest` (which must not exist) and checks out `ref`
 * under the branch name CI had (detached for a sha). Objects are copied, not hard-linked, so nothing done in the
 * workspace can reach the user's repository.
 */
export const cloneWorkspace = async (options: {
  source: RepoSource;
  ref: string | undefined;
  dest: string;
  /** Credentials for a URL source (the forge's), used by this process only. */
  auth?: GitAuthEnv;
  /** The branch CI built, when the trigger knows it; else read from the ref (see `ciBranch`). */
  branch?: string;
  /** The most the checkout may write (the job's disk limit): a larger tree is refused before it is written. */
  maxCheckoutBytes?: number;
}): Promise<ClonedWorkspace> => {
  const { source, ref, dest, auth } = options;
  if (ref !== undefined && (ref.startsWith('-') || ref.includes('\0') || ref.trim() === '')) {
    throw new RegreenError('ref-not-found', `not a ref: ${JSON.stringify(ref)}`);
  }
  mkdirSync(path.dirname(dest), { recursive: true });
  try {
    await gitRemote(
      ['clone', '--no-hardlinks', '--quiet', '--no-checkout', '--', source.location, dest],
      { cwd: path.dirname(dest), ...(auth ? { auth } : {}) },
    );
  } catch (error) {
    throw new RegreenError(
      'clone-failed',
      `cannot clone ${source.location}: ${describeError(error)}`,
      {
        cause: error,
      },
    );
  }
  const repo = git(dest);
  const candidates = ref === undefined ? ['HEAD'] : [ref, `origin/${ref}`, `refs/tags/${ref}`];
  let baseSha: string | undefined;
  for (const candidate of candidates) {
    try {
      baseSha = (
        await repo.revparse(['--verify', '--quiet', '--end-of-options', `${candidate}^{commit}`])
      ).trim();
      if (baseSha) break;
    } catch {
      baseSha = undefined;
    }
  }
  if (!baseSha) {
    // A sha that is on no branch (a local commit, a pull request's head): fetch it directly.
    if (ref !== undefined) {
      try {
        await gitRemote(['fetch', '--quiet', '--', 'origin', ref], {
          cwd: dest,
          ...(auth ? { auth } : {}),
        });
        baseSha = (await repo.revparse(['--verify', '--quiet', 'FETCH_HEAD^{commit}'])).trim();
      } catch {
        baseSha = undefined;
      }
    }
  }
  if (!baseSha) {
    throw new RegreenError(
      'ref-not-found',
      ref === undefined
        ? `${source.location} has no commit to start from (HEAD names none: an empty repository, or a branch with no commit yet). Commit the code first, or name a ref with --ref`
        : `ref not found in ${source.location}: ${ref}. git -C ${source.location} branch -a lists its branches`,
    );
  }
  // A small pack may inflate to any size (a file of one repeated byte): what the checkout would
  // write is known from the tree before a byte of it is written.
  // (Asked while the branch CI had is read: neither waits for the other.)
  const [bytes, branch] = await Promise.all([
    options.maxCheckoutBytes === undefined ? undefined : checkoutBytes(repo, baseSha),
    ciBranch(dest, ref, options.branch),
  ]);
  if (
    bytes !== undefined &&
    options.maxCheckoutBytes !== undefined &&
    bytes > options.maxCheckoutBytes
  )
    throw new RegreenError(
      'clone-failed',
      `the checkout of ${ref ?? 'HEAD'} would write ${(bytes / 1024 / 1024).toFixed(1)} MiB, more than the job's disk limit of ${Math.floor(options.maxCheckoutBytes / 1024 / 1024)} MiB (REGREEN_MAX_DISK_MB)`,
    );
  // The ref under the name CI had, as actions/checkout leaves it: a suite that asks git for its
  // branch (a release tool, a changelog generator) sees what it saw in CI.
  await repo.raw(
    branch === undefined
      ? ['checkout', '--quiet', '--detach', baseSha]
      : ['checkout', '--quiet', '-B', branch, baseSha],
  );
  // The sandbox mounts .git read-only and guards .git/hooks by path: it must exist.
  mkdirSync(path.join(dest, '.git', 'hooks'), { recursive: true });
  return { root: dest, baseSha, branch };
};
