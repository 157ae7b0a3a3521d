import path from 'node:path';
import { createForge } from '../forge/index.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { Progress } from '../job/deps.ts';
import type { Outcome } from '../job/outcome.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import { createModel, parseModelSpec } from '../model/index.ts';
import { loadScript } from '../model/script.ts';
import { systemClock } from '../util/clock.ts';
import { resolveRepoSource } from '../workspace/clone.ts';
import { sandboxFactory } from '../workspace/sandbox-index.ts';
import type { SandboxKind } from '../workspace/sandbox.ts';
import { defaultDataDir, homeOf, registryHostsFor, type Env } from './environment.ts';

export interface FixOptions {
  readonly repo: string;
  readonly ref?: string;
  readonly command?: string;
  readonly job?: string;
  readonly model?: string;
  readonly sandbox: SandboxKind;
  readonly dataDir?: string;
}

/** `regreen fix`: builds the report and the dependencies, then runs the one pipeline. */
export const fix = async (
  options: FixOptions,
  env: Env,
  logger: Logger,
  progress: Progress,
  signal: AbortSignal,
): Promise<Outcome> => {
  const spec = parseModelSpec(options.model);
  if (spec.kind === 'script') loadScript(spec.file); // a bad script is a usage error before any work
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(env));
  const source = await resolveRepoSource(options.repo);
  const report: FailureReport = {
    repo: options.repo,
    trigger: 'cli',
    ...(options.ref ? { ref: options.ref } : {}),
    ...(options.command ? { command: options.command } : {}),
    ...(options.job ? { workflowJob: options.job } : {}),
  };
  return runJob(report, {
    forge: createForge({
      kind: 'local',
      target: source.location,
      localRoot: source.localRoot,
      dataDir,
    }),
    model: spec.kind === 'none' ? undefined : (workspace) => createModel(spec, workspace),
    sandbox: sandboxFactory(options.sandbox, logger),
    logger,
    clock: systemClock,
    dataDir,
    home: homeOf(env),
    env,
    registryHosts: registryHostsFor(env),
    progress,
    signal,
  });
};
