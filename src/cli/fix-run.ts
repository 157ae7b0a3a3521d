import path from 'node:path';
import { budgetFlags, type BudgetFlagValues } from '../config/operator-bounds.ts';
import { createLocalForge } from '../forge/local.ts';
import type { FailureReport } from '../intake/failure-report.ts';
import type { Progress } from '../job/deps.ts';
import type { Outcome } from '../job/outcome.ts';
import { buildJobDeps } from '../job/compose.ts';
import { runJob } from '../job/run-job.ts';
import type { Logger } from '../logger.ts';
import { operatorPrices, parseModelSpec } from '../model/index.ts';
import { priceFor } from '../model/prices.ts';
import { unpricedError } from '../job/stages/agent-budget.ts';
import { settingsOf } from '../config/env.ts';
import { loadScript } from '../model/script.ts';
import type { QuestionChannel } from '../questions/channel.ts';
import { resolveRepoSource } from '../workspace/repo/clone.ts';
import { hostGit } from '../workspace/repo/git.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import { formatExcerpt } from '../intake/actions-log.ts';
import { RegreenError } from '../errors.ts';
import { triageFile } from './triage-command.ts';
import { defaultDataDir, type Env } from '../config/env.ts';

/**
 * What `regreen fix` runs: the job and everything it needs, loaded only when
 * a fix runs (`regreen fix --help` loads none of it).
 */

export interface FixOptions extends BudgetFlagValues {
  readonly repo: string;
  readonly ref?: string;
  readonly command?: string;
  readonly job?: string;
  /** CI's log of the failure: the reproduction is compared with it. */
  readonly log?: string;
  readonly model?: string;
  readonly sandbox: SandboxKind;
  readonly dataDir?: string;
  /** Propose nothing: the patch and the PR text come back in the outcome, no branch is written. */
  readonly dryRun?: boolean;
}

/** The excerpt of a saved CI log; a log that shows a success has no failure to reproduce. */
/** What CI's log says of the failure: its excerpt, and its fingerprint (the one `regreen triage` gives). */
const fromCiLog = (file: string): { errorExcerpt: string; fingerprint: string } => {
  const triage = triageFile(file);
  if (triage.verdict === 'success')
    throw new RegreenError('usage', `--log ${file}: the log shows a successful run, not a failure`);
  return { errorExcerpt: formatExcerpt(triage.excerpt), fingerprint: triage.fingerprint };
};

/** Tracked files that differ from HEAD in a local repository (its own git, as the person has it; 0 when it cannot tell). */
const uncommittedFiles = async (dir: string): Promise<number> => {
  try {
    const status = await hostGit(['status', '--porcelain', '--untracked-files=no'], {
      cwd: dir,
      timeoutMs: 30_000,
    });
    return status.split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
};

/** `regreen fix`: builds the report and the dependencies, then runs the one pipeline. */
export const fix = async (
  options: FixOptions,
  env: Env,
  logger: Logger,
  progress: Progress,
  signal: AbortSignal,
  questions?: QuestionChannel,
): Promise<Outcome> => {
  // The flag, else REGREEN_MODEL (as the README's configuration reference says), named as given.
  const model = options.model ?? settingsOf(env).model;
  const named = options.model !== undefined ? `--model ${model}` : `REGREEN_MODEL=${model}`;
  if (model !== undefined) {
    const spec = (() => {
      try {
        return parseModelSpec(model);
      } catch (error) {
        if (options.model !== undefined || !(error instanceof RegreenError)) throw error;
        throw new RegreenError('usage', `REGREEN_MODEL: ${error.message}`, { cause: error });
      }
    })();
    if (spec.kind === 'script') loadScript(spec.file); // a bad script is a usage error before any work
    // A key the model needs is asked for before the clone, not after the set-up.
    if (spec.kind === 'anthropic' && !settingsOf(env).anthropicApiKey)
      throw new RegreenError(
        'usage',
        `${named} needs ANTHROPIC_API_KEY (set it, or choose --model none for recipes only)`,
      );
    if (spec.kind === 'openai' && !settingsOf(env).openaiApiKey && !settingsOf(env).openaiBaseUrl)
      throw new RegreenError(
        'usage',
        `${named} needs OPENAI_BASE_URL (an OpenAI-compatible server) or OPENAI_API_KEY (OpenAI's own API); or choose --model none for recipes only`,
      );
    // Only the operator prices a model (a repository may raise a known price, never make one).
    if (
      (spec.kind === 'anthropic' || spec.kind === 'openai') &&
      !priceFor(spec.name, operatorPrices(env))
    )
      throw unpricedError(`${spec.kind}:${spec.name}`);
  }
  const budget = budgetFlags(options);
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(env));
  const source = await resolveRepoSource(options.repo);
  // Asked beside the job's start (its volume, its clone of HEAD): the answer only adds a warning.
  const warned =
    source.localRoot && !options.ref
      ? uncommittedFiles(source.localRoot).then((changed) => {
          if (changed > 0)
            logger.warn(
              `${source.localRoot} has ${changed} file(s) with uncommitted changes: the job starts from the last commit (HEAD), without them. Commit or stash them to include them.`,
            );
        })
      : undefined;
  const report: FailureReport = {
    // Split where it entered: the report, and all that is written of the job, never holds a credential.
    repo: source.location,
    trigger: 'cli',
    ...(options.ref ? { ref: options.ref } : {}),
    ...(options.command ? { command: options.command } : {}),
    ...(options.job ? { workflowJob: options.job } : {}),
    ...(options.log ? fromCiLog(options.log) : {}),
  };
  const [outcome] = await Promise.all([
    runJob(
      report,
      buildJobDeps({
        env,
        logger,
        // The local forge only: the GitHub adapter (Octokit, its throttling) is the App's and the Action's to load.
        forge: createLocalForge({
          target: source.location,
          localRoot: source.localRoot,
          dataDir,
          credential: source.credential,
          ...(options.dryRun ? { dryRun: true } : {}),
        }),
        ...(model !== undefined ? { model } : {}),
        budget,
        sandbox: options.sandbox,
        dataDir,
        progress,
        signal,
        ...(questions ? { questions: { channel: questions } } : {}),
      }),
    ),
    warned,
  ]);
  return outcome;
};
