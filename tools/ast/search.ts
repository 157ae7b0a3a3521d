import { readFileInsideUpTo } from '../../src/workspace/repo/confined-fs.ts';
import { readFilesInside } from '../../src/workspace/repo/confined-batch.ts';
import { parse, type NapiConfig, type SgNode } from '@ast-grep/napi';
import path from 'node:path';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import { parsedTree } from './parsed-trees.ts';
import { decodeUtf8, looksBinary } from '../../src/util/text.ts';
import type { AstLanguage } from './languages.ts';

/** Files bigger than this are skipped: generated bundles, not code to edit. */
export const MAX_AST_FILE_BYTES = 1024 * 1024;

/** What one folder-wide search reads at most, all files together: the rest is not searched, and the answer says so. */
export const MAX_AST_SEARCH_BYTES = 64 * 1024 * 1024;

export interface AstMatch {
  /** Absolute path. */
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly column: number;
  readonly text: string;
  readonly captures: Readonly<Record<string, string>>;
  readonly node: SgNode;
}

/** The text a metavariable captured; a `$$$` run is the source from its first node to its last. */
export const captures = (
  node: SgNode,
  vars: { single: readonly string[]; multi: readonly string[] },
  source: () => string,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const name of vars.single) {
    const match = node.getMatch(name);
    if (match) out[name] = match.text();
  }
  for (const name of vars.multi) {
    const run = node.getMultipleMatches(name);
    const first = run[0];
    const last = run.at(-1);
    out[name] =
      first && last ? source().slice(first.range().start.index, last.range().end.index) : '';
  }
  return out;
};

/**
 * The matches of one file, outermost only (a match nested inside an earlier
 * one is dropped: rewriting both would overlap). `source` is the text the
 * tree was parsed from: a match's text and a `$$$` run are sliced from it,
 * and each node's range is asked of the parser once.
 */
const toMatches = (
  file: string,
  nodes: readonly SgNode[],
  vars: { single: string[]; multi: string[] },
  source: string,
): AstMatch[] => {
  const spans = nodes
    .map((node) => ({ node, range: node.range() }))
    .sort(
      (a, b) => a.range.start.index - b.range.start.index || b.range.end.index - a.range.end.index,
    );
  const matches: AstMatch[] = [];
  let end = -1;
  for (const { node, range } of spans) {
    if (range.start.index < end) continue;
    end = range.end.index;
    matches.push({
      file,
      line: range.start.line + 1,
      column: range.start.column + 1,
      text: source.slice(range.start.index, range.end.index),
      captures: captures(node, vars, () => source),
      node,
    });
  }
  return matches;
};

/** A file's text for parsing; undefined when it was not read (see `readFilesInside`), is binary or is not UTF-8. */
const sourceOf = (bytes: Buffer | undefined): string | undefined =>
  bytes === undefined || looksBinary(bytes) ? undefined : decodeUtf8(bytes);

/** Reads one file for parsing; undefined when it is absent, not a regular file, binary, huge or not UTF-8. */
export const readSource = (workspace: string, file: string): string | undefined => {
  try {
    return sourceOf(readFileInsideUpTo(workspace, file, MAX_AST_FILE_BYTES));
  } catch {
    return undefined; // gone, a folder, or a link where a file was: not read
  }
};

/** How many files are parsed at once (the parses run on libuv's threads). */
const PARSE_CONCURRENCY = 8;

/**
 * Every match of the rule under `target` (a file or a folder). A folder's
 * files are the ones git knows (tracked, or new and not ignored) with the
 * language's extensions; each is read through descriptors inside the
 * workspace and parsed from exactly those bytes (a folder swapped for a
 * symlink is refused, never followed), several at a time off the main thread,
 * and its tree kept for the next search while its text stays the same.
 * Binary, huge and non-UTF-8 files are skipped.
 */
export const searchAst = async (options: {
  workspace: string;
  target: string;
  isDirectory: boolean;
  language: AstLanguage;
  rule: NapiConfig | string;
  vars: { single: string[]; multi: string[] };
}): Promise<{ matches: AstMatch[]; files: number; unread?: number }> => {
  const { language, rule, vars, workspace } = options;
  if (!options.isDirectory) {
    const source = readSource(workspace, options.target);
    if (source === undefined) return { matches: [], files: 0 };
    const nodes = parse(language.napi, source).root().findAll(rule);
    return {
      matches: toMatches(options.target, nodes, vars, source),
      files: nodes.length > 0 ? 1 : 0,
    };
  }
  const under = path.relative(workspace, options.target);
  const extensions = new Set(language.extensions.map((ext) => `.${ext}`));
  const files = (await knownFiles(workspace))
    .filter((rel) => under === '' || rel.startsWith(`${under}/`))
    .filter((rel) => extensions.has(path.extname(rel)))
    .sort((a, b) => a.localeCompare(b))
    .map((rel) => path.join(workspace, rel));
  // Read in one pass (each folder opened once), then parsed biggest first: the threads end together.
  const read = readFilesInside(workspace, files, {
    maxBytes: MAX_AST_FILE_BYTES,
    totalBytes: MAX_AST_SEARCH_BYTES,
  });
  const sources = read.bytes.map(sourceOf);
  const order = files
    .map((_, index) => index)
    .filter((index) => sources[index] !== undefined)
    .sort((a, b) => (sources[b]?.length ?? 0) - (sources[a]?.length ?? 0));
  const perFile: AstMatch[][] = new Array<AstMatch[]>(files.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < order.length) {
      const index = order[next] ?? 0;
      next += 1;
      const file = files[index] ?? '';
      const source = sources[index] ?? '';
      const root = await parsedTree(file, language, source);
      const nodes = root.root().findAll(rule);
      if (nodes.length > 0) perFile[index] = toMatches(file, nodes, vars, source);
    }
  };
  await Promise.all(Array.from({ length: PARSE_CONCURRENCY }, worker));
  const matches = perFile.flat();
  return {
    matches,
    files: new Set(matches.map((match) => match.file)).size,
    ...(read.overBudget > 0 ? { unread: read.overBudget } : {}),
  };
};
