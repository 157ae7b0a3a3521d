import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyPatchTool,
  findRoot,
  lspFamily,
  routeToolchain
} from "./chunk-I3E7CMJK.mjs";
import {
  askFamily,
  inputSchemaOf
} from "./chunk-ROVV2GRL.mjs";
import {
  systemWaitClock
} from "./chunk-RB7MXYCI.mjs";
import {
  Disposables,
  privateFolders,
  projectPython,
  recogniseFailures
} from "./chunk-MX3TKKOS.mjs";
import {
  namesOnPath,
  whichIn
} from "./chunk-U2ZNDUQ6.mjs";
import "./chunk-JDXO5HYH.mjs";
import {
  providedToolsFor
} from "./chunk-YELE2N65.mjs";
import {
  settingsOf
} from "./chunk-2ZZLC3XA.mjs";
import "./chunk-2SKYD2FN.mjs";
import "./chunk-BQRX2BXM.mjs";
import {
  atomicWrite,
  checkPath,
  defineTool,
  fail,
  ok,
  readTextForEdit
} from "./chunk-Z47US34S.mjs";
import {
  external_exports,
  looksBinary,
  quote,
  relativeToWorkspace,
  resolveInsideWorkspace,
  statInside,
  stripAnsi,
  tailLines
} from "./chunk-EABGHHZK.mjs";
import {
  boundedLines,
  framedGuard
} from "./chunk-KFTQKZEH.mjs";
import {
  listInside,
  openFileInside,
  readFileInside
} from "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";

// tools/debug/index.ts
import path3 from "node:path";

// tools/debug/adapters.ts
import { closeSync, readSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
var PROVIDED_DEBUGPY = path.join(".regreen", "debugpy");
var providedDebugpy = (sandbox) => path.join(privateFolders(sandbox.policy).home, PROVIDED_DEBUGPY);
var DEBUGPY_VERSION = "1.8.22";
var installDebugpy = async (sandbox, python, workspace) => {
  const result = await sandbox.run({
    command: `${python} -m pip install --quiet --disable-pip-version-check --no-input --no-deps --only-binary=:all: --target ${quote(providedDebugpy(sandbox))} debugpy==${DEBUGPY_VERSION}`,
    cwd: workspace,
    network: "setup",
    timeoutMs: 18e4
  });
  return result.exitCode === 0 ? void 0 : result.output.trim().split("\n").at(-1) ?? `exit ${result.exitCode}`;
};
var RELAY = path.join(path.dirname(fileURLToPath(import.meta.url)), "relay.mjs");
var lldbAdapter = (which, pathVariable) => {
  for (const name of ["lldb-dap", "lldb-vscode"]) {
    const found = which(name);
    if (found) return found;
  }
  for (const { dir, names } of namesOnPath(
    pathVariable,
    (name) => /^lldb-(?:dap|vscode)-\d+$/.test(name)
  )) {
    const versioned = names.sort(
      (a, b) => Number(b.split("-").at(-1)) - Number(a.split("-").at(-1))
    )[0];
    if (versioned) return path.join(dir, versioned);
  }
  return void 0;
};
var safeStat = (workspace, file) => {
  try {
    return statInside(workspace, file);
  } catch {
    return void 0;
  }
};
var isElf = (file, workspace) => {
  let fd;
  try {
    fd = openFileInside(workspace, file).fd;
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([127, 69, 76, 70]));
  } catch {
    return false;
  } finally {
    if (fd !== void 0) closeSync(fd);
  }
};
var adapterSpecs = (which, pathVariable, node) => [
  {
    name: "debugpy",
    adapterId: "debugpy",
    rootMarkers: ["pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"],
    command: async (workspace, sandbox) => {
      const python = projectPython(workspace);
      const importable = async (pythonPath) => (await sandbox.run({
        command: `${pythonPath ? `PYTHONPATH=${quote(pythonPath)} ` : ""}${python} -c "import debugpy"`,
        cwd: workspace,
        network: "off",
        timeoutMs: 3e4
      })).exitCode === 0;
      if (await importable()) return { argv: [python, "-m", "debugpy.adapter"] };
      const provided = providedDebugpy(sandbox);
      const had = await importable(provided);
      const failed = had ? void 0 : await installDebugpy(sandbox, python, workspace);
      if (failed === void 0 && await importable(provided))
        return {
          argv: ["/usr/bin/env", `PYTHONPATH=${provided}`, python, "-m", "debugpy.adapter"],
          ...had ? {} : { note: `debugpy==${DEBUGPY_VERSION} installed now, outside the project` }
        };
      return {
        missing: `debugpy is not importable by ${python}, and debugpy==${DEBUGPY_VERSION} could not be installed from the job's package index (${failed ?? "installed, but not importable"}): install debugpy in the project's environment, or Debian's python3-debugpy for /usr/bin/python3`
      };
    },
    handles: (program) => program.endsWith(".py"),
    launchArguments: (program, args, cwd) => ({
      type: "python",
      request: "launch",
      program,
      args,
      cwd,
      console: "internalConsole",
      justMyCode: false,
      stopOnEntry: false,
      redirectOutput: true
    }),
    attachArguments: (port) => ({
      type: "python",
      request: "attach",
      connect: { host: "127.0.0.1", port },
      justMyCode: false
    })
  },
  {
    name: "delve",
    adapterId: "go",
    // git cannot stamp version control data from inside the sandbox (.git is read-only there).
    env: { GOFLAGS: "-buildvcs=false" },
    outputOnStderr: true,
    rootMarkers: ["go.mod"],
    command: () => {
      const dlv = which("dlv");
      if (!dlv) return Promise.resolve({ missing: "dlv (delve) is not on PATH" });
      if (!which("go"))
        return Promise.resolve({ missing: "go is not on PATH (delve builds the program)" });
      return Promise.resolve({ argv: [node, RELAY, dlv, "dap", "--listen=127.0.0.1:0"] });
    },
    handles: (program, workspace) => {
      if (program.endsWith(".go")) return true;
      try {
        return listInside(workspace, program).some((entry) => entry.name.endsWith(".go"));
      } catch {
        return false;
      }
    },
    launchArguments: (program, args, cwd) => ({
      request: "launch",
      mode: "debug",
      program,
      args,
      cwd
    }),
    attachArguments: (port) => ({ request: "attach", mode: "remote", host: "127.0.0.1", port })
  },
  {
    name: "lldb",
    adapterId: "lldb",
    rootMarkers: ["Cargo.toml", "CMakeLists.txt", "Makefile", "compile_commands.json"],
    command: () => {
      const found = lldbAdapter(which, pathVariable);
      return Promise.resolve(
        found ? { argv: [found] } : { missing: "lldb-dap (Debian: lldb-vscode-NN from the lldb package) is not on PATH" }
      );
    },
    handles: (program, workspace) => isElf(program, workspace),
    // lldb turns ASLR off with personality(2) by default, which the sandbox does not allow.
    launchArguments: (program, args, cwd) => ({
      request: "launch",
      program,
      args,
      cwd,
      stopOnEntry: false,
      disableASLR: false
    }),
    attachArguments: (port) => ({ request: "attach", pid: port })
  },
  {
    name: "dart",
    adapterId: "dart",
    rootMarkers: ["pubspec.yaml"],
    command: () => {
      const dart = which("dart");
      return Promise.resolve(
        dart ? { argv: [dart, "debug_adapter"] } : { missing: "dart is not on PATH" }
      );
    },
    handles: (program) => program.endsWith(".dart"),
    launchArguments: (program, args, cwd) => ({ request: "launch", program, args, cwd }),
    attachArguments: (port) => ({ request: "attach", vmServiceUri: `http://127.0.0.1:${port}/` })
  }
];
var routeAdapter = async (specs, workspace, sandbox, program, wanted) => {
  const spec = wanted ? specs.find((s) => s.name === wanted) : specs.find((s) => s.handles(program, workspace));
  if (!spec)
    return {
      ok: false,
      reason: `no debug adapter handles ${path.relative(workspace, program) || program} (debugpy: .py, delve: .go or a Go package folder, lldb: a native executable, dart: .dart); name one with adapter`
    };
  const start = safeStat(workspace, program)?.isDirectory() ? path.join(program, "x") : program;
  const root = findRoot(workspace, start, spec.rootMarkers);
  const route = routeToolchain({
    who: spec.name,
    workspace,
    target: program,
    root,
    markers: spec.rootMarkers,
    command: await spec.command(workspace, sandbox)
  });
  return route.ok ? { ...route, spec } : route;
};

// tools/debug/dap-client.ts
import { EventEmitter } from "node:events";
var DapTimeoutError = class extends Error {
  name = "DapTimeoutError";
};
var DapRequestError = class extends Error {
  name = "DapRequestError";
};
var HEADER_END = Buffer.from("\r\n\r\n");
var describeFailure = (command, response) => {
  const error = response.body?.error;
  const detail = error?.format.replace(
    /\{(\w+)\}/g,
    (m, key) => error.variables?.[key] ?? m
  );
  const message = response.message ?? `${command} failed`;
  return detail && detail !== message ? `${message}: ${detail}` : message;
};
var DapClient = class {
  constructor(input, output, requestTimeoutMs) {
    this.output = output;
    this.requestTimeoutMs = requestTimeoutMs;
    input.on("data", (chunk) => this.receive(chunk));
    input.on("close", () => this.close("the adapter closed its output"));
    this.events.setMaxListeners(50);
  }
  output;
  requestTimeoutMs;
  seq = 1;
  buffer = Buffer.alloc(0);
  pending = /* @__PURE__ */ new Map();
  closedWhy;
  events = new EventEmitter();
  receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (; ; ) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString("ascii");
      const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1] ?? NaN);
      if (!Number.isFinite(length)) {
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        continue;
      }
      const start = end + HEADER_END.length;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString("utf8");
      this.buffer = this.buffer.subarray(start + length);
      try {
        this.dispatch(JSON.parse(body));
      } catch {
      }
    }
  }
  dispatch(message) {
    if (message.type === "response") {
      const response = message;
      const waiter = this.pending.get(response.request_seq);
      if (!waiter) return;
      this.pending.delete(response.request_seq);
      clearTimeout(waiter.timer);
      waiter.resolve(response);
    } else if (message.type === "event") {
      const event = message;
      this.events.emit("event", event);
      this.events.emit(event.event, event);
    } else if (message.type === "request") {
      const request = message;
      this.send({
        type: "response",
        request_seq: request.seq,
        success: false,
        command: request.command,
        message: `regreen does not support the reverse request ${request.command}`
      });
    }
  }
  send(message) {
    const body = Buffer.from(JSON.stringify({ seq: this.seq++, ...message }), "utf8");
    this.output.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r
\r
`), body]));
  }
  get closed() {
    return this.closedWhy;
  }
  /** Sends a request; resolves with the response, rejects on failure, timeout or close. */
  request(command, args, timeoutMs = this.requestTimeoutMs) {
    if (this.closedWhy) return Promise.reject(new Error(this.closedWhy));
    const seq = this.seq;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(
          new DapTimeoutError(
            `the debug adapter did not answer ${command} within ${Math.round(timeoutMs / 1e3)} s`
          )
        );
      }, timeoutMs);
      this.pending.set(seq, {
        resolve: (response) => response.success ? resolve(response) : reject(new DapRequestError(describeFailure(command, response))),
        reject,
        timer
      });
      this.send({ type: "request", command, ...args === void 0 ? {} : { arguments: args } });
    });
  }
  close(why) {
    if (this.closedWhy) return;
    this.closedWhy = why;
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(why));
    }
    this.pending.clear();
    this.events.emit("closed", why);
  }
};

// tools/debug/input.ts
var OPS = [
  "adapters",
  "status",
  "breakpoints",
  "launch",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "threads",
  "stack",
  "scopes",
  "variables",
  "evaluate",
  "output",
  "terminate"
];
var DebugInput = external_exports.object({
  op: external_exports.enum(OPS),
  file: external_exports.string().optional().describe("breakpoints: the absolute path of the source file"),
  lines: external_exports.array(external_exports.number().int().positive()).optional().describe("breakpoints: line numbers; [] clears the file"),
  program: external_exports.string().optional().describe("launch: absolute path of the script, Go package folder or executable"),
  args: external_exports.array(external_exports.string()).default([]).describe("launch: the program's arguments"),
  adapter: external_exports.enum(["debugpy", "delve", "lldb", "dart"]).optional().describe("launch/attach: force an adapter"),
  port: external_exports.number().int().positive().optional().describe("attach: the port of a program already under a debugger"),
  thread_id: external_exports.number().int().optional(),
  frame_id: external_exports.number().int().optional().describe("scopes/evaluate: a frame id from stack"),
  reference: external_exports.number().int().optional().describe("variables: a variablesReference from scopes or variables"),
  expression: external_exports.string().optional().describe("evaluate: an expression in the frame"),
  wait_seconds: external_exports.number().positive().max(120).optional().describe("continue/step: how long to wait for the next stop")
});

// tools/debug/ops.ts
var MAX_FRAMES = 30;
var MAX_CHILDREN = 50;
var MAX_VALUE = 400;
var cut = (value, max = MAX_VALUE) => value.length > max ? `${value.slice(0, max)}\u2026 [${value.length - max} chars cut]` : value;
var needStopped = (s) => s.state === "stopped" ? void 0 : s.state === "running" ? "the program is running: pause it first, or wait for a breakpoint" : "the program has exited";
var step = (command) => async (s, input, waitMs) => {
  const blocked = needStopped(s);
  if (blocked) return fail(blocked);
  const since = s.mark;
  await s.client.request(command, { threadId: await s.threadId(input.thread_id) });
  const wait = (input.wait_seconds ?? waitMs / 1e3) * 1e3;
  const where = await s.settle(since, wait);
  return ok(s.state === "running" ? `still running after ${wait / 1e3} s: ${where}` : where);
};
var SESSION_OPS = {
  continue: step("continue"),
  step_over: step("next"),
  step_in: step("stepIn"),
  step_out: step("stepOut"),
  pause: async (s, input) => {
    if (s.state === "stopped") return ok(`already stopped: ${await s.describe()}`);
    const since = s.mark;
    await s.client.request("pause", { threadId: await s.threadId(input.thread_id) });
    return ok(await s.settle(since, 1e4));
  },
  threads: async (s) => {
    const threads = await s.client.request("threads");
    return ok(threads.body.threads.map((t) => `${t.id}: ${t.name}`).join("\n") || "(no threads)");
  },
  stack: async (s, input) => {
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    const response = await s.client.request("stackTrace", {
      threadId: await s.threadId(input.thread_id),
      startFrame: 0,
      levels: MAX_FRAMES
    });
    const frames = response.body.stackFrames.slice(0, MAX_FRAMES);
    const total = response.body.totalFrames;
    return ok(
      [
        ...frames.map(
          (f) => `#${f.id} ${f.name} at ${f.source?.path ?? f.source?.name ?? "?"}:${f.line}`
        ),
        ...total !== void 0 && total > frames.length ? [`[${total - frames.length} more frames]`] : []
      ].join("\n")
    );
  },
  scopes: async (s, input) => {
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    if (input.frame_id === void 0) return fail("frame_id is required (from stack)");
    const response = await s.client.request("scopes", {
      frameId: input.frame_id
    });
    return ok(
      response.body.scopes.map(
        (scope) => `${scope.name}: reference ${scope.variablesReference}${scope.expensive ? " (expensive)" : ""}`
      ).join("\n")
    );
  },
  variables: async (s, input) => {
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    if (input.reference === void 0)
      return fail("reference is required (from scopes or variables)");
    const response = await s.client.request("variables", {
      variablesReference: input.reference,
      count: MAX_CHILDREN + 1
    });
    const all = response.body.variables.filter(
      (v) => !/^(special variables|function variables)$/.test(v.name)
    );
    const shown = all.slice(0, MAX_CHILDREN);
    return ok(
      [
        ...shown.map(
          (v) => `${v.name}${v.type ? ` (${v.type})` : ""} = ${cut(v.value)}${v.variablesReference > 0 ? ` [reference ${v.variablesReference}]` : ""}`
        ),
        ...all.length > MAX_CHILDREN ? [`[more than ${MAX_CHILDREN} children; showing ${MAX_CHILDREN}]`] : []
      ].join("\n") || "(no variables)"
    );
  },
  evaluate: async (s, input) => {
    if (!input.expression) return fail("expression is required");
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    let frameId = input.frame_id;
    if (frameId === void 0) {
      const top = await s.client.request("stackTrace", {
        threadId: await s.threadId(input.thread_id),
        startFrame: 0,
        levels: 1
      });
      frameId = top.body.stackFrames[0]?.id;
    }
    const response = await s.client.request("evaluate", {
      expression: input.expression,
      ...frameId !== void 0 ? { frameId } : {},
      context: "repl"
    });
    return ok(
      `${cut(response.body.result)}${response.body.type ? ` (${response.body.type})` : ""}${response.body.variablesReference > 0 ? ` [reference ${response.body.variablesReference}]` : ""}`
    );
  }
};

// tools/debug/session.ts
import { existsSync } from "node:fs";
import path2 from "node:path";
var OUTPUT_LIMIT = 64 * 1024;
var DebugSession = class _DebugSession {
  constructor(spec, program, process2, client) {
    this.spec = spec;
    this.program = program;
    this.process = process2;
    this.client = client;
    client.events.on("stopped", (event) => {
      this.state = "stopped";
      this.stop = {
        threadId: event.body.threadId,
        reason: event.body.reason,
        ...event.body.description ? { description: event.body.description } : {}
      };
      this.bump();
    });
    client.events.on("continued", () => {
      this.state = "running";
      this.stop = void 0;
      this.bump();
    });
    client.events.on("exited", (event) => {
      this.exitCode = event.body.exitCode;
    });
    client.events.on("terminated", () => this.end("the program ended"));
    client.events.on("output", (event) => {
      const category = event.body.category ?? "console";
      if (category === "telemetry" || category === "important") return;
      if (category === "console" && this.spec.name === "debugpy") return;
      this.append(event.body.output);
    });
    client.events.on("closed", (why) => this.end(why));
    void process2.exited.then(() => this.end("the debug adapter exited"));
  }
  spec;
  program;
  process;
  client;
  state = "running";
  stop;
  exitCode;
  /** Increments on every stop, continue and exit: waiters compare against it. */
  generation = 0;
  changed = /* @__PURE__ */ new Set();
  out = "";
  outCut = 0;
  endedWhy;
  bump() {
    this.generation += 1;
    for (const wake of [...this.changed]) wake();
  }
  end(why) {
    if (this.state === "exited") return;
    this.state = "exited";
    this.stop = void 0;
    this.endedWhy ??= why;
    this.bump();
  }
  appendOutput(text) {
    this.append(text);
  }
  /**
   * Once the program has ended, what it printed last may still be on its way
   * through the adapter's own output (delve writes the debuggee's to stderr):
   * wait a moment for the adapter to finish, never long.
   */
  async settled() {
    if (this.state !== "exited") return;
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 1e3))]);
  }
  append(text) {
    this.out += text;
    if (this.out.length > OUTPUT_LIMIT) {
      this.outCut += this.out.length - OUTPUT_LIMIT;
      this.out = this.out.slice(-OUTPUT_LIMIT);
    }
  }
  output() {
    return this.outCut > 0 ? `[\u2026 ${this.outCut} earlier characters cut]
${this.out}` : this.out;
  }
  /** Waits until the state changes after `since`, or `ms` pass; returns whether it changed. */
  waitForChange(since, ms) {
    if (this.generation !== since) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.changed.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.changed.delete(wake);
        resolve(false);
      }, ms);
      this.changed.add(wake);
    });
  }
  get mark() {
    return this.generation;
  }
  /** Waits for the next stop or the end, at most `ms`; says which happened. */
  async settle(since, ms) {
    const deadline = Date.now() + ms;
    while (this.generation === since || this.state === "running") {
      const left = deadline - Date.now();
      if (left <= 0 || !await this.waitForChange(this.generation === since ? since : this.generation, left))
        break;
      if (this.state !== "running") break;
    }
    return this.describe();
  }
  /** "stopped at file:line in fn (reason)", "exited with code N", or "running". */
  async describe() {
    if (this.state === "exited")
      return `the program exited${this.exitCode !== void 0 ? ` with code ${this.exitCode}` : ""} (${this.endedWhy ?? "ended"})`;
    if (this.state === "running") return "the program is running (pause it to inspect it)";
    const reason = `${this.stop?.reason ?? "stopped"}${this.stop?.description && this.stop.description !== this.stop.reason ? `: ${this.stop.description}` : ""}`;
    try {
      const frames = await this.client.request("stackTrace", {
        threadId: await this.threadId(),
        startFrame: 0,
        levels: 1
      });
      const top = frames.body.stackFrames[0];
      return top ? `stopped at ${top.source?.path ?? top.source?.name ?? "?"}:${top.line} in ${top.name} (${reason}); thread ${await this.threadId()}, frame ${top.id}` : `stopped (${reason})`;
    } catch {
      return `stopped (${reason})`;
    }
  }
  /** The thread the op is about: the one given, the one that stopped, else the first. */
  async threadId(given) {
    if (given !== void 0) return given;
    if (this.stop?.threadId !== void 0) return this.stop.threadId;
    const threads = await this.client.request("threads");
    const first = threads.body.threads[0];
    if (!first) throw new Error("the program has no threads");
    return first.id;
  }
  static async start(options) {
    if (!existsSync(options.program))
      throw new Error(`the program does not exist: ${options.program}`);
    const process2 = await options.sandbox.spawn({
      argv: options.argv,
      cwd: options.root,
      ...options.spec.env ? { env: options.spec.env } : {}
    });
    let stderr = "";
    const guarded = process2.stdout.pipe(
      framedGuard((why) => {
        client.close(`the debug adapter was stopped: ${why}`);
        process2.kill();
      })
    );
    const client = new DapClient(guarded, process2.stdin, options.requestTimeoutMs);
    const session = new _DebugSession(options.spec, options.program, process2, client);
    process2.stderr.on("data", (chunk) => {
      const text = chunk.toString("utf8");
      stderr = (stderr + text).slice(-2e3);
      if (options.spec.outputOnStderr) session.appendOutput(text);
    });
    try {
      const initialized = new Promise(
        (resolve) => client.events.once("initialized", () => resolve())
      );
      const capabilities = await client.request("initialize", {
        clientID: "regreen",
        clientName: "regreen",
        adapterID: options.spec.adapterId,
        pathFormat: "path",
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsRunInTerminalRequest: false,
        supportsVariableType: true
      });
      const launched = client.request(
        "launch",
        options.spec.launchArguments(options.program, options.args, options.root),
        options.launchTimeoutMs
      );
      await Promise.race([initialized, launched.then(() => initialized)]);
      const reports = [];
      for (const [file, lines] of options.breakpoints) {
        reports.push(...await setBreakpoints(client, file, lines));
      }
      if (capabilities.body?.supportsConfigurationDoneRequest !== false)
        await client.request("configurationDone");
      await launched;
      return { session, breakpoints: reports };
    } catch (error) {
      await session.dispose();
      const detail = stderr.trim() ? ` (adapter: ${stderr.trim().split("\n").slice(-14).join(" | ")})` : "";
      throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}`, {
        cause: error
      });
    }
  }
  async dispose() {
    if (!this.client.closed) {
      await this.client.request("disconnect", { terminateDebuggee: true }, 3e3).catch(() => void 0);
      this.client.close("the session was ended");
    }
    this.end(this.endedWhy ?? "the session was ended");
    this.process.kill();
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 3e3))]);
  }
};
var setBreakpoints = async (client, file, lines) => {
  const response = await client.request("setBreakpoints", {
    source: { path: file, name: path2.basename(file) },
    breakpoints: lines.map((line) => ({ line })),
    lines
  });
  return lines.map((requested, i) => {
    const bp = response.body.breakpoints[i];
    return {
      file,
      requested,
      verified: bp?.verified ?? false,
      ...bp?.line !== void 0 ? { line: bp.line } : {},
      ...bp?.message ? { message: bp.message } : {}
    };
  });
};

// tools/debug/index.ts
var SESSION_TTL_MS = 30 * 6e4;
var debugFamily = (options) => {
  const specs = adapterSpecs(whichIn(options.path), options.path, options.node);
  const breakpoints = /* @__PURE__ */ new Map();
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  const waitMs = options.defaultWaitMs ?? 15e3;
  let session;
  let ttl;
  let endedWhy;
  const teardown = async (why) => {
    if (ttl) clearTimeout(ttl);
    ttl = void 0;
    const current = session;
    session = void 0;
    endedWhy = why;
    await current?.dispose();
  };
  const live = () => session && session.state !== "exited" ? session : void 0;
  const pathIn = (value, what) => {
    if (!value) return { ok: false, why: `${what} is required` };
    const resolved = resolveInsideWorkspace(options.workspace, value);
    return resolved.ok ? { ok: true, path: resolved.path } : { ok: false, why: `${what}: ${resolved.error}` };
  };
  const reportBreakpoints = (reports) => reports.map(
    (r) => r.verified ? `${path3.relative(options.workspace, r.file)}:${r.requested} verified${r.line !== void 0 && r.line !== r.requested ? ` (moved to line ${r.line})` : ""}` : `${path3.relative(options.workspace, r.file)}:${r.requested} unverified${r.message ? `: ${r.message}` : " (the adapter found no code there yet)"}`
  ).join("\n");
  const run = async (input, signal) => {
    switch (input.op) {
      case "adapters": {
        const lines = await Promise.all(
          specs.map(async (spec) => {
            const command = await spec.command(options.workspace, options.sandbox);
            const state = "missing" in command ? `unavailable \u2014 ${command.missing}` : `available${command.note ? ` (${command.note})` : ""}`;
            return `${spec.name}: ${state} (root markers: ${spec.rootMarkers.join(", ")})`;
          })
        );
        return ok(lines.join("\n"));
      }
      case "status": {
        const s2 = live();
        const pending = [...breakpoints].map(
          ([f, l]) => `${path3.relative(options.workspace, f)}: ${l.join(", ")}`
        );
        return ok(
          [
            s2 ? `session: ${s2.spec.name} on ${path3.relative(options.workspace, s2.program)} \u2014 ${await s2.describe()}` : `no session${endedWhy ? ` (the last one ended: ${endedWhy})` : ""}`,
            pending.length > 0 ? `breakpoints:
${pending.join("\n")}` : "no breakpoints"
          ].join("\n")
        );
      }
      case "breakpoints": {
        const file = pathIn(input.file, "file");
        if (!file.ok) return fail(file.why);
        const lines = input.lines ?? [];
        if (lines.length === 0) breakpoints.delete(file.path);
        else breakpoints.set(file.path, [...new Set(lines)]);
        const s2 = live();
        if (!s2)
          return ok(
            lines.length === 0 ? "cleared (no session yet)" : `set ${lines.length} breakpoint(s); they apply at launch`
          );
        return ok(
          lines.length === 0 ? "cleared" : reportBreakpoints(await setBreakpoints(s2.client, file.path, lines))
        );
      }
      case "launch":
      case "attach": {
        if (live())
          return fail("a debug session is already running: terminate it before launching another");
        if (input.op === "attach")
          return fail(
            "attach needs a program already listening under a debugger in the same sandbox; regreen runs every command in a sandbox of its own, so launch the program with op launch instead"
          );
        const program = pathIn(input.program, "program");
        if (!program.ok) return fail(program.why);
        const route = await routeAdapter(
          specs,
          options.workspace,
          options.sandbox,
          program.path,
          input.adapter
        );
        if (!route.ok) return fail(route.reason);
        try {
          const started = await DebugSession.start({
            spec: route.spec,
            argv: route.argv,
            sandbox: options.sandbox,
            workspace: options.workspace,
            root: route.root,
            program: program.path,
            args: input.args,
            breakpoints,
            requestTimeoutMs: options.requestTimeoutMs ?? 15e3,
            launchTimeoutMs: 12e4
          });
          session = started.session;
          endedWhy = void 0;
          ttl = setTimeout(
            () => void teardown(`the session passed its ${Math.round(ttlMs / 6e4)}-minute limit`),
            ttlMs
          );
          ttl.unref();
          const where = await started.session.settle(
            -1,
            (input.wait_seconds ?? waitMs / 1e3) * 1e3
          );
          return ok(
            [
              `launched ${path3.relative(options.workspace, program.path)} under ${route.spec.name}`,
              started.breakpoints.length > 0 ? reportBreakpoints(started.breakpoints) : "no breakpoints set",
              where
            ].join("\n")
          );
        } catch (error) {
          return fail(`launch failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      case "terminate": {
        if (!session) return ok("no session to end");
        const output = session.output();
        await teardown("terminated");
        return ok(`session ended${output ? `; its output:
${output}` : ""}`);
      }
      default:
        break;
    }
    const s = session;
    if (!s)
      return fail(
        `no debug session${endedWhy ? ` (the last one ended: ${endedWhy})` : ""}: launch one first`
      );
    if (input.op === "output") {
      await s.settled();
      return ok(s.output() || "(no output yet)");
    }
    if (s.state === "exited") {
      return fail(`${await s.describe()}; output:
${s.output() || "(none)"}`);
    }
    signal.throwIfAborted();
    const op = SESSION_OPS[input.op];
    return op ? op(s, input, waitMs) : fail(`unknown op ${String(input.op)}`);
  };
  const hintText = options.hints && options.hints.length > 0 ? ` The failure report names ${options.hints.slice(0, 3).map((h) => `${h.file}:${h.line}${h.test ? ` (${h.test})` : ""}`).join(", ")}: you can set a breakpoint there and launch the test file.` : "";
  const debugTool = defineTool({
    name: "debug",
    level: "exec",
    exclusive: true,
    description: `Drive a real debugger (Debug Adapter Protocol) inside the sandbox: debugpy for Python, delve for Go, lldb for native executables, dart. Set breakpoints (op breakpoints, file + lines, before or after launch), launch a program (op launch, program + args: it runs to the first breakpoint), then inspect: stack (30 frames), scopes (frame_id), variables (reference; 50 children, values cut at 400 chars), evaluate (expression in a frame), threads, output. continue / step_over / step_in / step_out return when the program stops again, exits, or wait_seconds pass, saying which and where. pause stops a running program (an infinite loop). One session at a time, ended by terminate or after 30 minutes; op adapters says which debuggers are usable here.${hintText}`,
    schema: DebugInput,
    run: async (input, _ctx, signal) => {
      try {
        return await run(input, signal);
      } catch (error) {
        if (error instanceof DapTimeoutError) {
          await teardown(error.message);
          return fail(
            `${error.message}: the session was torn down (adapter and program killed); launch again`
          );
        }
        return fail(
          `${input.op} failed: ${error instanceof Error ? error.message : String(error)}`
        );
      }
    }
  });
  return { tools: [debugTool], dispose: () => teardown("the job ended") };
};

// tools/files/edit.ts
var countOccurrences = (text, fragment) => {
  let count = 0;
  for (let at = text.indexOf(fragment); at !== -1; at = text.indexOf(fragment, at + fragment.length))
    count += 1;
  return count;
};
var editTool = defineTool({
  name: "edit",
  level: "write",
  description: "Replace one exact, unique fragment of a file: `old` must appear exactly once (copy it from read output without the line numbers, whitespace included); it is replaced by `new`.",
  schema: external_exports.object({
    path: external_exports.string(),
    old: external_exports.string().min(1, "old must not be empty"),
    new: external_exports.string()
  }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const conflict = await ctx.views?.checkWrite(checked.value, input.path);
    if (conflict) return fail(conflict);
    const current = await readTextForEdit(ctx.workspace, checked.value);
    if (!current.ok) return fail(current.error);
    const count = countOccurrences(current.value, input.old);
    if (count === 0)
      return fail(`not found: read the file and copy the exact text (${input.path})`);
    if (count > 1)
      return fail(
        `appears ${count} times: include more context so that old is unique (${input.path})`
      );
    const at = current.value.indexOf(input.old);
    const next = current.value.slice(0, at) + input.new + current.value.slice(at + input.old.length);
    try {
      await atomicWrite(ctx.workspace, checked.value, next);
    } catch (error) {
      return fail(
        `cannot write ${input.path}: ${error.code ?? "error"}`
      );
    }
    await ctx.views?.recordWrite(checked.value);
    const line = current.value.slice(0, at).split("\n").length;
    return ok(`edited ${relativeToWorkspace(ctx.workspace, checked.value)} at line ${line}`);
  }
});

// tools/files/list.ts
import path4 from "node:path";
var MAX_ENTRIES = 500;
var list = (workspace, requested) => {
  const checked = checkPath(workspace, requested);
  if (!checked.ok) return fail(checked.error);
  let entries;
  try {
    entries = listInside(workspace, checked.value);
  } catch (error) {
    const code = error.code;
    return fail(
      code === "ENOTDIR" ? `${requested} is a file: use read` : `cannot list ${requested}: ${code ?? "error"}`
    );
  }
  const rows = entries.sort((a, b) => a.name.localeCompare(b.name)).map((entry) => {
    if (entry.isDirectory()) return `${entry.name}/`;
    if (entry.isSymbolicLink()) return `${entry.name} -> (symlink)`;
    return entry.name;
  });
  const shown = rows.slice(0, MAX_ENTRIES);
  const where = relativeToWorkspace(workspace, checked.value);
  const more = rows.length > shown.length ? `
[${rows.length - shown.length} more entries not shown]` : "";
  return ok(`${path4.join(where, "")}: ${rows.length} entries
${shown.join("\n")}${more}`);
};
var listTool = defineTool({
  name: "list",
  level: "read",
  description: 'List a directory (absolute path inside the workspace): folders end with "/", symlinks show their target. At most 500 entries.',
  schema: external_exports.object({ path: external_exports.string().describe("absolute path of the directory") }),
  run: (input, ctx) => Promise.resolve(list(ctx.workspace, input.path))
});

// tools/files/read.ts
import { closeSync as closeSync2, createReadStream, readSync as readSync2 } from "node:fs";
var MAX_RANGE = 1e3;
var MAX_LINE_CHARS = 2e3;
var readRange = async (fd, file, from, to) => {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const lines = [];
  let total = 0;
  let partial = "";
  const take = (line) => {
    total += 1;
    if (total >= from && total <= to) lines.push(line);
  };
  try {
    for await (const chunk of createReadStream("", {
      fd,
      start: 0,
      autoClose: false,
      highWaterMark: 1 << 20
    })) {
      const text = partial + decoder.decode(chunk, { stream: true });
      const parts = text.split("\n");
      partial = parts.pop() ?? "";
      for (const part of parts) take(part);
    }
    partial += decoder.decode();
  } catch {
    return { error: `${file} is not valid UTF-8 text: it cannot be shown as text` };
  }
  if (partial.length > 0) take(partial);
  return { lines, total };
};
var readTool = defineTool({
  name: "read",
  level: "read",
  description: "Read a text file as numbered lines. Give an absolute path inside the workspace and optionally a 1-based line range (`from`, `to`, default 1-200, at most 1000 lines at once). The result ends with the total number of lines, so you can read further ranges of long files.",
  schema: external_exports.object({
    path: external_exports.string().describe("absolute path of the file"),
    from: external_exports.number().int().positive().default(1),
    to: external_exports.number().int().positive().optional()
  }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const file = checked.value;
    const to = input.to ?? input.from + 199;
    if (to < input.from) return fail(`empty range: to (${to}) is before from (${input.from})`);
    if (to - input.from + 1 > MAX_RANGE) {
      return fail(
        `range too large: read at most ${MAX_RANGE} lines at once (e.g. from ${input.from} to ${input.from + MAX_RANGE - 1})`
      );
    }
    let opened;
    try {
      opened = openFileInside(ctx.workspace, file);
    } catch (error) {
      const code = error.code;
      if (code === "EISDIR") return fail(`${input.path} is a directory: use list`);
      if (code === "ENOENT")
        return fail(`file not found: ${input.path}. Use list or search to find the right path`);
      return fail(`cannot read ${input.path}: ${error.message}`);
    }
    const size = opened.stats.size;
    let result;
    try {
      const head = Buffer.alloc(Math.min(size, 8192));
      readSync2(opened.fd, head, 0, head.length, 0);
      if (looksBinary(head))
        return fail(`${input.path} is a binary file (${size} bytes): it cannot be shown as text`);
      result = await readRange(opened.fd, file, input.from, to);
    } finally {
      closeSync2(opened.fd);
    }
    if ("error" in result) return fail(result.error);
    await ctx.views?.recordRead(file);
    if (result.total > 0 && input.from > result.total) {
      return fail(`from (${input.from}) is past the end: the file has ${result.total} lines`);
    }
    const width = String(input.from + result.lines.length).length;
    const body = result.lines.map((line, index) => {
      const shown = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)} [\u2026 line cut at ${MAX_LINE_CHARS} chars]` : line;
      return `${String(input.from + index).padStart(width)}	${shown}`;
    }).join("\n");
    return ok(`${body}${body ? "\n" : ""}[${result.total} lines in total]`);
  }
});

// tools/files/search.ts
import path5 from "node:path";
var MAX_MATCHES = 100;
var SEARCH_TIMEOUT_MS = 3e4;
var MAX_SEARCH_OUTPUT = 8 * 1024 * 1024;
var exitStatus = (text) => {
  const code = /^\d+/.exec(text)?.[0];
  const rest = code === void 0 ? "" : text.slice(code.length).replace(/^:/, "");
  return code !== void 0 && /^.*$/.test(rest) ? [text, code, rest] : null;
};
var searchTool = defineTool({
  name: "search",
  level: "read",
  description: 'Search file contents with a regular expression (ripgrep syntax). Optional `path` (absolute, a file or folder inside the workspace; default the whole workspace) and `glob` (e.g. "*.ts"). Returns `path:line: text` for at most 100 matches, with the total count. Respects .gitignore. Runs in the sandbox, like the code it searches.',
  schema: external_exports.object({
    pattern: external_exports.string().min(1),
    path: external_exports.string().optional(),
    glob: external_exports.string().optional()
  }),
  run: async (input, ctx, signal) => {
    const target = checkPath(ctx.workspace, input.path ?? ctx.workspace);
    if (!target.ok) return fail(target.error);
    const args = [
      "--line-number",
      "--no-heading",
      "--color",
      "never",
      "--max-columns",
      "300",
      "--max-columns-preview",
      "--hidden",
      "--glob",
      "!.git"
    ];
    if (input.glob) args.push("--glob", input.glob);
    args.push("--regexp", input.pattern, "--", target.value);
    const marker = `regreen-search-${Math.random().toString(36).slice(2)}`;
    const result = await ctx.sandbox.run({
      command: `if ! command -v rg >/dev/null; then echo ${marker}:127; exit 0; fi; rg ${args.map(quote).join(" ")} 2>"$TMPDIR/${marker}.err"; code=$?; echo; echo "${marker}:$code:$(head -c 300 "$TMPDIR/${marker}.err" | head -n 1)"`,
      cwd: ctx.workspace,
      network: "off",
      timeoutMs: SEARCH_TIMEOUT_MS,
      maxOutputBytes: MAX_SEARCH_OUTPUT,
      signal
    });
    if (result.timedOut)
      return fail(
        `search stopped after ${SEARCH_TIMEOUT_MS / 1e3}s (a FIFO or a very large tree?): narrow it with path or glob`
      );
    const end = result.output.lastIndexOf(`${marker}:`);
    const status = end >= 0 ? exitStatus(result.output.slice(end + marker.length + 1).trim()) : null;
    if (!status) return fail("search did not finish (no exit status from ripgrep)");
    const exitCode = Number(status[1]);
    if (exitCode === 127)
      return fail("search is unavailable: ripgrep (rg) is not installed on this machine");
    if (exitCode === 2)
      return fail(`invalid search: ${status[2] ?? ""}. Check the regular expression`);
    const stdout = result.output.slice(0, end);
    if (exitCode === 1 || stdout.trim() === "") return ok(`no matches for /${input.pattern}/`);
    const lines = stdout.split("\n").filter(Boolean);
    const shown = lines.slice(0, MAX_MATCHES).map((line) => {
      const absolute = line.startsWith(path5.sep) ? line : path5.join(target.value, line);
      const colon = absolute.indexOf(":");
      return colon > 0 ? `${relativeToWorkspace(ctx.workspace, absolute.slice(0, colon))}${absolute.slice(colon)}` : line;
    });
    const tail = lines.length > MAX_MATCHES ? `
[${lines.length} matches in total; ${MAX_MATCHES} shown: narrow with path or glob]` : `
[${lines.length} matches]`;
    return ok(shown.join("\n") + tail);
  }
});

// tools/files/write.ts
var writeTool = defineTool({
  name: "write",
  level: "write",
  description: "Create or overwrite a whole file (absolute path inside the workspace) with the given UTF-8 content. Prefer edit for changing part of an existing file.",
  schema: external_exports.object({ path: external_exports.string(), content: external_exports.string() }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const conflict = await ctx.views?.checkWrite(checked.value, input.path);
    if (conflict) return fail(conflict);
    try {
      await atomicWrite(ctx.workspace, checked.value, input.content);
      await ctx.views?.recordWrite(checked.value);
    } catch (error) {
      return fail(
        `cannot write ${input.path}: ${error.code ?? "error"}`
      );
    }
    const lines = input.content.length === 0 ? 0 : input.content.split("\n").length;
    return ok(`wrote ${relativeToWorkspace(ctx.workspace, checked.value)} (${lines} lines)`);
  }
});

// tools/tests/run-tests.ts
import path6 from "node:path";
var TAIL_LINES = 150;
var SCRIPT_CALL = /^\s*(npm|pnpm|yarn)\s+(?:run\s+)?(\S+)\s*$/;
var TEST_RUNNER = /\b(mocha|jest|vitest|ava|tape|tap|jasmine|karma|uvu|c8|nyc)\b|\bnode\s+(--\S+\s+)*--test\b|\bplaywright\s+test\b/;
var testPartOf = (command, scripts) => {
  const call = SCRIPT_CALL.exec(command);
  const manager = call?.[1];
  const body = call?.[2] ? scripts[call[2]] : void 0;
  if (!manager || typeof body !== "string" || !body.includes("&&")) return void 0;
  for (const part of body.split("&&").map((p) => p.trim())) {
    const inner = SCRIPT_CALL.exec(part);
    const name = inner?.[2];
    const script = name ? scripts[name] : void 0;
    if (!name || typeof script !== "string") continue;
    if (TEST_RUNNER.test(script) || /^test\b/.test(name)) return `${manager} run ${name}`;
  }
  return void 0;
};
var withFilter = (command, filter, scripts = {}) => {
  if (!filter) return command;
  const target = testPartOf(command, scripts) ?? command;
  const passThrough = SCRIPT_CALL.test(target) && !target.includes(" -- ");
  return `${target}${passThrough ? " --" : ""} ${quote(filter)}`;
};
var packageScripts = (workspace) => {
  try {
    const manifest = JSON.parse(
      readFileInside(workspace, path6.join(workspace, "package.json")).toString("utf8")
    );
    return manifest.scripts && typeof manifest.scripts === "object" ? manifest.scripts : {};
  } catch {
    return {};
  }
};
var runTestsTool = defineTool({
  name: "run_tests",
  level: "exec",
  // Two test runs in one workspace can trip over each other's files: one agent at a time.
  exclusive: true,
  description: "Run the repository's test command in the sandbox (no network) and get PASS or FAIL with the exit code and the tail of the output. Optional `filter` is passed to the test runner (a file or a test name) to run less.",
  schema: external_exports.object({ filter: external_exports.string().min(1).optional() }),
  run: async (input, ctx, signal) => {
    const command = withFilter(
      ctx.testCommand,
      input.filter,
      input.filter ? packageScripts(ctx.workspace) : {}
    );
    const result = await ctx.sandbox.run({
      command,
      cwd: ctx.workspace,
      network: "off",
      timeoutMs: ctx.commandTimeoutMs,
      signal
    });
    const tail = tailLines(result.output.trimEnd(), TAIL_LINES);
    if (result.timedOut) {
      return {
        ...fail(
          `TIMEOUT after ${Math.round(ctx.commandTimeoutMs / 1e3)}s running \`${command}\`: narrow the run with a filter.
${tail}`
        ),
        tests: "timed out"
      };
    }
    const passed = result.exitCode === 0;
    return {
      ...ok(
        `${passed ? "PASS" : "FAIL"} (exit ${result.exitCode ?? "killed"}) \`${command}\`
${tail}`
      ),
      tests: passed ? "passed" : "failed"
    };
  }
});

// tools/index.ts
var coreTools = () => [readTool, searchTool, listTool, writeTool, editTool, applyPatchTool, runTestsTool];
var jobTools = async (warn, lsp, provided) => {
  const tools = lsp ? lsp.wrapWrites(coreTools()) : coreTools();
  if (lsp) tools.push(...lsp.tools);
  try {
    const { astTools } = await import("./ast-2REWTUPA.mjs");
    tools.push(...astTools(provided));
  } catch (error) {
    warn(`ast tools unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return tools;
};

// tools/kernels/kernel.ts
import path7 from "node:path";
import { fileURLToPath as fileURLToPath2 } from "node:url";
var DRIVERS = path7.join(path7.dirname(fileURLToPath2(import.meta.url)), "drivers");
var INTERRUPT_GRACE_MS = 3e3;
var START_TIMEOUT_MS = 3e4;
var Kernel = class {
  constructor(options) {
    this.options = options;
    this.language = options.language;
  }
  options;
  process;
  waiters = /* @__PURE__ */ new Map();
  nextId = 0;
  deadWhy;
  onDeath;
  stderrTail = "";
  language;
  get alive() {
    return this.process !== void 0 && this.deadWhy === void 0;
  }
  async start() {
    const { workspace, sandbox, node } = this.options;
    const argv = this.options.language === "python" ? [projectPython(workspace), "-u", path7.join(DRIVERS, "python_driver.py")] : [node, path7.join(DRIVERS, "js_driver.mjs")];
    const acorn = import.meta.resolve("acorn");
    const proc = await sandbox.spawn({
      argv,
      cwd: workspace,
      env: {
        MPLBACKEND: "Agg",
        PYTHONUNBUFFERED: "1",
        PYTHONDONTWRITEBYTECODE: "1",
        PYTHONIOENCODING: "utf-8",
        REGREEN_ACORN: acorn
      }
    });
    this.process = proc;
    proc.stderr.on("data", (chunk) => {
      this.stderrTail = (this.stderrTail + chunk.toString("utf8")).slice(-4e3);
    });
    const ready = new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the ${this.language} kernel did not start in time`)),
        START_TIMEOUT_MS
      );
      this.waiters.set(-1, () => {
        clearTimeout(timer);
        resolve();
      });
      this.onDeath = (why) => {
        clearTimeout(timer);
        reject(new Error(why));
      };
    });
    boundedLines(
      proc.stdout,
      (line) => this.receive(line),
      (why) => {
        this.deadWhy = `the ${this.language} kernel was stopped: ${why} on its protocol pipe; its state is lost`;
        proc.kill();
      }
    );
    void proc.exited.then((code) => {
      const why = `the ${this.language} kernel exited (${code === null ? "killed by a signal" : `exit code ${code}`})${this.stderrTail.trim() ? `: ${this.stderrTail.trim().split("\n").slice(-3).join(" | ")}` : ""}`;
      this.deadWhy ??= why;
      this.onDeath?.(this.deadWhy);
      for (const waiter of this.waiters.values()) waiter({ type: "dead" });
      this.waiters.clear();
    });
    await ready;
  }
  receive(line) {
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      this.options.logger.warn(
        { line: line.slice(0, 200) },
        "kernel wrote a line that is not JSON"
      );
      return;
    }
    if (message.type === "ready") {
      this.waiters.get(-1)?.(message);
      this.waiters.delete(-1);
      return;
    }
    if (message.type === "tool_call" || message.type === "result") {
      this.waiters.get(0)?.(message);
    }
  }
  write(message) {
    this.process?.stdin.write(`${JSON.stringify(message)}
`);
  }
  /** Runs a cell; answers the kernel's bridged tool calls; enforces the idle budget. */
  async execute(code, budgetMs, signal) {
    if (!this.alive) return { kind: "lost", why: this.deadWhy ?? "the kernel is not running" };
    this.nextId += 1;
    const id = this.nextId;
    return new Promise((resolve) => {
      let settled = false;
      let timer;
      let interrupted = false;
      const finish = (result) => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
        this.waiters.delete(0);
        resolve(result);
      };
      const kill = (why) => {
        this.deadWhy = why;
        this.process?.kill();
        finish({ kind: "lost", why });
      };
      const arm = (ms) => {
        timer = setTimeout(() => {
          if (!interrupted) {
            interrupted = true;
            this.write({ type: "interrupt" });
            arm(INTERRUPT_GRACE_MS);
          } else {
            kill(
              `the cell ran past its idle budget and the kernel did not answer the interrupt: it was killed and its state lost`
            );
          }
        }, ms);
      };
      const onAbort = () => kill("the job was cancelled");
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiters.set(0, (message) => {
        if (message.type === "dead") {
          finish({
            kind: "lost",
            why: `${this.deadWhy ?? "the kernel died"}; its state was lost and the next call starts a fresh kernel`
          });
          return;
        }
        if (message.type === "tool_call") {
          if (timer) clearTimeout(timer);
          void this.options.bridge(message.name ?? "", message.input ?? {}, signal).then((result) => {
            if (settled) return;
            this.write({ type: "tool_result", id: message.id, result });
            arm(interrupted ? INTERRUPT_GRACE_MS : budgetMs);
          });
          return;
        }
        if (message.type === "result" && message.id === id) {
          const common = {
            stdout: message.stdout ?? "",
            stderr: message.stderr ?? "",
            error: message.error ?? null
          };
          finish(
            message.interrupted === true || interrupted && !message.ok ? { kind: "interrupted", ...common } : {
              kind: "done",
              ok: message.ok === true,
              outputs: message.outputs ?? [],
              ...common
            }
          );
        }
      });
      this.write({ type: "execute", id, code, timeout_ms: budgetMs });
      arm(budgetMs);
    });
  }
  async dispose() {
    if (!this.process) return;
    this.deadWhy ??= "disposed";
    this.process.stdin.end();
    this.process.kill();
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 2e3))]);
  }
};

// tools/kernels/rewrite.ts
var literal = (text) => JSON.stringify(text);
var magicCall = (head, line) => {
  const args = head ? line.slice(head[0].length).trimStart() : "";
  return head && /^.*$/.test(args) ? [...head, args] : void 0;
};
var rewriteIPython = (code) => {
  const lines = code.replace(/\r\n/g, "\n").split("\n");
  const first = lines.findIndex((line) => line.trim().length > 0);
  const head = first >= 0 ? (lines[first] ?? "").trim() : "";
  const body = lines.slice(first + 1).join("\n");
  const cellMagic = magicCall(/^%%(\w+)/.exec(head), head);
  if (cellMagic) {
    const [, magic, rest = ""] = cellMagic;
    if (magic === "bash" || magic === "sh")
      return `__regreen_sh(${literal(body)}, ${literal(magic)})`;
    if (magic === "timeit") {
      const setup = rest.split(/\s+/).filter((word) => word && !word.startsWith("-")).join(" ");
      return `__regreen_timeit(${literal(body)}, ${literal(setup || "pass")})`;
    }
    return `__regreen_unsupported(${literal(`%%${magic}`)})`;
  }
  return lines.map((line) => {
    const shell = /^(\s*)!(.*)$/.exec(line);
    if (shell) return `${shell[1] ?? ""}__regreen_sh(${literal(shell[2] ?? "")})`;
    const magic = magicCall(/^(\s*)%(\w+)/.exec(line), line);
    if (!magic) return line;
    const [, indent = "", name = "", args = ""] = magic;
    switch (name) {
      case "pip":
        return `${indent}__regreen_pip(${literal(args)})`;
      case "cd":
        return `${indent}__regreen_cd(${literal(args)})`;
      case "timeit":
        return `${indent}__regreen_timeit(${literal(args.replace(/^(?:(?:-[nr]\s*\d+|-\w+)\s+)+/, ""))})`;
      default:
        return `${indent}__regreen_unsupported(${literal(`%${name}`)})`;
    }
  }).join("\n");
};

// tools/kernels/index.ts
var DEFAULT_CELL_BUDGET_MS = 5 * 6e4;
var words = (text) => text.trim().split(/\s+/).filter(Boolean).length;
var EvalInput = external_exports.object({
  code: external_exports.string().describe("the cell: Python (default) or JavaScript"),
  description: external_exports.string().refine((d) => words(d) >= 5 && words(d) <= 10, {
    message: "describe the cell in 5 to 10 words"
  }).describe("what the cell does, in 5 to 10 words (it goes into the trace)"),
  language: external_exports.enum(["python", "javascript"]).default("python"),
  reset: external_exports.boolean().default(false).describe("discard the interpreter and its state first")
});
var NOT_BRIDGED = /* @__PURE__ */ new Set(["eval"]);
var render = (result, language) => {
  if (result.kind === "lost") {
    return {
      content: [
        {
          type: "text",
          text: `${result.why}. The next eval call starts a fresh ${language} kernel.`
        }
      ],
      isError: true
    };
  }
  const blocks = [];
  const text = [];
  if (result.stdout) text.push(result.stdout.trimEnd());
  const outputs = result.kind === "done" ? result.outputs : [];
  for (const output of outputs) {
    if (output.type === "text") text.push(output.text);
    else {
      if (text.length > 0) blocks.push({ type: "text", text: text.splice(0).join("\n") });
      blocks.push({
        type: "image",
        source: { type: "base64", media_type: output.mime, data: output.data }
      });
    }
  }
  if (result.stderr) text.push(`[stderr]
${result.stderr.trimEnd()}`);
  if (result.error) text.push(result.error.trimEnd());
  if (result.kind === "interrupted")
    text.push(
      "[the cell passed its idle budget and was interrupted; the kernel and its state are kept]"
    );
  if (text.length > 0 || blocks.length === 0)
    blocks.push({ type: "text", text: text.join("\n") || "(no output)" });
  return { content: blocks, isError: result.kind === "interrupted" || !result.ok };
};
var kernelFamily = (options) => {
  const kernels = /* @__PURE__ */ new Map();
  const budget = options.cellBudgetMs ?? DEFAULT_CELL_BUDGET_MS;
  const bridge = (name, input, signal) => NOT_BRIDGED.has(name) ? Promise.resolve({
    content: [{ type: "text", text: `${name} cannot be called from inside a cell` }],
    isError: true
  }) : options.bridge(name, input, signal);
  const kernelFor = async (language, reset) => {
    const existing = kernels.get(language);
    if (existing && existing.alive && !reset) return existing;
    if (existing) await existing.dispose();
    const kernel = new Kernel({ ...options, language, bridge });
    kernels.set(language, kernel);
    await kernel.start();
    return kernel;
  };
  const evalTool = defineTool({
    name: "eval",
    level: "exec",
    exclusive: true,
    description: [
      "Run a cell in a persistent Python (default) or JavaScript interpreter inside the sandbox: variables, imports and loaded data survive between calls.",
      "Use it to poke at data, reproduce a failure in a few lines, or time something, without writing throwaway files. The last expression is echoed; display(x) shows a value; a pandas DataFrame renders as a table; a matplotlib figure comes back as an image.",
      "Python accepts %pip, %cd, !cmd, %%bash and %%timeit. JavaScript has top-level await, require and import() from the workspace.",
      'Inside a cell, tool("read", {"path": ...}) calls one of your tools with the same rules as a direct call (Python returns its text or raises ToolError; JavaScript returns a promise).',
      `A cell that works for ${Math.round(budget / 6e4)} minutes without finishing is interrupted (time spent in bridged tool calls does not count). reset: true discards the interpreter first.`
    ].join(" "),
    schema: EvalInput,
    run: async (input, _ctx, signal) => {
      let kernel;
      try {
        kernel = await kernelFor(input.language, input.reset);
      } catch (error) {
        return {
          content: [
            {
              type: "text",
              text: `the ${input.language} kernel could not start: ${error instanceof Error ? error.message : String(error)}`
            }
          ],
          isError: true
        };
      }
      const code = input.language === "python" ? rewriteIPython(input.code) : input.code;
      return render(await kernel.execute(code, budget, signal), input.language);
    }
  });
  return {
    tools: [evalTool],
    dispose: async () => {
      await Promise.all([...kernels.values()].map((kernel) => kernel.dispose()));
      kernels.clear();
    }
  };
};

// src/job/toolbox.ts
var warmToolbox = async () => {
  const tools = coreTools();
  try {
    const { astTools } = await import("./ast-2REWTUPA.mjs");
    tools.push(...astTools());
  } catch {
  }
  for (const tool of tools) inputSchemaOf(tool);
};
var openToolbox = async (options) => {
  const { job, prepared, policy, ctx, ledger } = options;
  const { config } = prepared;
  const families = new Disposables();
  const warn = (message) => job.logger.warn(message);
  const where = {
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    logger: job.logger,
    path: settingsOf(job.deps.env).path,
    node: process.execPath
  };
  const provided = providedToolsFor(
    job.deps.env,
    (what) => job.deps.progress?.({ kind: "fetching", what })
  );
  const lsp = lspFamily({ ...where, provided });
  const registryRef = {};
  const kernels = kernelFamily({
    ...where,
    bridge: (name, input, signal) => registryRef.current ? (
      // A cell calls with what the job's agent may call now (never more in the plan phase).
      registryRef.current.call(name, input, ctx, signal, policy.current())
    ) : Promise.resolve(fail("the tool registry is not ready"))
  });
  const debug = debugFamily({
    ...where,
    hints: options.hints
  });
  const ask = job.deps.questions ? askFamily({
    channel: job.deps.questions.channel,
    jobKey: job.id,
    timeoutMinutes: config.ask_user.timeout_minutes,
    clock: job.deps.questions.clock ?? systemWaitClock,
    pause: () => ledger.pause(),
    resume: () => ledger.resume(),
    trace: job.trace,
    ...job.deps.questions.suspend ? { suspend: true } : {},
    ...options.asked ? { asked: options.asked } : {}
  }) : void 0;
  families.add(() => lsp.dispose());
  families.add(() => kernels.dispose());
  families.add(() => debug.dispose());
  const tools = [
    ...await jobTools(warn, lsp, provided),
    ...kernels.tools,
    ...debug.tools,
    ...ask?.tools ?? []
  ];
  return {
    tools,
    forWorkers: async () => [
      ...await jobTools(warn, lsp, provided),
      ...kernels.tools,
      ...debug.tools
    ],
    ...ask ? { ask } : {},
    bind: (registry) => {
      registryRef.current = registry;
    },
    dispose: () => families.disposeAll((error) => job.logger.warn({ err: error }, "dispose failed"))
  };
};
var failureLocations = (output) => recogniseFailures(
  stripAnsi(output).split("\n").map((text, index) => ({ line: index + 1, text }))
).flatMap(
  (f) => f.file && f.line !== void 0 ? [{ file: f.file, line: f.line, ...f.test ? { test: f.test } : {} }] : []
);
export {
  failureLocations,
  openToolbox,
  warmToolbox
};
