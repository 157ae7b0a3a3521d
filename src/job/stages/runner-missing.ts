import { whereRan } from '../../workspace/sandbox/kinds.ts';
import type { FailureReport } from '../../intake/failure-report.ts';
import { summariseFailure } from '../failure-summary.ts';
import type { Outcome } from '../outcome.ts';
import type { Prepared } from './prepare.ts';
import type { Reproduced } from './reproduce.ts';
import type { NeverRan } from './runner-never-ran.ts';
import { shownCommand } from './setup-failed.ts';

/**
 * The outcome of a failing command whose runner never ran (`runner-never-ran.ts`):
 * the environment's, with what is missing and how to give it — the job ends
 * here, before any recipe or model, and the checks never chase it.
 */
export const runnerMissing = (
  report: FailureReport,
  reproduced: Extract<Reproduced, { failed: true }>,
  neverRan: NeverRan,
): Extract<Outcome, { status: 'diagnosis' }> => {
  const { prepared, result } = reproduced;
  const where = whereRan(prepared.sandbox.kind);
  const command = shownCommand(prepared);
  return {
    status: 'diagnosis',
    category: 'setup-failed',
    fingerprint: reproduced.fingerprint,
    checks: [],
    reason: `could not reproduce: \`${command}\` exited ${result.exitCode ?? 'killed'} ${where} before its runner ran — missing: ${neverRan.missing} (it printed \`${neverRan.evidence}\`); ${neverRan.fix}. The environment's, not the code's: no model was asked`,
    failure: summariseFailure({
      command,
      where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, ${where}`,
      repo: report.repo,
      sha: prepared.baseSha,
      exitCode: result.exitCode,
      output: result.output,
      tried: ['nothing: the runner never ran, so no recipe or model was tried'],
      noModel: false,
      workspace: prepared.workspace,
      environment: prepared.replayNotes,
      neverRan: true,
      tail: true,
    }),
  };
};

/** The outcome of a command that passed: where it came from, and what else was run to find a failure. */
export const notReproduced = (
  prepared: Prepared,
  command: string,
): Extract<Outcome, { status: 'not-reproduced' }> => {
  const where = whereRan(prepared.sandbox.kind);
  const tried = prepared.tried;
  const what = prepared.passed
    ? `every step of the workflow jobs a push or pull request runs passed ${where}`
    : `\`${shownCommand(prepared)}\` passed ${where}`;
  const ran =
    tried.length > 0 ? `tried: ${tried.join('; ')}` : `the command: ${prepared.commandSource}`;
  return {
    status: 'not-reproduced',
    command,
    reason: `${what}: the failure is flaky or depends on the CI environment; ${ran}`,
    tried: tried.length > 0 ? tried : [`\`${shownCommand(prepared)}\` (${prepared.commandSource})`],
  };
};
