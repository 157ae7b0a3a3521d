import { closeSync, readSync } from 'node:fs';
import { listInside, openFileInside } from '../../src/workspace/repo/confined-fs.ts';
import { statInside } from '../../src/workspace/repo/confined-stat.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectPython } from '../../src/workspace/setup/interpreters.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { privateFolders } from '../../src/workspace/sandbox/shared.ts';
import { quote } from '../../src/util/text.ts';
import { findRoot, routeToolchain } from '../toolchain.ts';
import { namesOnPath, type Which } from '../../src/util/which.ts';

export type AdapterName = 'debugpy' | 'delve' | 'lldb' | 'dart';

/**
 * Where the debug tool installs debugpy, the first time it is used, for a
 * Python project whose interpreter lacks it: the sandbox's private home,
 * never the project or its venv.
 */
export const PROVIDED_DEBUGPY = path.join('.regreen', 'debugpy');
export const providedDebugpy = (sandbox: Sandbox): string =>
  path.join(privateFolders(sandbox.policy).home, PROVIDED_DEBUGPY);

/** The debugpy the tool installs: one version, so every job debugs with the same adapter. */
export const DEBUGPY_VERSION = '1.8.22';

/**
 * Installs the pinned debugpy for `python` from the job's own package index
 * (the sandbox's setup network reaches only the user's registries), as a wheel
 * and nothing else. Returns undefined, or why it could not.
 */
const installDebugpy = async (
  sandbox: Sandbox,
  python: string,
  workspace: string,
): Promise<string | undefined> => {
  const result = await sandbox.run({
    command: `${python} -m pip install --quiet --disable-pip-version-check --no-input --no-deps --only-binary=:all: --target ${quote(providedDebugpy(sandbox))} debugpy==${DEBUGPY_VERSION}`,
    cwd: workspace,
    network: 'setup',
    timeoutMs: 180_000,
  });
  return result.exitCode === 0
    ? undefined
    : (result.output.trim().split('\n').at(-1) ?? `exit ${result.exitCode}`);
};

const RELAY = path.join(path.dirname(fileURLToPath(import.meta.url)), 'relay.mjs');

/** How to start an adapter and launch a program under it. */
export interface AdapterSpec {
  readonly name: AdapterName;
  readonly rootMarkers: readonly string[];
  /** The adapter's argv, or what is missing to start it. */
  command(
    workspace: string,
    sandbox: Sandbox,
  ): Promise<{ argv: string[]; note?: string } | { missing: string }>;
  /** Does this adapter debug the program? */
  /** Whether it debugs this program of the workspace (read through the confined reader). */
  handles(program: string, workspace: string): boolean;
  launchArguments(program: string, args: readonly string[], cwd: string): Record<string, unknown>;
  attachArguments(port: number): Record<string, unknown>;
  readonly adapterId: string;
  /** The program's output arrives on the adapter's stderr (delve writes it to its own stdout, which the relay moves there). */
  readonly outputOnStderr?: boolean;
  /** Variables the adapter needs in the sandbox. */
  readonly env?: Readonly<Record<string, string>>;
}

/** Debian names lldb's adapter `lldb-vscode-NN`; upstream calls it `lldb-dap`. */
const lldbAdapter = (which: Which, pathVariable: string | undefined): string | undefined => {
  for (const name of ['lldb-dap', 'lldb-vscode']) {
    const found = which(name);
    if (found) return found;
  }
  for (const { dir, names } of namesOnPath(pathVariable, (name) =>
    /^lldb-(?:dap|vscode)-\d+$/.test(name),
  )) {
    const versioned = names.sort(
      (a, b) => Number(b.split('-').at(-1)) - Number(a.split('-').at(-1)),
    )[0];
    if (versioned) return path.join(dir, versioned);
  }
  return undefined;
};

/** What is at a path of the workspace, asked through the confined reader (undefined when nothing, or a link). */
const safeStat = (workspace: string, file: string): ReturnType<typeof statInside> => {
  try {
    return statInside(workspace, file);
  } catch {
    return undefined;
  }
};

const isElf = (file: string, workspace: string): boolean => {
  let fd: number | undefined;
  try {
    fd = openFileInside(workspace, file).fd;
    const head = Buffer.alloc(4);
    readSync(fd, head, 0, 4, 0);
    return head.equals(Buffer.from([0x7f, 0x45, 0x4c, 0x46]));
  } catch {
    return false;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
};

export const adapterSpecs = (
  which: Which,
  pathVariable: string | undefined,
  node: string,
): AdapterSpec[] => [
  {
    name: 'debugpy',
    adapterId: 'debugpy',
    rootMarkers: ['pyproject.toml', 'setup.py', 'setup.cfg', 'requirements.txt'],
    command: async (workspace, sandbox) => {
      const python = projectPython(workspace);
      // The check runs in the sandbox: the project's interpreter is never run outside it.
      const importable = async (pythonPath?: string): Promise<boolean> =>
        (
          await sandbox.run({
            command: `${pythonPath ? `PYTHONPATH=${quote(pythonPath)} ` : ''}${python} -c "import debugpy"`,
            cwd: workspace,
            network: 'off',
            timeoutMs: 30_000,
          })
        ).exitCode === 0;
      if (await importable()) return { argv: [python, '-m', 'debugpy.adapter'] };
      // A copy for this interpreter outside the project: installed the first time it is needed.
      const provided = providedDebugpy(sandbox);
      const had = await importable(provided);
      const failed = had ? undefined : await installDebugpy(sandbox, python, workspace);
      if (failed === undefined && (await importable(provided)))
        return {
          argv: ['/usr/bin/env', `PYTHONPATH=${provided}`, python, '-m', 'debugpy.adapter'],
          ...(had
            ? {}
            : { note: `debugpy==${DEBUGPY_VERSION} installed now, outside the project` }),
        };
      return {
        missing: `debugpy is not importable by ${python}, and debugpy==${DEBUGPY_VERSION} could not be installed from the job's package index (${failed ?? 'installed, but not importable'}): install debugpy in the project's environment, or Debian's python3-debugpy for /usr/bin/python3`,
      };
    },
    handles: (program) => program.endsWith('.py'),
    launchArguments: (program, args, cwd) => ({
      type: 'python',
      request: 'launch',
      program,
      args,
      cwd,
      console: 'internalConsole',
      justMyCode: false,
      stopOnEntry: false,
      redirectOutput: true,
    }),
    attachArguments: (port) => ({
      type: 'python',
      request: 'attach',
      connect: { host: '127.0.0.1', port },
      justMyCode: false,
    }),
  },
  {
    name: 'delve',
    adapterId: 'go',
    // git cannot stamp version control data from inside the sandbox (.git is read-only there).
    env: { GOFLAGS: '-buildvcs=false' },
    outputOnStderr: true,
    rootMarkers: ['go.mod'],
    command: () => {
      const dlv = which('dlv');
      if (!dlv) return Promise.resolve({ missing: 'dlv (delve) is not on PATH' });
      if (!which('go'))
        return Promise.resolve({ missing: 'go is not on PATH (delve builds the program)' });
      return Promise.resolve({ argv: [node, RELAY, dlv, 'dap', '--listen=127.0.0.1:0'] });
    },
    handles: (program, workspace) => {
      if (program.endsWith('.go')) return true;
      try {
        return listInside(workspace, program).some((entry) => entry.name.endsWith('.go'));
      } catch {
        return false;
      }
    },
    launchArguments: (program, args, cwd) => ({
      request: 'launch',
      mode: 'debug',
      program,
      args,
      cwd,
    }),
    attachArguments: (port) => ({ request: 'attach', mode: 'remote', host: '127.0.0.1', port }),
  },
  {
    name: 'lldb',
    adapterId: 'lldb',
    rootMarkers: ['Cargo.toml', 'CMakeLists.txt', 'Makefile', 'compile_commands.json'],
    command: () => {
      const found = lldbAdapter(which, pathVariable);
      return Promise.resolve(
        found
          ? { argv: [found] }
          : { missing: 'lldb-dap (Debian: lldb-vscode-NN from the lldb package) is not on PATH' },
      );
    },
    handles: (program, workspace) => isElf(program, workspace),
    // lldb turns ASLR off with personality(2) by default, which the sandbox does not allow.
    launchArguments: (program, args, cwd) => ({
      request: 'launch',
      program,
      args,
      cwd,
      stopOnEntry: false,
      disableASLR: false,
    }),
    attachArguments: (port) => ({ request: 'attach', pid: port }),
  },
  {
    name: 'dart',
    adapterId: 'dart',
    rootMarkers: ['pubspec.yaml'],
    command: () => {
      const dart = which('dart');
      return Promise.resolve(
        dart ? { argv: [dart, 'debug_adapter'] } : { missing: 'dart is not on PATH' },
      );
    },
    handles: (program) => program.endsWith('.dart'),
    launchArguments: (program, args, cwd) => ({ request: 'launch', program, args, cwd }),
    attachArguments: (port) => ({ request: 'attach', vmServiceUri: `http://127.0.0.1:${port}/` }),
  },
];

/** The intersection rule: a root marker above the program and a startable adapter, or why not. */
export const routeAdapter = async (
  specs: readonly AdapterSpec[],
  workspace: string,
  sandbox: Sandbox,
  program: string,
  wanted?: AdapterName,
): Promise<
  { ok: true; spec: AdapterSpec; argv: string[]; root: string } | { ok: false; reason: string }
> => {
  const spec = wanted
    ? specs.find((s) => s.name === wanted)
    : specs.find((s) => s.handles(program, workspace));
  if (!spec)
    return {
      ok: false,
      reason: `no debug adapter handles ${path.relative(workspace, program) || program} (debugpy: .py, delve: .go or a Go package folder, lldb: a native executable, dart: .dart); name one with adapter`,
    };
  const start = safeStat(workspace, program)?.isDirectory() ? path.join(program, 'x') : program;
  const root = findRoot(workspace, start, spec.rootMarkers);
  const route = routeToolchain({
    who: spec.name,
    workspace,
    target: program,
    root,
    markers: spec.rootMarkers,
    command: await spec.command(workspace, sandbox),
  });
  return route.ok ? { ...route, spec } : route;
};
