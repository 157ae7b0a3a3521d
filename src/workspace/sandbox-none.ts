import type { Logger } from '../logger.ts';
import { runProcess } from './run-process.ts';
import type { Sandbox, SandboxPolicy } from './sandbox.ts';
import { checkedCwd, commandEnv, newStartMarker, outputCap, shellLine } from './sandbox-shared.ts';

/**
 * No confinement at all: only behind an explicit `--sandbox none`. The
 * environment is still scrubbed of credentials, and the time limit still kills
 * the whole process group.
 */
export const createNoneSandbox = (policy: SandboxPolicy, logger: Logger): Sandbox => {
  logger.warn(
    { workspace: policy.workspace },
    'sandbox disabled (--sandbox none): commands run with your full file system and network access',
  );
  return {
    kind: 'none',
    policy,
    run: (request) =>
      runProcess({
        file: '/bin/bash',
        args: ['-c', shellLine(policy, request.command, newStartMarker(policy))],
        cwd: checkedCwd(policy, request.cwd),
        env: commandEnv(policy, request),
        timeoutMs: request.timeoutMs,
        maxOutputBytes: outputCap(request),
        ...(request.signal ? { signal: request.signal } : {}),
      }),
    dispose: () => Promise.resolve(),
  };
};
