import type { FailureReport } from '../../intake/failure-report.ts';
import { resolveRepoSource, type RepoSource } from '../../workspace/repo/clone.ts';
import { RegreenError } from '../../errors.ts';

export interface Intake {
  readonly report: FailureReport;
  readonly source: RepoSource;
}

/**
 * Validates what the trigger gave: the repository must be a git repository or a URL. The report
 * is written everywhere (trace, outcome, PR text), so its URL must come split from any
 * credential (`resolveRepoSource` at the entry point, the credential to the forge's `gitAuth`):
 * one that still holds one fails closed, unrepeated.
 */
export const intake = async (report: FailureReport): Promise<Intake> => {
  const source = await resolveRepoSource(report.repo);
  if (source.credential)
    throw new RegreenError(
      'usage',
      `the repository URL holds a credential (${source.location}): give it to the forge, not in the report`,
    );
  return { report, source };
};
