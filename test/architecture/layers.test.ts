/**
 * The house plan, enforced: every source file sits on a layer, imports only
 * its own layer or the ones below, and no files import each other in a loop.
 * See docs/ARCHITECTURE.md; a new folder must be given a layer here.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** From the ground up. A file belongs to the longest prefix that names it. */
const LAYERS: readonly (readonly string[])[] = [
  ['src/util/', 'src/errors.ts', 'src/logger.ts'],
  ['src/config/'],
  ['src/model/', 'src/queue/', 'src/store/', 'src/workspace/'],
  ['src/observe/', 'src/forge/', 'src/questions/', 'src/intake/', 'checks/'],
  ['tools/'],
  ['src/agent/'],
  ['src/recipes/'],
  ['src/job/'],
  ['src/eval/', 'src/github/'],
  ['src/cli/'],
  ['src/entrypoints/', 'src/index.ts'],
];

const layerOf = (file: string): number => {
  let best = { layer: -1, length: 0 };
  LAYERS.forEach((prefixes, layer) => {
    for (const prefix of prefixes)
      if (file.startsWith(prefix) && prefix.length > best.length)
        best = { layer, length: prefix.length };
  });
  return best.layer;
};

const sources = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|mts)$/.test(name) ? [rel] : [];
  });

const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'|import\(\s*'(\.{1,2}\/[^']+)'\s*\)/g;

const graph = (): Map<string, string[]> => {
  const files = ['src', 'tools', 'checks'].flatMap(sources);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT)) {
      const spec = match[1] ?? match[2];
      if (!spec) continue;
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec));
      if (files.includes(target)) targets.push(target);
    }
    edges.set(file, targets);
  }
  return edges;
};

describe('the layers', () => {
  const edges = graph();

  it('every source file has a layer', () => {
    expect([...edges.keys()].filter((file) => layerOf(file) < 0)).toEqual([]);
  });

  it('no file imports from a layer above its own', () => {
    const upward = [...edges].flatMap(([file, targets]) =>
      targets
        .filter((target) => layerOf(target) > layerOf(file))
        .map((target) => `${file} -> ${target}`),
    );
    expect(upward).toEqual([]);
  });

  it('no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const stack: string[] = [];
    const visit = (file: string): void => {
      state.set(file, 'open');
      stack.push(file);
      for (const target of edges.get(file) ?? []) {
        if (state.get(target) === 'open')
          cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
        else if (!state.has(target)) visit(target);
      }
      stack.pop();
      state.set(file, 'done');
    };
    for (const file of edges.keys()) if (!state.has(file)) visit(file);
    expect(cycles).toEqual([]);
  });

  it('no source file over 350 lines but data tables', () => {
    const TABLES = new Set(['tools/ast/languages.ts']);
    const long = [...edges.keys()]
      .filter((file) => !TABLES.has(file))
      .map((file) => ({
        file,
        lines: readFileSync(path.join(ROOT, file), 'utf8').split('\n').length,
      }))
      .filter(({ lines }) => lines > 350)
      .map(({ file, lines }) => `${file}: ${lines}`);
    expect(long).toEqual([]);
  });
  // Where the environment is read: test/architecture/env-reads.test.ts, by type on the syntax tree.
});
