import { toolchainRootsOf, type Env } from '../../config/env.ts';
import { existsSync, lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../util/package-root.ts';

/**
 * What a sandboxed command may read outside its workspace: an allow-list of
 * what a build needs, never the host's file system minus a list of secrets.
 *
 * - the system's programs and libraries (`/usr`, `/bin`, `/lib*`, `/opt`);
 * - `/etc`, minus every entry an unprivileged user could not read there (the
 *   rule that masks `/etc/shadow`, ssh host keys and `ssl/private` without
 *   naming them) and the system git config (it may name credential helpers);
 * - in `/etc` and every toolchain mounted, the package managers' own
 *   configuration files read as empty (`client-configs.ts`);
 * - toolchains where version managers and runners keep them (pyenv, nvm,
 *   asdf, mise, rustup, sdkman, volta, the Go tree, the runner tool cache),
 *   and the roots the operator's environment names (`PYENV_ROOT`, `JAVA_HOME`, …);
 * - the folders of the operator's `PATH` (where the toolchains regreen was
 *   started with live), and regreen's own code and dependencies (language
 *   servers, debug relays, kernel drivers), read-only;
 * - the job's workspace and its private tmp and home, read-write.
 *
 * Nothing else of the host exists in the sandbox: not the home folder, not
 * `/run` or `/var` (where the host's unix sockets are), not the source
 * checkout, the runner's temp, regreen's data dir or a job store.
 */

export const SYSTEM_DIRS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32', '/opt'];

/** Where version managers keep toolchains under a home folder (binaries and runtimes, no credentials). */
const HOME_TOOLCHAINS = [
  '.pyenv',
  '.nvm',
  '.asdf',
  '.local/share/mise',
  '.local/share/pnpm',
  '.rustup',
  '.cargo/bin',
  '.sdkman/candidates',
  '.volta',
  '.bun/bin',
  '.deno/bin',
  'go/bin',
  'sdk',
];

/** Toolchain roots a PATH entry sits in (`~/.pyenv/shims` is pyenv's: the whole `~/.pyenv` is needed). */
const ROOT_SEGMENTS = ['.pyenv', '.nvm', '.asdf', '.volta', '.sdkman', '.rustup'];

/** The toolchain roots the operator's PATH points into, with rustup's beside cargo's bin. */
export const toolchainRootsOnPath = (pathVariable: string | undefined): string[] => {
  const roots: string[] = [];
  for (const entry of (pathVariable ?? '').split(':')) {
    if (!path.isAbsolute(entry)) continue;
    const segments = entry.split('/');
    const at = segments.findIndex((segment) => ROOT_SEGMENTS.includes(segment));
    if (at > 0) roots.push(segments.slice(0, at + 1).join('/'));
    if (entry.endsWith('/.cargo/bin')) roots.push(path.join(entry, '..', '..', '.rustup'));
  }
  return [...new Set(roots)].filter((root) => existsSync(root));
};

/** Named outright: world-readable, but it may configure credential helpers for host git. */
const ETC_MASKED = ['/etc/gitconfig'];

export interface Mount {
  readonly kind:
    | 'ro'
    | 'rw'
    | 'ro-fd'
    | 'rw-fd'
    | 'symlink'
    | 'mask-file'
    | 'mask-dir'
    | 'dev'
    | 'proc'
    | 'tmpfs';
  /** The host path (or the link's target for a symlink; for `ro-fd` and `rw-fd`, the descriptor's number in bubblewrap). */
  readonly source: string;
  /** The path inside the sandbox. */
  readonly target: string;
  /** A tmpfs's size in bytes. */
  readonly sizeBytes?: number;
  /** What a masked file reads as (empty when not given). */
  readonly content?: string;
}

export const isAncestorOrSame = (candidate: string, of: string): boolean => {
  const relative = path.relative(candidate, of);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/** Entries of /etc an unprivileged user could not read: the sandbox masks them. */
const unreadableUnder = (root: string, depth = 0): { path: string; dir: boolean }[] => {
  const found: { path: string; dir: boolean }[] = [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return found;
  }
  for (const name of names) {
    const full = path.join(root, name);
    let info;
    try {
      info = lstatSync(full);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) continue;
    if (info.isDirectory()) {
      if ((info.mode & 0o005) !== 0o005) found.push({ path: full, dir: true });
      else if (depth < 6) found.push(...unreadableUnder(full, depth + 1));
    } else if ((info.mode & 0o004) === 0) {
      found.push({ path: full, dir: false });
    }
  }
  return found;
};

let etcMasks: Mount[] | undefined;

/** Forgets /etc's masks: the next plan walks /etc again (a sandbox failed to start). */
export const forgetEtcMasks = (): void => {
  etcMasks = undefined;
};

/**
 * /etc's masks: what an unprivileged user could not read there (computed once per process, or
 * again after a sandbox failed to start: it walks /etc) and the system git config. The package managers' files, in /etc and in every
 * toolchain, are `client-configs.ts`'s.
 */
export const etcMounts = (): Mount[] => {
  etcMasks ??= unreadableUnder('/etc').map((entry): Mount => ({
    kind: entry.dir ? 'mask-dir' : 'mask-file',
    source: entry.path,
    target: entry.path,
  }));
  return [
    ...etcMasks,
    ...ETC_MASKED.filter((file) => existsSync(file)).map((file): Mount => ({
      kind: 'mask-file',
      source: file,
      target: file,
    })),
  ];
};

const REGREEN_ROOT = packageRoot();

/**
 * regreen's own code and dependencies the sandbox runs (language servers,
 * relays, drivers): its `tools` and `dist`, its own `node_modules`, the
 * Action's committed build (`action`, with its own `node_modules`), and — when
 * it is installed as a package — the `node_modules` its dependencies were
 * installed into beside it.
 */
export const regreenReadable = (): string[] => {
  const installedIn = path.dirname(REGREEN_ROOT);
  const outer =
    path.basename(installedIn) === 'node_modules'
      ? [installedIn]
      : path.basename(path.dirname(installedIn)) === 'node_modules' // a scoped package
        ? [path.dirname(installedIn)]
        : [];
  return [
    ...['node_modules', 'tools', 'dist', 'action'].map((dir) => path.join(REGREEN_ROOT, dir)),
    ...outer,
  ].filter(existsSync);
};

export interface ReadableOptions {
  readonly home: string;
  /** The operator's environment: where it names toolchain roots. */
  readonly env: Env;
  /** The operator's PATH (regreen's own environment). */
  readonly pathVariable: string | undefined;
  /** Never exposed, even when a PATH entry or toolchain sits above them. */
  readonly secretRoots: readonly string[];
}

/** Every host folder a command may read, besides its workspace and private folders. */
export const readableRoots = (options: ReadableOptions): string[] => {
  const candidates = [
    path.dirname(path.dirname(process.execPath)),
    ...HOME_TOOLCHAINS.map((dir) => path.join(options.home, dir)),
    ...toolchainRootsOnPath(options.pathVariable),
    ...toolchainRootsOf(options.env),
    ...(options.pathVariable ?? '').split(':').filter((entry) => path.isAbsolute(entry)),
    ...regreenReadable(),
  ];
  const own = new Set(regreenReadable());
  const guarded = [options.home, ...options.secretRoots];
  const roots: string[] = [];
  for (const candidate of candidates) {
    let real: string;
    try {
      real = realpathSync(candidate);
      if (!statSync(real).isDirectory()) continue;
    } catch {
      continue;
    }
    // A folder that holds the home folder or a secret root (say `/root` or `/` on PATH) would expose it whole.
    if (guarded.some((secret) => isAncestorOrSame(real, secret))) continue;
    // Inside one, only regreen's own code (a checkout of regreen in the runner's workspace).
    if (options.secretRoots.some((secret) => isAncestorOrSame(secret, real)) && !own.has(candidate))
      continue;
    if (SYSTEM_DIRS.some((dir) => isAncestorOrSame(dir, real))) continue;
    if (!roots.includes(real)) roots.push(real);
  }
  return roots;
};

/** The system folders, as they are on this host (a merged /usr keeps /bin a symlink). */
export const systemMounts = (): Mount[] =>
  SYSTEM_DIRS.flatMap((dir): Mount[] => {
    let info;
    try {
      info = lstatSync(dir);
    } catch {
      return [];
    }
    if (info.isSymbolicLink()) {
      const target = realpathSync(dir);
      return [{ kind: 'symlink', source: target, target: dir }];
    }
    return info.isDirectory() ? [{ kind: 'ro', source: dir, target: dir }] : [];
  });
