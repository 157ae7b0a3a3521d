// The Node versions package.json's `engines` states must be ones every package regreen runs
// accepts: what the bundle carries (read from esbuild's metafile), what npm installs with the
// package (its dependencies, with theirs), and what it fetches on first use (provided-tools.json).
// The build fails on a package whose `engines` leaves out a version regreen claims, rather than a
// user's install warning EBADENGINE.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { lockClosure, providedPins } from './provided-tools.mjs';

/** The folder of the package a bundled file comes from (`node_modules/a/node_modules/@b/c`). */
const packageDirOf = (file) => {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(file.split(path.sep).join('/'));
  return match?.[1];
};

/** `name@version: its range` for each package whose engines do not cover `ours`. */
export const enginesGaps = (root, metafile) => {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const ours = manifest.engines?.node;
  if (!ours) throw new Error('package.json states no engines.node');
  const dirs = new Set(
    Object.keys(metafile?.inputs ?? {})
      .map(packageDirOf)
      .filter(Boolean),
  );
  const installed = Object.keys(manifest.dependencies ?? {}).flatMap((name) =>
    lockClosure(lock.packages, name),
  );
  const fetched = Object.values(providedPins(root).tools).flat();
  const named = [...installed, ...fetched].map((pkg) => `node_modules/${pkg.name}`);
  const gaps = [];
  for (const dir of new Set([...dirs, ...named])) {
    const entry = lock.packages[dir];
    const range = entry?.engines?.node;
    if (range && !semver.subset(ours, range, { includePrerelease: false }))
      gaps.push(`${dir.replace(/^.*node_modules\//, '')}@${entry.version} wants node ${range}`);
  }
  return { ours, gaps: gaps.sort() };
};

export const checkEngines = (root, metafile) => {
  const { ours, gaps } = enginesGaps(root, metafile);
  if (gaps.length > 0)
    throw new Error(
      `package.json's engines (node ${ours}) claims versions these packages do not accept: ${gaps.join('; ')}. Narrow engines, or pick versions that accept them (package.json overrides)`,
    );
};
