import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  listInside
} from "./chunk-KWM7AYEU.mjs";

// src/workspace/repo/git-view-probe.ts
import { execFile } from "node:child_process";
import { mkdirSync as mkdirSync2, mkdtempSync as mkdtempSync2, rmSync as rmSync2, symlinkSync as symlinkSync2 } from "node:fs";
import os2 from "node:os";
import path2 from "node:path";

// src/workspace/repo/git-view.ts
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync
} from "node:fs";
import os from "node:os";
import path from "node:path";
var SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
var DEVICES = ["/dev/null", "/dev/urandom"];
var VIEW_MEMORY_KIB = 2 * 1024 * 1024;
var VIEW_CPU_SECONDS = 120;
var VIEW_SCRIPT = [
  'mount -a -T "$1"',
  'mount --bind -o nosymfollow,nosuid,nodev,noexec "$2" "$4/workspace"',
  '{ [ -z "$3" ] || mount --bind -o nosymfollow,nosuid,nodev,noexec "$3" "$4/index"; }',
  `ulimit -v ${VIEW_MEMORY_KIB}`,
  `ulimit -t ${VIEW_CPU_SECONDS}`,
  'root=$4 && shift 4 && exec chroot "$root" "$@"'
].join(" && ");
var VIEW_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";
var VIEW_WORKSPACE = "/workspace";
var VIEW_INDEX = "/index";
var tablePath = (file) => file.replace(/[\s\\]/g, (char) => `\\${char.charCodeAt(0).toString(8).padStart(3, "0")}`);
var ownFolder = (dir) => {
  const stat = lstatSync(dir, { throwIfNoEntry: false });
  const uid = process.getuid?.() ?? -1;
  return stat?.isDirectory() && stat.uid === uid && (stat.mode & 63) === 0 ? `${stat.dev}:${stat.ino}` : void 0;
};
var baseFolder = () => {
  const uid = process.getuid?.() ?? -1;
  const run = lstatSync("/run", { throwIfNoEntry: false });
  const parent = uid === 0 && run?.isDirectory() && run.uid === 0 && (run.mode & 18) === 0 ? "/run" : os.tmpdir();
  const shared = path.join(parent, `regreen-git-view-${uid}`);
  try {
    mkdirSync(shared, { mode: 448 });
  } catch {
  }
  if (ownFolder(shared)) return shared;
  const own = mkdtempSync(path.join(os.tmpdir(), "regreen-git-view-"));
  process.once("exit", () => rmSync(own, { recursive: true, force: true }));
  return own;
};
var made;
var viewRoot = () => {
  if (made && ownFolder(made.base) === made.identity) return made;
  const base = baseFolder();
  const identity = ownFolder(base) ?? "";
  const root = path.join(base, "root");
  mkdirSync(root, { recursive: true });
  const system = [];
  for (const dir of SYSTEM_DIRS) {
    const stat = lstatSync(dir, { throwIfNoEntry: false });
    const at = path.join(root, dir);
    if (stat?.isSymbolicLink()) {
      const target = readlinkSync(dir);
      if (lstatSync(at, { throwIfNoEntry: false }) === void 0) symlinkSync(target, at);
    } else if (stat?.isDirectory()) {
      mkdirSync(at, { recursive: true });
      system.push(`${tablePath(dir)} ${tablePath(at)} none rbind,ro 0 0`);
    }
  }
  mkdirSync(path.join(root, "dev"), { recursive: true });
  for (const device of DEVICES) {
    writeFileSync(path.join(root, device), "", { flag: "a" });
    system.push(`${device} ${tablePath(path.join(root, device))} none bind 0 0`);
  }
  for (const at of [VIEW_WORKSPACE, VIEW_INDEX])
    mkdirSync(path.join(root, at), { recursive: true });
  const table = path.join(base, "system.fstab");
  const written = `${table}.${process.pid}`;
  writeFileSync(written, [...system, ""].join("\n"));
  renameSync(written, table);
  made = { base, identity, root, table };
  return made;
};
var viewArgv = (workspace, indexFile, command) => {
  const view = viewRoot();
  const top = path.resolve(workspace);
  const index = indexFile === void 0 ? void 0 : path.resolve(top, indexFile);
  const folder = index === void 0 ? "" : path.dirname(index);
  if (folder && !path.relative(folder, top).startsWith(".."))
    throw new Error(`regreen's git file ${index} is in a folder that holds the workspace ${top}`);
  if (folder && !path.relative(top, folder).startsWith(".."))
    throw new Error(`regreen's git file ${index} is inside the workspace ${top}`);
  return {
    argv: [
      ...process.getuid?.() === 0 ? ["-m"] : ["-r", "-m"],
      "--propagation",
      "private",
      "sh",
      "-c",
      VIEW_SCRIPT,
      "sh",
      view.table,
      top,
      folder,
      view.root,
      ...command
    ],
    ...index === void 0 ? {} : { indexFile: path.join(VIEW_INDEX, path.basename(index)) }
  };
};

// src/workspace/repo/git-args.ts
var SAFE_GIT_CONFIG = [
  "core.hooksPath=/dev/null",
  "core.fsmonitor=false",
  "core.pager=cat",
  "core.askPass=",
  "core.attributesFile=/dev/null",
  "core.untrackedCache=false",
  "credential.helper=",
  "diff.ignoreSubmodules=all",
  "status.submoduleSummary=false",
  "submodule.recurse=false",
  "fetch.recurseSubmodules=false",
  "protocol.ext.allow=never",
  "gc.auto=0",
  "maintenance.auto=false",
  // When regreen runs as root, a workspace belongs to the sandbox's unprivileged uid
  // (`sandbox/identity.ts`). The ownership check guards against another user's config
  // running programs; the settings above already run none of the repository's.
  "safe.directory=*"
].flatMap((entry) => ["-c", entry]);
var COMPARING_WORKTREE = /* @__PURE__ */ new Set(["status", "diff", "diff-files", "diff-index"]);
var subcommandAt = (args) => {
  let at = 0;
  while (at < args.length) {
    const arg = args[at] ?? "";
    if (arg === "-c" || arg === "-C") at += 2;
    else if (arg.startsWith("-")) at += 1;
    else break;
  }
  return at;
};
var hostArgs = (args) => {
  const at = subcommandAt(args);
  const command = args[at];
  if (command === "commit")
    throw new Error("host git commits by plumbing only (commitStaged), never by `git commit`");
  const guarded = command !== void 0 && COMPARING_WORKTREE.has(command) ? [...args.slice(0, at + 1), "--ignore-submodules=all", ...args.slice(at + 1)] : args;
  return [...SAFE_GIT_CONFIG, ...guarded];
};
var isGitSteering = (name) => /^GIT_/.test(name) || name === "PAGER" || name === "EDITOR" || name === "VISUAL";
var hostGitEnv = (extra = {}, base = process.env) => {
  const env = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== void 0 && !isGitSteering(name)) env[name] = value;
  }
  const path_ = (env.PATH ?? "").split(":").filter((dir) => dir.startsWith("/"));
  return {
    ...env,
    PATH: path_.length > 0 ? path_.join(":") : "/usr/bin:/bin",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "/bin/false",
    SSH_ASKPASS: "/bin/false",
    GIT_PAGER: "cat",
    GIT_OPTIONAL_LOCKS: "0",
    ...extra
  };
};
var viewed = (workspace, args, env) => {
  const view = viewArgv(workspace, env?.GIT_INDEX_FILE, [
    "git",
    "-C",
    VIEW_WORKSPACE,
    // Windows into packs well inside the view's memory bound.
    "-c",
    "core.packedGitWindowSize=64m",
    "-c",
    "core.packedGitLimit=512m",
    ...hostArgs(args)
  ]);
  return {
    argv: view.argv,
    env: hostGitEnv({
      ...env,
      ...view.indexFile ? { GIT_INDEX_FILE: view.indexFile } : {},
      PATH: VIEW_PATH,
      // Its messages as the probe reads them, whatever the host's language.
      LC_ALL: "C",
      LANGUAGE: ""
    })
  };
};

// src/workspace/repo/git-view-probe.ts
var probed;
var probing;
var PROBE_AGAIN_MS = 3e4;
var PROBE_TIMEOUT_MS = 15e3;
var known = (now) => probed !== void 0 && (probed.why === void 0 || now - probed.at < PROBE_AGAIN_MS);
var noFollowProbe = (now = Date.now()) => {
  if (known(now)) return Promise.resolve(probed?.why);
  probing ??= probeAsync().then((why) => {
    probed = { why, at: Date.now() };
    probing = void 0;
    return why;
  });
  return probing;
};
var probeCalls = (dir) => {
  const workspace = path2.join(dir, "workspace");
  const outside = path2.join(dir, "outside");
  mkdirSync2(path2.join(workspace, "dir"), { recursive: true });
  mkdirSync2(outside);
  symlinkSync2("dir", path2.join(workspace, "link"));
  return [
    { args: ["-C", "link", "--version"], expected: /too many levels of symbolic links/i },
    { args: ["-C", outside, "--version"], expected: /no such file or directory/i }
  ].map(({ args, expected }) => ({ ...viewed(workspace, args, void 0), expected }));
};
var refusal = (run, expected) => {
  if (run.error !== void 0) return run.error;
  if (run.status === 0) return "passed";
  const said = run.stderr.trim().split("\n").at(-1) ?? "";
  return run.status === 128 && expected.test(said) ? void 0 : `exit ${run.status}: ${said}`;
};
var probeVerdict = (link, host) => {
  if (link === "passed")
    return "a link on the bound workspace was followed (nosymfollow had no effect)";
  if (host === "passed") return "a folder outside the workspace was visible in its view";
  const failed = link ?? host;
  return failed === void 0 ? void 0 : `unshare with a chrooted nosymfollow view failed: ${failed}`;
};
var runAsync = (argv, env) => new Promise((resolve) => {
  const child = execFile(
    "unshare",
    argv,
    { timeout: PROBE_TIMEOUT_MS, killSignal: "SIGKILL", env, encoding: "utf8" },
    (error, _stdout, stderr) => resolve({
      status: child.exitCode,
      stderr,
      // An exit code is the view's answer; anything else (not started, killed) is the error.
      ...error && typeof error.code !== "number" ? { error: error.message } : {}
    })
  );
  child.stdin?.end();
});
var probeAsync = async () => {
  let dir;
  try {
    dir = mkdtempSync2(path2.join(os2.tmpdir(), "regreen-nofollow-"));
    const said = [];
    for (const call of probeCalls(dir)) {
      said.push(refusal(await runAsync(call.argv, call.env), call.expected));
      if (said.at(-1) !== void 0) break;
    }
    return probeVerdict(said[0], said[1]);
  } catch (error) {
    return `the view could not be made: ${error.message}`;
  } finally {
    if (dir) rmSync2(dir, { recursive: true, force: true });
  }
};

// src/workspace/repo/git.ts
import { execFile as execFile2, execFileSync } from "node:child_process";
var HostGitError = class extends Error {
  constructor(message, stderr, exitCode) {
    super(message);
    this.stderr = stderr;
    this.exitCode = exitCode;
  }
  stderr;
  exitCode;
  name = "HostGitError";
};
var hostGit = async (args, options) => {
  const unavailable = options.noFollow && process.platform === "linux" ? await noFollowProbe() : void 0;
  if (unavailable)
    throw new HostGitError(
      `git ${args[subcommandAt(args)] ?? ""} needs a view of the workspace of its own, and this host cannot make one: ${unavailable}`,
      "",
      null
    );
  return new Promise((resolve, reject) => {
    const view = options.noFollow && process.platform === "linux" ? viewed(options.cwd, args, options.env) : void 0;
    const child = execFile2(
      view ? "unshare" : "git",
      view ? view.argv : hostArgs(args),
      {
        cwd: options.cwd,
        env: view ? view.env : hostGitEnv(options.env),
        timeout: options.timeoutMs ?? 3e5,
        maxBuffer: 256 * 1024 * 1024
      },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = typeof error.code === "number" ? error.code : null;
        reject(
          new HostGitError(
            `git ${args[subcommandAt(args)] ?? ""} failed: ${`${stderr || error.message}`.trim()}`,
            `${stderr}`,
            code
          )
        );
      }
    );
    child.stdin?.on("error", () => void 0);
    child.stdin?.end(options.input ?? "");
  });
};
var workspaceGit = (dir) => ({
  raw: (args) => hostGit(args, { cwd: dir, noFollow: true }),
  revparse: (args) => hostGit(["rev-parse", ...args], { cwd: dir, noFollow: true })
});
var HOST_GIT_SYNC_TIMEOUT_MS = 12e4;
var hostGitSync = (args, options) => execFileSync("git", hostArgs(args), {
  cwd: options.cwd,
  ...options.input === void 0 ? {} : { input: options.input },
  env: hostGitEnv(options.env),
  maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
  stdio: "pipe",
  timeout: options.timeoutMs ?? HOST_GIT_SYNC_TIMEOUT_MS,
  killSignal: "SIGKILL"
});
var git = (dir) => ({
  raw: (args) => hostGit(args, { cwd: dir }),
  revparse: (args) => hostGit(["rev-parse", ...args], { cwd: dir })
});
var IDENTITY = [
  "-c",
  "user.name=regreen",
  "-c",
  "user.email=regreen@users.noreply.invalid"
];

// src/workspace/repo/known-files.ts
import path3 from "node:path";
var SKIPPED_DIRS = /* @__PURE__ */ new Set([".git", "node_modules", ".venv", "venv", "target", "vendor", "dist"]);
var MAX_WALKED = 2e4;
var walkInside = (workspace) => {
  const files = [];
  let walked = 0;
  const walk = (prefix, depth) => {
    if (depth > 8) return;
    let entries;
    try {
      entries = listInside(workspace, path3.join(workspace, prefix));
    } catch {
      return;
    }
    for (const entry of entries) {
      walked += 1;
      if (walked > MAX_WALKED) return;
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(relative, depth + 1);
      } else if (entry.isFile()) files.push(relative);
    }
  };
  walk("", 0);
  return files;
};
var LISTING_TIMEOUT_MS = 6e4;
var knownFiles = async (workspace) => {
  let own;
  try {
    own = listInside(workspace, workspace).some(
      (entry) => entry.name === ".git" && (entry.isDirectory() || entry.isFile())
    );
  } catch {
    return [];
  }
  if (!own || process.platform === "linux" && await noFollowProbe() !== void 0)
    return walkInside(workspace);
  return (await hostGit(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: workspace,
    noFollow: true,
    timeoutMs: LISTING_TIMEOUT_MS
  })).split("\0").filter(Boolean);
};

export {
  noFollowProbe,
  HostGitError,
  hostGit,
  workspaceGit,
  hostGitSync,
  git,
  IDENTITY,
  knownFiles
};
