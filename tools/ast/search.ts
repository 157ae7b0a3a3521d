import { readFileInside, statInside } from '../../src/workspace/confined-fs.ts';
import { findInFiles, parse, type NapiConfig, type SgNode } from '@ast-grep/napi';
import { decodeUtf8, looksBinary } from '../../src/util/text.ts';
import { resolveInsideWorkspace } from '../../src/workspace/paths.ts';
import type { AstLanguage } from './languages.ts';

/** Files bigger than this are skipped: generated bundles, not code to edit. */
export const MAX_AST_FILE_BYTES = 1024 * 1024;

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

const asConfig = (rule: NapiConfig | string): NapiConfig =>
  typeof rule === 'string' ? { rule: { pattern: rule } } : rule;

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

/** Drops matches nested inside an earlier match in the same file: rewriting both would overlap. */
const outermost = (nodes: readonly SgNode[]): SgNode[] => {
  const sorted = [...nodes].sort(
    (a, b) =>
      a.range().start.index - b.range().start.index || b.range().end.index - a.range().end.index,
  );
  const kept: SgNode[] = [];
  let end = -1;
  for (const node of sorted) {
    if (node.range().start.index < end) continue;
    kept.push(node);
    end = node.range().end.index;
  }
  return kept;
};

const toMatches = (
  file: string,
  nodes: readonly SgNode[],
  vars: { single: string[]; multi: string[] },
): AstMatch[] => {
  // The file's text, fetched from the parser once per file and only when a $$$ capture needs it.
  let text: string | undefined;
  const source = (): string => (text ??= nodes[0]?.getRoot().root().text() ?? '');
  return outermost(nodes).map((node) => ({
    file,
    line: node.range().start.line + 1,
    column: node.range().start.column + 1,
    text: node.text(),
    captures: captures(node, vars, source),
    node,
  }));
};

/** Reads one file for parsing; undefined when it is binary, huge or not UTF-8. */
export const readSource = (workspace: string, file: string): string | undefined => {
  const info = statInside(workspace, file);
  if (!info?.isFile() || info.size > MAX_AST_FILE_BYTES) return undefined;
  const bytes = readFileInside(workspace, file);
  return looksBinary(bytes) ? undefined : decodeUtf8(bytes);
};

/**
 * Every match of the rule under `target` (a file or a folder). A folder is
 * walked by the library's multi-threaded search, which respects .gitignore;
 * matches in huge files or outside the workspace are dropped.
 */
export const searchAst = async (options: {
  workspace: string;
  target: string;
  isDirectory: boolean;
  language: AstLanguage;
  rule: NapiConfig | string;
  vars: { single: string[]; multi: string[] };
}): Promise<{ matches: AstMatch[]; files: number }> => {
  const { language, rule, vars } = options;
  if (!options.isDirectory) {
    const source = readSource(options.workspace, options.target);
    if (source === undefined) return { matches: [], files: 0 };
    const nodes = parse(language.napi, source).root().findAll(rule);
    return { matches: toMatches(options.target, nodes, vars), files: nodes.length > 0 ? 1 : 0 };
  }
  const perFile = new Map<string, SgNode[]>();
  let callbacks = 0;
  let failure: Error | undefined;
  const expected = await findInFiles(
    language.napi,
    { paths: [options.target], matcher: asConfig(rule) },
    (error, nodes) => {
      callbacks += 1;
      if (error) failure = error;
      for (const node of nodes) {
        const file = node.getRoot().filename();
        perFile.set(file, [...(perFile.get(file) ?? []), node]);
      }
    },
  );
  // The promise can settle before the last callbacks have run on this thread.
  for (let spins = 0; callbacks < expected && spins < 2000; spins += 1)
    await new Promise((resolve) => setImmediate(resolve));
  if (failure) throw failure;
  const matches: AstMatch[] = [];
  for (const [file, nodes] of [...perFile].sort(([a], [b]) => a.localeCompare(b))) {
    if (!resolveInsideWorkspace(options.workspace, file).ok) continue;
    // The library's walk opened files by name: a match counts only when the file, read
    // again through descriptors inside the workspace, is what was parsed (a folder
    // swapped for a symlink during the walk would have parsed a file outside).
    const info = statInside(options.workspace, file);
    if (!info?.isFile() || info.size > MAX_AST_FILE_BYTES) continue;
    const parsed = nodes[0]?.getRoot().root().text();
    const reread = readSource(options.workspace, file);
    if (parsed === undefined || reread?.replace(/^\uFEFF/, '') !== parsed.replace(/^\uFEFF/, ''))
      continue;
    matches.push(...toMatches(file, nodes, vars));
  }
  return { matches, files: new Set(matches.map((match) => match.file)).size };
};
