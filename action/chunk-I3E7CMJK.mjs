import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  whichIn
} from "./chunk-U2ZNDUQ6.mjs";
import {
  applyPatch,
  parsePatch
} from "./chunk-JDXO5HYH.mjs";
import {
  ownToolsOnly
} from "./chunk-YELE2N65.mjs";
import {
  diagnosticKey,
  formatDiagnostic,
  lspRenameTool,
  lspTool
} from "./chunk-BQRX2BXM.mjs";
import {
  checkPath,
  defineTool,
  fail,
  ok,
  writeAllOrNothing
} from "./chunk-Z47US34S.mjs";
import {
  existsInside,
  external_exports
} from "./chunk-EABGHHZK.mjs";
import {
  LanguageServer
} from "./chunk-KFTQKZEH.mjs";
import {
  listInside,
  readTextInside,
  removeFileInside
} from "./chunk-KWM7AYEU.mjs";

// tools/files/apply-patch.ts
import path from "node:path";
var lazyLine = (text) => {
  const trimmed = text.trimEnd();
  if (trimmed === "") return /^./.exec(text)?.[0];
  return /^.*$/.test(trimmed) ? trimmed : void 0;
};
var headerPath = (line) => {
  if (!/^(?:---|\+\+\+) /.test(line)) return void 0;
  const rest = line.slice(4);
  return (/^[ab]\//.test(rest) ? lazyLine(rest.slice(2)) : void 0) ?? lazyLine(rest);
};
var gitHeaderPaths = (line) => {
  if (!line.startsWith("diff --git a/") || /[\r\u2028\u2029]/.test(line)) return [];
  const rest = line.slice("diff --git a/".length);
  const at = rest.lastIndexOf(" b/");
  return at > 0 && at + 3 < rest.length ? [rest.slice(0, at), rest.slice(at + 3)] : [];
};
var patchPaths = (patch) => {
  const paths = /* @__PURE__ */ new Set();
  for (const line of patch.split("\n")) {
    const header = headerPath(line);
    if (header && header !== "/dev/null") paths.add(header.replace(/(?<!\t)\t[\s\S]*$/, ""));
    for (const path5 of gitHeaderPaths(line)) paths.add(path5);
    const rename = /^rename (?:from|to) (.+)$/.exec(line);
    if (rename?.[1]) paths.add(rename[1]);
  }
  return [...paths];
};
var side = (name) => name === void 0 || name === "/dev/null" ? void 0 : name.replace(/(?<!\t)\t[\s\S]*$/, "").replace(/^[ab]\//, "");
var pureRenames = (patch) => {
  const renames = [];
  for (const block of patch.split(/^(?=diff --git )/m)) {
    const from = /^rename from (.+)$/m.exec(block)?.[1];
    const to = /^rename to (.+)$/m.exec(block)?.[1];
    if (from && to && !/^--- /m.test(block)) renames.push({ from, to });
  }
  return renames;
};
var applyPatchTool = defineTool({
  name: "apply_patch",
  level: "write",
  description: "Apply a unified diff as `git diff` prints it (paths relative to the workspace root with a/ and b/ prefixes; new and deleted files included). All hunks apply or none do; on failure nothing changes and the error says which hunk did not match.",
  schema: external_exports.object({ patch: external_exports.string().min(1) }),
  run: async (input, ctx) => {
    const files = patchPaths(input.patch);
    if (files.length === 0)
      return fail(
        "no file headers found: the patch must contain ---/+++ lines as git diff prints them"
      );
    const absolute = /* @__PURE__ */ new Map();
    for (const file of files) {
      const checked = checkPath(ctx.workspace, path.join(ctx.workspace, file));
      if (!checked.ok) return fail(`patch rejected: ${checked.error}`);
      const conflict = await ctx.views?.checkWrite(checked.value, file);
      if (conflict) return fail(`patch rejected: ${conflict}`);
      absolute.set(file, checked.value);
    }
    const patch = input.patch.endsWith("\n") ? input.patch : `${input.patch}
`;
    let parsed;
    try {
      parsed = parsePatch(patch);
    } catch (error) {
      return fail(`patch does not parse, nothing was changed: ${error.message}`);
    }
    const after = /* @__PURE__ */ new Map();
    const current = (file) => after.has(file) ? after.get(file) : readTextInside(ctx.workspace, absolute.get(file) ?? "");
    for (const { from, to } of pureRenames(patch)) {
      const content = current(from);
      if (content === void 0)
        return fail(`patch does not apply, nothing was changed: ${from} does not exist`);
      after.set(to, content);
      after.set(from, void 0);
    }
    for (const [index, filePatch] of parsed.entries()) {
      const oldName = side(filePatch.oldFileName);
      const newName = side(filePatch.newFileName);
      if (oldName === void 0 && newName === void 0) continue;
      const source = oldName === void 0 ? "" : current(oldName);
      if (source === void 0)
        return fail(`patch does not apply, nothing was changed: ${oldName ?? ""} does not exist`);
      if (oldName === void 0 && newName !== void 0 && current(newName) !== void 0)
        return fail(`patch does not apply, nothing was changed: ${newName} already exists`);
      const result = applyPatch(source, filePatch);
      if (result === false)
        return fail(
          `patch does not apply, nothing was changed: a hunk of ${newName ?? oldName ?? `file ${index + 1}`} does not match the current content. Read the current file content and rebuild the hunk.`
        );
      if (newName === void 0) {
        if (result !== "")
          return fail(
            `patch does not apply, nothing was changed: ${oldName ?? ""} is not deleted whole`
          );
        after.set(oldName ?? "", void 0);
        continue;
      }
      if (oldName !== void 0 && oldName !== newName) after.set(oldName, void 0);
      after.set(newName, result);
    }
    const writes = [];
    const deletions = [];
    for (const [file, content] of after) {
      const target = absolute.get(file);
      if (target === void 0) continue;
      if (content === void 0) deletions.push(target);
      else {
        const before = readTextInside(ctx.workspace, target);
        writes.push({
          path: target,
          before: before ?? "",
          after: content,
          created: before === void 0
        });
      }
    }
    const written = await writeAllOrNothing(ctx.workspace, writes);
    if (!written.ok) return fail(`patch failed (${written.code}), nothing was changed`);
    try {
      for (const file of deletions) removeFileInside(ctx.workspace, file);
    } catch (error) {
      return fail(`patch partly applied: could not delete a file (${error.message})`);
    }
    for (const file of [...writes.map((change) => change.path), ...deletions])
      await ctx.views?.recordWrite(file);
    return ok(`applied patch to ${files.length} file(s): ${files.join(", ")}`);
  }
});

// tools/lsp/diagnostics-on-write.ts
var writtenFiles = (tool, input, workspace) => {
  const record = input ?? {};
  const names = tool === "apply_patch" ? patchPaths(typeof record.patch === "string" ? record.patch : "").map(
    (name) => `${workspace}/${name}`
  ) : typeof record.path === "string" ? [record.path] : [];
  return names.flatMap((name) => {
    const checked = checkPath(workspace, name);
    return checked.ok ? [checked.value] : [];
  });
};
var withDiagnosticsOnWrite = (tool, supervisor, seen) => ({
  ...tool,
  run: async (input, ctx, signal) => {
    const files = writtenFiles(tool.name, input, ctx.workspace).filter((file) => {
      const route = supervisor.route(file);
      return route.ok && (route.spec.reportsDiagnostics?.(file, route.root) ?? true);
    });
    for (const file of files) {
      const found = await supervisor.serverFor(file);
      if ("reason" in found) continue;
      if (await found.server.sync(file).catch(() => -1) < 0) continue;
      for (const diagnostic of found.server.current(file)) seen.add(diagnosticKey(diagnostic));
    }
    const result = await tool.run(input, ctx, signal);
    if (result.isError || files.length === 0) return result;
    const fresh = [];
    for (const file of files) {
      const found = await supervisor.serverFor(file);
      if ("reason" in found) continue;
      const since = await found.server.sync(file).catch(() => -1);
      if (since < 0) continue;
      const diagnostics = await found.server.settledDiagnostics(file, since);
      for (const diagnostic of diagnostics) {
        const key = diagnosticKey(diagnostic);
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.push(formatDiagnostic(ctx.workspace, file, diagnostic));
      }
    }
    if (fresh.length === 0) return result;
    return {
      ...result,
      content: [
        ...result.content,
        {
          type: "text",
          text: `This write introduced ${fresh.length} new diagnostic(s):
${fresh.slice(0, 20).join("\n")}`
        }
      ]
    };
  }
});

// tools/lsp/servers.ts
import { existsSync } from "node:fs";
import path2 from "node:path";
var projectTypescript = (root) => {
  const lib = path2.join(root, "node_modules", "typescript", "lib");
  return existsSync(path2.join(lib, "tsserver.js")) ? lib : void 0;
};
var provideAll = async (provided, names) => {
  for (const name of names) {
    const result = await provided.provide(name);
    if ("reason" in result) return result.reason;
  }
  return void 0;
};
var TS_IDS = {
  ts: "typescript",
  mts: "typescript",
  cts: "typescript",
  tsx: "typescriptreact",
  js: "javascript",
  mjs: "javascript",
  cjs: "javascript",
  jsx: "javascriptreact"
};
var serverSpecs = (which, node, provided = ownToolsOnly()) => {
  const missing = (name) => ({
    missing: `${name} is not installed with regreen and this build pins no version of it to fetch: reinstall regreen (in a checkout of it: npm ci)`
  });
  const typescriptLib = (root) => {
    const theirs = projectTypescript(root);
    if (theirs) return theirs;
    const ours = provided.where("typescript");
    return ours ? path2.join(ours, "lib") : void 0;
  };
  return [
    {
      language: "typescript",
      extensions: Object.keys(TS_IDS),
      rootMarkers: ["tsconfig.json", "jsconfig.json", "package.json"],
      command: () => {
        const server = provided.where("typescript-language-server");
        return server ? { argv: [node, path2.join(server, "lib", "cli.mjs"), "--stdio"] } : missing("typescript-language-server");
      },
      provide: (root) => provideAll(provided, [
        "typescript-language-server",
        ...projectTypescript(root) ? [] : ["typescript"]
      ]),
      initializationOptions: (root) => {
        const lib = typescriptLib(root);
        return {
          tsserver: lib ? { path: path2.join(lib, "tsserver.js") } : {},
          disableAutomaticTypingAcquisition: true
        };
      },
      languageId: (file) => TS_IDS[path2.extname(file).slice(1)] ?? "typescript",
      // JavaScript is type-checked only when the project asks for it (jsconfig.json, or checkJs).
      reportsDiagnostics: (file, root) => {
        if (TS_IDS[path2.extname(file).slice(1)]?.startsWith("typescript")) return true;
        if (existsInside(root, path2.join(root, "jsconfig.json"))) return true;
        const tsconfig = readTextInside(root, path2.join(root, "tsconfig.json")) ?? "";
        return /"checkJs"\s*:\s*true/.test(tsconfig);
      },
      checker: (root) => {
        const lib = typescriptLib(root);
        if (!lib) return missing("typescript");
        const config = ["tsconfig.json", "jsconfig.json"].find(
          (name) => existsInside(root, path2.join(root, name))
        );
        return {
          argv: [
            node,
            path2.join(lib, "tsc.js"),
            "--noEmit",
            "--pretty",
            "false",
            ...config ? ["-p", path2.join(root, config)] : []
          ]
        };
      }
    },
    {
      language: "python",
      extensions: ["py", "pyi"],
      rootMarkers: [
        "pyproject.toml",
        "setup.py",
        "setup.cfg",
        "requirements.txt",
        "pyrightconfig.json"
      ],
      command: () => {
        const pyright = provided.where("pyright");
        return pyright ? { argv: [node, path2.join(pyright, "langserver.index.js"), "--stdio"] } : missing("pyright");
      },
      provide: () => provideAll(provided, ["pyright"]),
      languageId: () => "python",
      checker: (root) => {
        const pyright = provided.where("pyright");
        return pyright ? { argv: [node, path2.join(pyright, "index.js"), "--project", root] } : missing("pyright");
      }
    },
    {
      language: "go",
      extensions: ["go"],
      rootMarkers: ["go.mod"],
      command: () => {
        const gopls = which("gopls");
        return gopls ? { argv: [gopls] } : { missing: "gopls is not on PATH" };
      },
      languageId: () => "go"
    },
    {
      language: "c/c++",
      extensions: ["c", "h", "cc", "cpp", "cxx", "hpp", "hh"],
      rootMarkers: ["compile_commands.json", "CMakeLists.txt", ".clangd", "Makefile"],
      command: () => {
        const clangd = which("clangd");
        return clangd ? { argv: [clangd] } : { missing: "clangd is not on PATH" };
      },
      languageId: (file) => ["c", "h"].includes(path2.extname(file).slice(1)) ? "c" : "cpp"
    },
    {
      language: "rust",
      extensions: ["rs"],
      rootMarkers: ["Cargo.toml"],
      command: () => {
        const analyzer = which("rust-analyzer");
        return analyzer ? { argv: [analyzer] } : { missing: "rust-analyzer is not on PATH" };
      },
      languageId: () => "rust"
    }
  ];
};

// tools/lsp/supervisor.ts
import path4 from "node:path";

// tools/toolchain.ts
import path3 from "node:path";
var findRoot = (workspace, file, markers) => {
  let dir = path3.dirname(file);
  for (; ; ) {
    if (markers.some((marker) => existsInside(workspace, path3.join(dir, marker)))) return dir;
    if (dir === workspace || !dir.startsWith(workspace)) return void 0;
    const parent = path3.dirname(dir);
    if (parent === dir) return void 0;
    dir = parent;
  }
};
var routeToolchain = (options) => {
  const { who, workspace, root, markers, command } = options;
  if (!root && "missing" in command)
    return {
      ok: false,
      reason: `${who}: no root marker (${markers.join(", ")}) and ${command.missing}`
    };
  if (!root)
    return {
      ok: false,
      reason: `${who}: no root marker (${markers.join(", ")}) above ${path3.relative(workspace, options.target)}`
    };
  if ("missing" in command)
    return {
      ok: false,
      reason: `${who}: root ${path3.relative(workspace, root) || "."} found, but ${command.missing}`
    };
  return { ok: true, root, argv: command.argv };
};

// tools/lsp/supervisor.ts
var LspSupervisor = class {
  constructor(options) {
    this.options = options;
  }
  options;
  servers = /* @__PURE__ */ new Map();
  restarts = /* @__PURE__ */ new Map();
  /** Servers that could not start (a launcher without its binary exits at once): not tried again until a reload. */
  unstartable = /* @__PURE__ */ new Map();
  notes = [];
  specFor(file) {
    const extension = path4.extname(file).slice(1).toLowerCase();
    return this.options.specs.find((spec) => spec.extensions.includes(extension));
  }
  /** The intersection rule: a root marker and the server binary, both, or a reason naming what is missing. */
  route(file) {
    const spec = this.specFor(file);
    if (!spec)
      return {
        ok: false,
        reason: `no language server handles ${path4.extname(file) || "files without an extension"}`
      };
    const root = findRoot(this.options.workspace, file, spec.rootMarkers);
    const route = routeToolchain({
      who: spec.language,
      workspace: this.options.workspace,
      target: file,
      root,
      markers: spec.rootMarkers,
      command: spec.command(root ?? this.options.workspace)
    });
    return route.ok ? { ...route, spec } : route;
  }
  /** The running server for a file, starting (or restarting once) as needed. */
  async serverFor(file) {
    const route = this.route(file);
    if (!route.ok) return { reason: route.reason };
    const key = `${route.spec.language}\0${route.root}`;
    const running = this.servers.get(key);
    if (running && !running.exited) return { server: running };
    const failed = this.unstartable.get(key);
    if (failed) return { reason: failed };
    let note;
    if (running?.exited) {
      const restarts = this.restarts.get(key) ?? 0;
      if (restarts >= 1)
        return {
          reason: `the ${route.spec.language} server crashed again after a restart; it stays down for this job`
        };
      this.restarts.set(key, restarts + 1);
      note = `the ${route.spec.language} server had crashed and was restarted`;
      this.notes.push(note);
    }
    const unprovided = await route.spec.provide?.(route.root);
    if (unprovided) return { reason: unprovided };
    try {
      const server = await LanguageServer.start({
        spec: route.spec,
        root: route.root,
        argv: route.argv,
        sandbox: this.options.sandbox,
        logger: this.options.logger,
        timeoutMs: this.options.requestTimeoutMs
      });
      this.servers.set(key, server);
      return note ? { server, note } : { server };
    } catch (error) {
      const reason = `the ${route.spec.language} server failed to start: ${error instanceof Error ? error.message : String(error)}`;
      this.unstartable.set(key, reason);
      return { reason };
    }
  }
  /** Stops the server (after a hang, or on `reload`); the next call starts a fresh one. */
  async restart(server) {
    const key = `${server.spec.language}\0${server.root}`;
    this.servers.delete(key);
    await server.dispose();
  }
  async reloadAll() {
    const running = [...this.servers.values()];
    this.servers.clear();
    this.restarts.clear();
    this.unstartable.clear();
    await Promise.all(running.map((server) => server.dispose()));
    return running.map(
      (server) => `${server.spec.language} (${path4.relative(this.options.workspace, server.root) || "."})`
    );
  }
  specsWithCheckers() {
    return this.options.specs.filter((spec) => spec.checker !== void 0);
  }
  /** One real source file per language that a server can serve (workspace-wide queries need a project loaded). */
  servableFiles(workspace) {
    const found = /* @__PURE__ */ new Map();
    const walk = (dir, depth) => {
      let entries;
      try {
        entries = listInside(workspace, dir).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path4.join(dir, entry.name);
        const spec = entry.isFile() ? this.specFor(full) : void 0;
        if (spec && !found.has(spec.language) && this.route(full).ok)
          found.set(spec.language, full);
      }
      if (depth >= 4) return;
      for (const entry of entries) {
        if (entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
          walk(path4.join(dir, entry.name), depth + 1);
      }
    };
    walk(workspace, 0);
    return [...found.values()];
  }
  status() {
    const lines = [...this.servers.values()].map(
      (server) => `${server.spec.language}: running for ${path4.relative(this.options.workspace, server.root) || "."}${server.exited ? " (exited)" : ""}`
    );
    for (const spec of this.options.specs) {
      if ([...this.servers.values()].some((server) => server.spec === spec && !server.exited))
        continue;
      const probe = this.route(
        path4.join(this.options.workspace, `__probe__.${spec.extensions[0] ?? ""}`)
      );
      lines.push(
        probe.ok ? `${spec.language}: available for ${path4.relative(this.options.workspace, probe.root) || "."} (starts on first use)` : `${spec.language}: unavailable \u2014 ${probe.reason}`
      );
    }
    return [...lines, ...this.notes].join("\n");
  }
  async dispose() {
    await this.reloadAll();
  }
};

// tools/lsp/index.ts
var WRITE_TOOLS = /* @__PURE__ */ new Set(["write", "edit", "apply_patch"]);
var lspFamily = (options) => {
  const supervisor = new LspSupervisor({
    workspace: options.workspace,
    sandbox: options.sandbox,
    specs: serverSpecs(whichIn(options.path), options.node, options.provided),
    logger: options.logger,
    requestTimeoutMs: options.requestTimeoutMs ?? 3e4
  });
  const seen = /* @__PURE__ */ new Set();
  return {
    supervisor,
    tools: [
      lspTool(supervisor),
      withDiagnosticsOnWrite(lspRenameTool(supervisor), supervisor, seen)
    ],
    wrapWrites: (tools) => tools.map(
      (tool) => WRITE_TOOLS.has(tool.name) ? withDiagnosticsOnWrite(tool, supervisor, seen) : tool
    ),
    dispose: () => supervisor.dispose()
  };
};

export {
  findRoot,
  routeToolchain,
  applyPatchTool,
  lspFamily
};
