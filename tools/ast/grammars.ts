import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describeError } from '../../src/errors.ts';
import { registerGrammarsOnce, type DynamicPackage } from '../../src/util/ast-grammars.ts';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import type { ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import { DYNAMIC, type AstLanguage } from './languages.ts';

/**
 * The dynamic grammars of this process. @ast-grep/napi registers dynamic
 * languages once per process (a limit of the library), so the first search
 * in one registers every grammar there is here at once: the ones regreen
 * ships, the ones fetched into the tools folder before, and — fetched now —
 * the one asked for and every other one the workspace has files of. A grammar
 * first needed after that is fetched for the next process, and the search
 * says so; built-in languages (TypeScript, JavaScript, HTML, CSS) need none
 * of this.
 */
interface Registered {
  readonly ids: ReadonlySet<string>;
  /** Why a grammar the workspace needed is not among them. */
  readonly reasons: ReadonlyMap<string, string>;
}

let registered: Promise<Registered> | undefined;

const PLATFORMS: Record<string, string> = { linux: 'Linux', darwin: 'macOS', win32: 'Windows' };
const ARCHES: Record<string, string> = { x64: 'X64', arm64: 'ARM64' };

/** A fetched grammar keeps only this machine's parser: not the others' nor the C sources. */
export const pruneGrammar = (dir: string): void => {
  const mine = `prebuild-${PLATFORMS[process.platform] ?? ''}-${ARCHES[process.arch] ?? ''}`;
  rmSync(path.join(dir, 'src'), { recursive: true, force: true });
  for (const platform of Object.values(PLATFORMS))
    for (const arch of Object.values(ARCHES)) {
      const prebuild = `prebuild-${platform}-${arch}`;
      if (prebuild !== mine)
        rmSync(path.join(dir, 'prebuilds', prebuild), { recursive: true, force: true });
    }
};

/** The dynamic languages a workspace has files of. */
const workspaceLanguages = async (workspace: string): Promise<Set<string>> => {
  const extensions = new Set(
    // A workspace git cannot list registers only the language asked for.
    (await knownFiles(workspace).catch(() => [])).map((file) =>
      path.extname(file).slice(1).toLowerCase(),
    ),
  );
  return new Set(
    DYNAMIC.filter((language) => language.extensions.some((ext) => extensions.has(ext))).map(
      (language) => language.id,
    ),
  );
};

const register = async (
  wanted: ReadonlySet<string>,
  provided: ProvidedTools,
): Promise<Registered> => {
  const reasons = new Map<string, string>();
  // What is wanted and not here is fetched, side by side.
  await Promise.all(
    DYNAMIC.filter((language) => wanted.has(language.id)).map(async (language) => {
      const result = await provided.provide(language.pkg, { prune: pruneGrammar });
      if ('reason' in result) reasons.set(language.id, result.reason);
    }),
  );
  const require = createRequire(import.meta.url);
  const registrations: Record<string, DynamicPackage> = {};
  for (const language of DYNAMIC) {
    const dir = provided.find(language.pkg);
    if (!dir) continue;
    try {
      const pkg = require(dir) as DynamicPackage;
      // A package without a prebuilt parser for this machine throws here.
      const libraryPath = pkg.libraryPath;
      if (!existsSync(libraryPath)) throw new Error(`no parser at ${libraryPath}`);
      registrations[language.id] = { ...pkg, libraryPath, extensions: pkg.extensions };
    } catch (error) {
      reasons.set(
        language.id,
        `the ${language.pkg} grammar does not load here: ${describeError(error)}`,
      );
    }
  }
  let ids: ReadonlySet<string>;
  try {
    // The checks may have registered the shipped grammars first (once per process).
    ids = registerGrammarsOnce(registrations);
  } catch (error) {
    const why = `ast-grep could not load its grammars: ${describeError(error)}`;
    return { ids: new Set(), reasons: new Map(DYNAMIC.map((language) => [language.id, why])) };
  }
  return { ids: new Set(Object.keys(registrations).filter((id) => ids.has(id))), reasons };
};

/** Loads the language's grammar if it needs one: nothing, or why it cannot be searched, for the model. */
export const loadGrammar = async (
  language: AstLanguage,
  workspace: string,
  provided: ProvidedTools,
): Promise<{ error: string } | undefined> => {
  const pkg = language.pkg;
  if (pkg === undefined) return undefined;
  registered ??= workspaceLanguages(workspace).then((languages) =>
    register(new Set([language.id, ...languages]), provided),
  );
  const { ids, reasons } = await registered;
  if (ids.has(language.id)) return undefined;
  const reason = reasons.get(language.id);
  if (reason) return { error: `no ${language.id} grammar: ${reason}` };
  // Registered before this language was needed: fetched now, it loads in regreen's next process.
  const result = await provided.provide(pkg, { prune: pruneGrammar });
  return {
    error:
      'reason' in result
        ? `no ${language.id} grammar: ${result.reason}`
        : `the ${language.id} grammar was fetched after this process had loaded its grammars (ast-grep loads them once per process): it loads from regreen's next start; use search and read for ${language.id} meanwhile`,
  };
};
