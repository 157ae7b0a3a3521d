import { lazily } from '../../util/lazy.ts';
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { secretRoots } from './secret-masks.ts';
import path from 'node:path';
import { DEFAULT_COMMAND_LIMITS, type CommandLimits, type SandboxPolicy } from './sandbox.ts';
import { readableRoots, toolchainRootsOnPath } from './mounts.ts';
import { defaultToolsDir, settingsOf, type Env } from '../../config/env.ts';
import {
  hostDependencyCaches,
  npmConfigFromFiles,
  pipConfigFromFiles,
} from '../setup/dependency-caches.ts';
import { npmAuthorizationFor } from '../setup/npm-auth.ts';
import { ask, operatorNpmRegistries, registryEndpoint } from '../setup/registries.ts';
import { aliasedRegistryVariables, registryAliases } from './registry-aliases.ts';
import { gradleReportFiles } from '../setup/gradle.ts';

/** A client's answer, asked when first needed (outside any repository; once per process). */
const askOnce = (home: string, env: Env, file: string, args: readonly string[]) => (): string =>
  ask(home, env, file, args).trim();

/** Toolchain roots whose managers find them through a variable that defaults under HOME (which the sandbox replaces). */
const toolchainEnv = (home: string, pathVariable: string | undefined): Record<string, string> => {
  const found: Record<string, string> = {};
  const byDir: Record<string, string> = {
    '.pyenv': 'PYENV_ROOT',
    '.nvm': 'NVM_DIR',
    '.rustup': 'RUSTUP_HOME',
    '.sdkman': 'SDKMAN_DIR',
    '.volta': 'VOLTA_HOME',
  };
  for (const root of toolchainRootsOnPath(pathVariable)) {
    const name = byDir[path.basename(root)];
    if (name) found[name] = root;
  }
  const pairs: [string, string][] = [
    ['PYENV_ROOT', '.pyenv'],
    ['NVM_DIR', '.nvm'],
    ['RUSTUP_HOME', '.rustup'],
    ['SDKMAN_DIR', '.sdkman'],
    ['VOLTA_HOME', '.volta'],
  ];
  for (const [name, dir] of pairs) {
    const full = path.join(home, dir);
    if (existsSync(full)) found[name] = full;
  }
  return found;
};

/** The operator's limits (`REGREEN_MAX_PROCESSES`, `REGREEN_MAX_MEMORY_MB`, `REGREEN_MAX_DISK_MB`), else the defaults. */
export const commandLimitsFrom = (env: Env): CommandLimits => ({
  processes: settingsOf(env).maxProcesses ?? DEFAULT_COMMAND_LIMITS.processes,
  memoryMb: settingsOf(env).maxMemoryMb ?? DEFAULT_COMMAND_LIMITS.memoryMb,
  diskMb: settingsOf(env).maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb,
});

const holds = (outer: string, inner: string): boolean => {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
};

/**
 * regreen's tools folder (the package managers and language servers it
 * fetched, some on first use during the job), read-only inside; made now so
 * what is fetched later is seen. Never when it would hold the home folder or
 * be (in) the data dir.
 */
const toolsFolder = (env: Env, home: string, dataDir: string): string[] => {
  const dir = path.resolve(defaultToolsDir(env));
  if (holds(dir, home) || holds(dir, dataDir) || holds(dataDir, dir)) return [];
  try {
    mkdirSync(dir, { recursive: true });
    return [realpathSync(dir)];
  } catch {
    return [];
  }
};

/** The npm registry the operator set (not a scope's): what yarn 2+, which reads no `.npmrc`, is told. */
const operatorNpmRegistry = (home: string, env: Env): string | undefined =>
  operatorNpmRegistries(home, env, undefined, { scoped: false })[0];

export const buildSandboxPolicy = (options: {
  workspace: string;
  privateDir: string;
  /** See `SandboxPolicy.privateDirOnVolume`. */
  privateDirOnVolume?: boolean;
  home: string;
  dataDir: string;
  registryHosts: readonly string[] | Promise<readonly string[]>;
  baseEnv: Env;
  limits?: CommandLimits;
  /**
   * Programs regreen provides (a pinned package manager): `bin` first on PATH,
   * `root` read-only, the registries they fetch from (as the program itself
   * answered, never the repository) added to the setup's allow-list.
   */
  tools?: readonly {
    readonly bin: string;
    readonly root: string;
    readonly registries?: readonly string[];
  }[];
}): SandboxPolicy => {
  const tools = options.tools ?? [];
  const toolRegistries = tools
    .flatMap((tool) => tool.registries ?? [])
    .map(registryEndpoint)
    .filter((host): host is string => host !== undefined);
  // Every registry URL of the operator's is given to the sandbox by its alias only.
  const aliases = registryAliases();
  let npmrcRead: readonly string[] | undefined;
  const npmrcTexts = (): readonly string[] =>
    (npmrcRead ??= npmConfigFromFiles(options.home, options.baseEnv));
  const caches = hostDependencyCaches({
    home: options.home,
    env: options.baseEnv,
    goProxy: askOnce(options.home, options.baseEnv, 'go', ['env', 'GOPROXY']),
    pipConfig: () => pipConfigFromFiles(options.home, options.baseEnv),
    npmConfig: npmrcTexts,
    aliasOf: aliases.aliasOf,
  });
  const registryVariables = aliasedRegistryVariables(
    { ...options.baseEnv, ...caches.env },
    aliases,
    operatorNpmRegistry(options.home, options.baseEnv),
  );
  return {
    workspace: options.workspace,
    privateDir: options.privateDir,
    ...(options.privateDirOnVolume ? { privateDirOnVolume: true } : {}),
    readable: [
      ...readableRoots({
        home: options.home,
        env: options.baseEnv,
        pathVariable: settingsOf(options.baseEnv).path,
        secretRoots: secretRoots(options.baseEnv, options.dataDir),
      }),
      ...caches.readable,
      ...tools.map((tool) => tool.root),
      ...toolsFolder(options.baseEnv, options.home, options.dataDir),
    ],
    hidden: secretRoots(options.baseEnv, options.dataDir),
    registryHosts:
      toolRegistries.length === 0
        ? options.registryHosts
        : lazily(async () => [...new Set([...(await options.registryHosts), ...toolRegistries])]),
    limits: options.limits ?? commandLimitsFrom(options.baseEnv),
    baseEnv: {
      ...toolchainEnv(options.home, settingsOf(options.baseEnv).path),
      ...options.baseEnv,
      ...caches.env,
      ...registryVariables,
      ...(tools.length > 0
        ? {
            PATH: [...tools.map((tool) => tool.bin), settingsOf(options.baseEnv).path]
              .filter(Boolean)
              .join(':'),
          }
        : {}),
    },
    homeFiles: { ...gradleReportFiles(), ...caches.homeFiles },
    registries: aliases.list().map((registry) => {
      const authorization = npmAuthorizationFor(registry.upstream, npmrcTexts(), options.baseEnv);
      return authorization ? { ...registry, authorization } : registry;
    }),
  };
};
