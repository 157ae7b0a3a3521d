/**
 * The Action's results as a person reads them in a workflow: a few lines at
 * the end of the log, an annotation on the run, the step's outputs and its
 * job summary. The next steps speak a workflow's language (inputs, secrets,
 * `.github/regreen.yml`, re-running the failed jobs), never a command line's.
 */
import type { Spend } from '../agent/ledger.ts';
import { checksLine, type Outcome } from '../job/outcome.ts';
import type { FailureResult } from './run-failure.ts';
import type { AnnotationLevel } from './workflow-log.ts';

const firstLine = (text: string): string => text.split('\n')[0] ?? '';

/** A secret's line in the step's `with:`. */
const KEY_INPUT = '`anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}`';
const SETUP = "give regreen CI's set-up (`setup_command` in `.github/regreen.yml`)";

const diagnosisSteps = (o: Extract<Outcome, { status: 'diagnosis' }>): string[] => {
  const steps = [
    o.reportedAt
      ? `Read the diagnosis: ${o.reportedAt}`
      : 'The diagnosis could not be posted on GitHub: the log above says why.',
  ];
  if (o.failure?.noModel)
    steps.push(
      `To let regreen try with a model, store an Anthropic API key as a repository secret and pass it in the \`anthropic-api-key\` input (${KEY_INPUT}), then re-run the failed jobs.`,
    );
  const failed = o.checks.filter((check) => !check.ok).map((check) => `\`${check.name}\``);
  switch (o.category) {
    case 'budget':
      steps.push(
        'The agent ran out of budget: raise the `max-cost`, `max-turns` or `max-minutes` input (`budget` in `.github/regreen.yml` may lower them, never raise them).',
      );
      break;
    case 'loop':
      steps.push(
        "The agent went in circles: a hint about the cause in the repository's `AGENTS.md` usually breaks the loop.",
      );
      break;
    case 'reproduced-differently':
      steps.push(
        `regreen's sandbox does not fail as CI did: ${SETUP}, then re-run the failed jobs. No model was asked.`,
      );
      break;
    case 'setup-failed':
      steps.push(
        `The set-up failed in regreen's sandbox, not the code: ${SETUP}, then re-run the failed jobs. No model was asked.`,
      );
      break;
    case 'checks-failed':
      if (failed.length > 0)
        steps.push(
          `A change was made but refused by ${failed.join(', ')}: a change to a protected file needs a person (or \`unprotected:\` in \`.github/regreen.yml\`).`,
        );
      break;
    case 'nothing-found':
      break;
  }
  if (!o.failure?.noModel)
    steps.push(
      'Fix it by hand from the diagnosis; regreen tries again when this workflow fails again (at most `max-attempts` times per failure).',
    );
  return steps;
};

const errorSteps = (o: Extract<Outcome, { status: 'error' }>): string[] => {
  const steps: string[] = [];
  switch (o.code) {
    case 'model':
      steps.push(
        'The model could not be reached or refused the key: check the secret passed in the `anthropic-api-key` input, and the `model` input.',
      );
      break;
    case 'sandbox-unavailable':
      steps.push(
        'The sandbox could not start: install bubblewrap and socat in a step before regreen (`sudo apt-get install -y bubblewrap socat ripgrep`), or, for trusted code only, set the `sandbox` input to `none`.',
      );
      break;
    case 'config':
      steps.push('Fix `.github/regreen.yml` as the error says, then re-run the failed jobs.');
      break;
    case 'forge':
      steps.push(
        'GitHub refused a request: the workflow needs `permissions: { actions: read, checks: write, contents: write, pull-requests: write, issues: write }` and a `github-token` input allowed to use them.',
      );
      break;
    case 'forge-refused':
      steps.push(
        "GitHub refuses for good (for one, a person pushed to regreen's branch): re-running ends the same way; finish that branch by hand.",
      );
      break;
    default:
      steps.push(
        'Open the group of the stage that failed above; re-run the failed jobs, and report it to regreen if it fails again.',
      );
  }
  if (o.tracePath)
    steps.push(
      `regreen's trace of the job is ${o.tracePath}: an \`actions/upload-artifact\` step with \`if: always()\` keeps it.`,
    );
  return steps;
};

/** What a person does next about one result, in a workflow's terms. */
export const actionNextSteps = (result: FailureResult): string[] => {
  if (result.kind === 'skipped') return [];
  const o = result.outcome;
  switch (o.status) {
    case 'proposed':
      return o.url
        ? [
            `Review and merge ${o.url}`,
            "If no checks start on it, it was opened with the workflow's own GITHUB_TOKEN, whose pull requests start no workflow: give the `github-token` input an App installation token or a personal access token.",
          ]
        : [`Review the branch ${o.branch} and open a pull request from it.`];
    case 'diagnosis':
      return diagnosisSteps(o);
    case 'not-reproduced':
      return [
        "Re-run the failed jobs: a failure that passes in regreen's sandbox is often flaky.",
        `If it fails only on CI, ${SETUP}; if regreen ran the wrong command, name the failing one in the \`test-command\` input.`,
      ];
    case 'suspended':
      return [`Answer regreen's question: ${o.pending.where}`];
    case 'error':
      return errorSteps(o);
  }
};

const spendLine = (spend: Spend | undefined): string[] =>
  spend
    ? [
        `spend: ${spend.turns} turn${spend.turns === 1 ? '' : 's'}, $${spend.costUsd.toFixed(4)}, ${(spend.elapsedMs / 1000).toFixed(1)}s`,
      ]
    : [];

/** One result in a few lines for the log: status, where it went, the checks, what to do next. */
export const actionOutcomeLines = (result: FailureResult): string[] => {
  const next = actionNextSteps(result).map((step) => `  next: ${step}`);
  if (result.kind === 'skipped') return [`[regreen] skipped: ${result.why}`];
  const o = result.outcome;
  const checks = 'checks' in o && o.checks.length > 0 ? [`  ${checksLine(o.checks)}`] : [];
  const spend = spendLine(o.spend).map((line) => `  ${line}`);
  switch (o.status) {
    case 'proposed':
      return [
        `[regreen] proposed: ${o.title}`,
        o.url
          ? `  pull request: ${o.url} (branch ${o.branch}, ${o.updated ? 'updated' : 'created'})`
          : `  branch: ${o.branch} (${o.updated ? 'updated' : 'pushed'})`,
        ...checks,
        ...spend,
        ...next,
      ];
    case 'diagnosis':
      return [
        `[regreen] diagnosis (${o.category}): ${firstLine(o.reason)}`,
        ...(o.reportedAt ? [`  diagnosis: ${o.reportedAt}`] : []),
        ...checks,
        ...spend,
        ...next,
      ];
    case 'not-reproduced':
      return [`[regreen] not reproduced: ${firstLine(o.reason)}`, ...spend, ...next];
    case 'suspended':
      return [`[regreen] waiting for an answer: ${o.pending.where}`, ...spend, ...next];
    case 'error':
      return [`[regreen] error (${o.code}): ${firstLine(o.reason)}`, ...spend, ...next];
  }
};

/** The run's annotation for one result: a notice for a fix, a warning when none came, an error when regreen failed. */
export const actionAnnotation = (
  result: FailureResult,
): { level: AnnotationLevel; message: string } | undefined => {
  if (result.kind === 'skipped') return undefined;
  const o = result.outcome;
  switch (o.status) {
    case 'proposed':
      return { level: 'notice', message: `regreen proposed a fix: ${o.url ?? o.branch}` };
    case 'diagnosis':
      return {
        level: 'warning',
        message: `regreen: ${firstLine(o.reason)}${o.reportedAt ? ` (diagnosis: ${o.reportedAt})` : ''}`,
      };
    case 'not-reproduced':
      return {
        level: 'warning',
        message: `regreen could not reproduce the failure: ${firstLine(o.reason)}`,
      };
    case 'suspended':
      return { level: 'notice', message: `regreen is waiting for an answer: ${o.pending.where}` };
    case 'error':
      return { level: 'error', message: `regreen failed to run: ${firstLine(o.reason)}` };
  }
};

/** Outputs and the job summary of the Action, from its results (the most telling one wins). */
export const actionSummary = (
  results: readonly FailureResult[],
): { outputs: Record<string, string>; markdown: string } => {
  const ran = results.flatMap((r) => (r.kind === 'ran' ? [r.outcome] : []));
  const rank = ['proposed', 'error', 'diagnosis', 'not-reproduced'];
  const best = [...ran].sort((a, b) => rank.indexOf(a.status) - rank.indexOf(b.status))[0];
  const outcome = best?.status ?? 'skipped';
  const url = best?.status === 'proposed' ? (best.url ?? '') : '';
  const fingerprint =
    best && 'fingerprint' in best && typeof best.fingerprint === 'string' ? best.fingerprint : '';
  const rows = results.map((r) => {
    if (r.kind === 'skipped') return `| skipped | ${r.why} |`;
    const o = r.outcome;
    const detail =
      o.status === 'proposed'
        ? `[${o.title}](${o.url ?? ''})`
        : o.status === 'diagnosis' && o.reportedAt
          ? `${o.reason} ([diagnosis](${o.reportedAt}))`
          : o.reason;
    return `| ${o.status} | ${firstLine(detail.replaceAll('|', '\\|'))} |`;
  });
  const steps = [...new Set(results.flatMap(actionNextSteps))];
  return {
    outputs: { outcome, 'pr-url': url, fingerprint },
    markdown: [
      '## regreen',
      '',
      '| outcome | detail |',
      '|---|---|',
      ...rows,
      ...(steps.length > 0 ? ['', '### Next steps', '', ...steps.map((step) => `- ${step}`)] : []),
    ].join('\n'),
  };
};
