import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { scrubEnv } from './env.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, type SandboxPolicy, type SandboxRunRequest } from './sandbox.ts';
import { resolveInsideWorkspace } from '../repo/paths.ts';
import { RegreenError } from '../../errors.ts';
import { quote } from '../../util/text.ts';
import { PROJECT_VENV } from '../setup/interpreters.ts';
import { privateToolchainEnv } from '../setup/private-toolchains.ts';

/** The private tmp and home of a job, created on first use. */
export const privateFolders = (policy: SandboxPolicy): { tmp: string; home: string } => {
  const tmp = path.join(policy.privateDir, 'tmp');
  const home = path.join(policy.privateDir, 'home');
  mkdirSync(tmp, { recursive: true });
  // The home's files are written once, into the folder just made: once a command has run, the
  // home is the sandbox's (a link planted there must never lead a host write out of it).
  if (mkdirSync(home, { recursive: true }) !== undefined) {
    for (const [file, text] of Object.entries(policy.homeFiles ?? {})) {
      const target = path.join(home, file);
      mkdirSync(path.dirname(target), { recursive: true });
      writeFileSync(target, text, { flag: 'wx' });
    }
  }
  return { tmp, home };
};

/** Where a judged run's Python looks for bytecode: below a file, where no folder can be made. */
export const NO_BYTECODE_CACHE = '/dev/null/regreen-judged';

/** The environment every sandboxed command gets, whatever the adapter. */
export const commandEnv = (
  policy: SandboxPolicy,
  request: SandboxRunRequest,
): Record<string, string> => {
  const { tmp, home } = privateFolders(policy);
  // A Python environment the setup created in the workspace comes first, as an activated venv;
  // then the toolchains a replayed setup action made in this sandbox's home (its own Python, the
  // job's global installs), as the action hands them to a job's later steps.
  const venv = path.join(policy.workspace, PROJECT_VENV);
  const venvBin = path.join(venv, 'bin');
  const basePath = scrubEnv(policy.baseEnv, {}).PATH;
  const projectVenv = existsSync(path.join(venvBin, 'python'));
  const own = privateToolchainEnv(home, existsSync);
  const bins = [...(projectVenv ? [venvBin] : []), ...own.path];
  const activated: Record<string, string> =
    bins.length > 0
      ? {
          ...own.env,
          ...(projectVenv ? { VIRTUAL_ENV: venv } : {}),
          PATH: [...bins, basePath].filter(Boolean).join(':'),
        }
      : {};
  return scrubEnv(
    policy.baseEnv,
    {
      ...activated,
      HOME: home,
      TMPDIR: tmp,
      USER: 'regreen',
      LOGNAME: 'regreen',
      // git in the sandbox reads no system or user configuration (it may name credential helpers).
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_TERMINAL_PROMPT: '0',
      CI: 'true',
      // Python's bytecode caches go to the sandbox's tmp, never into the workspace as untracked
      // files a change would carry (a new package's `__pycache__`), whatever the operator's shell sets.
      // A judged run reads and writes none: `/dev/null` is no folder, so nothing exists below it.
      PYTHONPYCACHEPREFIX: request.judged ? NO_BYTECODE_CACHE : path.join(tmp, 'pycache'),
      // The sandbox has no keyring (no session bus, none of the host's secrets): Python's keyring,
      // which Poetry and twine ask for an index's credentials, finds none instead of failing.
      PYTHON_KEYRING_BACKEND: 'keyring.backends.null.Keyring',
      // Clients read the configuration regreen writes into this home, not a system-wide one (an
      // administrator's registry token): npm's global file wherever a toolchain's Node keeps it,
      // and the XDG system folders pip and uv look in (`mounts.ts` empties the fixed paths).
      npm_config_globalconfig: '/dev/null',
      XDG_CONFIG_DIRS: path.join(home, '.config-system'),
    },
    request.env ?? {},
  );
};

/** The working directory must be inside the workspace, symlinks resolved. */
export const checkedCwd = (policy: SandboxPolicy, cwd: string): string => {
  const resolved = resolveInsideWorkspace(policy.workspace, cwd);
  if (!resolved.ok) throw new RegreenError('usage', `sandbox cwd rejected: ${resolved.error}`);
  return resolved.path;
};

export const outputCap = (request: SandboxRunRequest): number =>
  request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;

/** The shell line of a spawned program: its words quoted, the private TMPDIR re-exported. */
export const spawnLine = (policy: SandboxPolicy, argv: readonly string[]): string => {
  const { tmp } = privateFolders(policy);
  return `export TMPDIR=${quote(tmp)}; exec ${argv.map(quote).join(' ')}`;
};
