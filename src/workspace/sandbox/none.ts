import type { Logger } from '../../logger.ts';
import { runProcess, spawnProcess } from '../run-process.ts';
import type { Sandbox, SandboxPolicy } from './sandbox.ts';
import { quote } from '../../util/text.ts';
import { checkedCwd, commandEnv, outputCap, privateFolders, spawnLine } from './shared.ts';

const warned = new WeakSet<Logger>();

/**
 * No confinement at all: only behind an explicit `--sandbox none`. The
 * environment is still scrubbed of credentials, and the time limit still kills
 * the whole process group.
 */
export const createNoneSandbox = (policy: SandboxPolicy, logger: Logger): Sandbox => {
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
