// regreen's entries bundled into ES modules with their JavaScript dependencies (what is imported on
// demand in chunks beside them), and the files the code reads beside itself copied next to them
// (the bundled modules ask for them relative to the bundle). Loading a few files instead of
// hundreds is most of regreen's start-up; each command's module is a chunk of its own
// (src/entrypoints/cli.ts imports the one a run names). The package's dependencies are only what
// the bundle loads from files (EXTERNAL); everything else it carries is a devDependency. Beside
// the bundle: provided-tools.json, the language servers and grammars regreen fetches on first
// use, pinned from package-lock.json (scripts/provided-tools.mjs). The build fails when a package
// it carries, installs or fetches does not accept every Node version package.json's engines
// states (scripts/engines.mjs).
//   node scripts/bundle.mjs   dist/regreen.mjs, the CLI (what bin/regreen.js runs when installed),
//                             and dist/index.mjs, the library (`import { runJob } from 'regreen'`)
import { build } from 'esbuild';
import { cpSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkEngines } from './engines.mjs';
import { writeProvidedPins } from './provided-tools.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Loaded from files at run time, never bundled: native libraries and the optional job store. */
const EXTERNAL = ['@ast-grep/napi', '@ast-grep/lang-*', 'better-sqlite3'];

/** The files read beside the code, at the paths the bundled modules ask for. */
const ASSETS = [
  ['src/agent/prompts', 'prompts'],
  ['tools/debug/relay.mjs', 'relay.mjs'],
  ['tools/kernels/drivers', 'drivers'],
];

/**
 * zod's messages in some forty languages (`z.locales`), of which regreen speaks one: English, which
 * zod sets itself on its first schema. The namespace keeps only `en`: 360 KB less for every start
 * to load.
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(builder) {
    // A file of the repository's, so the bundle names it by the same relative path wherever it is built.
    builder.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.join(ROOT, 'scripts', 'zod-locales-en.mjs') }
        : undefined,
    );
  },
};

/** Bundles `entries` (`{ name: source }`, each written as `name.mjs`) into `outDir`. */
export const bundleEntries = async ({ entries, outDir }) => {
  mkdirSync(outDir, { recursive: true });
  // Chunks of an earlier build have other names: none may linger beside this one.
  for (const name of readdirSync(outDir))
    if (name.endsWith('.mjs')) rmSync(path.join(outDir, name), { force: true });
  const { metafile } = await build({
    absWorkingDir: ROOT,
    entryPoints: Object.fromEntries(
      Object.entries(entries).map(([name, source]) => [name, path.join(ROOT, source)]),
    ),
    metafile: true,
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
    plugins: [zodEnglishOnly],
    // CommonJS dependencies bundled into an ES module still call require() for Node's own modules.
    banner: {
      js: "import { createRequire as __regreenRequire } from 'node:module';\nconst require = __regreenRequire(import.meta.url);",
    },
  });
  checkEngines(ROOT, metafile);
  for (const [from, to] of ASSETS)
    cpSync(path.join(ROOT, from), path.join(outDir, to), { recursive: true });
  writeProvidedPins(ROOT, outDir);
};

if (process.argv[1] === fileURLToPath(import.meta.url))
  await bundleEntries({
    entries: { regreen: 'src/entrypoints/cli-main.ts', index: 'src/index.ts' },
    outDir: path.join(ROOT, 'dist'),
  });
