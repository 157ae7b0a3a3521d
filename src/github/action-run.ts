import { z } from 'zod';
import type { GitHubTarget } from '../forge/github/forge.ts';
import { createForge } from '../forge/index.ts';
import type { Forge } from '../forge/types.ts';
import { FAILURE_EVENTS, parseFailureEvent } from '../intake/github-events.ts';
import type { JobDeps, Progress } from '../job/deps.ts';
import type { Logger } from '../logger.ts';
import type { GitHubClient } from '../forge/github/client.ts';
import {
  reportUnavailableLogs,
  runFailure,
  triageBuild,
  type FailureResult,
  type Guards,
} from './run-failure.ts';
import { settingsOf, type Env } from '../config/env.ts';

const PullEvent = z.object({
  pull_request: z
    .object({ number: z.number(), head: z.object({ sha: z.string(), ref: z.string() }) })
    .optional(),
});

/** The failing commit of the workflow regreen runs in (a step after a failing step). */
export const failureTargetOf = (env: Env, event: unknown): GitHubTarget => {
  const [owner, repo] = (settingsOf(env).githubRepository ?? '').split('/');
  if (!owner || !repo) throw new Error('GITHUB_REPOSITORY is not set');
  const pull = PullEvent.safeParse(event).data?.pull_request;
  const server = settingsOf(env).githubServerUrl ?? 'https://github.com';
  return {
    owner,
    repo,
    cloneUrl: `${server}/${owner}/${repo}.git`,
    // On pull_request events GITHUB_SHA is a merge commit; the PR's head is what failed.
    headSha: pull?.head.sha ?? settingsOf(env).githubSha ?? '',
    branch: pull?.head.ref ?? settingsOf(env).githubHeadRef ?? settingsOf(env).githubRefName ?? '',
    ...(pull ? { pullNumber: pull.number } : {}),
  };
};

export interface ActionRun {
  readonly client: GitHubClient;
  readonly token: string;
  readonly eventName: string;
  readonly event: unknown;
  readonly fallbackTarget: () => GitHubTarget;
  readonly testCommand: string;
  readonly guards: Guards;
  readonly logger: Logger;
  readonly deps: (forge: Forge, progress: Progress) => JobDeps;
}

/** The Action's work: every distinct failure of the run, one after the other. */
export const runActionFailures = async (run: ActionRun): Promise<FailureResult[]> => {
  const token = () => Promise.resolve(run.token);
  const common = {
    client: run.client,
    token,
    guards: run.guards,
    logger: run.logger,
    deps: run.deps,
  };
  if ((FAILURE_EVENTS as readonly string[]).includes(run.eventName)) {
    const parsed = parseFailureEvent(run.eventName, run.event);
    if (parsed.kind === 'ignored') return [{ kind: 'skipped', why: parsed.why }];
    const { failures, unavailable } = await triageBuild(run.client, parsed.build, 'action');
    if (failures.length === 0) {
      if (unavailable.length > 0) {
        const forge = createForge({
          kind: 'github',
          client: run.client,
          target: parsed.build.target,
          token,
          logger: run.logger,
        });
        await reportUnavailableLogs(forge, unavailable);
        return [{ kind: 'skipped', why: `logs unavailable: ${unavailable.join('; ')}` }];
      }
      return [{ kind: 'skipped', why: 'no failed job in the run' }];
    }
    const results: FailureResult[] = [];
    for (const failure of failures) {
      results.push(
        await runFailure({
          ...common,
          target: parsed.build.target,
          report: failure.report,
          now: Date.now(),
        }),
      );
    }
    return results;
  }
  // A step after a failing step: the job's own log is not readable yet; reproduce the command.
  const target = run.fallbackTarget();
  return [
    await runFailure({
      ...common,
      target,
      report: {
        repo: target.cloneUrl,
        ref: target.headSha,
        ...(target.branch ? { branch: target.branch } : {}),
        trigger: 'action',
        ...(run.testCommand ? { command: run.testCommand } : {}),
      },
      now: Date.now(),
    }),
  ];
};
