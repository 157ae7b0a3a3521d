import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import {
  listInside,
  readFileInsideUpTo,
  readTextInside,
  writeFileInside,
} from '../repo/confined-fs.ts';

/**
 * npm's download cache is content-addressed (cacache): a tarball lives at
 * `_cacache/content-v2/<algorithm>/<hex 0-2>/<hex 2-4>/<hex 4->`, and `npm ci`
 * finds a package by the integrity its lockfile records, without any index.
 * So a sandbox's cache can be seeded with exactly the tarballs its lockfile
 * names, each checked against its own address: what a cache holds can make a
 * download faster, never change what is installed.
 */
export interface Tarball {
  readonly algorithm: string;
  readonly hex: string;
}

const ALGORITHMS = new Set(['sha512', 'sha384', 'sha256', 'sha1']);
const HEX_LENGTH: Record<string, number> = { sha512: 128, sha384: 96, sha256: 64, sha1: 40 };
/** A tarball larger than this is left to the download. */
const MAX_TARBALL_BYTES = 256 * 1024 * 1024;

const addressOf = (tarball: Tarball): string =>
  path.join(
    'content-v2',
    tarball.algorithm,
    tarball.hex.slice(0, 2),
    tarball.hex.slice(2, 4),
    tarball.hex.slice(4),
  );

/** The tarballs an SRI integrity string names (`sha512-<base64>`, several separated by spaces). */
export const tarballsOfIntegrity = (integrity: string): Tarball[] =>
  integrity
    .trim()
    .split(/\s+/)
    .flatMap((entry) => {
      const match = /^(sha\d+)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(entry);
      const algorithm = match?.[1] ?? '';
      if (!ALGORITHMS.has(algorithm)) return [];
      const hex = Buffer.from(match?.[2] ?? '', 'base64').toString('hex');
      return hex.length === HEX_LENGTH[algorithm] ? [{ algorithm, hex }] : [];
    });

/** Every integrity a package-lock.json (v1 to v3) or npm-shrinkwrap.json records, as tarballs. */
export const lockedTarballs = (workspace: string): Tarball[] => {
  const found = new Map<string, Tarball>();
  const visit = (node: unknown, depth: number): void => {
    if (depth > 64 || typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === 'integrity' && typeof value === 'string')
        for (const tarball of tarballsOfIntegrity(value)) found.set(addressOf(tarball), tarball);
      else visit(value, depth + 1);
    }
  };
  for (const name of ['package-lock.json', 'npm-shrinkwrap.json']) {
    const text = readTextInside(workspace, path.join(workspace, name));
    if (text === undefined) continue;
    try {
      visit(JSON.parse(text), 0);
    } catch {
      // Not JSON: nothing is seeded, the setup downloads (and npm says what is wrong).
    }
  }
  return [...found.values()];
};

/** The tarball's bytes from a cache, only if they are what its address says. */
const readVerified = (cacache: string, tarball: Tarball): Buffer | undefined => {
  const file = path.join(cacache, addressOf(tarball));
  let bytes: Buffer | undefined;
  try {
    bytes = readFileInsideUpTo(cacache, file, MAX_TARBALL_BYTES);
  } catch {
    return undefined;
  }
  if (!bytes) return undefined;
  return createHash(tarball.algorithm).update(bytes).digest('hex') === tarball.hex
    ? bytes
    : undefined;
};

/**
 * Copies into `target` (a sandbox's `~/.npm/_cacache`, made here) each
 * tarball regreen's store or another cache (the operator's own) has, checked
 * on the way. A tarball the store gave is marked used (the store is pruned
 * least recently used first). Returns how many were seeded.
 */
export const seedTarballs = (
  caches: { readonly store: string; readonly others: readonly string[] },
  target: string,
  tarballs: readonly Tarball[],
): number => {
  const present = [caches.store, ...caches.others].filter((source) =>
    existsSync(path.join(source, 'content-v2')),
  );
  if (present.length === 0 || tarballs.length === 0) return 0;
  mkdirSync(target, { recursive: true });
  let seeded = 0;
  for (const tarball of tarballs) {
    for (const source of present) {
      const bytes = readVerified(source, tarball);
      if (!bytes) continue;
      writeFileInside(target, path.join(target, addressOf(tarball)), bytes);
      if (source === caches.store) touch(path.join(source, addressOf(tarball)));
      seeded += 1;
      break;
    }
  }
  return seeded;
};

const touch = (file: string): void => {
  try {
    const now = new Date();
    utimesSync(file, now, now);
  } catch {
    // pruned meanwhile: nothing to mark
  }
};

/**
 * Adds to `store` the tarballs of a cache a sandbox filled that the store
 * lacks, each read once and kept only if its bytes hash to its address (a
 * sandbox may have written anything there, and may still be writing).
 * Entries that are not regular files at a well-formed address are skipped.
 */
export const importTarballs = (cacache: string, store: string): number => {
  const content = path.join(cacache, 'content-v2');
  if (!existsSync(content)) return 0;
  const list = (dir: string) => {
    try {
      return listInside(cacache, dir);
    } catch {
      return [];
    }
  };
  let imported = 0;
  for (const algorithm of list(content)) {
    if (!algorithm.isDirectory() || !ALGORITHMS.has(algorithm.name)) continue;
    for (const first of list(path.join(content, algorithm.name))) {
      if (!first.isDirectory() || !/^[0-9a-f]{2}$/.test(first.name)) continue;
      for (const second of list(path.join(content, algorithm.name, first.name))) {
        if (!second.isDirectory() || !/^[0-9a-f]{2}$/.test(second.name)) continue;
        const dir = path.join(content, algorithm.name, first.name, second.name);
        for (const rest of list(dir)) {
          if (!rest.isFile()) continue;
          const tarball = {
            algorithm: algorithm.name,
            hex: `${first.name}${second.name}${rest.name}`,
          };
          if (
            !/^[0-9a-f]+$/.test(tarball.hex) ||
            tarball.hex.length !== HEX_LENGTH[tarball.algorithm]
          )
            continue;
          if (existsSync(path.join(store, addressOf(tarball)))) continue;
          const bytes = readVerified(cacache, tarball);
          if (!bytes) continue;
          mkdirSync(store, { recursive: true });
          writeFileInside(store, path.join(store, addressOf(tarball)), bytes);
          imported += 1;
        }
      }
    }
  }
  return imported;
};

/** Removes the store's least recently used tarballs until it holds at most `maxBytes`. */
export const pruneTarballs = (store: string, maxBytes: number): void => {
  const content = path.join(store, 'content-v2');
  if (!existsSync(content)) return;
  const files: { file: string; size: number; used: number }[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) {
        const stats = statSync(file);
        files.push({ file, size: stats.size, used: stats.mtimeMs });
      }
    }
  };
  walk(content);
  let total = files.reduce((sum, entry) => sum + entry.size, 0);
  for (const entry of files.sort((a, b) => a.used - b.used)) {
    if (total <= maxBytes) break;
    rmSync(entry.file, { force: true });
    total -= entry.size;
  }
};
