import { DEFAULT_PROTECTED_GLOBS } from '../../../checks/protected-files.ts';
import { Ledger } from '../../agent/ledger.ts';
import { pricesFromConfig } from '../../model/prices.ts';
import { runAgentLoop, type AgentResult } from '../../agent/loop.ts';
import { systemPrompt, taskMessage } from '../../agent/prompt.ts';
import { ToolPolicy } from '../../agent/tool-policy.ts';
import { ToolRegistry, type ToolGate } from '../../agent/tool-registry.ts';
import { FileViews } from '../../../tools/files/file-views.ts';
import type { ToolContext } from '../../../tools/types.ts';
import { WorkerPool } from '../../agent/workers/pool.ts';
import { workerTools } from '../../agent/workers/worker-tools.ts';
import { ToolLocks } from '../../../tools/locks.ts';
import { type AskedQuestion } from '../../../tools/ask/index.ts';
import type { ResumeAgent } from '../../agent/suspend.ts';
import type { Message } from '../../model/types.ts';
import type { JobContext } from '../context.ts';
import type { RecipesResult } from './recipes.ts';
import type { Reproduced } from './reproduce.ts';

import { Disposables } from '../../util/disposables.ts';
import { continuation, resumedEntry } from './agent-resume.ts';
import { describeBudget, jobBudget, refuseUnpriced } from './agent-budget.ts';
import { liveSteps, liveTrace } from './agent-progress.ts';
import type * as Toolbox from '../toolbox.ts';
type ToolboxModule = typeof Toolbox;

/**
 * The toolbox's code (the language servers' and the debugger's protocol, the
 * kernels', the file tools'): loaded once, when the agent first needs it or
 * when the job begins it early (`preloadToolbox`) so that it loads while a
 * command runs rather than before the job's first step.
 */
let toolboxCode: Promise<ToolboxModule> | undefined;
export const preloadToolbox = (): Promise<ToolboxModule> => {
  if (!toolboxCode) {
    toolboxCode = import('../toolbox.ts');
    void toolboxCode.then((code) => code.warmToolbox()).catch(() => undefined);
  }
  return toolboxCode;
};

type Failed = Extract<Reproduced, { failed: true }>;

export type AgentStageResult =
  | { readonly ran: false; readonly why: string }
  | {
      readonly ran: true;
      readonly result: AgentResult;
      readonly plan: string;
      readonly summary: string;
      /** What the agent asked a person, and the answers. */
      readonly questions: readonly AskedQuestion[];
    };

/** The model loop over the job's tools, under the budget of the repo config. */
export const runAgentStage = async (
  job: JobContext,
  failed: Failed,
  recipes: RecipesResult,
): Promise<AgentStageResult> => {
  if (recipes.fixedBy) return { ran: false, why: `fixed by recipe ${recipes.fixedBy}` };
  const { prepared } = failed;
  const { config } = prepared;
  const prices = pricesFromConfig(config.prices);
  const { model } = prepared;
  if (!model) return { ran: false, why: 'no model configured (recipes only)' };
  // The config was bounded by the operator's ceilings in prepare: the repository chose within them.
  const budget = jobBudget(config, job.deps.costCeilingUsd);
  job.deps.progress?.({
    kind: 'stage',
    stage: 'budget',
    outcome: `${model.id}: ${describeBudget(budget)}`,
    durationMs: 0,
  });
  job.trace.emit({ type: 'note', message: 'budget', data: { model: model.id, budget } });
  const ledger = new Ledger(budget, job.deps.clock);
  const resumed = job.deps.resume;
  if (resumed) ledger.restore(resumed.spend);
  // One policy for every agent of the job; the exec gate is set once the question channel exists.
  const gateRef: { current?: ToolGate } = {};
  const policy = new ToolPolicy({
    levels: config.tools.levels,
    disabled: config.tools.disabled,
    gate: (name, input, signal) =>
      gateRef.current ? gateRef.current(name, input, signal) : Promise.resolve(undefined),
  });
  const ctx: ToolContext = {
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    logger: job.logger,
    testCommand: prepared.testCommand,
    commandTimeoutMs: config.timeouts.command_seconds * 1000,
    views: new FileViews(prepared.workspace),
    locks: new ToolLocks(),
  };
  const system = systemPrompt({
    workspace: prepared.workspace,
    command: failed.command,
    context: prepared.context,
    protectedFiles: ['existing test files', ...DEFAULT_PROTECTED_GLOBS, ...config.protected],
    maxFiles: config.diff_limits.max_files,
    maxLines: config.diff_limits.max_lines,
  });
  const { openToolbox, failureLocations } = await preloadToolbox();
  const toolbox = await openToolbox({
    job,
    prepared,
    policy,
    ctx,
    hints: failureLocations(failed.result.output),
    ledger,
    ...(resumed ? { asked: [...resumed.asked, resumedEntry(resumed)] } : {}),
  });
  const scope = new Disposables();
  scope.add(() => toolbox.dispose());
  const { ask, tools } = toolbox;
  const pool = config.workers.enabled
    ? new WorkerPool({
        maxLive: config.workers.max_live,
        model: (tier, label) => {
          const spec = config.workers[tier];
          const worker = job.deps.model({
            workspace: () => prepared.workspace,
            configModel: config.model,
            prices,
            label,
            tier,
            ...(spec ? { spec } : {}),
          });
          if (worker) refuseUnpriced(worker);
          return worker;
        },
        tools: toolbox.forWorkers,
        ctx,
        policy,
        system,
        ledger,
        trace: job.trace,
        logger: job.logger,
        clock: job.deps.clock,
        signal: job.signal,
      })
    : undefined;
  if (pool) scope.add(() => pool.dispose());
  const registry = new ToolRegistry([...tools, ...(pool ? workerTools(pool) : [])]);
  toolbox.bind(registry);
  if (ask && config.ask_user.approve_exec)
    gateRef.current = (name, input, signal) => ask.permission(name, input, signal);
  const asked = ask?.asked ?? [];
  const steps = liveSteps(job, ledger, budget);
  const loop = (task: string, resume?: ResumeAgent) =>
    runAgentLoop({
      ...(resume
        ? {
            history: resume.messages,
            continueWith: continuation(resume),
            ...(resume.plan ? { plan: resume.plan } : {}),
          }
        : {}),
      model,
      registry,
      filter: policy.current(),
      ctx,
      system,
      task,
      ledger,
      trace: liveTrace(job, ledger, budget),
      ...(steps ? { onStep: steps } : {}),
      logger: job.logger,
      signal: job.signal,
    });
  const task = taskMessage({
    command: failed.command,
    output: recipes.output,
    recipes: recipes.applied,
    ...(failed.prepared.intake.report.errorExcerpt
      ? { ciExcerpt: failed.prepared.intake.report.errorExcerpt }
      : {}),
    ...(failed.prepared.intake.report.task ? { request: failed.prepared.intake.report.task } : {}),
    ...(failed.passing ? { passing: true } : {}),
  });
  job.trace.emit({ type: 'note', message: 'task', data: { task } });
  try {
    if (resumed) {
      job.trace.emit({
        type: 'note',
        message: 'resumed',
        data: { question: resumed.pending.id, answer: resumed.answer },
      });
      const result = await loop(task, resumed);
      return {
        ran: true,
        result,
        plan: result.plan,
        summary: lastText(result.messages),
        questions: asked,
      };
    }
    let plan = '';
    if (config.plan_mode) {
      // Plan mode: only read-level tools exist for the model; its final answer is the plan.
      job.trace.emit({ type: 'note', message: 'plan mode' });
      policy.enter(['read']);
      const planning = await loop(`${task}\n\n${PLAN_MODE_TASK}`).finally(() => policy.leave());
      if (planning.status !== 'done')
        return { ran: true, result: planning, plan: planning.plan, summary: '', questions: asked };
      plan = planning.finalText;
      job.trace.emit({ type: 'note', message: 'plan', data: { plan, phase: 'plan mode' } });
    }
    const result = await loop(plan ? `${task}\n\nThe plan to carry out:\n${plan}` : task);
    const texts = result.messages.flatMap((message) =>
      message.role === 'assistant'
        ? message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
        : [],
    );
    return {
      ran: true,
      result,
      plan: plan || result.plan,
      summary: texts.at(-1) ?? '',
      questions: asked,
    };
  } finally {
    await scope.disposeAll((error) => job.logger.warn({ err: error }, 'dispose failed'));
  }
};

const lastText = (messages: readonly Message[]): string =>
  messages
    .flatMap((message) =>
      message.role === 'assistant'
        ? message.content.flatMap((block) => (block.type === 'text' ? [block.text] : []))
        : [],
    )
    .at(-1) ?? '';

/** What the plan phase is asked for. */
export const PLAN_MODE_TASK =
  'You are in plan mode: you can only read. Investigate the failure, then end your turn with a plan: the cause, the files to change and how, and how the fix will be verified. Do not try to edit anything.';
