import { closeSync, openSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { SandboxManager, type SandboxRuntimeConfig } from '@anthropic-ai/sandbox-runtime';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { runProcess, spawnProcess } from './run-process.ts';
import { unixSocketFilter } from './seccomp-filter.ts';
import { tracerArgv } from './sandbox-tracer.ts';
import type { CommandResult, Sandbox, SandboxPolicy, SandboxRunRequest } from './sandbox.ts';

const START_ATTEMPTS = 3;
import {
  checkedCwd,
  commandEnv,
  consumeStartMarker,
  newStartMarker,
  outputCap,
  privateFolders,
  shellLine,
  spawnLine,
} from './sandbox-shared.ts';

/**
 * The library's SandboxManager is process-global. It is initialised once per
 * process with a policy that allows nothing (no network hosts, no writes), and
 * every command is wrapped with its own job's filesystem policy passed per
 * call, so one job's rules never reach another's commands. The setup step,
 * the only one that may reach package registries, runs through the library's
 * `srt` CLI with a settings file of its own: its allow-list lives and dies
 * with that one process.
 */
let shared: { refs: number; ready: Promise<void> } | undefined;
/** A reset in progress: a new initialisation waits for it, or the reset would undo it. */
let resetting: Promise<void> = Promise.resolve();

const acquireManager = async (): Promise<void> => {
  if (!shared) {
    const pendingReset = resetting;
    shared = {
      refs: 0,
      ready: pendingReset.then(() =>
        SandboxManager.initialize({
          network: { allowedDomains: [], deniedDomains: [] },
          filesystem: { denyRead: [], allowWrite: [], denyWrite: [] },
        }),
      ),
    };
  }
  shared.refs += 1;
  try {
    await shared.ready;
  } catch (error) {
    shared = undefined;
    throw error;
  }
};

const releaseManager = async (): Promise<void> => {
  if (!shared) return;
  shared.refs -= 1;
  if (shared.refs > 0) return;
  const released = shared;
  shared = undefined;
  resetting = released.ready
    .catch(() => undefined)
    .then(() => SandboxManager.reset())
    .catch(() => undefined);
  await resetting;
};

const jobConfig = (
  policy: SandboxPolicy,
  allowedDomains: readonly string[],
): SandboxRuntimeConfig => {
  const { tmp, home } = privateFolders(policy);
  return {
    network: { allowedDomains: [...allowedDomains], deniedDomains: [] },
    filesystem: {
      denyRead: [...policy.denyRead],
      allowRead: [policy.workspace, tmp, home],
      allowWrite: [policy.workspace, tmp, home],
      // Host-side git reads .git/config: a command must not plant hooks or fsmonitor there.
      denyWrite: [path.join(policy.workspace, '.git')],
    },
  };
};

/** Fails with the package to install when bubblewrap (or its helpers) are missing. */
export const checkAsrtDependencies = (): void => {
  if (!SandboxManager.isSupportedPlatform()) {
    throw new RegreenError(
      'sandbox-unavailable',
      `the asrt sandbox does not support ${process.platform}; use --sandbox none at your own risk`,
    );
  }
  const check = SandboxManager.checkDependencies();
  if (check.errors.length > 0) {
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox cannot start: ${check.errors.join('; ')}. On Debian/Ubuntu: apt-get install -y bubblewrap socat ripgrep`,
    );
  }
};

const srtCli = (): string => {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@anthropic-ai/sandbox-runtime')), 'cli.js');
};

export const createAsrtSandbox = async (
  policy: SandboxPolicy,
  logger: Logger,
): Promise<Sandbox> => {
  checkAsrtDependencies();
  await acquireManager();
  let disposed = false;
  const runOnce = async (request: SandboxRunRequest, marker: string): Promise<CommandResult> => {
    const cwd = checkedCwd(policy, request.cwd);
    const line = shellLine(policy, request.command, marker);
    const env = commandEnv(policy, request);
    const common = {
      cwd,
      env,
      timeoutMs: request.timeoutMs,
      maxOutputBytes: outputCap(request),
      ...(request.signal ? { signal: request.signal } : {}),
    };
    if (request.network === 'setup' && policy.registryHosts.length > 0) {
      const settings = path.join(policy.privateDir, 'srt-setup-settings.json');
      writeFileSync(settings, JSON.stringify(jobConfig(policy, policy.registryHosts)));
      logger.debug({ hosts: policy.registryHosts }, 'setup step may reach registries');
      // srt puts its proxy sockets under TMPDIR: the host's, since a job's private
      // path can exceed the 108-byte limit of a unix socket path. The command
      // line itself re-exports the private TMPDIR inside.
      return runProcess({
        file: process.execPath,
        args: [srtCli(), '-s', settings, '-c', line],
        ...common,
        env: { ...env, TMPDIR: os.tmpdir() },
      });
    }
    const wrapped = await SandboxManager.wrapWithSandboxArgv(
      line,
      '/bin/bash',
      jobConfig(policy, []),
      request.signal,
      cwd,
    );
    const [file, ...args] = wrapped.argv;
    if (!file) throw new RegreenError('internal', 'the sandbox produced an empty command');
    return runProcess({ file, args, ...common });
  };
  /** Under heavy load the sandbox's own start-up (proxy bridges) can fail before the command runs: retry that, never a command that ran. */
  const runWrapped = async (request: SandboxRunRequest): Promise<CommandResult> => {
    let last: CommandResult | undefined;
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt += 1) {
      const marker = newStartMarker(policy);
      last = await runOnce(request, marker);
      if (consumeStartMarker(marker) || last.timedOut || request.signal?.aborted) return last;
      logger.warn(
        { attempt, output: last.output.slice(-500) },
        'sandbox failed to start the command; retrying',
      );
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox could not start \`${request.command}\` after ${START_ATTEMPTS} attempts: ${last?.output.trim().split('\n').at(-1) ?? ''}`,
    );
  };
  return {
    kind: 'asrt',
    policy,
    run: async (request) => {
      if (disposed) throw new RegreenError('internal', 'sandbox used after dispose');
      return runWrapped(request);
    },
    spawn: async (request) => {
      if (disposed) throw new RegreenError('internal', 'sandbox used after dispose');
      const cwd = checkedCwd(policy, request.cwd);
      const wrapped = await SandboxManager.wrapWithSandboxArgv(
        spawnLine(policy, request.argv),
        '/bin/bash',
        jobConfig(policy, []),
        undefined,
        cwd,
      );
      // The filter reaches bubblewrap as descriptor 3 (the first after stdio).
      const [file, ...args] = request.tracer ? tracerArgv(wrapped.argv, 3) : wrapped.argv;
      if (!file) throw new RegreenError('internal', 'the sandbox produced an empty command');
      const env = commandEnv(policy, {
        command: '',
        cwd,
        network: 'off',
        timeoutMs: 0,
        ...(request.env ? { env: request.env } : {}),
      });
      if (!request.tracer) return spawnProcess({ file, args, cwd, env });
      const filterFile = path.join(policy.privateDir, 'tracer-seccomp.bpf');
      writeFileSync(filterFile, unixSocketFilter());
      const filterFd = openSync(filterFile, 'r');
      try {
        return spawnProcess({ file, args, cwd, env, extraFds: [filterFd] });
      } finally {
        closeSync(filterFd);
      }
    },
    dispose: async () => {
      if (disposed) return;
      disposed = true;
      await releaseManager();
    },
  };
};
