// The GitHub Action's committed build: `action/` holds everything the Action
// runs, so a workflow starts it with no install and no compile step.
//   action/index.mjs         the Action's code and its pure-JavaScript dependencies, one ESM file
//   action/prompts, relay.mjs, drivers/
//                            the files the code reads beside itself (as in src/ and tools/)
//   action/node_modules/     what cannot be one file: ast-grep's native library and the grammars
//                            the package ships (its dependencies), for Linux x64 and arm64 (the
//                            runners' Linux machines)
//   action/provided-tools.json
//                            what the Action fetches the first time a tool needs it (the language
//                            servers, the other grammars), pinned from package-lock.json: the
//                            runner has the network, as any machine regreen runs on
// `npm run build:action` writes it; `npm run build:action -- --check` fails when the
// committed copy differs from a fresh build (CI runs it).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleEntries, ROOT } from './bundle.mjs';

const check = process.argv.includes('--check');
const out = check ? mkdtempSync(path.join(tmpdir(), 'regreen-action-')) : path.join(ROOT, 'action');

/** Packages copied whole (minus source maps, docs and other platforms' binaries): the shipped grammars. */
const RUNTIME_PACKAGES = [
  '@ast-grep/napi',
  '@ast-grep/napi-linux-x64-gnu',
  '@ast-grep/setup-lang',
  ...Object.keys(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).dependencies)
    .filter((name) => name.startsWith('@ast-grep/lang-'))
    .sort(),
];

/** Files a package's run time never reads (a grammar's prebuilds for Windows and macOS too). */
const SKIPPED =
  /(\.map|\.md|\.d\.ts|\.ts\.map|LICENSE\.txt)$|\/prebuild-(?!Linux-X64|Linux-ARM64)[^/]+$|\/src$/;

/**
 * ast-grep's native library for the runners' other Linux machine. npm installs
 * only this machine's, so it is fetched by the version and integrity the
 * lockfile records for it (npm pack reads npm's cache first) and unpacked.
 */
const OTHER_NATIVE = ['@ast-grep/napi-linux-arm64-gnu'];

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
await bundleEntries({ entries: { index: 'src/entrypoints/action-main.ts' }, outDir: out });
for (const pkg of RUNTIME_PACKAGES) {
  const from = path.join(ROOT, 'node_modules', pkg);
  if (!existsSync(from)) throw new Error(`${pkg} is not installed: run npm ci first`);
  cpSync(from, path.join(out, 'node_modules', pkg), {
    recursive: true,
    dereference: true,
    filter: (file) => !SKIPPED.test(file.split(path.sep).join('/')),
  });
}

for (const pkg of OTHER_NATIVE) unpackLocked(pkg, path.join(out, 'node_modules', pkg));

if (check) {
  const differences = compareWithCommitted(out);
  rmSync(out, { recursive: true, force: true });
  if (differences.length > 0) {
    console.error(
      `action/ is stale (${differences.length} files differ: ${differences.slice(0, 5).join(', ')}${differences.length > 5 ? ', …' : ''}); run npm run build:action and commit it`,
    );
    process.exit(1);
  }
  console.log('action/ matches a fresh build');
}

/** Unpacks the tarball of `pkg` at the lockfile's version, after checking the lockfile's integrity. */
function unpackLocked(pkg, dest) {
  const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${pkg}`];
  if (!entry?.version || !entry.integrity?.startsWith('sha512-'))
    throw new Error(`package-lock.json records no version and sha512 integrity for ${pkg}`);
  const work = mkdtempSync(path.join(tmpdir(), 'regreen-native-'));
  try {
    const [packed] = JSON.parse(
      execFileSync(
        'npm',
        [
          'pack',
          '--json',
          '--ignore-scripts',
          '--pack-destination',
          work,
          `${pkg}@${entry.version}`,
        ],
        { cwd: work, stdio: ['ignore', 'pipe', 'inherit'] },
      ).toString('utf8'),
    );
    const tarball = path.join(work, packed.filename);
    const digest = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
    if (digest !== entry.integrity)
      throw new Error(`${pkg}@${entry.version}: integrity ${digest} is not the lockfile's`);
    const unpacked = path.join(work, 'unpacked');
    mkdirSync(unpacked);
    execFileSync('tar', [
      '-xzf',
      tarball,
      '-C',
      unpacked,
      '--no-same-owner',
      '--no-same-permissions',
    ]);
    cpSync(path.join(unpacked, 'package'), dest, {
      recursive: true,
      filter: (file) => !SKIPPED.test(file.split(path.sep).join('/')),
    });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Relative paths where a fresh build and the committed action/ differ: a file
 * of one that git does not track in the other (an ignore rule that swallows
 * part of the build counts as stale), or other bytes.
 */
function compareWithCommitted(built) {
  const files = (root, dir = '') =>
    readdirSync(path.join(root, dir)).flatMap((name) => {
      const rel = path.join(dir, name);
      return statSync(path.join(root, rel)).isDirectory() ? files(root, rel) : [rel];
    });
  const fresh = files(built);
  const tracked = execFileSync('git', ['ls-files', '-z', '--', 'action'], { cwd: ROOT })
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((file) => path.relative('action', file));
  const all = [...new Set([...fresh, ...tracked])].sort();
  const trackedSet = new Set(tracked);
  return all.filter((rel) => {
    const x = path.join(built, rel);
    const y = path.join(ROOT, 'action', rel);
    return (
      !existsSync(x) ||
      !trackedSet.has(rel) ||
      !existsSync(y) ||
      !readFileSync(x).equals(readFileSync(y))
    );
  });
}
