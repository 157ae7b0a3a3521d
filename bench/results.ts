/**
 * What a bench printed, kept as the figures the README and `docs/` quote.
 *
 * A bench that ends with `recordResult(name, lines)` writes its summary to
 * `bench/results/<name>.txt`, under one line saying when, on what and at
 * which commit it was measured (Node, cores, the load average as it began).
 * A page quotes such a file between two markers:
 *
 *     <!-- bench/results/start.txt -->
 *
 *     ```
 *     …the file's text…
 *     ```
 *
 *     <!-- /bench/results/start.txt -->
 *
 * (the blank lines are Prettier's).
 *
 * `npm run bench:quote` copies every results file into its blocks;
 * `test/architecture/bench-quotes.test.ts` fails when a block differs from
 * its file, so a page's figure is always one a bench wrote.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
export const RESULTS_DIR = path.join(ROOT, 'bench', 'results');

/** The pages that may quote results. */
export const QUOTING_PAGES = (): string[] => [
  path.join(ROOT, 'README.md'),
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => path.join(ROOT, 'docs', name)),
];

const commitOf = (): string => {
  try {
    const head = execFileSync('git', ['-C', ROOT, 'rev-parse', '--short', 'HEAD'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    // The results files themselves are no change to what was measured.
    const dirty = execFileSync(
      'git',
      ['-C', ROOT, 'status', '--porcelain', '--', 'src', 'bench', ':(exclude)bench/results'],
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    ).trim();
    return dirty ? `${head} with uncommitted changes` : head;
  } catch {
    return 'an unknown commit';
  }
};

/** The load average when the bench began: read it before the bench loads the machine itself. */
export const loadAtStart = os.loadavg()[0] ?? 0;

/** Writes a bench's summary lines to `bench/results/<name>.txt`; returns the file. */
export const recordResult = (name: string, lines: readonly string[]): string => {
  if (!/^[a-z][a-z0-9-]*$/.test(name)) throw new Error(`not a results name: ${name}`);
  mkdirSync(RESULTS_DIR, { recursive: true });
  const file = path.join(RESULTS_DIR, `${name}.txt`);
  const day = new Date().toISOString().slice(0, 10);
  const head = `measured ${day} at ${commitOf()}, Node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart.toFixed(2)} at the start`;
  writeFileSync(file, `${[head, ...lines].join('\n')}\n`);
  return file;
};

const BLOCK =
  /<!-- (bench\/results\/[a-z][a-z0-9-]*\.txt) -->\n\n```\n([\s\S]*?)```\n\n<!-- \/\1 -->/g;

/** Every quoted block of a page: the results file it names and the text it holds. */
export const quotedBlocks = (page: string): { file: string; text: string }[] =>
  [...readFileSync(page, 'utf8').matchAll(BLOCK)].map((m) => ({
    file: m[1] ?? '',
    text: m[2] ?? '',
  }));

/** A page with each quoted block replaced by its results file's text. */
export const requote = (text: string): string =>
  text.replace(
    BLOCK,
    (_all, file: string) =>
      `<!-- ${file} -->\n\n\`\`\`\n${readFileSync(path.join(ROOT, file), 'utf8')}\`\`\`\n\n<!-- /${file} -->`,
  );

/** The middle value (the mean of the two middle ones for an even count; NaN for none). */
export const median = (values: readonly number[]): number => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? NaN)
    : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};
