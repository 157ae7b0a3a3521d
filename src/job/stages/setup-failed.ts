import { whereRan } from '../../workspace/sandbox/kinds.ts';
import type { FailureReport } from '../../intake/failure-report.ts';
import type { ReplayedStep } from '../../intake/workflow-replay.ts';
import { summariseFailure } from '../failure-summary.ts';
import type { Outcome } from '../outcome.ts';
import type { Prepared } from './prepare.ts';
import type { Reproduced } from './reproduce.ts';
import { refusedHosts } from '../../workspace/sandbox/setup-proxy.ts';

const MAX_RUN_TEXT = 200;

/** A step's own `run:` text on one line (never the replay's wrapper around it). */
export const runText = (step: ReplayedStep): string => {
  const text = (step.run ?? step.command)
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join('; ');
  return text.length > MAX_RUN_TEXT ? `${text.slice(0, MAX_RUN_TEXT - 1)}…` : text;
};

/** A workflow step as a person finds it in the file: by its `name:` and its own `run:` text. */
export const stepLabel = (step: ReplayedStep): string => {
  const run = runText(step);
  const named = step.title !== `Run ${(step.run ?? '').trim().split('\n')[0] ?? ''}`;
  return named ? `step "${step.title}" (\`${run}\`)` : `step \`${run}\``;
};

/** The failing command for a person: the replayed job's step, else the command itself. */
export const shownCommand = (prepared: Prepared): string =>
  prepared.replayed?.failing ? runText(prepared.replayed.failing) : prepared.failingCommand;

/**
 * The step of a replayed set-up that failed, and its own output: the last
 * of the replay's step markers (`[regreen] step: <title>`) that names one of
 * its steps, and what was printed after it.
 */
export const failedStep = (
  steps: readonly ReplayedStep[],
  output: string,
): { step: ReplayedStep; output: string } | undefined => {
  const lines = output.split('\n');
  for (let at = lines.length - 1; at >= 0; at -= 1) {
    const line = lines[at] ?? '';
    if (!line.startsWith('[regreen] step: ')) continue;
    const title = line.slice('[regreen] step: '.length);
    const step = steps.findLast((candidate) => candidate.title === title);
    if (step) return { step, output: lines.slice(at + 1).join('\n') };
  }
  return undefined;
};

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
  // A replayed job's set-up is named by the step that failed, never by the replay's script.
  const replayed = prepared.replayed;
  // The step that failed is known when the steps ran one by one (`--job`); else the replay's
  // markers name it (a step's output could print one: only the diagnosis's wording is at stake).
  const known = replayed?.setupStep;
  const step = known
    ? { step: known, output: failedStep([known], result.output)?.output ?? result.output }
    : replayed
      ? failedStep(replayed.steps, result.output)
      : undefined;
  const what = step
    ? `${stepLabel(step.step)} of ${replayed?.job ?? 'the job'}`
    : `\`${prepared.setupCommand ?? reproduced.command}\``;
  const before = replayed?.failing ? stepLabel(replayed.failing) : `\`${prepared.failingCommand}\``;
  return {
    status: 'diagnosis',
    category: 'setup-failed',
    fingerprint: reproduced.fingerprint,
    checks: [],
    reason: `could not reproduce: set-up failed — ${what} ${exit} ${whereRan(prepared.sandbox.kind)}, before ${before} could run; no model was asked${why}`,
    failure: summariseFailure({
      command: step ? runText(step.step) : reproduced.command,
      where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, set-up ${whereRan(prepared.sandbox.kind)}`,
      repo: report.repo,
      sha: prepared.baseSha,
      exitCode: result.exitCode,
      output: step ? step.output : result.output,
      tried: ['no recipe applied to this set-up'],
      noModel: false,
      workspace: prepared.workspace,
      setupOf: shownCommand(prepared),
      environment: prepared.replayNotes,
      tail: true,
    }),
  };
};
