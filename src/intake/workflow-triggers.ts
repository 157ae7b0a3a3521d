/**
 * The workflow jobs CI runs on a push or a pull request, on Linux: what
 * `regreen fix` replays when it is given no command and no job, as a new
 * user's push would run them. A workflow that only a release, a schedule or
 * a manual dispatch starts is not one of them.
 */
import { readWorkflows } from './workflow.ts';

export interface CiJob {
  /** How `--job` names it: `workflow-file:job-id`. */
  readonly name: string;
  readonly file: string;
  readonly id: string;
}

const TRIGGERS = new Set(['push', 'pull_request', 'pull_request_target']);

/** The events of a workflow's `on:` (a name, a list of names, or a map by name). */
const events = (on: unknown): string[] => {
  if (typeof on === 'string') return [on];
  if (Array.isArray(on)) return on.filter((event): event is string => typeof event === 'string');
  return on !== null && typeof on === 'object' ? Object.keys(on) : [];
};

const LINUX = /^(?:ubuntu-|linux\b|self-hosted$)/i;
const OTHER_OS = /^(?:windows|macos)-/i;

/**
 * Whether a job runs on Linux: a label of Ubuntu or Linux (a list's or a
 * group's labels included). A label written as an expression (a matrix's
 * `${{ matrix.os }}`) may be Linux: the job is kept, its entries are the
 * matrix's to choose.
 */
const onLinux = (runsOn: unknown): boolean => {
  const labels =
    typeof runsOn === 'string'
      ? [runsOn]
      : Array.isArray(runsOn)
        ? runsOn
        : runsOn !== null && typeof runsOn === 'object' && 'labels' in runsOn
          ? [runsOn.labels].flat()
          : [];
  const strings = labels.filter((label): label is string => typeof label === 'string');
  if (strings.some((label) => label.includes('${{'))) return true;
  return strings.some((label) => LINUX.test(label)) && !strings.some((l) => OTHER_OS.test(l));
};

/** The jobs with `run:` steps that a push or pull request runs on Linux, in the workflows' order. */
export const ciJobs = (workspace: string): CiJob[] => {
  let workflows: ReturnType<typeof readWorkflows>;
  try {
    workflows = readWorkflows(workspace, 'the workflow');
  } catch {
    return [];
  }
  return workflows.flatMap(({ file, data }) =>
    events(data.on).some((event) => TRIGGERS.has(event))
      ? Object.entries(data.jobs)
          .filter(
            ([, job]) =>
              onLinux(job['runs-on']) && job.steps.some((step) => step.run !== undefined),
          )
          .map(([id]) => ({ name: `${file}:${id}`, file, id }))
      : [],
  );
};
