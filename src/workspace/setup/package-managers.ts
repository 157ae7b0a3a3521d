import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { settingsOf, type Env } from '../../config/env.ts';
import { askAsync, operatorNpmRegistries } from './registries.ts';
import { readTextInside } from '../repo/confined-fs.ts';
import { installedNpmTool, installNpmTool, runNpm } from './npm-tools.ts';

/**
 * pnpm and Yarn as the project's CI has them: the version its manifest pins
 * (`"packageManager": "pnpm@9.15.9+sha512.…"`), else the one the workflow's
 * `pnpm/action-setup` names, else the major its lockfile was written by
 * (Yarn 1 for a `yarn.lock`, as GitHub's runners carry it). The package comes
 * from the operator's npm registry through npm itself (which checks the
 * tarball against the registry's integrity, and needs no signatures, unlike
 * corepack), is checked against the hash the manifest pins, and is kept by
 * version in a tools folder of regreen's (never the job's), whose `bin` goes
 * first on the PATH of every sandboxed command: set-up, the agent and the
 * checks alike.
 */
export type ManagerName = 'pnpm' | 'yarn';

export interface WantedManager {
  readonly name: ManagerName;
  /** An exact version (`9.15.9`) or a range the registry resolves (`9`, `^8.6`). */
  readonly version: string;
  /** The hash the manifest pins, as corepack writes it: `sha512.<hex>`. */
  readonly hash?: { readonly algorithm: string; readonly hex: string };
  /** Where the version came from, for the trace. */
  readonly from: string;
}

export interface InstalledManager {
  readonly name: ManagerName;
  readonly version: string;
  /** The folder of its programs (`pnpm`, `pnpx`; `yarn`, `yarnpkg`). */
  readonly bin: string;
  /** Everything the programs read: the sandbox mounts it read-only. */
  readonly root: string;
}

/**
 * The registry the manager itself fetches from (Yarn's default is not npm's,
 * and a `yarn.lock` names its hosts), asked of the installed program with
 * the operator's home as its folder and only the operator's Yarn and npm
 * settings in its environment: never of the repository, whose config must not
 * widen the setup's allow-list. As with pip, the program's own default
 * (what it answers with no settings at all) counts only when the operator
 * set no npm registry: a mirror's operator did not allow the public one.
 * pnpm reads npm's, which the allow-list has already.
 */
export const managerRegistry = async (
  installed: InstalledManager,
  home: string,
  env: Env,
): Promise<string | undefined> => {
  if (installed.name !== 'yarn') return undefined;
  const program = path.join(installed.bin, 'yarn');
  const args = ['config', 'get', /^1\./.test(installed.version) ? 'registry' : 'npmRegistryServer'];
  const url = (answer: string): string | undefined => {
    const last = answer.trim().split('\n').at(-1)?.trim() ?? '';
    return /^https?:\/\//.test(last) ? last : undefined;
  };
  const settings = Object.fromEntries(
    Object.entries(env).filter(([name]) => /^(?:PATH|HOME|yarn_.*|npm_config_.*)$/i.test(name)),
  );
  const answered = url(await askAsync(home, settings, program, args));
  if (answered === undefined || operatorNpmRegistries(home, env).length === 0) return answered;
  // An empty folder as home and no settings: the program's built-in default.
  const bare = path.join(path.dirname(installed.root), '.bare-home');
  mkdirSync(bare, { recursive: true });
  const builtIn = url(await askAsync(bare, { PATH: settingsOf(env).path ?? '' }, program, args));
  return answered === builtIn ? undefined : answered;
};

const VERSION = /^\d+\.\d+\.\d+$/;
const RANGE = /^[~^]?\d+(?:\.(?:\d+|x|\*)){0,2}$/;

/** `pnpm@9.15.9+sha512.abc` → its parts, when it is a pin regreen provides. */
export const parsePin = (
  pin: string,
): { name: ManagerName; version: string; hash?: WantedManager['hash'] } | undefined => {
  const match =
    /^(pnpm|yarn)@(\d+\.\d+\.\d+)(?:\+(sha1|sha224|sha256|sha384|sha512)\.([0-9a-f]+))?$/.exec(
      pin.trim(),
    );
  if (!match) return undefined;
  const [, name, version, algorithm, hex] = match;
  return {
    name: name as ManagerName,
    version: version ?? '',
    ...(algorithm && hex ? { hash: { algorithm, hex } } : {}),
  };
};

/** pnpm's major by the lockfile version it writes: 9.0 (pnpm 9, 10), 6.x (8), 5.4 (7), 5.3 (6). */
const pnpmByLockfile = (lockfile: string): string | undefined => {
  const version = /^lockfileVersion:\s*['"]?(\d+(?:\.\d+)?)/m.exec(lockfile)?.[1];
  if (version === undefined) return undefined;
  const number = Number(version);
  if (number >= 9) return '9';
  if (number >= 6) return '8';
  if (number >= 5.4) return '7';
  return '6';
};

/**
 * The package manager the project's CI has, when regreen must provide it:
 * `onPath` says which ones the machine already has (used when nothing pins a
 * version); `fromWorkflow` is what `pnpm/action-setup` asked for.
 */
export const wantedPackageManager = (
  workspace: string,
  onPath: (name: ManagerName) => boolean,
  fromWorkflow?: { readonly name: ManagerName; readonly version: string; readonly step: string },
): WantedManager | undefined => {
  const read = (file: string): string | undefined =>
    readTextInside(workspace, path.join(workspace, file));
  let pinned: unknown;
  try {
    pinned = (JSON.parse(read('package.json') ?? '{}') as { packageManager?: unknown })
      .packageManager;
  } catch {
    pinned = undefined;
  }
  const pin = typeof pinned === 'string' ? parsePin(pinned) : undefined;
  if (pin) return { ...pin, from: `package.json's packageManager (${String(pinned)})` };
  if (fromWorkflow && RANGE.test(fromWorkflow.version))
    return { name: fromWorkflow.name, version: fromWorkflow.version, from: fromWorkflow.step };
  const pnpmLock = read('pnpm-lock.yaml');
  if (pnpmLock !== undefined && !onPath('pnpm')) {
    const major = pnpmByLockfile(pnpmLock);
    if (major) return { name: 'pnpm', version: major, from: 'pnpm-lock.yaml’s lockfileVersion' };
  }
  if (read('yarn.lock') !== undefined && !onPath('yarn'))
    return { name: 'yarn', version: '1', from: 'yarn.lock (Yarn 1, as CI runners carry it)' };
  return undefined;
};

/** The npm package a version of a manager ships in: Yarn 2 and later are `@yarnpkg/cli-dist`. */
const packageOf = (name: ManagerName, version: string): string =>
  name === 'yarn' && !/^[~^]?1(\D|$)/.test(version) ? '@yarnpkg/cli-dist' : name;

/** The highest release among the versions a range matched (`npm view` lists them). */
const highest = (versions: readonly string[]): string | undefined =>
  versions
    .filter((version) => VERSION.test(version))
    .sort((a, b) => {
      const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
      for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    })
    .at(-1);

export interface InstallOptions {
  readonly wanted: WantedManager;
  /** regreen's tools folder: one folder per package and version, shared by jobs. */
  readonly toolsDir: string;
  /** The operator's environment: npm reads its registry and credentials from it. */
  readonly env: Env;
  readonly timeoutMs?: number;
}

const PIN_ALGORITHMS = ['sha1', 'sha224', 'sha256', 'sha384', 'sha512'];

/** The `algorithm.hex` hashes an installed version recorded. */
const recordedHashes = (record: Readonly<Record<string, unknown>>): string[] =>
  Array.isArray(record.hashes) ? record.hashes.map(String) : [];

/**
 * The manager installed (or found installed) in the tools folder, as every
 * npm tool regreen keeps (`installNpmTool`): a range resolved to the highest
 * release first, the pinned hash checked against the tarball (for Yarn 2+,
 * whose pin hashes the script corepack downloads, against `bin/yarn.js` too),
 * and each program given a launcher in `bin`.
 */
export const installPackageManager = async (options: InstallOptions): Promise<InstalledManager> => {
  const { wanted, toolsDir, env } = options;
  const timeoutMs = options.timeoutMs ?? 180_000;
  mkdirSync(toolsDir, { recursive: true });
  const pkg = packageOf(wanted.name, wanted.version);
  let version = wanted.version;
  if (!VERSION.test(version)) {
    if (!RANGE.test(version)) throw new Error(`"${version}" is not a version regreen can resolve`);
    const listed = JSON.parse(
      (await runNpm(
        ['view', `${pkg}@${version}`, 'version', '--json'],
        toolsDir,
        env,
        timeoutMs,
      )) || '[]',
    ) as unknown;
    const found = highest(Array.isArray(listed) ? listed.map(String) : [String(listed)]);
    if (!found) throw new Error(`the registry has no ${pkg} matching ${version}`);
    version = found;
  }
  const before = installedNpmTool(toolsDir, pkg, version);
  // A version installed before answers a pin by the hashes recorded when it was installed.
  if (
    before &&
    wanted.hash &&
    !recordedHashes(before.record).includes(`${wanted.hash.algorithm}.${wanted.hash.hex}`)
  )
    throw new Error(
      `${pkg}@${version} in ${toolsDir} does not match the ${wanted.hash.algorithm} package.json pins (${wanted.hash.hex.slice(0, 16)}…)`,
    );
  const digest = (file: string, algorithm: string): string =>
    createHash(algorithm).update(readFileSync(file)).digest('hex');
  const installed = await installNpmTool({
    toolsDir,
    env,
    timeoutMs,
    packages: [{ name: pkg, version }],
    launchers: wanted.name,
    verify: (tarball, dir) => {
      // For Yarn 2+, whose pin hashes the script corepack downloads, bin/yarn.js is checked too.
      const candidates = [tarball, path.join(dir, 'bin', 'yarn.js')].filter(existsSync);
      if (wanted.hash) {
        const { algorithm, hex } = wanted.hash;
        if (!candidates.some((file) => digest(file, algorithm) === hex))
          throw new Error(
            `${pkg}@${version} from the registry does not match the ${algorithm} package.json pins (${hex.slice(0, 16)}…)`,
          );
      }
      // Every algorithm corepack accepts, of the tarball and (Yarn 2+) of its script: later pins check these.
      return {
        hashes: candidates.flatMap((file) =>
          PIN_ALGORITHMS.map((algorithm) => `${algorithm}.${digest(file, algorithm)}`),
        ),
      };
    },
  });
  return { name: wanted.name, version, bin: installed.bin, root: installed.root };
};
