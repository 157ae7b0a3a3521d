import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  checkPath,
  defineTool,
  fail,
  ok,
  resultText,
  writeAllOrNothing
} from "./chunk-Z47US34S.mjs";
import {
  external_exports,
  quote,
  relativeToWorkspace,
  tailLines
} from "./chunk-EABGHHZK.mjs";
import {
  LspTimeoutError,
  uriOf
} from "./chunk-KFTQKZEH.mjs";
import {
  readTextInside
} from "./chunk-KWM7AYEU.mjs";

// tools/lsp/rename.ts
import { fileURLToPath as fileURLToPath2 } from "node:url";

// tools/lsp/format.ts
import { fileURLToPath } from "node:url";
var SEVERITY = ["", "error", "warning", "info", "hint"];
var diagnosticKey = (diagnostic) => `${diagnostic.severity ?? 1}\0${String(diagnostic.code ?? "")}\0${typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value}`;
var formatDiagnostic = (workspace, file, diagnostic) => `${relativeToWorkspace(workspace, file)}:${diagnostic.range.start.line + 1}: ${SEVERITY[diagnostic.severity ?? 1] ?? "error"}${diagnostic.code !== void 0 ? ` ${String(diagnostic.code)}` : ""}: ${(typeof diagnostic.message === "string" ? diagnostic.message : diagnostic.message.value).split("\n")[0] ?? ""}`;
var lineCache = /* @__PURE__ */ new Map();
var lineOf = (workspace, file, line) => {
  let lines = lineCache.get(file);
  if (!lines) {
    lines = readTextInside(workspace, file)?.split("\n") ?? [];
    lineCache.set(file, lines);
  }
  return (lines[line] ?? "").trim().slice(0, 160);
};
var formatLocations = (workspace, locations, cap) => {
  lineCache.clear();
  const rows = locations.map((location) => {
    const uri = "targetUri" in location ? location.targetUri : location.uri;
    const range = "targetUri" in location ? location.targetSelectionRange : location.range;
    const file = uri.startsWith("file:") ? fileURLToPath(uri) : uri;
    const shown2 = file.startsWith(workspace) ? relativeToWorkspace(workspace, file) : file;
    return `${shown2}:${range.start.line + 1}: ${lineOf(workspace, file, range.start.line)}`;
  });
  const unique = [...new Set(rows)];
  const shown = unique.slice(0, cap);
  return `${shown.join("\n")}
[${unique.length} location(s)${unique.length > cap ? `, ${cap} shown` : ""}]`;
};

// tools/lsp/lsp-tool.ts
var NAVIGATION = [
  "definition",
  "type_definition",
  "implementation",
  "references",
  "hover",
  "code_actions"
];
var positionOf = (workspace, file, line, symbol) => {
  const content = readTextInside(workspace, file);
  if (content === void 0) return { error: `cannot read ${file}` };
  const lines = content.split("\n");
  if (line < 1 || line > lines.length)
    return { error: `line ${line} is past the end: the file has ${lines.length} lines` };
  const text = lines[line - 1] ?? "";
  if (!symbol) return { error: `give symbol: a name on line ${line}, which reads: ${text.trim()}` };
  const character = text.indexOf(symbol);
  if (character === -1)
    return { error: `"${symbol}" is not on line ${line}, which reads: ${text.trim()}` };
  return { line: line - 1, character };
};
var withServer = async (supervisor, file, work) => {
  const found = await supervisor.serverFor(file);
  if ("reason" in found) return fail(`no language server for this file: ${found.reason}`);
  try {
    const result = await work(found.server);
    if (!found.note) return result;
    return { ...result, content: [{ type: "text", text: `(${found.note})` }, ...result.content] };
  } catch (error) {
    if (error instanceof LspTimeoutError) {
      await supervisor.restart(found.server);
      return fail(
        `the ${found.server.spec.language} server did not answer (${error.message}); it was restarted: try again`
      );
    }
    return fail(
      `the language server failed: ${error instanceof Error ? error.message : String(error)}`
    );
  }
};
var hoverText = (hover) => {
  if (!hover) return "";
  const contents = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return contents.map((part) => typeof part === "string" ? part : part.value).join("\n").slice(0, 3e3);
};
var flattenSymbols = (symbols, depth = 0) => symbols.flatMap(
  (symbol) => "location" in symbol ? [
    `${"  ".repeat(depth)}${symbol.name} (${symbol.kind}) :${symbol.location.range.start.line + 1}`
  ] : [
    `${"  ".repeat(depth)}${symbol.name} (${symbol.kind}) :${symbol.selectionRange.start.line + 1}`,
    ...flattenSymbols(symbol.children ?? [], depth + 1)
  ]
);
var projectDiagnostics = async (supervisor, ctx) => {
  const outputs = [];
  for (const spec of supervisor.specsWithCheckers()) {
    const route = supervisor.route(`${ctx.workspace}/__probe__.${spec.extensions[0] ?? ""}`);
    if (!route.ok || !spec.checker) continue;
    const unprovided = await spec.provide?.(route.root);
    if (unprovided) {
      outputs.push(`${spec.language}: ${unprovided}`);
      continue;
    }
    const checker = spec.checker(route.root);
    if ("missing" in checker) {
      outputs.push(`${spec.language}: ${checker.missing}`);
      continue;
    }
    const result = await ctx.sandbox.run({
      command: checker.argv.map(quote).join(" "),
      cwd: route.root,
      network: "off",
      timeoutMs: ctx.commandTimeoutMs
    });
    const lines = result.output.split("\n").filter((line) => /error|warning/i.test(line)).map((line) => line.replaceAll(`${ctx.workspace}/`, "").trim());
    outputs.push(
      `${spec.language} (${result.exitCode === 0 ? "clean" : `exit ${result.exitCode ?? "killed"}`}): ${lines.length} problem line(s)
${tailLines(lines.slice(0, 100).join("\n"), 100)}`
    );
  }
  return outputs.length > 0 ? ok(outputs.join("\n")) : fail(
    "no project checker applies here: no root marker of a language with a checker (tsconfig.json/package.json for tsc, pyproject.toml\u2026 for pyright)"
  );
};
var LspInput = external_exports.object({
  action: external_exports.enum([
    "diagnostics",
    "definition",
    "type_definition",
    "implementation",
    "references",
    "hover",
    "symbols",
    "code_actions",
    "status",
    "reload"
  ]),
  file: external_exports.string().optional(),
  line: external_exports.number().int().positive().optional(),
  symbol: external_exports.string().min(1).optional(),
  query: external_exports.string().optional()
});
var lspTool = (supervisor) => defineTool({
  name: "lsp",
  level: "read",
  description: 'Ask the language server. action: diagnostics (file, or file "*" to run the project checker such as tsc --noEmit or pyright), definition, type_definition, implementation, references (cap 50), hover, code_actions (each needs file, line and symbol: a name on that line, never a column), symbols (query for a workspace search, or file for its outline), status (which servers run and why one cannot), reload.',
  schema: LspInput,
  run: async (input, ctx) => {
    if (input.action === "status") return ok(supervisor.status());
    if (input.action === "reload") {
      const stopped = await supervisor.reloadAll();
      return ok(
        stopped.length > 0 ? `restarted on next use: ${stopped.join(", ")}` : "no server was running"
      );
    }
    if (input.action === "diagnostics" && input.file === "*")
      return projectDiagnostics(supervisor, ctx);
    if (input.action === "symbols" && input.query !== void 0 && !input.file) {
      const files = supervisor.servableFiles(ctx.workspace);
      if (files.length === 0)
        return fail("no language server applies to this workspace: see lsp status");
      const rows = [];
      for (const sample of files) {
        const answer = await withServer(supervisor, sample, async (server) => {
          await server.sync(sample);
          await server.warmUp(sample);
          const symbols = await server.request("workspace/symbol", {
            query: input.query
          }) ?? [];
          rows.push(
            ...symbols.map(
              (s) => `${s.name} (${s.kind}) ${formatLocations(ctx.workspace, [s.location], 1).split("\n")[0] ?? ""}`
            )
          );
          return ok("");
        });
        if (answer.isError) rows.push(`(${resultText(answer)})`);
      }
      return ok(
        `${rows.slice(0, 100).join("\n")}
[${rows.length} symbol(s)${rows.length > 100 ? ", 100 shown" : ""}]`
      );
    }
    if (!input.file) return fail(`give file for ${input.action}`);
    const checked = checkPath(ctx.workspace, input.file);
    if (!checked.ok) return fail(checked.error);
    const file = checked.value;
    return withServer(supervisor, file, async (server) => {
      const since = await server.sync(file);
      const textDocument = { uri: uriOf(file) };
      if (input.action === "diagnostics") {
        const items = await server.settledDiagnostics(file, since);
        return ok(
          items.length === 0 ? `no diagnostics in ${relativeToWorkspace(ctx.workspace, file)}` : `${items.map((d) => formatDiagnostic(ctx.workspace, file, d)).join("\n")}
[${items.length} diagnostic(s)]`
        );
      }
      if (input.action === "symbols") {
        const symbols = await server.request(
          "textDocument/documentSymbol",
          { textDocument }
        ) ?? [];
        const rows = flattenSymbols(symbols);
        return ok(
          `${rows.slice(0, 200).join("\n")}
[${rows.length} symbol(s)${rows.length > 200 ? ", 200 shown" : ""}]`
        );
      }
      if (!NAVIGATION.includes(input.action) || input.line === void 0)
        return fail(`give line and symbol for ${input.action}`);
      const position = positionOf(ctx.workspace, file, input.line, input.symbol);
      if ("error" in position) return fail(position.error);
      switch (input.action) {
        case "hover": {
          const text = hoverText(
            await server.request("textDocument/hover", { textDocument, position })
          );
          return ok(text || `no hover information for ${input.symbol ?? ""}`);
        }
        case "code_actions": {
          const diagnostics = (await server.settledDiagnostics(file, since, { firstMs: 3e3, quietMs: 300 })).filter(
            (d) => d.range.start.line <= position.line && d.range.end.line >= position.line
          );
          const range = {
            start: position,
            end: {
              line: position.line,
              character: position.character + (input.symbol?.length ?? 0)
            }
          };
          const actions = await server.request("textDocument/codeAction", {
            textDocument,
            range,
            context: { diagnostics }
          }) ?? [];
          const rows = actions.map(
            (action) => `${action.title}${"kind" in action && action.kind ? ` [${action.kind}]` : ""}${"isPreferred" in action && action.isPreferred ? " (preferred)" : ""}`
          );
          return ok(rows.length > 0 ? rows.join("\n") : "no code actions here");
        }
        default: {
          const methods = {
            definition: "textDocument/definition",
            type_definition: "textDocument/typeDefinition",
            implementation: "textDocument/implementation",
            references: "textDocument/references"
          };
          const method = methods[input.action] ?? "textDocument/definition";
          if (input.action === "references" || input.action === "implementation")
            await server.warmUp(file);
          const params = input.action === "references" ? { textDocument, position, context: { includeDeclaration: true } } : { textDocument, position };
          const result = await server.request(
            method,
            params
          );
          const locations = result === null ? [] : Array.isArray(result) ? result : [result];
          if (locations.length === 0)
            return ok(`no ${input.action.replace("_", " ")} found for ${input.symbol ?? ""}`);
          return ok(
            formatLocations(ctx.workspace, locations, input.action === "references" ? 50 : 20)
          );
        }
      }
    });
  }
});

// tools/lsp/rename.ts
var applyTextEdits = (text, edits) => {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text[i] === "\n") starts.push(i + 1);
  const offset = (line, character) => Math.min(text.length, (starts[line] ?? text.length) + character);
  const sorted = [...edits].sort(
    (a, b) => offset(b.range.start.line, b.range.start.character) - offset(a.range.start.line, a.range.start.character)
  );
  let out = text;
  for (const edit of sorted) {
    out = out.slice(0, offset(edit.range.start.line, edit.range.start.character)) + edit.newText + out.slice(offset(edit.range.end.line, edit.range.end.character));
  }
  return out;
};
var editsByFile = (edit) => {
  const out = /* @__PURE__ */ new Map();
  for (const [uri, edits] of Object.entries(edit.changes ?? {}))
    out.set(fileURLToPath2(uri), [...edits]);
  for (const change of edit.documentChanges ?? []) {
    if ("textDocument" in change)
      out.set(fileURLToPath2(change.textDocument.uri), [
        ...out.get(fileURLToPath2(change.textDocument.uri)) ?? [],
        ...change.edits
      ]);
  }
  return out;
};
var RenameInput = external_exports.object({
  file: external_exports.string(),
  line: external_exports.number().int().positive(),
  symbol: external_exports.string().min(1),
  new_name: external_exports.string().min(1)
});
var lspRenameTool = (supervisor) => defineTool({
  name: "lsp_rename",
  level: "write",
  description: "Rename a symbol everywhere the language server knows it is used: give file, line, symbol (a name on that line) and new_name. All files change or none.",
  schema: RenameInput,
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.file);
    if (!checked.ok) return fail(checked.error);
    const file = checked.value;
    return withServer(supervisor, file, async (server) => {
      await server.sync(file);
      const position = positionOf(ctx.workspace, file, input.line, input.symbol);
      if ("error" in position) return fail(position.error);
      const edit = await server.request("textDocument/rename", {
        textDocument: { uri: uriOf(file) },
        position,
        newName: input.new_name
      });
      const byFile = edit ? editsByFile(edit) : /* @__PURE__ */ new Map();
      if (byFile.size === 0)
        return fail(`the server offers no rename for "${input.symbol}" on line ${input.line}`);
      const planned = [];
      for (const [target, edits] of byFile) {
        const inside = checkPath(ctx.workspace, target);
        if (!inside.ok)
          return fail(
            `rename refused: it would change ${target}, outside the workspace; nothing was written`
          );
        const conflict = await ctx.views?.checkWrite(
          inside.value,
          relativeToWorkspace(ctx.workspace, inside.value)
        );
        if (conflict) return fail(`rename refused: ${conflict}`);
        const before = readTextInside(ctx.workspace, inside.value);
        if (before === void 0)
          return fail(
            `rename refused: cannot read ${relativeToWorkspace(ctx.workspace, inside.value)}`
          );
        planned.push({
          path: inside.value,
          before,
          after: applyTextEdits(before, edits),
          edits: edits.length
        });
      }
      const outcome = await writeAllOrNothing(
        ctx.workspace,
        planned,
        (file2) => ctx.views?.recordWrite(file2) ?? Promise.resolve()
      );
      if (!outcome.ok) {
        return fail(
          `could not write ${relativeToWorkspace(ctx.workspace, outcome.failed)} (${outcome.code}); the files already written were restored`
        );
      }
      for (const change of planned) await server.sync(change.path);
      const total = planned.reduce((sum, change) => sum + change.edits, 0);
      return ok(
        `renamed ${input.symbol} to ${input.new_name}: ${total} edit(s) in ${planned.length} file(s): ${planned.map((change) => relativeToWorkspace(ctx.workspace, change.path)).join(", ")}`
      );
    });
  }
});

export {
  diagnosticKey,
  formatDiagnostic,
  lspTool,
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
