import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RegreenError } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { whichIn } from '../../util/which.ts';
import { bwrapArgv, closingInheritedFds, LAUNCHER_ENV } from './bwrap.ts';
import { checkBubblewrapDependencies, gitlinkDirs, identityFiles } from './bubblewrap-host.ts';
import { commandCgroup } from './cgroups.ts';
import { runProcess, spawnProcess } from '../run-process.ts';
import { unixSocketFilter } from './seccomp-filter.ts';
import { limitLines, limitReached, watchDisk } from './limits.ts';
import { etcMounts, systemMounts, type Mount } from './mounts.ts';
import { checkedCwd, commandEnv, outputCap, privateFolders, quote } from './shared.ts';
import type { CommandResult, Sandbox, SandboxPolicy, SandboxRunRequest } from './sandbox.ts';
import { parseEndpoints, startSetupProxy, type SetupProxy } from './setup-proxy.ts';
import { openDirInside } from '../repo/confined-fs.ts';
import { handOver, hostIdentity, INSIDE_ID } from './identity.ts';
import { settingsOf } from '../../config/env.ts';
import { removeTree } from '../../util/discard.ts';

const START_ATTEMPTS = 3;
/** The descriptor bubblewrap reads the seccomp program from (the first after stdio). */
const FILTER_FD = 3;
/** The descriptor of the user namespace bubblewrap joins when regreen runs as root. */
const USERNS_FD = 4;
const PROXY_IN_SANDBOX = '/run/regreen-proxy.sock';
const PROXY_PORT = 3128;

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
  const { bwrap } = checkBubblewrapDependencies();
  openPerPrivateDir.set(policy.privateDir, (openPerPrivateDir.get(policy.privateDir) ?? 0) + 1);
  const { tmp, home } = privateFolders(policy);
  const settings = settingsOf(process.env);
  const host = await hostIdentity({
    isRoot: process.geteuid?.() === 0,
    uidSetting: settings.sandboxUid,
    which: whichIn(settings.path),
  });
  const identity = host
    ? { usernsFd: USERNS_FD, setpriv: host.setpriv, insideId: INSIDE_ID }
    : undefined;
  const uid = host ? INSIDE_ID : (process.getuid?.() ?? INSIDE_ID);
  const gid = host ? INSIDE_ID : (process.getgid?.() ?? INSIDE_ID);
  const ids = identityFiles(policy, home, uid, gid);
  /**
   * Just before a command: root's files in what it writes become the
   * sandbox's; the descriptors bubblewrap is given after the filter (3): the
   * namespace, then `.git` and the submodule folders opened without following
   * a link (bound read-only by descriptor: one swapped for a link between two
   * commands would otherwise have bubblewrap mount the host folder it names).
   */
  const prepare = (): { extra: number[]; pinned: Mount[]; close: () => void } => {
    if (host) handOver([policy.workspace, tmp, home], host.uid);
    const extra = host ? [host.usernsFd] : [];
    const opened: number[] = [];
    const pinned: Mount[] = [];
    try {
      for (const dir of readOnlyInside) {
        const fd = openDirInside(policy.workspace, dir);
        if (fd === undefined) continue;
        opened.push(fd);
        pinned.push({ kind: 'ro-fd', source: String(4 + extra.length), target: dir });
        extra.push(fd);
      }
    } catch (error) {
      for (const fd of opened) closeSync(fd);
      throw new RegreenError(
        'sandbox-unavailable',
        `the sandbox refused to start: ${(error as Error).message}`,
      );
    }
    return { extra, pinned, close: () => opened.forEach((fd) => closeSync(fd)) };
  };
  const filters = {
    off: unixSocketFilter(),
    setup: unixSocketFilter(process.arch, { allowUnixSockets: true }),
  };
  /** bubblewrap reads the program from a descriptor: a file of this sandbox's own, opened and unlinked. */
  const openFilter = (network: 'off' | 'setup'): number => {
    const file = path.join(policy.privateDir, `seccomp-${randomBytes(6).toString('hex')}.bpf`);
    writeFileSync(file, filters[network], { mode: 0o600 });
    try {
      return openSync(file, 'r');
    } finally {
      rmSync(file, { force: true });
    }
  };
  const readOnlyInside = [path.join(policy.workspace, '.git'), ...gitlinkDirs(policy.workspace)];
  // The registries are asked of the clients while the job starts: only a setup command waits for them.
  let allowed: ReturnType<typeof parseEndpoints> | undefined;
  const allowedHosts = async () => (allowed ??= parseEndpoints(await policy.registryHosts));
  const tmpfsBytes = Math.min(policy.limits.diskMb, 1024) * 1024 * 1024;

  const mounts = (proxy: SetupProxy | undefined, pinned: readonly Mount[]): Mount[] => [
    ...systemMounts(),
    { kind: 'ro', source: '/etc', target: '/etc' },
    ...etcMounts(),
    { kind: 'ro', source: ids.passwd, target: '/etc/passwd' },
    { kind: 'ro', source: ids.group, target: '/etc/group' },
    { kind: 'dev', source: '/dev', target: '/dev' },
    { kind: 'proc', source: '/proc', target: '/proc' },
    // /tmp and /var/tmp in memory, bounded; TMPDIR (the private tmp, on disk) is where tools are told to write.
    { kind: 'tmpfs', source: '/run', target: '/run', sizeBytes: 16 * 1024 * 1024 },
    { kind: 'tmpfs', source: '/tmp', target: '/tmp', sizeBytes: tmpfsBytes },
    { kind: 'tmpfs', source: '/var/tmp', target: '/var/tmp', sizeBytes: tmpfsBytes },
    // After the tmpfs mounts: a toolchain or regreen itself may live under /tmp.
    ...policy.readable.map((dir): Mount => ({ kind: 'ro', source: dir, target: dir })),
    { kind: 'rw', source: tmp, target: tmp },
    { kind: 'rw', source: home, target: home },
    { kind: 'rw', source: policy.workspace, target: policy.workspace },
    ...pinned,
    ...(proxy ? [{ kind: 'rw' as const, source: proxy.socketPath, target: PROXY_IN_SANDBOX }] : []),
  ];

  const proxyEnv = (): Record<string, string> => {
    const url = `http://127.0.0.1:${PROXY_PORT}`;
    const java = `-Dhttp.proxyHost=127.0.0.1 -Dhttp.proxyPort=${PROXY_PORT} -Dhttps.proxyHost=127.0.0.1 -Dhttps.proxyPort=${PROXY_PORT}`;
    return {
      HTTP_PROXY: url,
      HTTPS_PROXY: url,
      http_proxy: url,
      https_proxy: url,
      JAVA_TOOL_OPTIONS: [settingsOf(policy.baseEnv).javaToolOptions, java]
        .filter(Boolean)
        .join(' '),
    };
  };

  /** The first process: limits, the proxy bridge for setup, the ready byte, then the command. */
  const prelude = (network: 'off' | 'setup', readyFd: number | undefined): string =>
    [
      `${limitLines(policy.limits)} || { echo "regreen: cannot set the sandbox's limits" >&2; exit 125; }`,
      ...(network === 'setup'
        ? [
            `socat TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr UNIX-CONNECT:${PROXY_IN_SANDBOX} 2>/dev/null &`,
            `up=0; for i in $(seq 200); do (: </dev/tcp/127.0.0.1/${PROXY_PORT}) 2>/dev/null && { up=1; break; }; sleep 0.025; done`,
            `[ "$up" = 1 ] || { echo "regreen: the setup proxy bridge did not start" >&2; exit 125; }`,
          ]
        : []),
      ...(readyFd === undefined ? [] : [`printf R >&${readyFd}`, `exec ${readyFd}>&-`]),
      `export TMPDIR=${quote(tmp)}`,
    ].join('\n');

  /** bubblewrap's argv for one command: the first process runs `script` with `args` after it. */
  const launch = (
    proxy: SetupProxy | undefined,
    cwd: string,
    env: Record<string, string>,
    script: string,
    args: readonly string[],
    pinned: readonly Mount[],
  ): string[] =>
    bwrapArgv({
      bwrap,
      mounts: mounts(proxy, pinned),
      cwd,
      seccompFd: FILTER_FD,
      identity,
      env,
      argv: ['/bin/bash', '--norc', '--noprofile', '-c', script, 'regreen-sandbox', ...args],
    });

  const runOnce = async (
    request: SandboxRunRequest,
  ): Promise<CommandResult & { signalled: boolean }> => {
    const cwd = checkedCwd(policy, request.cwd);
    const prepared = prepare();
    try {
      return await runPrepared(request, cwd, prepared);
    } finally {
      prepared.close();
    }
  };

  const runPrepared = async (
    request: SandboxRunRequest,
    cwd: string,
    prepared: ReturnType<typeof prepare>,
  ): Promise<CommandResult & { signalled: boolean }> => {
    const hosts = request.network === 'setup' ? await allowedHosts() : [];
    const network = hosts.length > 0 ? 'setup' : 'off';
    const proxy = network === 'setup' ? await startSetupProxy(hosts) : undefined;
    if (proxy)
      logger.debug({ hosts: await policy.registryHosts }, 'setup step may reach registries');
    const env = { ...commandEnv(policy, request), ...(proxy ? proxyEnv() : {}) };
    // As CI runs a step: no startup file (one the sandbox wrote would run before each command).
    // The ready pipe comes after the filter and the other descriptors.
    const readyFd = 3 + 1 + prepared.extra.length;
    const script = `${prelude(network, readyFd)}\nexec /bin/bash --norc --noprofile -c "$1"`;
    const argv = launch(proxy, cwd, env, script, [request.command], prepared.pinned);
    const group = commandCgroup(policy.limits);
    // Kept: stdio, the filter, the namespace and the pinned folders, the ready pipe.
    const command = closingInheritedFds(group ? group.wrap(argv) : argv, readyFd);
    const filterFd = openFilter(network);
    let killGroup: (() => void) | undefined;
    const disk = await watchDisk({
      dirs: [policy.workspace, tmp, home],
      limitBytes: policy.limits.diskMb * 1024 * 1024,
      onExceeded: () => killGroup?.(),
    });
    try {
      const result = await runProcess({
        file: command[0] as string,
        args: command.slice(1),
        cwd,
        env: LAUNCHER_ENV,
        timeoutMs: request.timeoutMs,
        maxOutputBytes: outputCap(request),
        ...(request.onOutput ? { onOutput: request.onOutput } : {}),
        extraFds: [filterFd, ...prepared.extra],
        readyPipe: true,
        onStart: (pid) => {
          killGroup = () => {
            try {
              process.kill(-pid, 'SIGKILL');
            } catch {
              // already gone
            }
          };
        },
        ...(request.signal ? { signal: request.signal } : {}),
      });
      const limit =
        (disk.exceeded ? undefined : group?.reached()) ??
        limitReached(result, policy.limits, disk.exceeded);
      const refused =
        proxy && proxy.refused.length > 0
          ? `\n[regreen] the setup proxy refused ${[...new Set(proxy.refused)].join(', ')}: not a registry this job may reach\n`
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
      group?.remove();
      closeSync(filterFd);
      await proxy?.close();
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
      await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
    }
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox could not start \`${request.command}\` after ${START_ATTEMPTS} attempts: ${last?.output.trim().split('\n').at(-1) ?? ''}`,
    );
  };

  let disposed = false;
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
      const prepared = prepare();
      const script = `${prelude('off', undefined)}\nexec "$@"`;
      const argv = launch(undefined, cwd, env, script, request.argv, prepared.pinned);
      const group = commandCgroup(policy.limits);
      const command = closingInheritedFds(
        group ? group.wrap(argv) : argv,
        3 + prepared.extra.length,
      );
      const filterFd = openFilter('off');
      try {
        const child = spawnProcess({
          file: command[0] as string,
          args: command.slice(1),
          cwd,
          env: LAUNCHER_ENV,
          extraFds: [filterFd, ...prepared.extra],
        });
        void child.exited.then(() => group?.remove());
        return Promise.resolve(child);
      } finally {
        closeSync(filterFd);
        prepared.close();
      }
    },
    dispose: () => {
      if (disposed) return Promise.resolve();
      disposed = true;
      // The private tmp and home go with the job; the trace and the workspace live elsewhere.
      const left = (openPerPrivateDir.get(policy.privateDir) ?? 1) - 1;
      if (left > 0) openPerPrivateDir.set(policy.privateDir, left);
      else {
        openPerPrivateDir.delete(policy.privateDir);
        removeTree(policy.privateDir);
      }
      return Promise.resolve();
    },
  });
};
