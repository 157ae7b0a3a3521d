/**
 * The bubblewrap sandbox, built in steps:
 *
 * 1. the host can run it (`bubblewrap-host.ts`: bubblewrap, socat);
 * 2. its own folders (the private tmp and home, held while a sandbox of this
 *    process uses them);
 * 3. who its commands are on the host (`identity.ts`: an unprivileged uid in
 *    a user namespace of regreen's when it runs as root);
 * 4. what each command sees (`bubblewrap-plan.ts`: mounts, the proxy's
 *    variables, the first process's script) and is given
 *    (`bubblewrap-fds.ts`: the seccomp program, the namespace, `.git`
 *    pinned by descriptor);
 * 5. how a command runs: the registries the setup may reach behind the
 *    proxy, the cgroup where delegated, the disk watch beside the volume,
 *    and a retry of bubblewrap's own start (never of a command that ran).
 */
import { closeSync } from 'node:fs';
import { RegreenError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { bounded } from '../../util/text.ts';
import { bwrapArgv, closingInheritedFds, LAUNCHER_ENV } from './bwrap.ts';
import { bubblewrapReady, identityFiles, processIdentity } from './bubblewrap-host.ts';
import {
  FILTER_FD,
  openFilter,
  pinForCommand,
  readOnlyInside,
  type PinnedFds,
} from './bubblewrap-fds.ts';
import {
  commandMounts,
  forgetHostMounts,
  commandScript,
  envWords,
  proxyEnv,
  spawnScript,
  type MountPlan,
} from './bubblewrap-plan.ts';
import { commandCgroup } from './cgroups.ts';
import { killGroup, spawnProcess, superviseProcess } from '../run-process.ts';
import { execWords, nulWord, waitingLauncher } from './launcher.ts';
import { identityOf, makeWaitingSandbox } from './waiting-sandbox.ts';
import { commandsAhead } from './ahead.ts';
import { unixSocketFilter } from './seccomp-filter.ts';
import { limitReached, watchDisk } from './limits.ts';
import type { Mount } from './mounts.ts';
import { checkedCwd, commandEnv, outputCap, privateFolders } from './shared.ts';
import type { CommandResult, Sandbox, SandboxPolicy, SandboxRunRequest } from './sandbox.ts';
import { parseEndpoints, refusedLine, startSetupProxy, type SetupProxy } from './setup-proxy.ts';
import { operatorCaBundles } from '../setup/registries.ts';
import { handOver, handOverArgv, handOverAsync, INSIDE_ID } from './identity.ts';
import { removeTree } from '../../util/discard.ts';

const START_ATTEMPTS = 3;
/** The descriptor of the user namespace bubblewrap joins when regreen runs as root. */
const USERNS_FD = FILTER_FD + 1;

const omitSignalled = (result: CommandResult & { signalled: boolean }): CommandResult => {
  const copy: Partial<typeof result> = { ...result };
  delete copy.signalled;
  return copy as CommandResult;
};

/** Sandboxes open per private folder in this process: the last one closed removes it. */
const openPerPrivateDir = new Map<string, number>();

export const createBubblewrapSandbox = async (
  policy: SandboxPolicy,
  logger: Logger,
): Promise<Sandbox> => {
  // 1. The host can run it.
  const { bwrap } = await bubblewrapReady();
  // 2. Its own folders, held while this sandbox is open.
  openPerPrivateDir.set(policy.privateDir, (openPerPrivateDir.get(policy.privateDir) ?? 0) + 1);
  const { tmp, home } = privateFolders(policy);
  // 3. Who its commands are on the host.
  const host = await processIdentity();
  const identity = host
    ? { usernsFd: USERNS_FD, setpriv: host.setpriv, insideId: INSIDE_ID }
    : undefined;
  const uid = host ? INSIDE_ID : (process.getuid?.() ?? INSIDE_ID);
  const gid = host ? INSIDE_ID : (process.getgid?.() ?? INSIDE_ID);
  // 4. What each command sees and is given.
  const plan: MountPlan = { policy, ids: identityFiles(policy, home, uid, gid), tmp, home };
  const writable = [policy.workspace, tmp, home];
  const pinned = (hold: readonly string[] = []): PinnedFds =>
    pinForCommand({
      policy,
      ...(host ? { host: { usernsFd: host.usernsFd } } : {}),
      readOnly: readOnlyInside(policy.workspace),
      hold,
    });
  const filters = {
    off: unixSocketFilter(),
    setup: unixSocketFilter(process.arch, { allowUnixSockets: true }),
  };
  const filterFd = (network: 'off' | 'setup'): number =>
    openFilter(policy.privateDir, filters[network]);
  /** bubblewrap's argv for one command: the first process runs `script` with `args` after it. */
  const launch = (
    proxy: SetupProxy | undefined,
    cwd: string,
    script: string,
    args: readonly string[],
    pins: readonly Mount[],
  ): string[] =>
    bwrapArgv({
      bwrap,
      mounts: commandMounts(plan, proxy, pins),
      cwd,
      seccompFd: FILTER_FD,
      identity,
      argv: ['/bin/bash', '--norc', '--noprofile', '-c', script, 'regreen-sandbox', ...args],
    });
  /** The waiting form of a command's bubblewrap line: its folder, command and environment come later. */
  const waitingArgv = (prepared: PinnedFds): string[] => {
    const wordFd = FILTER_FD + 1 + prepared.extra.length;
    const script = commandScript(policy, tmp, 'off', wordFd + 1);
    return bwrapArgv({
      bwrap,
      mounts: commandMounts(plan, undefined, prepared.pinned),
      cwd: '/',
      seccompFd: FILTER_FD,
      identity,
      argv: ['/bin/bash', '--norc', '--noprofile', '-c', script, 'regreen-sandbox'],
      waitFor: { wordFd },
    });
  };
  // A launcher waiting in its group, and a sandbox made for the next command with no network and
  // nothing held: each is replaced once a command has taken it (`ahead.ts`).
  const shape = (prepared: PinnedFds): { argv: string[]; identity: string[] } => ({
    argv: waitingArgv(prepared),
    identity: identityOf(prepared.extra, [...writable, ...policy.readable]),
  });
  const ahead = commandsAhead({
    newLauncher: () => waitingLauncher(policy.privateDir, commandCgroup(policy.limits)),
    makeWaiting: (launcher) =>
      makeWaitingSandbox({
        launcher,
        prepared: pinned(),
        filterFd: () => filterFd('off'),
        dir: policy.privateDir,
        shape,
      }),
    fits: shape,
    logger,
  });
  // 5. How a command runs. The registries are asked of the clients while the job starts: only a setup command waits for them.
  let allowed: ReturnType<typeof parseEndpoints> | undefined;
  const allowedHosts = async () => (allowed ??= parseEndpoints(await policy.registryHosts));
  let trust: string[] | undefined;
  const registryTrust = (): string[] => (trust ??= operatorCaBundles(policy.baseEnv));

  const runOnce = async (
    request: SandboxRunRequest,
  ): Promise<CommandResult & { signalled: boolean }> => {
    const cwd = checkedCwd(policy, request.cwd);
    const prepared = pinned(request.hold);
    try {
      return await runPrepared(request, cwd, prepared);
    } finally {
      prepared.close();
    }
  };

  const runPrepared = async (
    request: SandboxRunRequest,
    cwd: string,
    prepared: PinnedFds,
  ): Promise<CommandResult & { signalled: boolean }> => {
    const cleaned = commandEnv(policy, request);
    // Before anything is taken or started: a NUL would split the word the command starts by.
    nulWord([cwd, request.command, ...Object.entries(cleaned).flat()]);
    execWords(request.command, cleaned);
    const hosts = request.network === 'setup' ? await allowedHosts() : [];
    const registries = request.network === 'setup' ? (policy.registries ?? []) : [];
    const network = hosts.length > 0 || registries.length > 0 ? 'setup' : 'off';
    const proxy =
      network === 'setup'
        ? await startSetupProxy(hosts, registries, registries.length > 0 ? registryTrust() : [])
        : undefined;
    if (proxy)
      logger.debug({ hosts: await policy.registryHosts }, 'setup step may reach registries');
    const env = { ...cleaned, ...(proxy ? proxyEnv(cleaned) : {}) };
    // As CI runs a step: no startup file (one the sandbox wrote would run before each command).
    // The ready pipe comes after the filter and the other descriptors.
    const readyFd = FILTER_FD + 1 + prepared.extra.length;
    const script = commandScript(policy, tmp, network, readyFd);
    let stopCommand: (() => void) | undefined;
    const disk = await watchDisk({
      dirs: writable,
      limitBytes: policy.limits.diskMb * 1024 * 1024,
      onExceeded: () => stopCommand?.(),
    });
    const plain = network === 'off' && !request.hold?.length;
    const warm = plain ? ahead.takeWaiting(prepared) : undefined;
    // Root's files in what the command writes become the sandbox uid's first (as root).
    if (warm && host)
      await handOverAsync(writable, host.uid).catch((error: unknown) => {
        warm.discard();
        disk.stop();
        throw new RegreenError(
          'sandbox-unavailable',
          `the sandbox could not take over its folders: ${(error as Error).message}`,
        );
      });
    const filter = warm ? undefined : filterFd(network);
    const launched =
      warm?.go({ cwd, command: request.command, env }) ??
      ahead.takeLauncher().start({
        fds: [filter as number, ...prepared.extra],
        first: host ? handOverArgv(writable, host.uid) : [],
        argv: launch(proxy, '/', script, [request.command, cwd, ...envWords(env)], prepared.pinned),
      });
    const group = launched.group;
    try {
      const result = await superviseProcess(
        launched.child,
        {
          timeoutMs: request.timeoutMs,
          maxOutputBytes: outputCap(request),
          ...(request.onOutput ? { onOutput: request.onOutput } : {}),
          onStart: (pid) => {
            stopCommand = () => killGroup(pid);
          },
          ...(request.signal ? { signal: request.signal } : {}),
        },
        launched.ready,
        launched.settled,
      );
      const limit =
        (disk.exceeded ? undefined : group?.reached()) ??
        limitReached(result, policy.limits, disk.exceeded);
      const refused =
        proxy && proxy.refused.length > 0
          ? `\n${refusedLine(proxy.refused, proxy.refusedCount())}\n`
          : '';
      return limit
        ? {
            ...result,
            limit,
            output: `${result.output}${refused}\n[regreen] the command stopped: ${limit}\n`,
          }
        : { ...result, output: `${result.output}${refused}` };
    } finally {
      disk.stop();
      launched.done();
      group?.remove();
      if (filter !== undefined) closeSync(filter);
      await proxy?.close();
      // Once the caller has the result: the next command's sandbox is made while the job goes on.
      setImmediate(() => {
        if (!disposed) ahead.keep(plain ? 'sandbox' : 'launcher');
      });
    }
  };

  /** Bubblewrap's own start can fail under load before the command runs: retry that, never a command that ran. */
  const runWrapped = async (request: SandboxRunRequest): Promise<CommandResult> => {
    let last: (CommandResult & { signalled: boolean }) | undefined;
    for (let attempt = 1; attempt <= START_ATTEMPTS; attempt += 1) {
      last = await runOnce(request);
      if (last.signalled || last.timedOut || request.signal?.aborted) {
        return omitSignalled(last);
      }
      logger.warn(
        { attempt, output: last.output.slice(-500) },
        'sandbox failed to start the command; retrying',
      );
      forgetHostMounts(); // the host may have changed (a masked file removed): found again
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox could not start \`${bounded(request.command, 2048)}\` after ${START_ATTEMPTS} attempts: ${last?.output.trim().split('\n').at(-1) ?? ''}`,
    );
  };

  let disposed = false;
  ahead.keep('sandbox');
  return Promise.resolve({
    kind: 'bubblewrap',
    policy,
    run: async (request) => {
      if (disposed) throw new RegreenError('internal', 'sandbox used after dispose');
      return runWrapped(request);
    },
    spawn: (request) => {
      if (disposed) throw new RegreenError('internal', 'sandbox used after dispose');
      const cwd = checkedCwd(policy, request.cwd);
      const env = commandEnv(policy, {
        command: '',
        cwd,
        network: 'off',
        timeoutMs: 0,
        ...(request.env ? { env: request.env } : {}),
      });
      if (host) handOver(writable, host.uid);
      const prepared = pinned();
      const words = envWords(env);
      const args = [String(words.length), ...words, ...request.argv];
      const argv = launch(undefined, cwd, spawnScript(policy, tmp), args, prepared.pinned);
      const group = commandCgroup(policy.limits);
      const command = closingInheritedFds(argv, FILTER_FD + prepared.extra.length, group?.enter);
      const filter = filterFd('off');
      try {
        const child = spawnProcess({
          file: command[0] as string,
          args: command.slice(1),
          cwd,
          env: LAUNCHER_ENV,
          extraFds: [filter, ...prepared.extra],
        });
        void child.exited.then(() => group?.remove());
        return Promise.resolve(child);
      } finally {
        closeSync(filter);
        prepared.close();
      }
    },
    dispose: () => {
      if (disposed) return Promise.resolve();
      disposed = true;
      ahead.dispose();
      // The private tmp and home go with the job (with its volume, when they are on one); the
      // trace and the workspace live elsewhere.
      const left = (openPerPrivateDir.get(policy.privateDir) ?? 1) - 1;
      if (left > 0) openPerPrivateDir.set(policy.privateDir, left);
      else {
        openPerPrivateDir.delete(policy.privateDir);
        if (!policy.privateDirOnVolume) removeTree(policy.privateDir);
      }
      return Promise.resolve();
    },
  });
};
