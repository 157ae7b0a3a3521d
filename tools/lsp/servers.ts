import { existsSync } from 'node:fs';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import { existsInside } from '../../src/workspace/repo/confined-stat.ts';
import { ownToolsOnly, type ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import type { Which } from '../../src/util/which.ts';
import path from 'node:path';

/** How to start one language's server, and how to tell its project roots. */
export interface ServerSpec {
  readonly language: string;
  readonly extensions: readonly string[];
  /** Files whose presence makes a folder a project root for this server. */
  readonly rootMarkers: readonly string[];
  /** The command line, or why it cannot be found here. */
  command(root: string): { argv: string[] } | { missing: string };
  /** Options for `initialize`. */
  initializationOptions?(root: string): unknown;
  /** The LSP language id of a file. */
  languageId(file: string): string;
  /** Whether the server reports diagnostics for this file (diagnostics on write waits for nothing otherwise). */
  reportsDiagnostics?(file: string, root: string): boolean;
  /** The project checker run for `diagnostics "*"`. */
  checker?(root: string): { argv: string[] } | { missing: string };
  /**
   * Gets what `command` and `checker` run onto this machine before either
   * runs (regreen fetches its npm servers the first time they are needed):
   * why not, for the model, when it cannot.
   */
  provide?(root: string): Promise<string | undefined>;
}

/** The project's own TypeScript (in its node_modules), if it has one. */
const projectTypescript = (root: string): string | undefined => {
  const lib = path.join(root, 'node_modules', 'typescript', 'lib');
  return existsSync(path.join(lib, 'tsserver.js')) ? lib : undefined;
};

/** Each package's folder, fetched first when regreen has none here; the first reason it cannot be. */
const provideAll = async (
  provided: ProvidedTools,
  names: readonly string[],
): Promise<string | undefined> => {
  for (const name of names) {
    const result = await provided.provide(name);
    if ('reason' in result) return result.reason;
  }
  return undefined;
};

const TS_IDS: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'typescriptreact',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascriptreact',
};

/**
 * The language servers regreen knows. TypeScript's and Python's are npm
 * packages regreen provides (fetched on first use into its tools folder; the
 * project's own TypeScript serves when it has one); the others are programs
 * on the operator's PATH.
 */
export const serverSpecs = (
  which: Which,
  node: string,
  provided: ProvidedTools = ownToolsOnly(),
): ServerSpec[] => {
  const missing = (name: string): { missing: string } => ({
    missing: `${name} is not installed with regreen and this build pins no version of it to fetch: reinstall regreen (in a checkout of it: npm ci)`,
  });
  /** The project's TypeScript, else the one regreen provides. */
  const typescriptLib = (root: string): string | undefined => {
    const theirs = projectTypescript(root);
    if (theirs) return theirs;
    const ours = provided.where('typescript');
    return ours ? path.join(ours, 'lib') : undefined;
  };
  return [
    {
      language: 'typescript',
      extensions: Object.keys(TS_IDS),
      rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
      command: () => {
        const server = provided.where('typescript-language-server');
        return server
          ? { argv: [node, path.join(server, 'lib', 'cli.mjs'), '--stdio'] }
          : missing('typescript-language-server');
      },
      provide: (root) =>
        provideAll(provided, [
          'typescript-language-server',
          ...(projectTypescript(root) ? [] : ['typescript']),
        ]),
      initializationOptions: (root) => {
        const lib = typescriptLib(root);
        return {
          tsserver: lib ? { path: path.join(lib, 'tsserver.js') } : {},
          disableAutomaticTypingAcquisition: true,
        };
      },
      languageId: (file) => TS_IDS[path.extname(file).slice(1)] ?? 'typescript',
      // JavaScript is type-checked only when the project asks for it (jsconfig.json, or checkJs).
      reportsDiagnostics: (file, root) => {
        if (TS_IDS[path.extname(file).slice(1)]?.startsWith('typescript')) return true;
        if (existsInside(root, path.join(root, 'jsconfig.json'))) return true;
        const tsconfig = readTextInside(root, path.join(root, 'tsconfig.json')) ?? '';
        return /"checkJs"\s*:\s*true/.test(tsconfig);
      },
      checker: (root) => {
        const lib = typescriptLib(root);
        if (!lib) return missing('typescript');
        const config = ['tsconfig.json', 'jsconfig.json'].find((name) =>
          existsInside(root, path.join(root, name)),
        );
        return {
          argv: [
            node,
            path.join(lib, 'tsc.js'),
            '--noEmit',
            '--pretty',
            'false',
            ...(config ? ['-p', path.join(root, config)] : []),
          ],
        };
      },
    },
    {
      language: 'python',
      extensions: ['py', 'pyi'],
      rootMarkers: [
        'pyproject.toml',
        'setup.py',
        'setup.cfg',
        'requirements.txt',
        'pyrightconfig.json',
      ],
      command: () => {
        const pyright = provided.where('pyright');
        return pyright
          ? { argv: [node, path.join(pyright, 'langserver.index.js'), '--stdio'] }
          : missing('pyright');
      },
      provide: () => provideAll(provided, ['pyright']),
      languageId: () => 'python',
      checker: (root) => {
        const pyright = provided.where('pyright');
        return pyright
          ? { argv: [node, path.join(pyright, 'index.js'), '--project', root] }
          : missing('pyright');
      },
    },
    {
      language: 'go',
      extensions: ['go'],
      rootMarkers: ['go.mod'],
      command: () => {
        const gopls = which('gopls');
        return gopls ? { argv: [gopls] } : { missing: 'gopls is not on PATH' };
      },
      languageId: () => 'go',
    },
    {
      language: 'c/c++',
      extensions: ['c', 'h', 'cc', 'cpp', 'cxx', 'hpp', 'hh'],
      rootMarkers: ['compile_commands.json', 'CMakeLists.txt', '.clangd', 'Makefile'],
      command: () => {
        const clangd = which('clangd');
        return clangd ? { argv: [clangd] } : { missing: 'clangd is not on PATH' };
      },
      languageId: (file) => (['c', 'h'].includes(path.extname(file).slice(1)) ? 'c' : 'cpp'),
    },
    {
      language: 'rust',
      extensions: ['rs'],
      rootMarkers: ['Cargo.toml'],
      command: () => {
        const analyzer = which('rust-analyzer');
        return analyzer ? { argv: [analyzer] } : { missing: 'rust-analyzer is not on PATH' };
      },
      languageId: () => 'rust',
    },
  ];
};
