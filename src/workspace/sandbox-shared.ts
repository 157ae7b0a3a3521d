import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { scrubEnv } from './env.ts';
import { DEFAULT_MAX_OUTPUT_BYTES, type SandboxPolicy, type SandboxRunRequest } from './sandbox.ts';
import { resolveInsideWorkspace } from './paths.ts';
import { RegreenError } from '../errors.ts';

/** The private tmp and home of a job, created on first use. */
export const privateFolders = (policy: SandboxPolicy): { tmp: string; home: string } => {
  const tmp = path.join(policy.privateDir, 'tmp');
  const home = path.join(policy.privateDir, 'home');
  mkdirSync(tmp, { recursive: true });
  mkdirSync(home, { recursive: true });
  return { tmp, home };
};

/** The environment every sandboxed command gets, whatever the adapter. */
export const commandEnv = (
  policy: SandboxPolicy,
  request: SandboxRunRequest,
): Record<string, string> => {
  const { tmp, home } = privateFolders(policy);
  return scrubEnv(
    { ...policy.baseEnv, ...request.env },
    {
      HOME: home,
      TMPDIR: tmp,
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_TERMINAL_PROMPT: '0',
      CI: 'true',
    },
  );
};

/**
 * The shell line actually run: TMPDIR is re-exported because the sandbox
 * library sets its own shared one, and a job's scratch must stay private.
 */
export const shellLine = (policy: SandboxPolicy, command: string, startMarker: string): string => {
  const { tmp } = privateFolders(policy);
  return `: > ${quote(startMarker)}; export TMPDIR=${quote(tmp)}; ${command}`;
};

/**
 * A file the command line creates as its very first act: when it is missing
 * after the run, the sandbox itself failed to start and the command never ran.
 */
export const newStartMarker = (policy: SandboxPolicy): string =>
  path.join(privateFolders(policy).tmp, `.started-${randomBytes(8).toString('hex')}`);

export const consumeStartMarker = (marker: string): boolean => {
  if (!existsSync(marker)) return false;
  rmSync(marker, { force: true });
  return true;
};

export const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

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
