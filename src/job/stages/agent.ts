import { DEFAULT_PROTECTED_GLOBS } from '../../../checks/protected-files.ts';
import { Ledger } from '../../agent/ledger.ts';
import { pricesFromConfig } from '../../model/prices.ts';
import type { Budget } from '../../config/operator-bounds.ts';
import { runAgentLoop, type AgentResult } from '../../agent/loop.ts';
import { systemPrompt, taskMessage } from '../../agent/prompt.ts';
import { ToolPolicy } from '../../agent/tool-policy.ts';
import { ToolRegistry, type ToolGate } from '../../agent/tool-registry.ts';
import { debugFamily, type DebugHint } from '../../../tools/debug/index.ts';
import { kernelFamily } from '../../../tools/kernels/index.ts';
import { recogniseFailures } from '../../intake/formats/index.ts';
import { stripAnsi } from '../../util/text.ts';
import { jobTools } from '../../../tools/index.ts';
import { fail } from '../../../tools/types.ts';
import { lspFamily } from '../../../tools/lsp/index.ts';
import { FileViews } from '../../../tools/files/file-views.ts';
import type { ToolContext } from '../../../tools/types.ts';
import { WorkerPool } from '../../agent/workers/pool.ts';
import { workerTools } from '../../agent/workers/worker-tools.ts';
import { ToolLocks } from '../../../tools/locks.ts';
import { askFamily, type AskedQuestion } from '../../../tools/ask/index.ts';
import { systemWaitClock } from '../../questions/channel.ts';
import { answerText } from '../../questions/card.ts';
import type { ResumeAgent } from '../../agent/suspend.ts';
import type { Message, Model, UserBlock } from '../../model/types.ts';
import { RegreenError } from '../../errors.ts';
import type { JobContext } from '../context.ts';
import type { RecipesResult } from './recipes.ts';
import type { Reproduced } from './reproduce.ts';
import { settingsOf } from '../../config/env.ts';

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
  const model = job.deps.model({
    workspace: () => prepared.workspace,
    configModel: config.model,
    prices,
  });
  if (!model) return { ran: false, why: 'no model configured (recipes only)' };
  refuseUnpriced(model);
  // The config was bounded by the operator's ceilings in prepare: the repository chose within them.
  let budget: Budget = {
    maxTurns: config.budget.max_turns,
    maxInputTokens: config.budget.max_input_tokens,
    maxOutputTokens: config.budget.max_output_tokens,
    maxCostUsd: config.budget.max_cost_usd,
    maxMs: config.budget.max_minutes * 60_000,
  };
  if (job.deps.costCeilingUsd !== undefined && job.deps.costCeilingUsd < budget.maxCostUsd)
    budget = { ...budget, maxCostUsd: Math.max(0, job.deps.costCeilingUsd) };
  job.deps.progress?.({
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
    views: new FileViews(),
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
  const warn = (message: string): void => job.logger.warn(message);
  // One supervisor of language servers for the job, shared by its workers; shut down when the agent ends.
  const lsp = lspFamily({
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    logger: job.logger,
    path: settingsOf(job.deps.env).path,
    node: process.execPath,
  });
  // One kernel per language for the job; cells reach the job's tools through the registry.
  const registryRef: { current?: ToolRegistry } = {};
  const kernels = kernelFamily({
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    node: process.execPath,
    logger: job.logger,
    bridge: (name, input, signal) =>
      registryRef.current
        ? // A cell calls with what the job's agent may call now (never more in the plan phase).
          registryRef.current.call(name, input, ctx, signal, policy.current())
        : Promise.resolve(fail('the tool registry is not ready')),
  });
  // One debug session at a time for the job; its description names the failing test's location.
  const debug = debugFamily({
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    logger: job.logger,
    path: settingsOf(job.deps.env).path,
    node: process.execPath,
    hints: failureLocations(failed.result.output),
  });
  // Questions to a person, when the job has a channel to one.
  const ask = job.deps.questions
    ? askFamily({
        channel: job.deps.questions.channel,
        jobKey: job.id,
        timeoutMinutes: config.ask_user.timeout_minutes,
        clock: job.deps.questions.clock ?? systemWaitClock,
        pause: () => ledger.pause(),
        resume: () => ledger.resume(),
        trace: job.trace,
        ...(job.deps.questions.suspend ? { suspend: true } : {}),
        ...(resumed ? { asked: [...resumed.asked, resumedEntry(resumed)] } : {}),
      })
    : undefined;
  const tools = [
    ...(await jobTools(warn, lsp)),
    ...kernels.tools,
    ...debug.tools,
    ...(ask?.tools ?? []),
  ];
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
        tools: async () => [...(await jobTools(warn, lsp)), ...kernels.tools, ...debug.tools],
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
  const registry = new ToolRegistry([...tools, ...(pool ? workerTools(pool) : [])]);
  registryRef.current = registry;
  if (ask && config.ask_user.approve_exec)
    gateRef.current = (name, input, signal) => ask.permission(name, input, signal);
  const asked = ask?.asked ?? [];
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
      trace: job.trace,
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
    await pool?.dispose();
    await debug.dispose();
    await kernels.dispose();
    await lsp.dispose();
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

/** The question as the resumed job records it. */
const resumedEntry = (resume: ResumeAgent): AskedQuestion => ({
  id: resume.pending.id,
  kind: resume.pending.question.kind,
  question: resume.pending.question.question,
  where: resume.pending.where,
  askedAt: resume.pending.askedAt,
  answer: resume.answer,
});

/** The user message that continues a suspended conversation: the answer, and the calls that did not run. */
const continuation = (resume: ResumeAgent): UserBlock[] => [
  ...resume.results,
  {
    type: 'tool_result',
    tool_use_id: resume.callId,
    content: [{ type: 'text', text: answerText(resume.answer) }],
    is_error: resume.answer.kind === 'timeout',
  },
  ...resume.remaining.map((id): UserBlock => ({
    type: 'tool_result',
    tool_use_id: id,
    content: [
      {
        type: 'text',
        text: 'Not run: the job stopped to wait for the answer before this call. Call it again if you still need it.',
      },
    ],
    is_error: true,
  })),
];

/** The file:line locations the failing command's output names (for the debug tool's description). */
const failureLocations = (output: string): DebugHint[] =>
  recogniseFailures(
    stripAnsi(output)
      .split('\n')
      .map((text, index) => ({ line: index + 1, text })),
  ).flatMap((f) =>
    f.file && f.line !== undefined
      ? [{ file: f.file, line: f.line, ...(f.test ? { test: f.test } : {}) }]
      : [],
  );

/** What the plan phase is asked for. */
export const PLAN_MODE_TASK =
  'You are in plan mode: you can only read. Investigate the failure, then end your turn with a plan: the cause, the files to change and how, and how the fix will be verified. Do not try to edit anything.';

/** A model with no known price would make the dollar limit a fiction: refused unless the operator prices it. */
const refuseUnpriced = (model: Model): void => {
  if (!model.unpriced) return;
  throw new RegreenError(
    'usage',
    `no price is known for ${model.id}, so its dollar budget cannot be kept: price it as the operator (REGREEN_PRICES='{"${model.id.replace(/^[a-z]+:/, '')}":{"input":0,"output":0}}' for a free local model)`,
  );
};

export const describeBudget = (budget: Budget): string =>
  `budget ${budget.maxTurns} turns, ${budget.maxInputTokens} input / ${budget.maxOutputTokens} output tokens, $${budget.maxCostUsd}, ${Math.round(budget.maxMs / 60_000)} min`;
