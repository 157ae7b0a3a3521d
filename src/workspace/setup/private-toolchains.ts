import path from 'node:path';

/**
 * What a workflow's `setup-*` action gives a job, given to a replay: a
 * toolchain the job may install into, its writes inside the job's own
 * folders (the sandbox's private home), never the machine's. `setup-python`
 * gives a Python of its own that pip may write: a virtual environment made
 * from the real binary of the interpreter the replay resolved (a version
 * manager's shim resolved through `sys._base_executable`/`sys.executable`,
 * never used itself; a system Python that PEP 668 marks externally managed is
 * only its base), first on PATH as `python`, `python3` and `pip`, with pipx's
 * folders beside it. The others keep their global installs in the job:
 * npm's global prefix, GOPATH/GOBIN, CARGO_HOME, uv's tool folders,
 * PNPM_HOME, each `bin` first on PATH; `setup-java` sets JAVA_HOME. Each is a
 * shell step of the replay that hands its folders to the later steps as the
 * action does, through `$GITHUB_PATH` and `$GITHUB_ENV`.
 */
export type PrivateToolchain = 'python' | 'node' | 'go' | 'java' | 'uv' | 'pnpm' | 'rust';

/** Where a replay's toolchains live: in the sandbox's private home, which goes with the job. */
export const PRIVATE_TOOLCHAINS_DIR = '.regreen-toolchains';
export const PRIVATE_TOOLCHAINS = `"$HOME/${PRIVATE_TOOLCHAINS_DIR}"`;

const lines = (...parts: string[]): string => parts.join('\n');

/** Adds folders to the later steps' PATH and variables to their environment, as an action does. */
const handOn = (path: readonly string[], env: Readonly<Record<string, string>>): string[] => [
  ...path.map((dir) => `mkdir -p "${dir}" && printf '%s\\n' "${dir}" >> "$GITHUB_PATH"`),
  ...Object.entries(env).map(
    ([name, value]) => `printf '%s\\n' "${name}=${value}" >> "$GITHUB_ENV"`,
  ),
];

/**
 * The interpreter's real binary: each candidate asked in turn (a shim that
 * fails, as pyenv's does for a version it lacks, is passed over); a venv's
 * Python answers with its base.
 */
const realPython = (version: string | undefined): string =>
  lines(
    'regreen_real=',
    `for regreen_try in ${version ? `python${version} ` : ''}python3 python /usr/bin/python3; do`,
    '  command -v "$regreen_try" >/dev/null 2>&1 || continue',
    `  regreen_real="$("$regreen_try" -c 'import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable))' 2>/dev/null)" || regreen_real=`,
    '  [ -n "$regreen_real" ] && [ -x "$regreen_real" ] && break',
    '  regreen_real=',
    'done',
    `[ -n "$regreen_real" ] || { echo "regreen: no Python on this machine's PATH answers (python3, python)" >&2; exit 127; }`,
  );

/** `3.12` of a request as a program's suffix (`python3.12`); nothing for a range, an alias or stray text. */
export const pythonSuffix = (version: string | undefined): string | undefined => {
  const plain = (version ?? '').trim().replace(/(?<!\.x)(?:\.x)+$/i, '');
  const minor = /^(\d{1,2})\.(\d{1,3})(?:\.\d+)*$/.exec(plain);
  return minor ? `${minor[1]}.${minor[2]}` : /^\d{1,2}$/.test(plain) ? plain : undefined;
};

/** pipx as runners have it, when this machine has none: installed on first use into the job's folders. */
const pipxOnFirstUse = (root: string): string =>
  lines(
    'if ! command -v pipx >/dev/null 2>&1; then',
    `  cat > "$regreen_env/bin/pipx" <<REGREEN_PIPX`,
    '#!/bin/sh',
    '# regreen: pipx, installed into the job on first use (runners have it; this machine does not)',
    `[ -x "${root}/pipx-tool/bin/pipx" ] || { "$regreen_real" -m venv "${root}/pipx-tool" && "${root}/pipx-tool/bin/python" -m pip install --quiet pipx; } >&2 || exit 1`,
    `exec "${root}/pipx-tool/bin/pipx" "\\$@"`,
    'REGREEN_PIPX',
    '  chmod +x "$regreen_env/bin/pipx"',
    'fi',
  );

const python = (root: string, version: string | undefined): string =>
  lines(
    realPython(pythonSuffix(version)),
    `regreen_env="${root}/python"`,
    'rm -rf "$regreen_env"',
    '"$regreen_real" -m venv "$regreen_env" || { echo "regreen: $regreen_real cannot make a virtual environment (on Debian and Ubuntu: install python3-venv)" >&2; exit 1; }',
    `echo "regreen: setup-python: a private environment at $regreen_env from $regreen_real ($("$regreen_env/bin/python" -c 'import platform; print(platform.python_version())'))"`,
    pipxOnFirstUse(root),
    ...handOnLayout('python', root),
  );

/**
 * Where each toolchain keeps the job's installs under the root: the folder that says it was set
 * up, its `bin` (first on PATH) and the variables that point its client there.
 */
const LAYOUT: Record<
  Exclude<PrivateToolchain, 'java'>,
  { dir: string; bin: string; env: (root: string) => Record<string, string> }
> = {
  python: {
    dir: 'python',
    bin: 'python/bin',
    env: (root) => ({
      pythonLocation: `${root}/python`,
      VIRTUAL_ENV: `${root}/python`,
      PIPX_HOME: `${root}/pipx`,
      PIPX_BIN_DIR: `${root}/python/bin`,
    }),
  },
  node: { dir: 'npm', bin: 'npm/bin', env: (root) => ({ npm_config_prefix: `${root}/npm` }) },
  go: {
    dir: 'go',
    bin: 'go/bin',
    env: (root) => ({ GOPATH: `${root}/go`, GOBIN: `${root}/go/bin` }),
  },
  uv: {
    dir: 'uv',
    bin: 'uv/bin',
    env: (root) => ({
      UV_TOOL_DIR: `${root}/uv/tools`,
      UV_TOOL_BIN_DIR: `${root}/uv/bin`,
      UV_PYTHON_INSTALL_DIR: `${root}/uv/python`,
    }),
  },
  pnpm: { dir: 'pnpm', bin: 'pnpm', env: (root) => ({ PNPM_HOME: `${root}/pnpm` }) },
  rust: { dir: 'cargo', bin: 'cargo/bin', env: (root) => ({ CARGO_HOME: `${root}/cargo` }) },
};

const handOnLayout = (kind: Exclude<PrivateToolchain, 'java'>, root: string): string[] =>
  handOn([`${root}/${LAYOUT[kind].bin}`], LAYOUT[kind].env(root));

const BODIES: Record<Exclude<PrivateToolchain, 'python'>, (root: string) => string> = {
  node: (root) =>
    lines(
      `echo "regreen: setup-node: $(node --version 2>/dev/null || echo 'no node'), global installs in ${root}/npm"`,
      ...handOnLayout('node', root),
    ),
  go: (root) =>
    lines(
      `echo "regreen: setup-go: $(go version 2>/dev/null || echo 'no go'), GOPATH ${root}/go"`,
      ...handOnLayout('go', root),
    ),
  java: () =>
    lines(
      'regreen_java="$(command -v java)" || { echo "regreen: setup-java: no java on this machine\'s PATH" >&2; exit 127; }',
      'regreen_home="$(dirname "$(dirname "$(readlink -f "$regreen_java")")")"',
      'echo "regreen: setup-java: JAVA_HOME $regreen_home"',
      ...handOn([], { JAVA_HOME: '$regreen_home' }),
    ),
  uv: (root) =>
    lines(
      `echo "regreen: setup-uv: $(uv --version 2>/dev/null || echo 'no uv'), tools in ${root}/uv"`,
      ...handOnLayout('uv', root),
    ),
  pnpm: (root) =>
    lines(`echo "regreen: pnpm: global installs in ${root}/pnpm"`, ...handOnLayout('pnpm', root)),
  rust: (root) =>
    lines(
      `echo "regreen: rust: $(cargo --version 2>/dev/null || echo 'no cargo'), CARGO_HOME ${root}/cargo"`,
      ...handOnLayout('rust', root),
    ),
};

/**
 * The toolchains a replay set up in a sandbox's home, for every later command of that sandbox
 * (the failing step, the agent's, the checks'): their `bin` folders, first on PATH, and their
 * variables. A folder that is not there (no such setup step, or not yet run) adds nothing.
 */
export const privateToolchainEnv = (
  home: string,
  exists: (file: string) => boolean,
): { readonly path: string[]; readonly env: Record<string, string> } => {
  const root = path.join(home, PRIVATE_TOOLCHAINS_DIR);
  const bins: string[] = [];
  let env: Record<string, string> = {};
  for (const [kind, layout] of Object.entries(LAYOUT)) {
    const made =
      kind === 'python' ? path.join(root, 'python', 'bin', 'python') : path.join(root, layout.dir);
    if (!exists(made)) continue;
    bins.push(path.join(root, layout.bin));
    env = { ...env, ...layout.env(root) };
  }
  return { path: bins, env };
};

/** The replay step that sets a toolchain up in the job's own folders (bash, in the replay's prelude). */
export const privateToolchainScript = (kind: PrivateToolchain, version?: string): string => {
  const root = '$regreen_root';
  return lines(
    `regreen_root=${PRIVATE_TOOLCHAINS}`,
    'mkdir -p "$regreen_root"',
    kind === 'python' ? python(root, version) : BODIES[kind](root),
  );
};
