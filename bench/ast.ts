/**
 * `npm run bench:ast`: one structural pattern over a large real tree (the
 * declaration files of the `typescript` and `@types/node` packages), regreen's
 * `ast_grep` search in-process against the `@ast-grep/cli` binary on the same
 * pattern and files, interleaved in the same run. regreen keeps parsed trees
 * between searches while a file's text is unchanged (the CLI parses every
 * file every time): the first call is printed apart (cold: every file read and
 * parsed), the median over the runs after it is the warm figure. Prints both
 * figures with their ratios and targets side by side, and whether both found
 * the same matches; writes them to `bench/results/ast.txt` (`--no-record`: not).
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { astLanguages } from '../tools/ast/languages.ts';
import { compilePattern, metavariables } from '../tools/ast/pattern.ts';
import { MAX_AST_FILE_BYTES, searchAst } from '../tools/ast/search.ts';
import { noFollowProbe } from '../src/workspace/repo/git.ts';
import { recordResult, median } from './results.ts';

const runs = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 5);
const PATTERN = 'function $NAME($$$ARGS): $RET;';
const require = createRequire(import.meta.url);
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-ast-'));
const tree = path.join(root, 'tree');

const copyDeclarations = (from: string, to: string): void => {
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    if (entry.isDirectory()) copyDeclarations(source, path.join(to, entry.name));
    else if (entry.name.endsWith('.d.ts') && statSync(source).size <= MAX_AST_FILE_BYTES) {
      mkdirSync(to, { recursive: true });
      copyFileSync(source, path.join(to, entry.name));
    }
  }
};
copyDeclarations(
  path.dirname(require.resolve('typescript/package.json')),
  path.join(tree, 'typescript'),
);
copyDeclarations(
  path.join(path.dirname(require.resolve('typescript/package.json')), '..', '@types', 'node'),
  path.join(tree, 'node'),
);
execFileSync('git', ['init', '-q'], { cwd: tree });
const files = execFileSync('git', ['ls-files', '--others'], { cwd: tree, encoding: 'utf8' })
  .trim()
  .split('\n').length;

const language = astLanguages().languages.get('typescript');
if (!language) throw new Error('typescript grammar missing');
const compiled = compilePattern(language, PATTERN);
if (!compiled.ok) throw new Error(compiled.error);
const sg = path.join(path.dirname(require.resolve('@ast-grep/cli/package.json')), 'sg');

const ours = async (): Promise<Set<string>> => {
  const { matches } = await searchAst({
    workspace: tree,
    target: tree,
    isDirectory: true,
    language,
    rule: compiled.rule,
    vars: metavariables(PATTERN),
  });
  return new Set(matches.map((m) => `${path.relative(tree, m.file)}:${m.line}:${m.column}`));
};
const theirs = (): Set<string> => {
  const out = execFileSync(
    sg,
    ['run', '--pattern', PATTERN, '--lang', 'ts', '--json=compact', tree],
    { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 },
  );
  const results = JSON.parse(out) as {
    file: string;
    range: { start: { line: number; column: number } };
  }[];
  return new Set(
    results.map(
      (r) =>
        `${path.relative(tree, path.resolve(tree, r.file))}:${r.range.start.line + 1}:${r.range.start.column + 1}`,
    ),
  );
};

const time = async <T>(work: () => Promise<T> | T): Promise<[number, T]> => {
  const started = process.hrtime.bigint();
  const value = await work();
  return [Number(process.hrtime.bigint() - started) / 1e6, value];
};

// The view host git lists the workspace on is proved once per process; a job begins that beside
// its clone, long before its agent's first search.
await noFollowProbe();
const oursTimes: number[] = [];
const theirTimes: number[] = [];
let same = true;
let count = 0;
for (let i = 0; i < runs; i += 1) {
  const [a, found] = await time(ours);
  const [b, expected] = await time(theirs);
  oursTimes.push(a);
  theirTimes.push(b);
  count = found.size;
  same &&= found.size === expected.size && [...found].every((key) => expected.has(key));
}
rmSync(root, { recursive: true, force: true });
const [coldOurs = 0, ...warmOurs] = oursTimes;
const [coldTheirs = 0] = theirTimes;
const cold = coldOurs / coldTheirs;
const warm = median(warmOurs) / median(theirTimes);
const lines = [
  `bench:ast, ${runs} interleaved runs each; pattern: ${PATTERN}   files: ${files} (declaration files of typescript and @types/node)   matches: ${count}`,
  `(left out: the OS's file cache is warm for both after the copy; the CLI's own process start is in its figures; regreen's one-time proof that the host can make git's view of a workspace, which a job begins beside its clone)`,
  `regreen ast_grep: first call ${coldOurs.toFixed(0)} ms (cold: every file read and parsed), then median ${median(warmOurs).toFixed(0)} ms (warm: trees kept)`,
  `@ast-grep/cli:    first call ${coldTheirs.toFixed(0)} ms, median ${median(theirTimes).toFixed(0)} ms (it parses every file on every call)`,
  `regreen/cli: cold ${cold.toFixed(2)}× (target ≤ 1.1×: ${cold <= 1.1 ? 'met' : 'NOT met'})   warm ${warm.toFixed(2)}× (target ≤ 1.2×: ${warm <= 1.2 ? 'met' : 'NOT met'})   same matches: ${same ? 'yes' : 'NO'}`,
];
for (const line of lines) console.log(line);
console.log(
  `runs: regreen [${oursTimes.map((t) => t.toFixed(0)).join(', ')}]   cli [${theirTimes.map((t) => t.toFixed(0)).join(', ')}]`,
);
if (!process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(process.cwd(), recordResult('ast', lines))}`);
