// One entry of regreen bundled into a single ES module with its JavaScript
// dependencies (what is imported on demand in chunks beside it), and the files
// the code reads beside itself copied next to it (the bundled modules ask for
// them relative to the bundle). Loading a few files
// instead of hundreds is most of regreen's start-up; each command's module is a
// chunk of its own (src/entrypoints/cli.ts imports the one a run names).
//   node scripts/bundle.mjs   the CLI: dist/regreen.mjs (what bin/regreen.js runs when installed)
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Loaded from files at run time, never bundled: native libraries and the optional job store. */
const EXTERNAL = ['@ast-grep/napi', '@ast-grep/lang-*', 'better-sqlite3'];

/** The files read beside the code, at the paths the bundled modules ask for. */
const ASSETS = [
  ['src/agent/prompts', 'prompts'],
  ['tools/debug/relay.mjs', 'relay.mjs'],
  ['tools/kernels/drivers', 'drivers'],
];

export const bundleEntry = async ({ entry, outDir, outName }) => {
  mkdirSync(outDir, { recursive: true });
  // Chunks of an earlier build have other names: none may linger beside this one.
  for (const name of readdirSync(outDir))
    if (name.endsWith('.mjs')) rmSync(path.join(outDir, name), { force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: { [outName.replace(/\.mjs$/, '')]: path.join(ROOT, entry) },
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    // What the code imports on demand (a model's SDK, ast-grep and its native library) stays in a
    // chunk of its own, loaded only when used. Chunks sit beside the entry: the paths the modules
    // ask for beside themselves stay the same.
    splitting: true,
    chunkNames: '[name]-[hash]',
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.18',
    external: EXTERNAL,
    legalComments: 'none',
    logLevel: 'warning',
    // CommonJS dependencies bundled into an ES module still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __regreenRequire } from 'node:module';\nconst require = __regreenRequire(import.meta.url);",
    },
  });
  for (const [from, to] of ASSETS)
    cpSync(path.join(ROOT, from), path.join(outDir, to), { recursive: true });
};

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleEntry({
    entry: 'src/entrypoints/cli-main.ts',
    outDir: path.join(ROOT, 'dist'),
    outName: 'regreen.mjs',
  });
