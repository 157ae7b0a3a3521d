import type { FailureReport } from '../../intake/failure-report.ts';
import { resolveRepoSource, type RepoSource } from '../../workspace/repo/clone.ts';

export interface Intake {
  readonly report: FailureReport;
  readonly source: RepoSource;
}

/** Validates what the trigger gave: the repository must be a git repository or a URL. */
export const intake = async (report: FailureReport): Promise<Intake> => ({
  report,
  source: await resolveRepoSource(report.repo),
});
