import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import type { Env } from '../../config/env.ts';

/**
 * An npm package regreen keeps in its tools folder (never a job's), one
 * folder per package and version: the package managers a project's CI has
 * (pnpm, Yarn), and what regreen fetches the first time a tool needs it (the
 * language servers, the rarer ast-grep grammars). npm packs each package at
 * its exact version from the operator's registry (npm checks the registry's
 * integrity), the tarball is checked against the integrity regreen's own
 * lockfile recorded when one is given, and npm installs the tarballs without
 * running any script. Installs race safely: each builds in its own folder and
 * renames it into place; `.complete` marks a finished one.
 */
export interface NpmPackageSpec {
  readonly name: string;
  /** An exact version. */
  readonly version: string;
  /** `sha512-<base64>`, as a lockfile records it: the packed tarball must have it. */
  readonly integrity?: string;
}

export interface InstalledNpmTool {
  readonly name: string;
  readonly version: string;
  /** The folder of the install: the sandbox mounts it read-only. */
  readonly root: string;
  /** The package's own folder (`root/node_modules/<name>`). */
  readonly dir: string;
  /** The folder of its launchers, when it has them. */
  readonly bin: string;
  /** What was recorded when it was installed (`.complete`). */
  readonly record: Readonly<Record<string, unknown>>;
}

export interface NpmToolInstall {
  /** regreen's tools folder. */
  readonly toolsDir: string;
  /** The operator's environment: npm reads its registry and credentials from it. */
  readonly env: Env;
  /** The tool, then the packages it needs, each at the exact version its lockfile recorded. */
  readonly packages: readonly [NpmPackageSpec, ...NpmPackageSpec[]];
  readonly timeoutMs?: number;
  /** Checks the tool's tarball and installed folder before it is kept (throws to refuse); what it returns is recorded. */
  readonly verify?: (tarball: string, dir: string) => Record<string, unknown>;
  /** Removes what the tool never reads (other platforms' binaries, sources), before it is kept. */
  readonly prune?: (dir: string) => void;
  /** A launcher in `bin` for each program the tool's manifest names; this one names a lone `bin` path. */
  readonly launchers?: string;
}

/** A failure to install a tool: the registry, the network, an integrity mismatch or the disk. */
export class NpmToolError extends Error {
  override readonly name = 'NpmToolError';
  constructor(
    readonly tool: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Where a package's version lives in the tools folder (a scope's `/` becomes `+`). */
export const npmToolRoot = (toolsDir: string, name: string, version: string): string =>
  path.join(toolsDir, `${name.replace('/', '+')}@${version}`);

/** The version installed before in the tools folder, when its install finished. */
export const installedNpmTool = (
  toolsDir: string,
  name: string,
  version: string,
): InstalledNpmTool | undefined => {
  const root = npmToolRoot(toolsDir, name, version);
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(readFileSync(path.join(root, '.complete'), 'utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined;
  }
  const dir = path.join(root, 'node_modules', ...name.split('/'));
  return { name, version, root, dir, bin: path.join(root, 'bin'), record };
};

/** npm on the host, in a folder of regreen's own (never the repository's: its `.npmrc` is not read). */
export const runNpm = (
  args: readonly string[],
  cwd: string,
  env: Env,
  timeoutMs: number,
): Promise<string> =>
  new Promise((resolve, reject) => {
    execFile(
      'npm',
      [...args],
      {
        cwd,
        env: { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
        timeout: timeoutMs,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error) {
          const why = `${stderr}`.trim().split('\n').slice(-4).join(' ');
          reject(new Error(`npm ${args[0] ?? ''} failed: ${why || error.message}`));
        } else resolve(stdout);
      },
    );
  });

/** The programs a manifest names, each a path inside the package. */
const programsOf = (manifest: unknown, name: string): Record<string, string> => {
  const bin = (manifest as { bin?: unknown }).bin;
  const entries: [string, unknown][] =
    typeof bin === 'string'
      ? [[name, bin]]
      : bin && typeof bin === 'object'
        ? Object.entries(bin)
        : [];
  const out: Record<string, string> = {};
  for (const [program, file] of entries) {
    if (!/^[\w.-]+$/.test(program) || typeof file !== 'string') continue;
    const normal = path.posix.normalize(file);
    if (normal.startsWith('..') || path.posix.isAbsolute(normal)) continue;
    out[program] = normal;
  }
  return out;
};

/** A POSIX shell word. */
const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const sha512 = (file: string): string =>
  `sha512-${createHash('sha512').update(readFileSync(file)).digest('base64')}`;

/** Installs of this process under way, by folder: a second caller waits for the first. */
const underWay = new Map<string, Promise<InstalledNpmTool>>();

/** The tool installed (or found installed) in the tools folder. */
export const installNpmTool = (options: NpmToolInstall): Promise<InstalledNpmTool> => {
  const [tool] = options.packages;
  const root = npmToolRoot(options.toolsDir, tool.name, tool.version);
  const running = underWay.get(root);
  if (running) return running;
  const install = build(options).finally(() => underWay.delete(root));
  underWay.set(root, install);
  return install;
};

const build = async (options: NpmToolInstall): Promise<InstalledNpmTool> => {
  const { toolsDir, env, packages } = options;
  const [tool] = packages;
  const timeoutMs = options.timeoutMs ?? 300_000;
  const spec = `${tool.name}@${tool.version}`;
  const before = installedNpmTool(toolsDir, tool.name, tool.version);
  if (before && tool.integrity !== undefined && before.record.integrity !== tool.integrity)
    throw new NpmToolError(
      tool.name,
      `${before.root} holds a ${spec} that is not the tarball regreen's lockfile recorded: remove that folder and it is fetched again`,
    );
  if (before) {
    // One built before the sandbox's uid was unprivileged may be a temp folder's 0700.
    chmodSync(before.root, 0o755);
    return before;
  }
  mkdirSync(toolsDir, { recursive: true });
  const building = mkdtempSync(path.join(toolsDir, '.install-'));
  try {
    const tarballs: string[] = [];
    for (const pkg of packages) {
      const packed = JSON.parse(
        await runNpm(
          [
            'pack',
            `${pkg.name}@${pkg.version}`,
            '--json',
            '--ignore-scripts',
            '--pack-destination',
            building,
          ],
          building,
          env,
          timeoutMs,
        ),
      ) as { filename?: string }[];
      const tarball = path.join(building, path.basename(String(packed[0]?.filename ?? '')));
      if (!existsSync(tarball))
        throw new Error(`npm packed no tarball for ${pkg.name}@${pkg.version}`);
      if (pkg.integrity !== undefined && sha512(tarball) !== pkg.integrity)
        throw new Error(
          `${pkg.name}@${pkg.version} from the registry is not the tarball regreen's lockfile recorded (integrity ${sha512(tarball).slice(0, 24)}…, expected ${pkg.integrity.slice(0, 24)}…)`,
        );
      tarballs.push(tarball);
    }
    writeFileSync(path.join(building, 'package.json'), '{"private":true}\n');
    await runNpm(
      ['install', '--ignore-scripts', '--no-audit', '--no-package-lock', '--no-save', ...tarballs],
      building,
      env,
      timeoutMs,
    );
    for (const pkg of packages) {
      const manifest = JSON.parse(
        readFileSync(
          path.join(building, 'node_modules', ...pkg.name.split('/'), 'package.json'),
          'utf8',
        ),
      ) as { version?: unknown };
      if (manifest.version !== pkg.version)
        throw new Error(
          `npm installed ${pkg.name}@${String(manifest.version)}, not ${pkg.version}`,
        );
    }
    const installed = path.join(building, 'node_modules', ...tool.name.split('/'));
    const record = {
      package: spec,
      ...(tool.integrity ? { integrity: tool.integrity } : {}),
      ...options.verify?.(tarballs[0] ?? '', installed),
    };
    options.prune?.(installed);
    if (options.launchers !== undefined) {
      const manifest: unknown = JSON.parse(
        readFileSync(path.join(installed, 'package.json'), 'utf8'),
      );
      const programs = programsOf(manifest, options.launchers);
      if (Object.keys(programs).length === 0) throw new Error(`${spec} has no programs`);
      mkdirSync(path.join(building, 'bin'));
      const finalDir = path.join(npmToolRoot(toolsDir, tool.name, tool.version), 'node_modules');
      for (const [program, file] of Object.entries(programs)) {
        const launcher = path.join(building, 'bin', program);
        const target = path.join(finalDir, ...tool.name.split('/'), file);
        writeFileSync(launcher, `#!/bin/sh\nexec node ${shellWord(target)} "$@"\n`);
        chmodSync(launcher, 0o755);
      }
    }
    for (const tarball of tarballs) rmSync(tarball);
    writeFileSync(path.join(building, '.complete'), `${JSON.stringify(record, null, 2)}\n`);
    // A temp folder is 0700: the sandbox's unprivileged uid must read the install.
    chmodSync(building, 0o755);
    const root = npmToolRoot(toolsDir, tool.name, tool.version);
    try {
      renameSync(building, root);
    } catch (error) {
      // Another process installed the same version first: theirs is as good.
      if (!existsSync(path.join(root, '.complete'))) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    const done = installedNpmTool(toolsDir, tool.name, tool.version);
    if (!done) throw new Error(`${spec} vanished from ${toolsDir} after its install`);
    return done;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new NpmToolError(
      tool.name,
      `${spec} could not be installed into ${toolsDir}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
};
