import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CommandResult } from '../../src/workspace/run-process.ts';
import { createSetupCache } from '../../src/workspace/setup/cache.ts';
import { touchesReads } from '../../src/workspace/setup/reads.ts';
import { makeTempDir } from '../support/tmp.ts';

const result = (exitCode: number): CommandResult => ({
  exitCode,
  timedOut: false,
  output: `installed (${exitCode})`,
  droppedBytes: 0,
  durationMs: 10,
});

describe('the setup cache', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  /** A clone, as every workspace is: its files committed. */
  const committed = (dir: string): string => {
    const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
    git('init', '-q');
    git('add', '-A');
    git('-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'base');
    return dir;
  };
  const workspace = (name: string, lock: string): string => {
    const dir = path.join(temp.dir, name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'package.json'), '{"name":"x"}');
    writeFileSync(path.join(dir, 'package-lock.json'), lock);
    return committed(dir);
  };
  const install =
    (dir: string, calls: string[], exitCode = 0) =>
    () => {
      calls.push(dir);
      mkdirSync(path.join(dir, 'node_modules', 'dep'), { recursive: true });
      writeFileSync(path.join(dir, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
      return Promise.resolve(result(exitCode));
    };

  it('installs once per lockfile and restores the artifacts into later workspaces', async () => {
    const cache = createSetupCache(path.join(temp.dir, 'cache'));
    const calls: string[] = [];
    const a = workspace('a', 'lock-1');
    const b = workspace('b', 'lock-1');
    const c = workspace('c', 'lock-2');
    expect(
      (await cache.run({ workspace: a, command: 'npm ci', setup: install(a, calls) })).exitCode,
    ).toBe(0);
    const restored = await cache.run({ workspace: b, command: 'npm ci', setup: install(b, calls) });
    expect(restored.output).toMatch(/restored from the cache/);
    expect(readFileSync(path.join(b, 'node_modules', 'dep', 'index.js'), 'utf8')).toMatch(
      /exports/,
    );
    await cache.run({ workspace: c, command: 'npm ci', setup: install(c, calls) });
    expect(calls).toEqual([a, c]);
  });

  it('restores over a node_modules link to a host folder without writing through it', async () => {
    const cache = createSetupCache(path.join(temp.dir, 'cache-link'));
    const calls: string[] = [];
    const a = workspace('link-a', 'lock-link');
    await cache.run({ workspace: a, command: 'npm ci', setup: install(a, calls) });
    const b = workspace('link-b', 'lock-link');
    const victim = path.join(temp.dir, 'host-victim');
    mkdirSync(victim, { recursive: true });
    // An ignored, untracked link where the artifact goes (what an applied change could leave).
    writeFileSync(path.join(b, '.git', 'info', 'exclude'), 'node_modules\n');
    symlinkSync(victim, path.join(b, 'node_modules'));
    const restored = await cache.run({ workspace: b, command: 'npm ci', setup: install(b, calls) });
    expect(restored.output).toMatch(/restored from the cache/);
    expect(readdirSync(victim)).toEqual([]);
    expect(lstatSync(path.join(b, 'node_modules')).isSymbolicLink()).toBe(false);
    expect(existsSync(path.join(b, 'node_modules', 'dep', 'index.js'))).toBe(true);
  });

  it("never restores a Python environment: it holds its first workspace's paths", async () => {
    const cache = createSetupCache(path.join(temp.dir, 'cache-python'));
    const calls: string[] = [];
    for (const name of ['py-a', 'py-b']) {
      const dir = path.join(temp.dir, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'requirements.txt'), 'six\n');
      committed(dir);
      await cache.run({
        workspace: dir,
        command: 'python3 -m venv .venv && .venv/bin/python -m pip install -e .',
        setup: () => {
          calls.push(name);
          mkdirSync(path.join(dir, '.venv'), { recursive: true });
          writeFileSync(path.join(dir, '.venv', 'pyvenv.cfg'), 'home = /usr/bin\n');
          writeFileSync(path.join(dir, '.venv', '__editable__.pth'), dir);
          return Promise.resolve(result(0));
        },
      });
    }
    expect(calls).toEqual(['py-a', 'py-b']);
    expect(readFileSync(path.join(temp.dir, 'py-b', '.venv', '__editable__.pth'), 'utf8')).toBe(
      path.join(temp.dir, 'py-b'),
    );
  });

  it('never caches a failed setup, and concurrent jobs with one key install once', async () => {
    const cache = createSetupCache(path.join(temp.dir, 'cache2'));
    const calls: string[] = [];
    const failed = workspace('f', 'lock-3');
    await cache.run({ workspace: failed, command: 'npm ci', setup: install(failed, calls, 1) });
    const again = workspace('g', 'lock-3');
    await cache.run({ workspace: again, command: 'npm ci', setup: install(again, calls) });
    expect(calls).toEqual([failed, again]);
    const [x, y] = [workspace('x', 'lock-4'), workspace('y', 'lock-4')];
    await Promise.all([
      cache.run({ workspace: x, command: 'npm ci', setup: install(x, calls) }),
      cache.run({ workspace: y, command: 'npm ci', setup: install(y, calls) }),
    ]);
    expect(calls.filter((c) => c === x || c === y)).toHaveLength(1);
    expect(existsSync(path.join(y, 'node_modules', 'dep'))).toBe(true);
  });

  it('restores only a setup that left nothing but node_modules: one that builds or rewrites a tracked file runs again', async () => {
    const cache = createSetupCache(path.join(temp.dir, 'cache-contained'));
    const calls: string[] = [];
    const builds = (dir: string) => async () => {
      const installed = await install(dir, calls)();
      mkdirSync(path.join(dir, 'dist'), { recursive: true });
      writeFileSync(path.join(dir, 'dist', 'index.js'), 'built\n');
      return installed;
    };
    const [p, q] = [workspace('build-p', 'lock-5'), workspace('build-q', 'lock-5')];
    await cache.run({ workspace: p, command: 'npm ci && npm run build', setup: builds(p) });
    await cache.run({ workspace: q, command: 'npm ci && npm run build', setup: builds(q) });
    expect(calls).toEqual([p, q]);
    expect(readFileSync(path.join(q, 'dist', 'index.js'), 'utf8')).toBe('built\n');
    const rewrites = (dir: string) => async () => {
      const installed = await install(dir, calls)();
      writeFileSync(path.join(dir, 'package-lock.json'), 'rewritten');
      return installed;
    };
    const [r, t] = [workspace('lock-r', 'lock-6'), workspace('lock-t', 'lock-6')];
    await cache.run({ workspace: r, command: 'npm install', setup: rewrites(r) });
    await cache.run({ workspace: t, command: 'npm install', setup: rewrites(t) });
    expect(calls.slice(2)).toEqual([r, t]);
  });

  describe('keyed by what the setup was seen to read', () => {
    /** A workspace with a generator script the setup reads and a source file it does not. */
    const tree = (name: string, files: Record<string, string>): string => {
      const dir = path.join(temp.dir, name);
      const all = {
        'package.json': '{"name":"x"}',
        'package-lock.json': 'lock',
        'scripts/gen.js': 'v1',
        'src/x.js': '1',
        'patches/a.patch': 'a',
        ...files,
      };
      for (const [file, text] of Object.entries(all)) {
        mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
        writeFileSync(path.join(dir, file), text);
      }
      return committed(dir);
    };
    /** An install that reads its generator and lists the patches folder, as patch-package does. */
    const reading = (dir: string, calls: string[]) => () => {
      readFileSync(path.join(dir, 'scripts', 'gen.js'));
      readdirSync(path.join(dir, 'patches'));
      return install(dir, calls)();
    };
    const run = (
      cache: ReturnType<typeof createSetupCache>,
      dir: string,
      calls: string[],
      context?: string,
    ) =>
      cache.run({
        workspace: dir,
        command: 'npm ci',
        ...(context === undefined ? {} : { context }),
        setup: reading(dir, calls),
      });

    it('a file it read that differs sets up again; a file it did not read is no input', async () => {
      const cache = createSetupCache(path.join(temp.dir, 'cache-reads'));
      const calls: string[] = [];
      const first = await run(cache, tree('r1', {}), calls);
      expect(first.reads?.files).toEqual(['scripts/gen.js']);
      // Only the source the setup never read differs: restored.
      const other = tree('r2', { 'src/x.js': '2' });
      expect((await run(cache, other, calls)).output).toMatch(/restored from the cache/);
      // The generator it read differs (a name no command or script spells out): set up again.
      const changed = tree('r3', { 'scripts/gen.js': 'v2' });
      await run(cache, changed, calls);
      expect(calls).toEqual([path.join(temp.dir, 'r1'), changed]);
    });

    it('a patch added to patches/, or a config looked up by name, sets up again', async () => {
      const cache = createSetupCache(path.join(temp.dir, 'cache-listed'));
      const calls: string[] = [];
      await run(cache, tree('l1', {}), calls);
      const patched = tree('l2', { 'patches/b.patch': 'b' });
      await run(cache, patched, calls);
      const npmrc = tree('l3', { '.npmrc': 'ignore-scripts=true\n' });
      await run(cache, npmrc, calls);
      expect(calls).toEqual([path.join(temp.dir, 'l1'), patched, npmrc]);
    });

    it('the environment and the toolchain (its context) key it', async () => {
      const cache = createSetupCache(path.join(temp.dir, 'cache-context'));
      const calls: string[] = [];
      await run(cache, tree('c1', {}), calls, '{"NODE_ENV":"production"}');
      const other = tree('c2', {});
      await run(cache, other, calls, '{"NODE_ENV":"development"}');
      expect(calls).toEqual([path.join(temp.dir, 'c1'), other]);
    });

    it('a committed link to a host file is neither marked nor read as an input', async () => {
      const host = path.join(temp.dir, 'host-secret');
      writeFileSync(host, 'secret');
      const before = lstatSync(host).atimeMs;
      const dir = tree('linked', {});
      symlinkSync(host, path.join(dir, '.npmrc'));
      const cache = createSetupCache(path.join(temp.dir, 'cache-linked'));
      const { reads } = await run(cache, dir, []);
      expect(lstatSync(host).atimeMs).toBe(before);
      expect(reads?.files).not.toContain('.npmrc');
    });

    it("the fresh check's early tree survives only a change the setup's reads do not see", async () => {
      const cache = createSetupCache(path.join(temp.dir, 'cache-holds'));
      const { reads } = await run(cache, tree('h1', {}), []);
      if (!reads) throw new Error('this file system records no reads');
      expect(touchesReads(reads, 'src/x.js')).toBe(false);
      expect(touchesReads(reads, 'scripts/gen.js')).toBe(true);
      expect(touchesReads(reads, 'patches/new.patch')).toBe(true);
      expect(touchesReads(reads, 'README.md')).toBe(false);
      expect(touchesReads(reads, 'sub/package.json')).toBe(true);
    });
  });
});
