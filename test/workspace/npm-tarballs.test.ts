import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  importTarballs,
  lockedTarballs,
  pruneTarballs,
  seedTarballs,
  tarballsOfIntegrity,
} from '../../src/workspace/setup/npm-tarballs.ts';
import { makeTempDir } from '../support/tmp.ts';

const digest = (algorithm: string, text: string, encoding: 'hex' | 'base64') =>
  createHash(algorithm).update(text).digest(encoding);
const at = (root: string, algorithm: string, text: string): string => {
  const hex = digest(algorithm, text, 'hex');
  return path.join(root, 'content-v2', algorithm, hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));
};
const put = (file: string, content: string): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
};

describe('npm tarballs by their integrity', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('reads SRI strings: several hashes, options, and nothing from a malformed one', () => {
    const a = digest('sha512', 'a', 'base64');
    const b = digest('sha1', 'b', 'base64');
    expect(tarballsOfIntegrity(`sha512-${a}?foo sha1-${b}`)).toEqual([
      { algorithm: 'sha512', hex: digest('sha512', 'a', 'hex') },
      { algorithm: 'sha1', hex: digest('sha1', 'b', 'hex') },
    ]);
    expect(tarballsOfIntegrity('md5-AAAA')).toEqual([]);
    expect(tarballsOfIntegrity('sha512-dG9vc2hvcnQ=')).toEqual([]);
    expect(tarballsOfIntegrity('')).toEqual([]);
  });

  it('finds every integrity of a v1 lockfile (nested dependencies) and a v3 one; a broken one gives none', () => {
    const ws = path.join(temp.dir, 'lock');
    put(
      path.join(ws, 'package-lock.json'),
      JSON.stringify({
        lockfileVersion: 1,
        dependencies: {
          x: {
            integrity: `sha512-${digest('sha512', 'x', 'base64')}`,
            dependencies: { y: { integrity: `sha1-${digest('sha1', 'y', 'base64')}` } },
          },
        },
      }),
    );
    put(
      path.join(ws, 'npm-shrinkwrap.json'),
      JSON.stringify({
        lockfileVersion: 3,
        packages: { 'node_modules/z': { integrity: `sha512-${digest('sha512', 'z', 'base64')}` } },
      }),
    );
    expect(lockedTarballs(ws).map((t) => t.hex)).toEqual([
      digest('sha512', 'x', 'hex'),
      digest('sha1', 'y', 'hex'),
      digest('sha512', 'z', 'hex'),
    ]);
    put(path.join(ws, 'package-lock.json'), '{ not json');
    expect(lockedTarballs(ws)).toHaveLength(1);
  });

  it('seeds from the store first, then the operator cache, only whole tarballs; imports only true ones', () => {
    const store = path.join(temp.dir, 'store');
    const operator = path.join(temp.dir, 'operator');
    const target = path.join(temp.dir, 'home', '.npm', '_cacache');
    put(at(store, 'sha512', 'one'), 'one');
    put(at(operator, 'sha512', 'two'), 'two');
    put(at(store, 'sha512', 'three'), 'not three');
    put(at(operator, 'sha512', 'three'), 'three');
    const wanted = ['one', 'two', 'three', 'four'].flatMap((t) =>
      tarballsOfIntegrity(`sha512-${digest('sha512', t, 'base64')}`),
    );
    expect(seedTarballs({ store, others: [operator] }, target, wanted)).toBe(3);
    for (const text of ['one', 'two', 'three'])
      expect(readFileSync(at(target, 'sha512', text), 'utf8')).toBe(text);
    expect(existsSync(at(target, 'sha512', 'four'))).toBe(false);

    // The sandbox's cache, back: a true tarball, a forged one, a link, a stray name.
    const filled = path.join(temp.dir, 'filled');
    put(at(filled, 'sha512', 'five'), 'five');
    put(at(filled, 'sha512', 'six'), 'forged');
    mkdirSync(path.dirname(at(filled, 'sha512', 'seven')), { recursive: true });
    symlinkSync(path.join(operator, 'x'), at(filled, 'sha512', 'seven'));
    put(path.join(filled, 'content-v2', 'sha512', 'zz', 'zz', 'nothex'), 'stray');
    const fresh = path.join(temp.dir, 'fresh-store');
    expect(importTarballs(filled, fresh)).toBe(1);
    expect(readFileSync(at(fresh, 'sha512', 'five'), 'utf8')).toBe('five');
  });

  it('prunes the least recently used tarballs down to the bound', () => {
    const store = path.join(temp.dir, 'prune');
    const old = new Date(Date.now() - 3_600_000);
    for (const [index, text] of ['aaaa', 'bbbb', 'cccc'].entries()) {
      put(at(store, 'sha512', text), text);
      const when = new Date(old.getTime() + index * 60_000);
      utimesSync(at(store, 'sha512', text), when, when);
    }
    pruneTarballs(store, 8);
    expect(existsSync(at(store, 'sha512', 'aaaa'))).toBe(false);
    expect(existsSync(at(store, 'sha512', 'bbbb'))).toBe(true);
    expect(existsSync(at(store, 'sha512', 'cccc'))).toBe(true);
  });
});
