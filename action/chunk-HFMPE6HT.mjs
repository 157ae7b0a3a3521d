import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  listInside
} from "./chunk-KWM7AYEU.mjs";

// src/workspace/repo/known-files.ts
import path2 from "node:path";

// src/workspace/repo/git.ts
import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
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
  return {
    ...env,
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
var NO_FOLLOW_SCRIPT = 'mount --bind -o nosymfollow "$1" "$1" && cd "$1" && shift && exec "$@"';
var noFollowArgv = (workspace, args) => [
  ...process.getuid?.() === 0 ? ["-m"] : ["-r", "-m"],
  "--propagation",
  "private",
  "sh",
  "-c",
  NO_FOLLOW_SCRIPT,
  "sh",
  workspace,
  "git",
  ...hostArgs(args)
];
var stderrOf = (error) => {
  const stderr = error.stderr;
  return typeof stderr === "string" ? stderr : stderr?.toString("utf8") ?? "";
};
var noFollow = null;
var noFollowUnavailable = () => {
  if (noFollow !== null) return noFollow;
  const probe = mkdtempSync(path.join(os.tmpdir(), "regreen-nofollow-"));
  try {
    mkdirSync(path.join(probe, "dir"));
    symlinkSync("dir", path.join(probe, "link"));
    execFileSync("unshare", noFollowArgv(probe, ["-C", "link", "--version"]), {
      stdio: "pipe",
      timeout: 15e3,
      env: hostGitEnv()
    });
    noFollow = "a link on the bound workspace was followed (nosymfollow had no effect)";
  } catch (error) {
    const stderr = stderrOf(error) || error.message;
    noFollow = /too many levels of symbolic links/i.test(stderr) ? void 0 : `unshare with a nosymfollow bind mount failed: ${stderr.trim().split("\n").at(-1) ?? ""}`;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
  return noFollow;
};
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
var hostGit = (args, options) => new Promise((resolve, reject) => {
  execFile(
    options.noFollow ? "unshare" : "git",
    options.noFollow ? noFollowArgv(options.cwd, args) : hostArgs(args),
    {
      cwd: options.cwd,
      env: hostGitEnv(options.env),
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
});
var HOST_GIT_SYNC_TIMEOUT_MS = 12e4;
var hostGitSync = (args, options) => execFileSync(
  options.noFollow ? "unshare" : "git",
  options.noFollow ? noFollowArgv(options.cwd, args) : hostArgs(args),
  {
    cwd: options.cwd,
    ...options.input === void 0 ? {} : { input: options.input },
    env: hostGitEnv(options.env),
    maxBuffer: options.maxBuffer ?? 256 * 1024 * 1024,
    stdio: "pipe",
    timeout: options.timeoutMs ?? HOST_GIT_SYNC_TIMEOUT_MS,
    killSignal: "SIGKILL"
  }
);
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
var SKIPPED_DIRS = /* @__PURE__ */ new Set([".git", "node_modules", ".venv", "venv", "target", "vendor", "dist"]);
var walkInside = (workspace, prefix = "", depth = 0) => {
  if (depth > 8) return [];
  let entries;
  try {
    entries = listInside(workspace, path2.join(workspace, prefix));
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory())
      return SKIPPED_DIRS.has(entry.name) ? [] : walkInside(workspace, relative, depth + 1);
    return entry.isFile() ? [relative] : [];
  });
};
var knownFiles = (workspace) => {
  try {
    const own = listInside(workspace, workspace).some(
      (entry) => entry.name === ".git" && (entry.isDirectory() || entry.isFile())
    );
    if (!own) return walkInside(workspace);
    return hostGitSync(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
      cwd: workspace,
      noFollow: noFollowUnavailable() === void 0
    }).toString("utf8").split("\0").filter(Boolean);
  } catch {
    return walkInside(workspace);
  }
};

export {
  noFollowUnavailable,
  HostGitError,
  hostGit,
  hostGitSync,
  git,
  IDENTITY,
  knownFiles
};
