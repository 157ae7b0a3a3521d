import { existsSync } from 'node:fs';
import { existsInside, readTextInside } from '../../src/workspace/confined-fs.ts';
import { createRequire } from 'node:module';
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
}

const require = createRequire(import.meta.url);
const resolveOwn = (specifier: string): string | undefined => {
  try {
    return require.resolve(specifier);
  } catch {
    return undefined;
  }
};

/** The workspace's own TypeScript when it has one, else the one regreen ships. */
const typescriptLib = (root: string): string | undefined => {
  const own = path.join(root, 'node_modules', 'typescript', 'lib');
  if (existsSync(path.join(own, 'tsserver.js'))) return own;
  const bundled = resolveOwn('typescript/package.json');
  return bundled ? path.join(path.dirname(bundled), 'lib') : undefined;
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

export const serverSpecs = (which: Which, node: string): ServerSpec[] => [
  {
    language: 'typescript',
    extensions: Object.keys(TS_IDS),
    rootMarkers: ['tsconfig.json', 'jsconfig.json', 'package.json'],
    command: () => {
      const cli = resolveOwn('typescript-language-server/lib/cli.mjs');
      return cli
        ? { argv: [node, cli, '--stdio'] }
        : { missing: 'typescript-language-server is not installed with regreen' };
    },
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
      if (!lib) return { missing: 'no typescript to run tsc with' };
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
      const server = resolveOwn('pyright/langserver.index.js');
      return server
        ? { argv: [node, server, '--stdio'] }
        : { missing: 'pyright is not installed with regreen' };
    },
    languageId: () => 'python',
    checker: (root) => {
      const cli = resolveOwn('pyright/index.js');
      return cli
        ? { argv: [node, cli, '--project', root] }
        : { missing: 'pyright is not installed with regreen' };
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
