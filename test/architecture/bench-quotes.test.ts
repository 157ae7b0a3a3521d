import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUOTING_PAGES, RESULTS_DIR, ROOT, quotedBlocks } from '../../bench/results.ts';

describe('the pages quote only figures a bench wrote', () => {
  const pages = QUOTING_PAGES();

  it.each(pages.map((page) => [path.relative(ROOT, page), page]))(
    '%s: every quoted block is its results file, as the bench wrote it',
    (_name, page) => {
      for (const block of quotedBlocks(page)) {
        const file = path.join(ROOT, block.file);
        expect(existsSync(file), `${block.file} is quoted but no bench wrote it`).toBe(true);
        expect(block.text, `${block.file} changed since it was quoted: npm run bench:quote`).toBe(
          readFileSync(file, 'utf8'),
        );
      }
    },
  );

  it('the start-up figures are quoted in the README', () => {
    const files = quotedBlocks(path.join(ROOT, 'README.md')).map((b) => b.file);
    expect(files).toContain('bench/results/start.txt');
  });

  it('every results file is quoted by a page', () => {
    const quoted = new Set(pages.flatMap((page) => quotedBlocks(page).map((b) => b.file)));
    const files = readdirSync(RESULTS_DIR)
      .filter((name) => name.endsWith('.txt'))
      .map((name) => `bench/results/${name}`);
    expect(files.filter((file) => !quoted.has(file))).toEqual([]);
  });

  it('every bench writes its figures with recordResult, and can be told not to', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const benches = Object.entries(scripts)
      .filter(([name]) => name.startsWith('bench:') && name !== 'bench:quote')
      .map(([name, command]) => [name, /bench\/[\w-]+\.ts/.exec(command)?.[0] ?? ''] as const);
    expect(benches.length).toBeGreaterThan(0);
    const unrecorded = benches.filter(([, file]) => {
      const text = file ? readFileSync(path.join(ROOT, file), 'utf8') : '';
      // Recording is either the default with `--no-record` to skip it, or asked for with `--record NAME`.
      return !text.includes('recordResult(') || !/no-record|flag\('record'\)/.test(text);
    });
    expect(unrecorded.map(([name]) => name)).toEqual([]);
  });
});
