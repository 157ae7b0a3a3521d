// What regreen fetches the first time a tool needs it, rather than what npm installs with it: the
// language servers (and TypeScript, their fallback for a project without its own) and the ast-grep
// grammars that are devDependencies (the common ones are dependencies and ship). Each is pinned
// here, at build time, to the version and integrity package-lock.json records, with the packages
// it needs: the build writes them to provided-tools.json beside the bundle (dist/, action/), and
// src/workspace/setup/provided-tools.ts fetches exactly those tarballs.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const PROVIDED_SERVERS = ['pyright', 'typescript-language-server', 'typescript'];

/** The lockfile entry a package at `from` gets for `name`, found the way Node resolves it. */
const resolveIn = (packages, from, name) => {
  let base = from;
  for (;;) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const cut = base.lastIndexOf('/node_modules/');
    base = cut < 0 ? '' : base.slice(0, cut);
  }
};

/** The tool and every package it needs at run time (not optional or peer ones), each once. */
export const lockClosure = (packages, name) => {
  const seen = new Map();
  const visit = (location) => {
    const entry = packages[location];
    const pkgName = location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (seen.has(pkgName)) return;
    if (!entry?.version || !entry.integrity?.startsWith('sha512-'))
      throw new Error(`package-lock.json records no version and sha512 integrity for ${location}`);
    seen.set(pkgName, { name: pkgName, version: entry.version, integrity: entry.integrity });
    for (const dep of Object.keys(entry.dependencies ?? {})) {
      const found = resolveIn(packages, location, dep);
      if (!found) throw new Error(`package-lock.json has no ${dep} for ${location}`);
      visit(found);
    }
  };
  const top = `node_modules/${name}`;
  if (!packages[top]) throw new Error(`${name} is not in package-lock.json`);
  visit(top);
  return [...seen.values()];
};

/** `{ tools: { name: [the tool, then what it needs] } }`, from the lockfile at `root`. */
export const providedPins = (root) => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const grammars = Object.keys(manifest.devDependencies ?? {}).filter((name) =>
    name.startsWith('@ast-grep/lang-'),
  );
  const names = [...PROVIDED_SERVERS, ...grammars].sort();
  for (const name of names)
    if (manifest.dependencies?.[name])
      throw new Error(`${name} is a dependency: it ships, regreen does not fetch it`);
  return {
    tools: Object.fromEntries(names.map((name) => [name, lockClosure(lock.packages, name)])),
  };
};

export const writeProvidedPins = (root, outDir) =>
  writeFileSync(
    path.join(outDir, 'provided-tools.json'),
    `${JSON.stringify(providedPins(root), null, 2)}\n`,
  );
