import { whereRan } from '../../workspace/sandbox/kinds.ts';
import type { FailureReport } from '../../intake/failure-report.ts';
import { summariseFailure } from '../failure-summary.ts';
import type { Outcome } from '../outcome.ts';
import type { Reproduced } from './reproduce.ts';
import { refusedHosts } from '../../workspace/sandbox/setup-proxy.ts';

/** The outcome of a set-up that failed where the job ran it: what ran, how it ended, what to configure. */
export const setupFailed = (
  report: FailureReport,
  reproduced: Extract<Reproduced, { failed: true }>,
): Extract<Outcome, { status: 'diagnosis' }> => {
  const { prepared, result } = reproduced;
  const exit = result.timedOut ? 'timed out' : `exited ${result.exitCode ?? 'killed'}`;
  const refused = refusedHosts(result.output);
  // A download the sandbox refused is the likeliest cause: said with what to do about it.
  const why = refused
    ? `; it asked for ${refused}, which is not a registry of regreen's machine (name it in that client's configuration there — npm's registry, pip's index-url, a Cargo source replacement — or vendor the dependencies into the repository)`
    : '';
  return {
    status: 'diagnosis',
    category: 'setup-failed',
    fingerprint: reproduced.fingerprint,
    checks: [],
    reason: `could not reproduce: set-up failed — \`${prepared.setupCommand ?? reproduced.command}\` ${exit} ${whereRan(prepared.sandbox.kind)}, before \`${prepared.failingCommand}\` could run; no model was asked${why}`,
    failure: summariseFailure({
      command: reproduced.command,
      where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, set-up ${whereRan(prepared.sandbox.kind)}`,
      repo: report.repo,
      sha: prepared.baseSha,
      exitCode: result.exitCode,
      output: result.output,
      tried: ['no recipe applied to this set-up'],
      noModel: false,
      workspace: prepared.workspace,
      setupOf: prepared.failingCommand,
    }),
  };
};
