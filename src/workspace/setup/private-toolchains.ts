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
export const PRIVATE_TOOLCHAINS = '"$HOME/.regreen-toolchains"';

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
  const plain = (version ?? '').trim().replace(/(\.x)+$/i, '');
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
    ...handOn(['$regreen_env/bin'], {
      pythonLocation: '$regreen_env',
      VIRTUAL_ENV: '$regreen_env',
      PIPX_HOME: `${root}/pipx`,
      PIPX_BIN_DIR: '$regreen_env/bin',
    }),
  );

const BODIES: Record<Exclude<PrivateToolchain, 'python'>, (root: string) => string> = {
  node: (root) =>
    lines(
      `echo "regreen: setup-node: $(node --version 2>/dev/null || echo 'no node'), global installs in ${root}/npm"`,
      ...handOn([`${root}/npm/bin`], { npm_config_prefix: `${root}/npm` }),
    ),
  go: (root) =>
    lines(
      `echo "regreen: setup-go: $(go version 2>/dev/null || echo 'no go'), GOPATH ${root}/go"`,
      ...handOn([`${root}/go/bin`], { GOPATH: `${root}/go`, GOBIN: `${root}/go/bin` }),
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
      ...handOn([`${root}/uv/bin`], {
        UV_TOOL_DIR: `${root}/uv/tools`,
        UV_TOOL_BIN_DIR: `${root}/uv/bin`,
        UV_PYTHON_INSTALL_DIR: `${root}/uv/python`,
      }),
    ),
  pnpm: (root) =>
    lines(
      `echo "regreen: pnpm: global installs in ${root}/pnpm"`,
      ...handOn([`${root}/pnpm`], { PNPM_HOME: `${root}/pnpm` }),
    ),
  rust: (root) =>
    lines(
      `echo "regreen: rust: $(cargo --version 2>/dev/null || echo 'no cargo'), CARGO_HOME ${root}/cargo"`,
      ...handOn([`${root}/cargo/bin`], { CARGO_HOME: `${root}/cargo` }),
    ),
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
