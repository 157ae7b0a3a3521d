import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  RegreenError
} from "./chunk-2SKYD2FN.mjs";
import {
  external_exports
} from "./chunk-EABGHHZK.mjs";

// src/config/env.ts
import os from "node:os";
import path from "node:path";

// src/util/did-you-mean.ts
var editDistance = (a, b) => {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d = Array.from(
    { length: rows },
    (_, i) => Array.from({ length: cols }, (_2, j) => i === 0 ? j : j === 0 ? i : 0)
  );
  const at = (i, j) => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      d[i][j] = best;
    }
  }
  return at(a.length, b.length);
};
var nearestWord = (word, known) => {
  let found;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const longer = Math.max(word.length, candidate.length);
    if ((longer - distance) / longer <= 0.5) continue;
    if (!found || distance < found.distance) found = { word: candidate, distance };
  }
  return found?.word;
};

// src/config/env.ts
var text = external_exports.string().min(1).optional().describe("a value");
var positive = external_exports.coerce.number().positive().finite().optional().describe("a number above 0");
var whole = external_exports.coerce.number().int().positive().optional().describe("a whole number above 0");
var count = external_exports.coerce.number().int().min(0).optional().describe("a whole number");
var dollars = external_exports.coerce.number().min(0).finite().optional().describe("a number of dollars");
var VARIABLES = {
  home: ["HOME", text],
  path: ["PATH", text],
  xdgCacheHome: ["XDG_CACHE_HOME", text],
  xdgConfigHome: ["XDG_CONFIG_HOME", text],
  xdgConfigDirs: ["XDG_CONFIG_DIRS", text],
  virtualEnv: ["VIRTUAL_ENV", text],
  runnerTemp: ["RUNNER_TEMP", text],
  runnerWorkspace: ["RUNNER_WORKSPACE", text],
  githubWorkspace: ["GITHUB_WORKSPACE", text],
  runnerToolCache: ["RUNNER_TOOL_CACHE", text],
  goPath: ["GOPATH", text],
  goModCache: ["GOMODCACHE", text],
  goProxy: ["GOPROXY", text],
  goFlags: ["GOFLAGS", text],
  dataDir: ["REGREEN_DATA_DIR", text],
  toolsDir: ["REGREEN_TOOLS_DIR", text],
  storeFile: ["REGREEN_STORE", text],
  logLevel: [
    "REGREEN_LOG_LEVEL",
    external_exports.enum(["trace", "debug", "info", "warn", "error", "fatal", "silent"]).optional().describe("one of trace, debug, info, warn, error, fatal, silent")
  ],
  sandbox: ["REGREEN_SANDBOX", text],
  /** Variables whose values enter the sandbox with their URL credentials (comma-separated names). */
  sandboxCredentials: ["REGREEN_SANDBOX_CREDENTIALS", text],
  /** The host uid sandboxed commands run as when regreen runs as root. */
  sandboxUid: ["REGREEN_SANDBOX_UID", text],
  hostCaches: ["REGREEN_HOST_CACHES", external_exports.enum(["on", "off"]).optional().describe("on or off")],
  setupSnapshot: [
    "REGREEN_SETUP_SNAPSHOT",
    external_exports.enum(["cow", "always", "off"]).optional().describe("cow, always or off")
  ],
  npmStoreMb: ["REGREEN_NPM_STORE_MB", count],
  model: ["REGREEN_MODEL", text],
  workerFast: ["REGREEN_WORKER_FAST", text],
  workerGood: ["REGREEN_WORKER_GOOD", text],
  prices: ["REGREEN_PRICES", text],
  anthropicApiKey: ["ANTHROPIC_API_KEY", text],
  anthropicBaseUrl: ["ANTHROPIC_BASE_URL", text],
  openaiApiKey: ["OPENAI_API_KEY", text],
  openaiBaseUrl: ["OPENAI_BASE_URL", text],
  maxTurns: ["REGREEN_MAX_TURNS", whole],
  maxInputTokens: ["REGREEN_MAX_INPUT_TOKENS", whole],
  maxOutputTokens: ["REGREEN_MAX_OUTPUT_TOKENS", whole],
  maxCostUsd: ["REGREEN_MAX_COST_USD", positive],
  maxMinutes: ["REGREEN_MAX_MINUTES", positive],
  maxSetupSeconds: ["REGREEN_MAX_SETUP_SECONDS", positive],
  maxCommandSeconds: ["REGREEN_MAX_COMMAND_SECONDS", positive],
  maxDiffFiles: ["REGREEN_MAX_DIFF_FILES", whole],
  maxDiffLines: ["REGREEN_MAX_DIFF_LINES", whole],
  maxDiffKib: ["REGREEN_MAX_DIFF_KIB", whole],
  maxWorkers: ["REGREEN_MAX_WORKERS", whole],
  maxAskMinutes: ["REGREEN_MAX_ASK_MINUTES", positive],
  approveExec: [
    "REGREEN_APPROVE_EXEC",
    external_exports.enum(["always", "repo"]).optional().describe("always or repo")
  ],
  drafts: ["REGREEN_DRAFTS", external_exports.enum(["on", "off"]).optional().describe('"on" or "off"')],
  maxProcesses: ["REGREEN_MAX_PROCESSES", whole],
  maxMemoryMb: ["REGREEN_MAX_MEMORY_MB", whole],
  maxDiskMb: ["REGREEN_MAX_DISK_MB", whole],
  jobVolume: ["REGREEN_JOB_VOLUME", external_exports.enum(["auto", "off"]).optional().describe('"auto" or "off"')],
  spendCapUsd: ["REGREEN_SPEND_CAP_USD", dollars],
  maxAttempts: ["REGREEN_MAX_ATTEMPTS", count],
  maxOpenPrs: ["REGREEN_MAX_OPEN_PRS", count],
  maxPrsPerHour: ["REGREEN_MAX_PRS_PER_HOUR", count],
  allowRepos: ["REGREEN_ALLOW_REPOS", external_exports.string().optional().describe("owner/repo globs")],
  concurrency: ["REGREEN_CONCURRENCY", whole],
  lockMs: ["REGREEN_LOCK_MS", whole],
  drainSeconds: ["REGREEN_DRAIN_SECONDS", count],
  questionSweepMs: ["REGREEN_QUESTION_SWEEP_MS", whole],
  queueFallback: ["REGREEN_QUEUE_FALLBACK", external_exports.enum(["memory"]).optional().describe('"memory"')],
  dashboardSecret: ["REGREEN_DASHBOARD_SECRET", text],
  metricsSecret: ["REGREEN_METRICS_SECRET", text],
  redisUrl: ["REDIS_URL", text],
  port: ["PORT", whole],
  host: ["HOST", text],
  appId: ["APP_ID", text],
  privateKey: ["PRIVATE_KEY", text],
  privateKeyPath: ["PRIVATE_KEY_PATH", text],
  webhookSecret: ["WEBHOOK_SECRET", text],
  githubApiUrl: ["GITHUB_API_URL", text],
  githubServerUrl: ["GITHUB_SERVER_URL", text],
  githubRepository: ["GITHUB_REPOSITORY", text],
  githubSha: ["GITHUB_SHA", text],
  githubHeadRef: ["GITHUB_HEAD_REF", text],
  githubRefName: ["GITHUB_REF_NAME", text],
  githubEventPath: ["GITHUB_EVENT_PATH", text],
  githubEventName: ["GITHUB_EVENT_NAME", text],
  githubOutput: ["GITHUB_OUTPUT", text],
  githubStepSummary: ["GITHUB_STEP_SUMMARY", text],
  githubToken: ["GITHUB_TOKEN", text],
  noColor: ["NO_COLOR", text],
  npmRegistry: ["NPM_CONFIG_REGISTRY", text],
  npmUserConfig: ["NPM_CONFIG_USERCONFIG", text],
  npmGlobalConfig: ["NPM_CONFIG_GLOBALCONFIG", text],
  pipIndexUrl: ["PIP_INDEX_URL", text],
  pipExtraIndexUrl: ["PIP_EXTRA_INDEX_URL", text],
  pipConfigFile: ["PIP_CONFIG_FILE", text],
  npmConfigRegistry: ["npm_config_registry", text],
  /** CA bundles the operator's clients trust: the host trusts them too when it reaches a registry for the sandbox. */
  sslCertFile: ["SSL_CERT_FILE", text],
  requestsCaBundle: ["REQUESTS_CA_BUNDLE", text],
  curlCaBundle: ["CURL_CA_BUNDLE", text],
  pipCert: ["PIP_CERT", text],
  nodeExtraCaCerts: ["NODE_EXTRA_CA_CERTS", text]
};
var cache = /* @__PURE__ */ new WeakMap();
var settingsOf = (env) => {
  const known = cache.get(env);
  if (known) return known;
  const out = {};
  const bad = [];
  for (const [key, [name, schema]] of Object.entries(VARIABLES)) {
    const raw = env[name];
    const parsed = schema.safeParse(raw === "" ? void 0 : raw);
    if (parsed.success) out[key] = parsed.data;
    else
      bad.push(
        `${name} must be ${schema.description ?? "a valid value"}, not ${JSON.stringify(raw)}`
      );
  }
  if (bad.length > 0) throw new RegreenError("usage", bad.join("; "));
  const settings = Object.freeze(out);
  cache.set(env, settings);
  return settings;
};
var unknownSettings = (env) => {
  const known = Object.values(VARIABLES).map(([name]) => name);
  return Object.keys(env).filter((name) => name.startsWith("REGREEN_") && !known.includes(name)).sort().map((name) => {
    const tail = (full) => full.slice("REGREEN_".length);
    const near = nearestWord(tail(name), known.filter((k) => k.startsWith("REGREEN_")).map(tail));
    return `${name} is not a setting regreen reads, so it does nothing${near ? `: did you mean REGREEN_${near}?` : ""} (the README's configuration reference lists them)`;
  });
};
var homeOf = (env) => settingsOf(env).home ?? os.homedir();
var TOOLCHAIN_ROOT_VARIABLES = [
  "PYENV_ROOT",
  "NVM_DIR",
  "RUSTUP_HOME",
  "SDKMAN_DIR",
  "VOLTA_HOME",
  "ASDF_DIR",
  "ASDF_DATA_DIR",
  "JAVA_HOME",
  "GOROOT",
  "RUNNER_TOOL_CACHE"
];
var toolchainRootsOf = (env) => TOOLCHAIN_ROOT_VARIABLES.map((name) => env[name]).filter(
  (dir) => dir !== void 0 && path.isAbsolute(dir)
);
var defaultToolsDir = (env) => {
  const settings = settingsOf(env);
  return settings.toolsDir ?? path.join(settings.xdgCacheHome ?? path.join(homeOf(env), ".cache"), "regreen-tools");
};
var actionInputOf = (env) => (name) => (env[`INPUT_${name.replace(/ /g, "_").toUpperCase()}`] ?? "").trim();

// src/workspace/setup/npm-tools.ts
import { createHash } from "node:crypto";
import { execFile } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync
} from "node:fs";
import path2 from "node:path";
var NpmToolError = class extends Error {
  constructor(tool, message, options) {
    super(message, options);
    this.tool = tool;
  }
  tool;
  name = "NpmToolError";
};
var npmToolRoot = (toolsDir, name, version) => path2.join(toolsDir, `${name.replace("/", "+")}@${version}`);
var installedNpmTool = (toolsDir, name, version) => {
  const root = npmToolRoot(toolsDir, name, version);
  let record;
  try {
    record = JSON.parse(readFileSync(path2.join(root, ".complete"), "utf8"));
  } catch {
    return void 0;
  }
  const dir = path2.join(root, "node_modules", ...name.split("/"));
  return { name, version, root, dir, bin: path2.join(root, "bin"), record };
};
var runNpm = (args, cwd, env, timeoutMs) => new Promise((resolve, reject) => {
  execFile(
    "npm",
    [...args],
    {
      cwd,
      env: { ...env, npm_config_update_notifier: "false", npm_config_fund: "false" },
      timeout: timeoutMs,
      maxBuffer: 16 * 1024 * 1024
    },
    (error, stdout, stderr) => {
      if (error) {
        const why = `${stderr}`.trim().split("\n").slice(-4).join(" ");
        reject(new Error(`npm ${args[0] ?? ""} failed: ${why || error.message}`));
      } else resolve(stdout);
    }
  );
});
var programsOf = (manifest, name) => {
  const bin = manifest.bin;
  const entries = typeof bin === "string" ? [[name, bin]] : bin && typeof bin === "object" ? Object.entries(bin) : [];
  const out = {};
  for (const [program, file] of entries) {
    if (!/^[\w.-]+$/.test(program) || typeof file !== "string") continue;
    const normal = path2.posix.normalize(file);
    if (normal.startsWith("..") || path2.posix.isAbsolute(normal)) continue;
    out[program] = normal;
  }
  return out;
};
var shellWord = (text2) => `'${text2.replace(/'/g, `'\\''`)}'`;
var sha512 = (file) => `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
var underWay = /* @__PURE__ */ new Map();
var installNpmTool = (options) => {
  const [tool] = options.packages;
  const root = npmToolRoot(options.toolsDir, tool.name, tool.version);
  const running = underWay.get(root);
  if (running) return running;
  const install = build(options).finally(() => underWay.delete(root));
  underWay.set(root, install);
  return install;
};
var build = async (options) => {
  const { toolsDir, env, packages } = options;
  const [tool] = packages;
  const timeoutMs = options.timeoutMs ?? 3e5;
  const spec = `${tool.name}@${tool.version}`;
  const before = installedNpmTool(toolsDir, tool.name, tool.version);
  if (before && tool.integrity !== void 0 && before.record.integrity !== tool.integrity)
    throw new NpmToolError(
      tool.name,
      `${before.root} holds a ${spec} that is not the tarball regreen's lockfile recorded: remove that folder and it is fetched again`
    );
  if (before) {
    chmodSync(before.root, 493);
    return before;
  }
  mkdirSync(toolsDir, { recursive: true });
  const building = mkdtempSync(path2.join(toolsDir, ".install-"));
  try {
    const tarballs = [];
    for (const pkg of packages) {
      const packed = JSON.parse(
        await runNpm(
          [
            "pack",
            `${pkg.name}@${pkg.version}`,
            "--json",
            "--ignore-scripts",
            "--pack-destination",
            building
          ],
          building,
          env,
          timeoutMs
        )
      );
      const tarball = path2.join(building, path2.basename(String(packed[0]?.filename ?? "")));
      if (!existsSync(tarball))
        throw new Error(`npm packed no tarball for ${pkg.name}@${pkg.version}`);
      if (pkg.integrity !== void 0 && sha512(tarball) !== pkg.integrity)
        throw new Error(
          `${pkg.name}@${pkg.version} from the registry is not the tarball regreen's lockfile recorded (integrity ${sha512(tarball).slice(0, 24)}\u2026, expected ${pkg.integrity.slice(0, 24)}\u2026)`
        );
      tarballs.push(tarball);
    }
    writeFileSync(path2.join(building, "package.json"), '{"private":true}\n');
    await runNpm(
      ["install", "--ignore-scripts", "--no-audit", "--no-package-lock", "--no-save", ...tarballs],
      building,
      env,
      timeoutMs
    );
    for (const pkg of packages) {
      const manifest = JSON.parse(
        readFileSync(
          path2.join(building, "node_modules", ...pkg.name.split("/"), "package.json"),
          "utf8"
        )
      );
      if (manifest.version !== pkg.version)
        throw new Error(
          `npm installed ${pkg.name}@${String(manifest.version)}, not ${pkg.version}`
        );
    }
    const installed = path2.join(building, "node_modules", ...tool.name.split("/"));
    const record = {
      package: spec,
      ...tool.integrity ? { integrity: tool.integrity } : {},
      ...options.verify?.(tarballs[0] ?? "", installed)
    };
    options.prune?.(installed);
    if (options.launchers !== void 0) {
      const manifest = JSON.parse(
        readFileSync(path2.join(installed, "package.json"), "utf8")
      );
      const programs = programsOf(manifest, options.launchers);
      if (Object.keys(programs).length === 0) throw new Error(`${spec} has no programs`);
      mkdirSync(path2.join(building, "bin"));
      const finalDir = path2.join(npmToolRoot(toolsDir, tool.name, tool.version), "node_modules");
      for (const [program, file] of Object.entries(programs)) {
        const launcher = path2.join(building, "bin", program);
        const target = path2.join(finalDir, ...tool.name.split("/"), file);
        writeFileSync(launcher, `#!/bin/sh
exec node ${shellWord(target)} "$@"
`);
        chmodSync(launcher, 493);
      }
    }
    for (const tarball of tarballs) rmSync(tarball);
    writeFileSync(path2.join(building, ".complete"), `${JSON.stringify(record, null, 2)}
`);
    chmodSync(building, 493);
    const root = npmToolRoot(toolsDir, tool.name, tool.version);
    try {
      renameSync(building, root);
    } catch (error) {
      if (!existsSync(path2.join(root, ".complete"))) throw error;
      rmSync(building, { recursive: true, force: true });
    }
    const done = installedNpmTool(toolsDir, tool.name, tool.version);
    if (!done) throw new Error(`${spec} vanished from ${toolsDir} after its install`);
    return done;
  } catch (error) {
    rmSync(building, { recursive: true, force: true });
    throw new NpmToolError(
      tool.name,
      `${spec} could not be installed into ${toolsDir}: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error }
    );
  }
};

export {
  nearestWord,
  settingsOf,
  unknownSettings,
  homeOf,
  toolchainRootsOf,
  defaultToolsDir,
  actionInputOf,
  npmToolRoot,
  installedNpmTool,
  runNpm,
  installNpmTool
};
