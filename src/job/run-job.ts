import { Disposables } from '../util/disposables.ts';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { noFollowProbe } from '../workspace/repo/git.ts';
import { fileTrace } from '../observe/trace.ts';
import { describeError, isRegreenError } from '../errors.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import { runStage, type JobContext } from './context.ts';
import type { JobDeps } from './deps.ts';
import type { Outcome } from './outcome.ts';
import type * as RepairCode from './repair.ts';
import { intake } from './stages/intake.ts';
import { boundedOutcome } from './outcome-bounds.ts';
import { openScratch } from './stages/scratch.ts';
import { reproduceEnd } from './stage-lines.ts';
import { prepare, preparedLine } from './stages/prepare.ts';
import { reproduce } from './stages/reproduce.ts';
import { notReproduced, runnerMissing } from './stages/runner-missing.ts';

type RepairModule = typeof RepairCode;

const newJobId = (now: number): string =>
  `${new Date(now)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/(?<!\.)\.[\s\S]*$/, '')}-${randomBytes(3).toString('hex')}`;

/** The whole pipeline: intake → prepare → reproduce → recipes → agent → checks → propose. */
export const runJob = async (report: FailureReport, deps: JobDeps): Promise<Outcome> => {
  const id = newJobId(deps.clock.now());
  const dir = path.join(deps.dataDir, 'jobs', id);
  const trace = fileTrace(path.join(dir, 'trace.jsonl'), deps.clock);
  const disposables = new Disposables();
  const { root: scratch, onVolume: scratchOnVolume } = await openScratch(
    dir,
    deps.env,
    trace,
    disposables,
  );
  const job: JobContext = {
    id,
    dir,
    scratch,
    scratchOnVolume,
    deps,
    trace,
    logger: deps.logger.child({ job: id }),
    signal: deps.signal ?? new AbortController().signal,
    disposables,
    spent: {},
    proposed: {},
  };
  try {
    const outcome = await pipeline(job, report);
    if (outcome.status !== 'diagnosis') return outcome;
    return await (await repairCode()).reportDiagnosis(job, outcome, report.trigger);
  } catch (error) {
    const code = isRegreenError(error) ? error.code : 'internal';
    if (!isRegreenError(error)) job.logger.error({ err: error }, 'job failed');
    const outcome: Outcome = boundedOutcome({
      status: 'error',
      code,
      reason: describeError(error),
      ...(trace.path ? { tracePath: trace.path } : {}),
      ...(job.spent.current ? { spend: job.spent.current } : {}),
    });
    trace.emit({ type: 'note', message: 'outcome', data: outcome });
    return outcome;
  } finally {
    await job.disposables.disposeAll((error) => job.logger.warn({ err: error }, 'dispose failed'));
  }
};

/**
 * The stages after the failure is reproduced (`repair.ts`): loaded once, begun
 * when the failing command starts, so that their code compiles while it runs
 * rather than before the job's first step.
 */
let repairLoaded: Promise<RepairModule> | undefined;
const repairCode = (): Promise<RepairModule> => {
  // A load that failed (a file of the install unreadable for a moment) is tried again next time.
  repairLoaded ??= import('./repair.ts').catch((error: unknown) => {
    repairLoaded = undefined;
    throw error;
  });
  return repairLoaded;
};

const pipeline = async (job: JobContext, report: FailureReport): Promise<Outcome> => {
  const tracePath = job.trace.path;
  const withTrace = <T extends object>(unbounded: T): T => {
    const outcome = boundedOutcome(unbounded);
    job.trace.emit({ type: 'note', message: 'outcome', data: outcome });
    return tracePath ? { ...outcome, tracePath } : outcome;
  };
  const intakeResult = await runStage(
    job,
    'intake',
    () => intake(report),
    (v) => v.source.location,
  );
  // Beside the clone: the host's view for git proved, and what the sandbox needs of the host.
  if (process.platform === 'linux') void noFollowProbe();
  job.deps.sandbox.warm?.();
  const prepared = await runStage(job, 'prepare', () => prepare(job, intakeResult), preparedLine);
  // The stages after the reproduction, and the agent's tools, load while the failing command
  // runs, not before the job's first step.
  void repairCode()
    .then((code) => code.warmRepair(prepared))
    .catch(() => undefined);
  const reproduced = await runStage(job, 'reproduce', () => reproduce(job, prepared), reproduceEnd);
  if (!reproduced.failed) return withTrace(notReproduced(prepared, reproduced.command));
  // A command whose runner never ran is the environment's: said before any model is asked.
  if (reproduced.neverRan) return withTrace(runnerMissing(report, reproduced, reproduced.neverRan));
  const { repair } = await repairCode();
  return repair(job, report, reproduced, withTrace);
};
