import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { QUOTING_PAGES, ROOT, quotedBlocks } from '../../bench/results.ts';

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
});
