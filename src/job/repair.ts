/**
 * The pipeline after the failure is reproduced: the comparison with CI's log,
 * the fresh check begun early, the recipes, the agent, the checks and the
 * proposal (or the diagnosis). A module of its own so that a job's start
 * loads none of it: `run-job.ts` begins loading it when the job starts.
 */
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { AllowedChange } from '../../checks/types.ts';
import { diffSummary } from '../../checks/diff.ts';
import { RegreenError } from '../errors.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import { gitRemote } from '../workspace/repo/git-remote.ts';
import { workspaceDiff } from '../workspace/repo/staged.ts';
import { whereRan } from '../workspace/sandbox/kinds.ts';
import { runStage, type JobContext } from './context.ts';
import { nextSteps, summariseFailure, toolsUsed } from './failure-summary.ts';
import type { Outcome } from './outcome.ts';
import { diagnosisText, prText } from './pr-text.ts';
import { agentEnd, checksEnd, recipesEnd } from './stage-lines.ts';
import { preloadToolbox, runAgentStage } from './stages/agent.ts';
import { runChecksStage } from './stages/checks.ts';
import { compareWithCi, reproducedDifferently, reproductionLine } from './stages/fidelity.ts';
import { freshAhead } from './stages/fresh-ahead.ts';
import { startFreshTree } from './stages/fresh-tree.ts';
import { judgedChange, warmJudging } from './stages/judged-change.ts';
import { runRecipes } from './stages/recipes.ts';
import type { Prepared } from './stages/prepare.ts';
import type { Reproduced } from './stages/reproduce.ts';
import { setupFailed } from './stages/setup-failed.ts';

/**
 * What the stages after the reproduction can do ahead, begun once this module
 * has loaded (while the failing command runs): the agent's toolbox loaded, and
 * what judging a change reads of the base. A failure here is left for the
 * stage that needs it to meet and report.
 */
export const warmRepair = async (prepared: Prepared): Promise<void> => {
  const toolbox = preloadToolbox().catch(() => undefined);
  try {
    warmJudging(prepared);
  } catch {
    // met again, and reported, by the checks
  }
  await toolbox;
};

/** Tells the forge why nothing is proposed; a forge failure is logged and the outcome kept. */
export const reportDiagnosis = async (
  job: JobContext,
  outcome: Extract<Outcome, { status: 'diagnosis' }>,
  trigger: FailureReport['trigger'],
): Promise<Outcome> => {
  const failedNames = outcome.checks.filter((check) => !check.ok).map((check) => check.name);
  const text = diagnosisText({
    reason: outcome.reason,
    fingerprint: outcome.fingerprint,
    checks: outcome.checks,
    ...(outcome.spend ? { spendUsd: outcome.spend.costUsd } : {}),
    ...(outcome.failure ? { failure: outcome.failure } : {}),
    nextSteps: nextSteps(outcome.category, outcome.failure, failedNames, trigger),
  });
  try {
    const reported = await runStage(
      job,
      'report',
      () => job.deps.forge.diagnose({ fingerprint: outcome.fingerprint, ...text }),
      (v) => `${v.updated ? 'updated' : 'wrote'} ${v.location}`,
    );
    return { ...outcome, reportedAt: reported.location };
  } catch (error) {
    job.logger.warn({ err: error }, 'the diagnosis could not be reported');
    return outcome;
  }
};

const applyDiff = async (workspace: string, diff: string): Promise<void> => {
  if (!diff.trim()) return;
  const file = path.join(workspace, '..', `resume-${randomBytes(4).toString('hex')}.patch`);
  writeFileSync(file, diff);
  try {
    await gitRemote(['apply', '--binary', '--whitespace=nowarn', file], { cwd: workspace });
  } finally {
    rmSync(file, { force: true });
  }
};

/** The outcome, noted in the trace (and given the trace's path). */
type WithTrace = <T extends object>(outcome: T) => T;

export const repair = async (
  job: JobContext,
  report: FailureReport,
  reproduced: Extract<Reproduced, { failed: true }>,
  withTrace: WithTrace,
): Promise<Outcome> => {
  const { prepared } = reproduced;
  const fidelity = compareWithCi(job, reproduced);
  if (fidelity?.verdict === 'different')
    return withTrace(reproducedDifferently(reproduced, fidelity));
  const resumed = job.deps.resume;
  if (resumed) {
    // The job stopped to wait for a person: its change so far goes onto the fresh clone.
    await runStage(
      job,
      'resume',
      () => applyDiff(reproduced.prepared.workspace, resumed.diff),
      () => `answer: ${resumed.answer.kind}; ${resumed.diff ? 'change restored' : 'no change yet'}`,
    );
  }
  // The fresh check's clone and setup of the base go on while the recipes and the agent work.
  const early = startFreshTree(job, reproduced);
  // …and the fresh check itself begins when a run in the job's sandbox passes.
  // It runs what the checks would judge: the change's product source (see judgedChange), with
  // the protected files a recipe changed once the recipes are done.
  let allowed: readonly AllowedChange[] = [];
  const ahead = freshAhead(
    job,
    reproduced,
    early,
    (text, tree) => judgedChange(reproduced.prepared, text, allowed, tree).judged,
  );
  const watched = {
    ...reproduced,
    prepared: { ...reproduced.prepared, sandbox: ahead.watch(reproduced.prepared.sandbox) },
  };
  const recipes = await runStage(
    job,
    'recipes',
    () =>
      // A person's request is the agent's work; a recipe would answer a different question.
      // A resumed job ran its recipes before it stopped.
      report.task || resumed || job.deps.recipes === false
        ? Promise.resolve({
            fixedBy: undefined,
            applied: [],
            allowedProtected: [],
            output: reproduced.result.output,
          })
        : runRecipes(job, watched),
    recipesEnd,
  );
  allowed = recipes.allowedProtected;
  // A set-up that failed, and that no recipe made good, is the environment's, not the code's: the
  // job ends here, before any model, with the step and its output — it never becomes the command
  // the agent or the checks must make pass.
  if (reproduced.setupFailed && !recipes.fixedBy && recipes.applied.length === 0)
    return withTrace(setupFailed(report, reproduced));
  const agent = await runStage(job, 'agent', () => runAgentStage(job, watched, recipes), agentEnd);
  const fingerprint = reproduced.fingerprint;
  const spend = agent.ran ? agent.result.spend : undefined;
  if (spend) job.spent.current = spend;
  const failure = summariseFailure({
    command: reproduced.command,
    where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, ${whereRan(prepared.sandbox.kind)}`,
    repo: report.repo,
    sha: prepared.baseSha,
    exitCode: reproduced.result.exitCode,
    output: reproduced.result.output,
    tried: [
      ...(recipes.applied.length > 0
        ? recipes.applied.map((line) => `recipe ${line}`)
        : ['no recipe applied to this failure']),
      agent.ran
        ? `the agent (${spend?.turns ?? 0} turns${toolsUsed(agent.result.messages)}): ${agent.result.status}`
        : `the agent did not run: ${agent.why}`,
    ],
    noModel: !agent.ran && /no model/.test(agent.why),
    workspace: prepared.workspace,
    environment: prepared.replayNotes,
  });
  if (agent.ran && agent.result.status === 'error') {
    // A model that cannot be reached or refuses the key is regreen failing to run, never a result.
    return withTrace({
      status: 'error',
      code: agent.result.code,
      reason: agent.result.reason,
      ...(spend ? { spend } : {}),
    } as const);
  }
  if (agent.ran && agent.result.status === 'suspended') {
    const { result } = agent;
    return withTrace({
      status: 'suspended',
      reason: result.reason,
      fingerprint,
      pending: result.pending,
      state: {
        pending: result.pending,
        messages: result.messages,
        results: result.results,
        callId: result.callId,
        remaining: result.remaining,
        spend: result.spend,
        asked: agent.questions,
        plan: result.plan,
        diff: await workspaceDiff(reproduced.prepared.workspace, reproduced.prepared.baseSha),
      },
      spend: result.spend,
    } as const);
  }
  if (agent.ran && (agent.result.status === 'budget' || agent.result.status === 'loop')) {
    return withTrace({
      status: 'diagnosis',
      category: agent.result.status,
      fingerprint,
      checks: [],
      reason: `the agent stopped: ${agent.result.reason}`,
      ...(spend ? { spend } : {}),
      failure,
    } as const);
  }
  const checks = await runStage(
    job,
    'checks',
    () => runChecksStage(job, reproduced, recipes, early, ahead),
    checksEnd,
  );
  // No change at all; a change the checks could not read (too large, unparsable) is refused below.
  if (checks.diff.files.length === 0 && checks.results.length === 0) {
    const why = agent.ran ? 'the agent changed nothing' : `no recipe applied and ${agent.why}`;
    return withTrace({
      status: 'diagnosis',
      category: 'nothing-found',
      fingerprint,
      checks: [],
      reason: `no fix found: ${why}`,
      ...(spend ? { spend } : {}),
      failure,
    } as const);
  }
  const { needsPerson } = checks;
  if (!checks.ok && !needsPerson) {
    const failed = checks.results.filter((result) => !result.ok);
    return withTrace({
      status: 'diagnosis',
      category: 'checks-failed',
      fingerprint,
      checks: checks.results,
      ...(spend ? { spend } : {}),
      reason: `checks failed: ${failed.map((r) => `${r.name} (${r.detail.split('\n')[0]})`).join('; ')}`,
      failure,
    } as const);
  }
  const fixedBy = recipes.fixedBy ? `recipe ${recipes.fixedBy}` : 'agent';
  const text = prText({
    command: reproduced.command,
    fixedBy,
    plan: agent.ran ? agent.plan : recipes.applied.join('\n'),
    summary: agent.ran ? agent.summary : '',
    diff: checks.diff,
    checks: checks.results,
    testOutput: checks.fresh?.output ?? '',
    ...(checks.changeTests ? { changeTestsOutput: checks.changeTests.output } : {}),
    fingerprint,
    ...(agent.ran ? { questions: agent.questions } : {}),
    ...(fidelity ? { reproduction: reproductionLine(fidelity) } : {}),
    sandboxKind: reproduced.prepared.sandbox.kind,
    tests: failure.tests,
    ...(needsPerson ? { needsPerson } : {}),
  });
  // What is proposed is the tree the checks read, whatever the worktree holds by now.
  const { tree } = checks;
  if (!tree) throw new RegreenError('internal', 'the checked change has no tree to commit');
  const proposed = await runStage(
    job,
    'propose',
    () =>
      job.deps.forge.propose({
        workspace: reproduced.prepared.workspace,
        baseSha: reproduced.prepared.baseSha,
        tree,
        // A draft is on a branch of its own: never taken for the fix's (`regreen/draft/<fingerprint>`).
        branch: needsPerson
          ? reproduced.branch.replace(/^regreen\//, 'regreen/draft/')
          : reproduced.branch,
        fingerprint,
        title: text.title,
        body: text.body,
        ...(needsPerson ? { draft: true } : {}),
      }),
    (v) =>
      v.dryRun
        ? `dry run: ${v.branch} not written`
        : `${v.updated ? 'updated' : 'created'} ${needsPerson ? 'the draft ' : ''}${v.branch}`,
  );
  if (!proposed.branch) throw new RegreenError('forge', 'the forge returned no branch');
  job.proposed.change = checks.diff.text;
  return withTrace({
    status: 'proposed',
    branch: proposed.branch,
    title: text.title,
    prText: text.body,
    ...(proposed.prTextPath ? { prTextPath: proposed.prTextPath } : {}),
    ...(proposed.patchPath ? { patchPath: proposed.patchPath } : {}),
    ...(proposed.repository ? { repository: proposed.repository } : {}),
    ...(proposed.dryRun ? { dryRun: true, patch: proposed.patch ?? '' } : {}),
    ...(proposed.url ? { url: proposed.url } : {}),
    updated: proposed.updated,
    fixedBy,
    fingerprint,
    checks: checks.results,
    ...(needsPerson ? { needsPerson } : {}),
    changed: diffSummary(checks.diff),
    baseSha: reproduced.prepared.baseSha,
    ...(fidelity ? { reproduction: fidelity.verdict === 'same' ? 'same' : 'unknown' } : {}),
    ...(spend ? { spend } : {}),
  } as const);
};
