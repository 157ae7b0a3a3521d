import { whereRan } from '../../workspace/sandbox/kinds.ts';
import { compareFailures, type Fidelity } from '../../intake/failure-compare.ts';
import { summariseFailure } from '../failure-summary.ts';
import type { JobContext } from '../context.ts';
import type { Outcome } from '../outcome.ts';
import type { Reproduced } from './reproduce.ts';

type Failed = Extract<Reproduced, { failed: true }>;

/**
 * The reproduced failure against CI's log, when the failure came with one
 * (the App and the Action hand the job the log's excerpt, `regreen fix
 * --log` a saved log): a request's job (nothing failing) is not compared.
 */
export const compareWithCi = (job: JobContext, reproduced: Failed): Fidelity | undefined => {
  const excerpt = reproduced.prepared.intake.report.errorExcerpt;
  if (!excerpt || reproduced.passing) return undefined;
  const fidelity = compareFailures(excerpt, reproduced.result.output);
  job.trace.emit({
    type: 'note',
    message: `fidelity: ${fidelity.verdict} — ${fidelity.why}`,
  });
  return fidelity;
};

/** The sentence the pull request says about the reproduction. */
export const reproductionLine = (fidelity: Fidelity | undefined): string | undefined =>
  fidelity === undefined
    ? undefined
    : fidelity.verdict === 'same'
      ? `the same failure as CI's log: ${fidelity.why.replace(/^the same /, '')}.`
      : `not matched against CI's log (${fidelity.why}).`;

/**
 * A reproduction that is not CI's failure ends the job before any model is
 * asked: a diagnosis with both excerpts side by side and how CI was replayed.
 */
export const reproducedDifferently = (
  reproduced: Failed,
  fidelity: Fidelity,
): Extract<Outcome, { status: 'diagnosis' }> => {
  const { prepared } = reproduced;
  const failure = summariseFailure({
    command: reproduced.command,
    where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, ${whereRan(prepared.sandbox.kind)}`,
    repo: prepared.intake.report.repo,
    sha: prepared.baseSha,
    exitCode: reproduced.result.exitCode,
    output: reproduced.result.output,
    tried: ['nothing: a fix of this failure would not be a fix of CI’s'],
    noModel: false,
    workspace: prepared.workspace,
    environment: prepared.replayNotes,
  });
  return {
    status: 'diagnosis',
    category: 'reproduced-differently',
    fingerprint: reproduced.fingerprint,
    checks: [],
    reason: `reproduced differently: ${fidelity.why}`,
    failure: {
      ...failure,
      comparison: {
        ci: prepared.intake.report.errorExcerpt ?? '',
        here: failure.excerpt,
        why: fidelity.why,
      },
    },
  };
};
