import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { z } from 'zod';
import { defaultToolsDir, type Env } from '../../config/env.ts';
import { describeError } from '../../errors.ts';
import { installedNpmTool, installNpmTool, npmToolRoot, type NpmPackageSpec } from './npm-tools.ts';

/**
 * What regreen fetches the first time a tool needs it instead of installing
 * it with regreen: the language servers (pyright, typescript-language-server,
 * and TypeScript for a project without its own) and the rarer ast-grep
 * grammars. The build pins each, with what it needs, to the version and
 * integrity regreen's package-lock.json records (`provided-tools.json` beside
 * the bundle, written by scripts/provided-tools.mjs); the first use installs
 * exactly those tarballs into the tools folder (`installNpmTool`), where
 * every later job finds them. A package regreen's own node_modules already
 * holds at the pinned version (a checkout after `npm ci`, the common grammars
 * that ship) is used as it is.
 */
export type Pins = ReadonlyMap<string, readonly [NpmPackageSpec, ...NpmPackageSpec[]]>;

const PinsFile = z.object({
  tools: z.record(
    z.string(),
    z
      .array(
        z.object({
          name: z.string().min(1),
          version: z.string().regex(/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/),
          integrity: z.string().startsWith('sha512-'),
        }),
      )
      .min(1),
  ),
});

/** The pins in a `provided-tools.json`; none when the file is absent (regreen run from its sources). */
export const readPins = (file: string | URL): Pins => {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return new Map();
  }
  const { tools } = PinsFile.parse(JSON.parse(text));
  return new Map(
    Object.entries(tools).map(([name, packages]) => [
      name,
      packages as unknown as readonly [NpmPackageSpec, ...NpmPackageSpec[]],
    ]),
  );
};

let shipped: Pins | undefined;

/** The pins the build wrote beside the bundle (dist/, action/). */
export const shippedPins = (): Pins =>
  (shipped ??= readPins(new URL('./provided-tools.json', import.meta.url)));

export type Provided = { readonly dir: string } | { readonly reason: string };

export interface ProvidedTools {
  /** The package's folder when it is on this machine now. */
  find(name: string): string | undefined;
  /** Where it is, or will be once provided; undefined when regreen can neither find nor fetch it. */
  where(name: string): string | undefined;
  /** The package's folder, fetched into the tools folder the first time; why not, for the model, when it cannot be. */
  provide(name: string, options?: { prune?: (dir: string) => void }): Promise<Provided>;
  /** Each package regreen fetches on first use, and where it is when it is here. */
  list(): { readonly name: string; readonly version: string; readonly dir?: string }[];
}

/** The folders Node would find `name` in from regreen's own code, with the version each holds. */
const ownCopies = (name: string): { dir: string; version: unknown }[] => {
  const paths = createRequire(import.meta.url).resolve.paths(name) ?? [];
  return paths.flatMap((modules) => {
    const dir = path.join(modules, ...name.split('/'));
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        version?: unknown;
      };
      return [{ dir, version: manifest.version }];
    } catch {
      return [];
    }
  });
};

export const providedTools = (options: {
  /** regreen's tools folder; without it nothing is fetched. */
  readonly toolsDir?: string;
  readonly env?: Env;
  readonly pins?: Pins;
  /** Where regreen's own copies are (default: where Node resolves them from this module). */
  readonly own?: (name: string) => { dir: string; version: unknown }[];
  /** Told as a first use's download begins (`name@version`): it can take a while. */
  readonly onFetch?: (what: string) => void;
}): ProvidedTools => {
  const pins: Pins = options.pins ?? new Map();
  const own = options.own ?? ownCopies;
  const failed = new Map<string, string>();
  const find = (name: string): string | undefined => {
    const pinned = pins.get(name)?.[0];
    // Regreen's own copy, at the version the build pinned when it pinned one.
    const mine = own(name).find((copy) => !pinned || copy.version === pinned.version);
    if (mine) return mine.dir;
    if (!pinned || options.toolsDir === undefined) return undefined;
    // One installed from the locked tarball: its record names the same integrity.
    const installed = installedNpmTool(options.toolsDir, name, pinned.version);
    return installed && installed.record.integrity === pinned.integrity ? installed.dir : undefined;
  };
  return {
    find,
    where: (name) => {
      const found = find(name);
      if (found) return found;
      const pinned = pins.get(name)?.[0];
      if (!pinned || options.toolsDir === undefined) return undefined;
      return path.join(
        npmToolRoot(options.toolsDir, name, pinned.version),
        'node_modules',
        ...name.split('/'),
      );
    },
    provide: async (name, provideOptions) => {
      const found = find(name);
      if (found) return { dir: found };
      const packages = pins.get(name);
      const { toolsDir } = options;
      if (!packages || toolsDir === undefined)
        return {
          reason: `${name} is not installed with regreen${packages ? '' : ' and this build of regreen pins no version of it to fetch'}: reinstall regreen (in a checkout of it: npm ci)`,
        };
      // A failure is remembered: the next call says the same without asking npm again.
      const before = failed.get(name);
      if (before) return { reason: before };
      try {
        options.onFetch?.(`${name}@${packages[0].version}`);
        const installed = await installNpmTool({
          toolsDir,
          env: options.env ?? {},
          packages,
          ...(provideOptions?.prune ? { prune: provideOptions.prune } : {}),
        });
        return { dir: installed.dir };
      } catch (error) {
        const reason = `regreen fetches ${name}@${packages[0].version} from the npm registry the first time it is needed, and could not: ${describeError(error)}. It comes from the registry npm uses on this machine (npm config get registry; npm_config_registry names another) into ${toolsDir} (REGREEN_TOOLS_DIR moves it); regreen doctor lists what is fetched`;
        failed.set(name, reason);
        return { reason };
      }
    },
    list: () =>
      [...pins.values()].map(([tool]) => {
        const dir = find(tool.name);
        return { name: tool.name, version: tool.version, ...(dir ? { dir } : {}) };
      }),
  };
};

/** The tools regreen provides on this machine: the shipped pins, fetched into the operator's tools folder. */
export const providedToolsFor = (env: Env, onFetch?: (what: string) => void): ProvidedTools =>
  providedTools({
    toolsDir: defaultToolsDir(env),
    env,
    pins: shippedPins(),
    ...(onFetch ? { onFetch } : {}),
  });

/** Regreen's own copies only, nothing fetched (tests, benches, descriptions). */
export const ownToolsOnly = (): ProvidedTools => providedTools({});
