import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  createTwoFilesPatch
} from "./chunk-JDXO5HYH.mjs";
import {
  registerGrammarsOnce
} from "./chunk-J5MRF7EP.mjs";
import {
  ownToolsOnly
} from "./chunk-YELE2N65.mjs";
import {
  knownFiles
} from "./chunk-NQAGCYDC.mjs";
import "./chunk-2ZZLC3XA.mjs";
import {
  describeError
} from "./chunk-2SKYD2FN.mjs";
import {
  checkPath,
  defineTool,
  fail,
  ok,
  writeAllOrNothing
} from "./chunk-Z47US34S.mjs";
import {
  decodeUtf8,
  external_exports,
  looksBinary,
  relativeToWorkspace
} from "./chunk-EABGHHZK.mjs";
import {
  at,
  checkOpened,
  readAll,
  readFileInsideUpTo,
  readTextInside,
  segmentsInside
} from "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";

// tools/ast/prepare.ts
import { stat } from "node:fs/promises";

// tools/ast/grammars.ts
import { existsSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import path2 from "node:path";

// tools/ast/languages.ts
import path from "node:path";
import { Lang } from "@ast-grep/napi";
var CLASS_BRACES = [
  { name: "class member", template: "class __C {\n{}\n}" },
  { name: "statement", template: "function __f() {\n{}\n}" },
  { name: "expression", template: "__x = (\n{}\n);" },
  { name: "object member", template: "__x = {\n{}\n};" }
];
var BUILT_IN = [
  {
    id: "typescript",
    napi: Lang.TypeScript,
    extensions: ["ts", "mts", "cts"],
    expando: "$",
    contexts: CLASS_BRACES
  },
  { id: "tsx", napi: Lang.Tsx, extensions: ["tsx"], expando: "$", contexts: CLASS_BRACES },
  {
    id: "javascript",
    napi: Lang.JavaScript,
    extensions: ["js", "mjs", "cjs", "jsx"],
    expando: "$",
    contexts: CLASS_BRACES
  },
  { id: "html", napi: Lang.Html, extensions: ["html", "htm"], expando: "$", contexts: [] },
  {
    id: "css",
    napi: Lang.Css,
    extensions: ["css"],
    expando: "$",
    contexts: [{ name: "declaration", template: "__x {\n{}\n}" }]
  }
];
var GRAMMARS = [
  {
    id: "python",
    pkg: "@ast-grep/lang-python",
    extensions: ["py"],
    expando: "\xB5",
    contexts: [
      { name: "class member", template: "class __C:\n    {}" },
      { name: "statement", template: "def __f():\n    {}" }
    ]
  },
  {
    id: "go",
    pkg: "@ast-grep/lang-go",
    extensions: ["go"],
    expando: "\xB5",
    contexts: [
      { name: "declaration", template: "package __p\n{}" },
      { name: "statement", template: "package __p\nfunc __f() {\n{}\n}" },
      { name: "struct member", template: "package __p\ntype __T struct {\n{}\n}" }
    ]
  },
  {
    id: "rust",
    pkg: "@ast-grep/lang-rust",
    extensions: ["rs"],
    expando: "\xB5",
    contexts: [
      { name: "statement", template: "fn __f() {\n{}\n}" },
      { name: "impl member", template: "impl __T {\n{}\n}" },
      { name: "struct member", template: "struct __T {\n{}\n}" }
    ]
  },
  {
    id: "java",
    pkg: "@ast-grep/lang-java",
    extensions: ["java"],
    expando: "$",
    contexts: [
      { name: "class member", template: "class __C {\n{}\n}" },
      { name: "statement", template: "class __C { void __f() {\n{}\n} }" }
    ]
  },
  {
    id: "c",
    pkg: "@ast-grep/lang-c",
    extensions: ["c", "h"],
    expando: "_",
    contexts: [
      { name: "statement", template: "void __f() {\n{}\n}" },
      { name: "struct member", template: "struct __T {\n{}\n};" }
    ]
  },
  {
    id: "cpp",
    pkg: "@ast-grep/lang-cpp",
    extensions: ["cc", "hpp", "cpp", "hh", "cxx", "cu", "ino"],
    expando: "_",
    contexts: [
      { name: "class member", template: "class __C {\n{}\n};" },
      { name: "statement", template: "void __f() {\n{}\n}" }
    ]
  },
  {
    id: "dart",
    pkg: "@ast-grep/lang-dart",
    extensions: ["dart"],
    expando: "$",
    contexts: [
      { name: "class member", template: "class __C {\n{}\n}" },
      { name: "statement", template: "void __f() {\n{}\n}" }
    ]
  },
  {
    id: "kotlin",
    pkg: "@ast-grep/lang-kotlin",
    extensions: ["kt", "ktm", "kts"],
    expando: "\xB5",
    contexts: [
      { name: "class member", template: "class __C {\n{}\n}" },
      { name: "statement", template: "fun __f() {\n{}\n}" }
    ]
  },
  {
    id: "ruby",
    pkg: "@ast-grep/lang-ruby",
    extensions: ["rb", "rbw", "gemspec"],
    expando: "\xB5",
    contexts: [
      { name: "class member", template: "class C__\n  {}\nend" },
      { name: "statement", template: "def __f\n  {}\nend" }
    ]
  },
  {
    id: "bash",
    pkg: "@ast-grep/lang-bash",
    extensions: [
      "bash",
      "bats",
      "cgi",
      "command",
      "env",
      "fcgi",
      "ksh",
      "sh",
      "tmux",
      "tool",
      "zsh"
    ],
    expando: "$",
    contexts: [{ name: "statement", template: "__f() {\n{}\n}" }]
  },
  {
    id: "yaml",
    pkg: "@ast-grep/lang-yaml",
    extensions: ["yaml", "yml"],
    expando: "$",
    contexts: []
  },
  {
    id: "json",
    pkg: "@ast-grep/lang-json",
    extensions: ["json"],
    expando: "$",
    contexts: []
  }
];
var DYNAMIC = GRAMMARS.map((grammar) => ({
  ...grammar,
  napi: grammar.id
}));
var LANGUAGES = new Map(
  [...BUILT_IN, ...DYNAMIC].map((language) => [language.id, language])
);
var astLanguages = () => ({
  languages: LANGUAGES
});
var languageOfFile = (file) => {
  const extension = path.extname(file).slice(1).toLowerCase();
  return [...LANGUAGES.values()].find((language) => language.extensions.includes(extension));
};

// tools/ast/grammars.ts
var registered;
var PLATFORMS = { linux: "Linux", darwin: "macOS", win32: "Windows" };
var ARCHES = { x64: "X64", arm64: "ARM64" };
var pruneGrammar = (dir) => {
  const mine = `prebuild-${PLATFORMS[process.platform] ?? ""}-${ARCHES[process.arch] ?? ""}`;
  rmSync(path2.join(dir, "src"), { recursive: true, force: true });
  for (const platform of Object.values(PLATFORMS))
    for (const arch of Object.values(ARCHES)) {
      const prebuild = `prebuild-${platform}-${arch}`;
      if (prebuild !== mine)
        rmSync(path2.join(dir, "prebuilds", prebuild), { recursive: true, force: true });
    }
};
var workspaceLanguages = async (workspace) => {
  const extensions = new Set(
    // A workspace git cannot list registers only the language asked for.
    (await knownFiles(workspace).catch(() => [])).map(
      (file) => path2.extname(file).slice(1).toLowerCase()
    )
  );
  return new Set(
    DYNAMIC.filter((language) => language.extensions.some((ext) => extensions.has(ext))).map(
      (language) => language.id
    )
  );
};
var register = async (wanted, provided) => {
  const reasons = /* @__PURE__ */ new Map();
  await Promise.all(
    DYNAMIC.filter((language) => wanted.has(language.id)).map(async (language) => {
      const result = await provided.provide(language.pkg, { prune: pruneGrammar });
      if ("reason" in result) reasons.set(language.id, result.reason);
    })
  );
  const require2 = createRequire(import.meta.url);
  const registrations = {};
  for (const language of DYNAMIC) {
    const dir = provided.find(language.pkg);
    if (!dir) continue;
    try {
      const pkg = require2(dir);
      const libraryPath = pkg.libraryPath;
      if (!existsSync(libraryPath)) throw new Error(`no parser at ${libraryPath}`);
      registrations[language.id] = { ...pkg, libraryPath, extensions: pkg.extensions };
    } catch (error) {
      reasons.set(
        language.id,
        `the ${language.pkg} grammar does not load here: ${describeError(error)}`
      );
    }
  }
  let ids;
  try {
    ids = registerGrammarsOnce(registrations);
  } catch (error) {
    const why = `ast-grep could not load its grammars: ${describeError(error)}`;
    return { ids: /* @__PURE__ */ new Set(), reasons: new Map(DYNAMIC.map((language) => [language.id, why])) };
  }
  return { ids: new Set(Object.keys(registrations).filter((id) => ids.has(id))), reasons };
};
var loadGrammar = async (language, workspace, provided) => {
  const pkg = language.pkg;
  if (pkg === void 0) return void 0;
  registered ??= workspaceLanguages(workspace).then(
    (languages) => register(/* @__PURE__ */ new Set([language.id, ...languages]), provided)
  );
  const { ids, reasons } = await registered;
  if (ids.has(language.id)) return void 0;
  const reason = reasons.get(language.id);
  if (reason) return { error: `no ${language.id} grammar: ${reason}` };
  const result = await provided.provide(pkg, { prune: pruneGrammar });
  return {
    error: "reason" in result ? `no ${language.id} grammar: ${result.reason}` : `the ${language.id} grammar was fetched after this process had loaded its grammars (ast-grep loads them once per process): it loads from regreen's next start; use search and read for ${language.id} meanwhile`
  };
};

// tools/ast/pattern.ts
import { parse } from "@ast-grep/napi";
var metavariables = (pattern) => {
  const single = /* @__PURE__ */ new Set();
  const multi = /* @__PURE__ */ new Set();
  for (const match of pattern.matchAll(/\$\$\$([A-Z][A-Z0-9_]*)|\$([A-Z][A-Z0-9_]*)/g)) {
    if (match[1]) multi.add(match[1]);
    else if (match[2]) single.add(match[2]);
  }
  return { single: [...single], multi: [...multi] };
};
var hasError = (language, source) => parse(language.napi, source.replaceAll("$", language.expando)).root().has({ rule: { kind: "ERROR" } });
var accepted = (language, rule) => {
  try {
    parse(language.napi, "").root().findAll(rule);
    return true;
  } catch {
    return false;
  }
};
var place = (template, fragment) => {
  const at2 = template.indexOf("{}");
  const lineStart = template.lastIndexOf("\n", at2) + 1;
  const indent = /^\s*/.exec(template.slice(lineStart, at2))?.[0] ?? "";
  const body = fragment.split("\n").map((line, index) => index === 0 ? line : `${indent}${line}`).join("\n");
  return {
    source: template.slice(0, at2) + body + template.slice(at2 + 2),
    start: at2,
    end: at2 + body.length
  };
};
var selectorAt = (language, source, start, end) => {
  const root = parse(language.napi, source.replaceAll("$", language.expando)).root();
  let best;
  const visit = (node) => {
    const range = node.range();
    if (range.start.index > start || range.end.index < end) return;
    if (range.start.index === start && range.end.index === end && node.isNamed() && best === void 0)
      best = String(node.kind());
    for (const child of node.children()) visit(child);
  };
  for (const child of root.children()) visit(child);
  return best;
};
var compilePattern = (language, pattern) => {
  const fragment = pattern.trim();
  if (!fragment) return { ok: false, error: "the pattern is empty" };
  if (!hasError(language, fragment) && accepted(language, fragment))
    return { ok: true, rule: fragment, context: "as written" };
  for (const context of language.contexts) {
    const placed = place(context.template, fragment);
    if (hasError(language, placed.source)) continue;
    const selector = selectorAt(language, placed.source, placed.start, placed.end);
    if (!selector) continue;
    const rule = { rule: { pattern: { context: placed.source, selector } } };
    if (accepted(language, rule)) return { ok: true, rule, context: context.name };
  }
  const tried = ["as written", ...language.contexts.map((context) => context.name)].join(", ");
  return {
    ok: false,
    error: `the pattern is unparseable in ${language.id} (tried: ${tried}). Write a complete ${language.id} fragment: an expression, a statement, a declaration or a class member, with $NAME for any node and $$$NAME for a run of nodes`
  };
};

// tools/ast/prepare.ts
var prepareSearch = async (input, workspace, provided) => {
  const checked = checkPath(workspace, input.path ?? workspace);
  if (!checked.ok) return { error: checked.error };
  let isDirectory;
  try {
    isDirectory = (await stat(checked.value)).isDirectory();
  } catch {
    return { error: `not found: ${input.path ?? workspace}` };
  }
  const { languages } = astLanguages();
  let language;
  if (input.language !== void 0) {
    language = languages.get(input.language.toLowerCase());
    if (!language)
      return {
        error: `unknown language "${input.language}": use one of ${[...languages.keys()].join(", ")}`
      };
  } else if (!isDirectory) {
    language = languageOfFile(checked.value);
    if (!language)
      return {
        error: `cannot tell the language of ${input.path ?? ""} from its extension: give language (${[...languages.keys()].join(", ")})`
      };
  } else {
    return { error: `give language when searching a folder (${[...languages.keys()].join(", ")})` };
  }
  const unloaded = await loadGrammar(language, workspace, provided);
  if (unloaded) return unloaded;
  const compiled = compilePattern(language, input.pattern);
  if (!compiled.ok) return { error: compiled.error };
  return {
    language,
    target: checked.value,
    isDirectory,
    rule: compiled.rule,
    context: compiled.context,
    vars: metavariables(input.pattern)
  };
};

// tools/ast/rewrite.ts
var substitute = (template, match) => template.replace(
  /\$\$\$([A-Z][A-Z0-9_]*)|\$([A-Z][A-Z0-9_]*)/g,
  (whole, multi, single) => {
    const name = multi ?? single ?? "";
    return match.captures[name] ?? whole;
  }
);
var rewriteFile = (matches, template) => {
  const first = matches[0];
  if (!first) throw new Error("no match to rewrite");
  const root = first.node.getRoot().root();
  const edits = matches.map((match) => match.node.replace(substitute(template, match)));
  return root.commitEdits(edits);
};

// src/workspace/repo/confined-batch.ts
import { closeSync, constants, fstatSync, openSync, realpathSync } from "node:fs";
var { O_RDONLY, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
var readFilesInside = (workspace, files, limits) => {
  const { maxBytes } = limits;
  let budget = limits.totalBytes;
  let overBudget = 0;
  const root = realpathSync(workspace);
  const folders = /* @__PURE__ */ new Map();
  const opened = [];
  const folder = (segments) => {
    const key = segments.join("/");
    if (folders.has(key)) return folders.get(key);
    let fd;
    try {
      if (segments.length === 0) fd = openSync(root, O_RDONLY | O_DIRECTORY);
      else {
        const parent = folder(segments.slice(0, -1));
        if (parent !== void 0)
          fd = openSync(at(parent, segments.at(-1) ?? ""), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      }
      if (fd !== void 0) {
        opened.push(fd);
        checkOpened(fd, root, key || "the workspace");
      }
    } catch {
      fd = void 0;
    }
    folders.set(key, fd);
    return fd;
  };
  const readOne = (file) => {
    let fd;
    try {
      const segments = segmentsInside(workspace, file, root);
      const name = segments.at(-1);
      const dir = folder(segments.slice(0, -1));
      if (name === void 0 || dir === void 0) return void 0;
      fd = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size > maxBytes) return void 0;
      if (stats.size > budget) {
        overBudget += 1;
        return void 0;
      }
      const bytes = readAll(fd, stats.size, Math.min(maxBytes, budget));
      if (bytes.length > Math.min(maxBytes, budget)) {
        if (bytes.length <= maxBytes) overBudget += 1;
        return void 0;
      }
      budget -= bytes.length;
      return bytes;
    } catch {
      return void 0;
    } finally {
      if (fd !== void 0) closeSync(fd);
    }
  };
  try {
    return { bytes: files.map(readOne), overBudget };
  } finally {
    for (const fd of opened) closeSync(fd);
  }
};

// tools/ast/search.ts
import { parse as parse2 } from "@ast-grep/napi";
import path3 from "node:path";

// tools/ast/parsed-trees.ts
import { parseAsync } from "@ast-grep/napi";
var MAX_CACHED_CHARS = 32 * 1024 * 1024;
var entries = /* @__PURE__ */ new Map();
var cachedChars = 0;
var forget = (key) => {
  const entry = entries.get(key);
  if (!entry) return;
  entries.delete(key);
  cachedChars -= entry.source.length;
};
var parsedTree = async (file, language, source) => {
  const key = `${String(language.napi)}\0${file}`;
  const hit = entries.get(key);
  if (hit && hit.source === source) {
    entries.delete(key);
    entries.set(key, hit);
    return hit.root;
  }
  forget(key);
  const root = await parseAsync(language.napi, source);
  if (source.length <= MAX_CACHED_CHARS) {
    forget(key);
    entries.set(key, { source, root });
    cachedChars += source.length;
    for (const oldest of entries.keys()) {
      if (cachedChars <= MAX_CACHED_CHARS) break;
      forget(oldest);
    }
  }
  return root;
};

// tools/ast/search.ts
var MAX_AST_FILE_BYTES = 1024 * 1024;
var MAX_AST_SEARCH_BYTES = 64 * 1024 * 1024;
var captures = (node, vars, source) => {
  const out = {};
  for (const name of vars.single) {
    const match = node.getMatch(name);
    if (match) out[name] = match.text();
  }
  for (const name of vars.multi) {
    const run = node.getMultipleMatches(name);
    const first = run[0];
    const last = run.at(-1);
    out[name] = first && last ? source().slice(first.range().start.index, last.range().end.index) : "";
  }
  return out;
};
var toMatches = (file, nodes, vars, source) => {
  const spans = nodes.map((node) => ({ node, range: node.range() })).sort(
    (a, b) => a.range.start.index - b.range.start.index || b.range.end.index - a.range.end.index
  );
  const matches = [];
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
      node
    });
  }
  return matches;
};
var sourceOf = (bytes) => bytes === void 0 || looksBinary(bytes) ? void 0 : decodeUtf8(bytes);
var readSource = (workspace, file) => {
  try {
    return sourceOf(readFileInsideUpTo(workspace, file, MAX_AST_FILE_BYTES));
  } catch {
    return void 0;
  }
};
var PARSE_CONCURRENCY = 8;
var searchAst = async (options) => {
  const { language, rule, vars, workspace } = options;
  if (!options.isDirectory) {
    const source = readSource(workspace, options.target);
    if (source === void 0) return { matches: [], files: 0 };
    const nodes = parse2(language.napi, source).root().findAll(rule);
    return {
      matches: toMatches(options.target, nodes, vars, source),
      files: nodes.length > 0 ? 1 : 0
    };
  }
  const under = path3.relative(workspace, options.target);
  const extensions = new Set(language.extensions.map((ext) => `.${ext}`));
  const files = (await knownFiles(workspace)).filter((rel) => under === "" || rel.startsWith(`${under}/`)).filter((rel) => extensions.has(path3.extname(rel))).sort((a, b) => a.localeCompare(b)).map((rel) => path3.join(workspace, rel));
  const read = readFilesInside(workspace, files, {
    maxBytes: MAX_AST_FILE_BYTES,
    totalBytes: MAX_AST_SEARCH_BYTES
  });
  const sources = read.bytes.map(sourceOf);
  const order = files.map((_, index) => index).filter((index) => sources[index] !== void 0).sort((a, b) => (sources[b]?.length ?? 0) - (sources[a]?.length ?? 0));
  const perFile = new Array(files.length);
  let next = 0;
  const worker = async () => {
    while (next < order.length) {
      const index = order[next] ?? 0;
      next += 1;
      const file = files[index] ?? "";
      const source = sources[index] ?? "";
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
    ...read.overBudget > 0 ? { unread: read.overBudget } : {}
  };
};

// tools/ast/ast-edit.ts
var MAX_DIFF_LINES = 200;
var AstEditInput = external_exports.object({
  pattern: external_exports.string().min(1),
  rewrite: external_exports.string(),
  path: external_exports.string().optional(),
  language: external_exports.string().optional()
});
var astEditTool = (staged, provided) => defineTool({
  name: "ast_edit",
  level: "write",
  description: "Stage a structural rewrite: every match of `pattern` (same syntax as ast_grep) is replaced by `rewrite`, with the captured $NAME / $$$NAME substituted. Nothing is written: the result shows the number of replacements and files and a diff, and an edit_id to pass to resolve (accept writes all files or none; discard drops it).",
  schema: AstEditInput,
  run: async (input, ctx) => {
    const prepared = await prepareSearch(input, ctx.workspace, provided);
    if ("error" in prepared) return fail(prepared.error);
    const { matches, unread } = await searchAst({ workspace: ctx.workspace, ...prepared });
    if (unread)
      return fail(
        `${unread} file(s) could not be searched (a search reads at most ${MAX_AST_SEARCH_BYTES / 1024 / 1024} MiB of source): narrow path and rewrite part by part`
      );
    if (matches.length === 0)
      return fail("no matches: nothing to rewrite. Check the pattern with ast_grep first");
    const byFile = /* @__PURE__ */ new Map();
    for (const match of matches)
      byFile.set(match.file, [...byFile.get(match.file) ?? [], match]);
    const files = [];
    for (const [file, fileMatches] of byFile) {
      const before = readTextInside(ctx.workspace, file);
      const parsed = fileMatches[0]?.node.getRoot().root().text();
      if (before === void 0 || parsed !== before)
        return fail(
          `${relativeToWorkspace(ctx.workspace, file)} changed while it was being searched: run ast_edit again`
        );
      const after = rewriteFile(fileMatches, input.rewrite);
      if (after !== before) files.push({ path: file, before, after });
    }
    if (files.length === 0)
      return fail("the rewrite leaves every match as it is: nothing to stage");
    const edit = staged.stage(files, matches.length);
    const diff = files.map((file) => {
      const name = relativeToWorkspace(ctx.workspace, file.path);
      return createTwoFilesPatch(
        `a/${name}`,
        `b/${name}`,
        file.before,
        file.after,
        void 0,
        void 0,
        { context: 2 }
      ).split("\n").slice(2).join("\n");
    }).join("");
    const lines = diff.split("\n");
    const shown = lines.length > MAX_DIFF_LINES ? `${lines.slice(0, MAX_DIFF_LINES).join("\n")}
[\u2026 ${lines.length - MAX_DIFF_LINES} more diff lines]` : diff;
    return ok(
      `(proposed) ${matches.length} replacements in ${files.length} file(s); nothing written yet: call resolve with edit_id "${edit.id}" and action accept or discard
${shown}`
    );
  }
});

// tools/ast/ast-grep.ts
import path4 from "node:path";
var MATCH_LINES = 3;
var formatMatch = (workspace, match) => {
  const lines = match.text.split("\n");
  const text = lines.slice(0, MATCH_LINES).join("\n    ") + (lines.length > MATCH_LINES ? `
    [\u2026${lines.length - MATCH_LINES} more lines]` : "");
  const captured = Object.entries(match.captures).map(
    ([name, value]) => `$${name} = ${value.length > 80 ? `${value.slice(0, 80)}\u2026` : value}`
  );
  return `${relativeToWorkspace(workspace, match.file)}:${match.line}:${match.column}: ${text}${captured.length > 0 ? `
    ${captured.join(" ; ")}` : ""}`;
};
var AstGrepInput = external_exports.object({
  pattern: external_exports.string().min(1),
  path: external_exports.string().optional(),
  language: external_exports.string().optional(),
  max_results: external_exports.number().int().positive().max(500).default(50)
});
var astGrepTool = (provided) => defineTool({
  name: "ast_grep",
  level: "read",
  description: "Structural code search: find code by shape with a pattern in the language itself. $NAME matches any node, $$$NAME a run of sibling nodes, $_ any node without binding; a metavariable used twice must match the same text. Matches regardless of spacing and comments, never inside strings or comments. `path` is a file or folder (default: the workspace); `language` (typescript, tsx, javascript, python, go, rust, java, c, cpp, dart, kotlin, ruby, bash, yaml, json, html, css) is inferred from a file path. Returns path:line:col, the match and its captures.",
  schema: AstGrepInput,
  run: async (input, ctx) => {
    const prepared = await prepareSearch(input, ctx.workspace, provided);
    if ("error" in prepared) return fail(prepared.error);
    const { matches, files, unread } = await searchAst({
      workspace: ctx.workspace,
      ...prepared
    });
    const where = prepared.isDirectory ? `${relativeToWorkspace(ctx.workspace, prepared.target)}${path4.sep}` : relativeToWorkspace(ctx.workspace, prepared.target);
    const how = prepared.context === "as written" ? "" : ` (pattern parsed as a ${prepared.context})`;
    const unsearched = unread ? `${unread} file(s) not searched: a search reads at most ${MAX_AST_SEARCH_BYTES / 1024 / 1024} MiB of source, narrow path` : void 0;
    if (matches.length === 0)
      return ok(
        `no matches for the pattern in ${where} (${prepared.language.id})${how}${unsearched ? `
[${unsearched}]` : ""}`
      );
    const shown = matches.slice(0, input.max_results).map((match) => formatMatch(ctx.workspace, match));
    const more = matches.length > shown.length ? `; ${shown.length} shown, raise max_results or narrow path` : "";
    return ok(
      `${shown.join("\n")}
[${matches.length} matches in ${files} file(s)${more}${unsearched ? `; ${unsearched}` : ""}]${how}`
    );
  }
});

// tools/ast/resolve.ts
var ResolveInput = external_exports.object({
  edit_id: external_exports.string().min(1),
  action: external_exports.enum(["accept", "discard"])
});
var resolveTool = (staged) => defineTool({
  name: "resolve",
  level: "write",
  description: "Accept or discard an edit staged by ast_edit. accept writes every file of the edit, or none: if any file changed since it was staged, the whole edit is rejected (stage it again). discard drops it.",
  schema: ResolveInput,
  run: async (input, ctx) => {
    const edit = staged.take(input.edit_id);
    if (!edit) {
      const pending = staged.pending;
      return fail(
        `no staged edit "${input.edit_id}"${pending.length > 0 ? `: pending are ${pending.join(", ")}` : ": nothing is staged"}`
      );
    }
    if (input.action === "discard")
      return ok(`discarded ${edit.id} (${edit.files.length} file(s) left as they are)`);
    for (const file of edit.files) {
      if (readTextInside(ctx.workspace, file.path) !== file.before) {
        return fail(
          `rejected ${edit.id}: ${relativeToWorkspace(ctx.workspace, file.path)} changed since the edit was staged; nothing was written. Run ast_edit again`
        );
      }
    }
    const outcome = await writeAllOrNothing(
      ctx.workspace,
      edit.files,
      (file) => ctx.views?.recordWrite(file) ?? Promise.resolve()
    );
    if (!outcome.ok) {
      const restored = outcome.restored.map((file) => relativeToWorkspace(ctx.workspace, file));
      return fail(
        `could not write ${relativeToWorkspace(ctx.workspace, outcome.failed)} (${outcome.code}); ${restored.length > 0 ? `restored ${restored.join(", ")}` : "no file had been written"}: the tree is as before`
      );
    }
    return ok(
      `accepted ${edit.id}: ${edit.replacements} replacements written to ${edit.files.map((file) => relativeToWorkspace(ctx.workspace, file.path)).join(", ")}`
    );
  }
});

// tools/ast/staged-edits.ts
var StagedEdits = class {
  edits = /* @__PURE__ */ new Map();
  next = 1;
  stage(files, replacements) {
    const edit = { id: `edit_${this.next}`, files, replacements };
    this.next += 1;
    this.edits.set(edit.id, edit);
    return edit;
  }
  take(id) {
    const edit = this.edits.get(id);
    this.edits.delete(id);
    return edit;
  }
  get pending() {
    return [...this.edits.keys()];
  }
};

// tools/ast/index.ts
var astTools = (provided = ownToolsOnly()) => {
  const staged = new StagedEdits();
  return [astGrepTool(provided), astEditTool(staged, provided), resolveTool(staged)];
};
export {
  astTools
};
