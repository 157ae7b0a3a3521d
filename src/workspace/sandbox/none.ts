import type { Logger } from '../../logger.ts';
import { runProcess, spawnProcess } from '../run-process.ts';
import type { Sandbox, SandboxPolicy } from './sandbox.ts';
import { quote, withoutUserinfo } from '../../util/text.ts';
import { checkedCwd, commandEnv, outputCap, privateFolders, spawnLine } from './shared.ts';

const warned = new WeakSet<Logger>();

/**
 * No confinement at all: only behind an explicit `--sandbox none`. The
 * environment is still scrubbed of credentials, and the time limit still kills
 * the whole process group.
 */
/**
 * The policy with each registry alias put back as the operator's URL without its userinfo: no
 * setup proxy serves aliases here (nothing is confined, the operator's own files are in reach),
 * so the commands name the registries as before aliases, credentials still cut.
 */
const withoutAliases = (policy: SandboxPolicy): SandboxPolicy => {
  const registries = [...(policy.registries ?? [])].sort((a, b) => b.alias.length - a.alias.length);
  if (registries.length === 0) return policy;
  const back = (text: string): string =>
    registries.reduce(
      (out, registry) => out.replaceAll(registry.alias, withoutUserinfo(registry.upstream)),
      text,
    );
  const mapped = (record: Readonly<Record<string, string | undefined>>) =>
    Object.fromEntries(Object.entries(record).map(([name, value]) => [name, value && back(value)]));
  return {
    ...policy,
    baseEnv: mapped(policy.baseEnv),
    homeFiles: mapped(policy.homeFiles ?? {}) as Record<string, string>,
    registries: [],
  };
};

export const createNoneSandbox = (given: SandboxPolicy, logger: Logger): Sandbox => {
  const policy = withoutAliases(given);
  // Said once to whom the job speaks through, not once per tree (its workspace, its fresh clones).
  if (!warned.has(logger)) {
    warned.add(logger);
    logger.warn(
      'sandbox disabled (--sandbox none): commands run with your full file system and network access',
    );
  }
  return {
    kind: 'none',
    policy,
    run: (request) =>
      runProcess({
        file: '/bin/bash',
        args: [
          '-c',
          `export TMPDIR=${quote(privateFolders(policy).tmp)}\nexec /bin/bash -c "$1"`,
          'regreen',
          request.command,
        ],
        cwd: checkedCwd(policy, request.cwd),
        env: commandEnv(policy, request),
        timeoutMs: request.timeoutMs,
        maxOutputBytes: outputCap(request),
        ...(request.onOutput ? { onOutput: request.onOutput } : {}),
        ...(request.signal ? { signal: request.signal } : {}),
      }),
    spawn: (request) =>
      Promise.resolve(
        spawnProcess({
          file: '/bin/bash',
          args: ['-c', spawnLine(policy, request.argv)],
          cwd: checkedCwd(policy, request.cwd),
          env: commandEnv(policy, {
            command: '',
            cwd: request.cwd,
            network: 'off',
            timeoutMs: 0,
            ...(request.env ? { env: request.env } : {}),
          }),
        }),
      ),
    dispose: () => Promise.resolve(),
  };
};
