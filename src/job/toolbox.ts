/**
 * The job's toolbox: every tool family the agent and its workers use,
 * opened together (language servers, kernels, the debugger, questions to a
 * person) and released together, whatever fails.
 */
import type { Ledger } from '../agent/ledger.ts';
import type { ToolPolicy } from '../agent/tool-policy.ts';
import { inputSchemaOf, type ToolRegistry } from '../agent/tool-registry.ts';
import { settingsOf } from '../config/env.ts';
import { recogniseFailures } from '../intake/formats/index.ts';
import type { AskedQuestion } from '../questions/card.ts';
import { systemWaitClock } from '../questions/channel.ts';
import { Disposables } from '../util/disposables.ts';
import { stripAnsi } from '../util/text.ts';
import { providedToolsFor } from '../workspace/setup/provided-tools.ts';
import { askFamily } from '../../tools/ask/index.ts';
import { debugFamily, type DebugHint } from '../../tools/debug/index.ts';
import { coreTools, jobTools } from '../../tools/index.ts';
import { kernelFamily } from '../../tools/kernels/index.ts';
import { lspFamily } from '../../tools/lsp/index.ts';
import { fail, type Tool, type ToolContext } from '../../tools/types.ts';
import type { JobContext } from './context.ts';
import type { Prepared } from './stages/prepare.ts';

export interface Toolbox {
  /** The main agent's tools. */
  readonly tools: Tool[];
  /** A worker's tools: the same families, without questions to a person. */
  readonly forWorkers: () => Promise<Tool[]>;
  readonly ask?: ReturnType<typeof askFamily>;
  /** The registry cells in a kernel call tools through, once it exists. */
  bind(registry: ToolRegistry): void;
  dispose(): Promise<void>;
}

/**
 * What every job's toolbox needs whatever its repository: the ast family's
 * native library loaded, and the JSON form of the tools' inputs made. Begun
 * with the toolbox's code (`preloadToolbox`), while the failing command runs.
 */
export const warmToolbox = async (): Promise<void> => {
  const tools = coreTools();
  try {
    const { astTools } = await import('../../tools/ast/index.ts');
    tools.push(...astTools());
  } catch {
    // Said when the job's toolbox opens without it.
  }
  for (const tool of tools) inputSchemaOf(tool);
};

export const openToolbox = async (options: {
  job: JobContext;
  prepared: Prepared;
  policy: ToolPolicy;
  ctx: ToolContext;
  hints: readonly DebugHint[];
  ledger: Ledger;
  asked?: readonly AskedQuestion[];
}): Promise<Toolbox> => {
  const { job, prepared, policy, ctx, ledger } = options;
  const { config } = prepared;
  const families = new Disposables();
  const warn = (message: string): void => job.logger.warn(message);
  // What every family is opened on: the job's workspace and sandbox, its PATH, this Node.
  const where = {
    workspace: prepared.workspace,
    sandbox: prepared.sandbox,
    logger: job.logger,
    path: settingsOf(job.deps.env).path,
    node: process.execPath,
  };
  // The language servers and grammars regreen fetches the first time the job needs them.
  // A first use's download (a language server: tens of MB) is said on the live line while it runs.
  const provided = providedToolsFor(job.deps.env, (what) =>
    job.deps.progress?.({ kind: 'fetching', what }),
  );
  // One supervisor of language servers for the job, shared by its workers; shut down when the agent ends.
  const lsp = lspFamily({ ...where, provided });
  // One kernel per language for the job; cells reach the job's tools through the registry.
  const registryRef: { current?: ToolRegistry } = {};
  const kernels = kernelFamily({
    ...where,
    bridge: (name, input, signal) =>
      registryRef.current
        ? // A cell calls with what the job's agent may call now (never more in the plan phase).
          registryRef.current.call(name, input, ctx, signal, policy.current())
        : Promise.resolve(fail('the tool registry is not ready')),
  });
  // One debug session at a time for the job; its description names the failing test's location.
  const debug = debugFamily({
    ...where,
    hints: options.hints,
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
        ...(options.asked ? { asked: options.asked } : {}),
      })
    : undefined;
  families.add(() => lsp.dispose());
  families.add(() => kernels.dispose());
  families.add(() => debug.dispose());
  const tools = [
    ...(await jobTools(warn, lsp, provided)),
    ...kernels.tools,
    ...debug.tools,
    ...(ask?.tools ?? []),
  ];
  return {
    tools,
    forWorkers: async () => [
      ...(await jobTools(warn, lsp, provided)),
      ...kernels.tools,
      ...debug.tools,
    ],
    ...(ask ? { ask } : {}),
    bind: (registry) => {
      registryRef.current = registry;
    },
    dispose: () =>
      families.disposeAll((error) => job.logger.warn({ err: error }, 'dispose failed')),
  };
};

/** The file:line locations the failing command's output names (for the debug tool's description). */
export const failureLocations = (output: string): DebugHint[] =>
  recogniseFailures(
    stripAnsi(output)
      .split('\n')
      .map((text, index) => ({ line: index + 1, text })),
  ).flatMap((f) =>
    f.file && f.line !== undefined
      ? [{ file: f.file, line: f.line, ...(f.test ? { test: f.test } : {}) }]
      : [],
  );
