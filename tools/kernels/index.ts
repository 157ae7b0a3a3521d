import { z } from 'zod';
import type { Logger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { defineTool, type ToolContent, type ToolFamily, type ToolResult } from '../types.ts';
import {
  Kernel,
  type Bridge,
  type CellOutput,
  type CellResult,
  type KernelLanguage,
} from './kernel.ts';
import { rewriteIPython } from './rewrite.ts';

/** The idle budget of a cell unless the family is given another. */
export const DEFAULT_CELL_BUDGET_MS = 5 * 60_000;

const words = (text: string): number => text.trim().split(/\s+/).filter(Boolean).length;

const EvalInput = z.object({
  code: z.string().describe('the cell: Python (default) or JavaScript'),
  description: z
    .string()
    .refine((d) => words(d) >= 5 && words(d) <= 10, {
      message: 'describe the cell in 5 to 10 words',
    })
    .describe('what the cell does, in 5 to 10 words (it goes into the trace)'),
  language: z.enum(['python', 'javascript']).default('python'),
  reset: z.boolean().default(false).describe('discard the interpreter and its state first'),
});

/** Tools a cell can never call through the bridge (a cell calling eval would wait on itself). */
const NOT_BRIDGED = new Set(['eval']);

const render = (result: CellResult, language: KernelLanguage): ToolResult => {
  if (result.kind === 'lost') {
    return {
      content: [
        {
          type: 'text',
          text: `${result.why}. The next eval call starts a fresh ${language} kernel.`,
        },
      ],
      isError: true,
    };
  }
  const blocks: ToolContent[] = [];
  const text: string[] = [];
  if (result.stdout) text.push(result.stdout.trimEnd());
  const outputs: readonly CellOutput[] = result.kind === 'done' ? result.outputs : [];
  for (const output of outputs) {
    if (output.type === 'text') text.push(output.text);
    else {
      if (text.length > 0) blocks.push({ type: 'text', text: text.splice(0).join('\n') });
      blocks.push({
        type: 'image',
        source: { type: 'base64', media_type: output.mime, data: output.data },
      });
    }
  }
  if (result.stderr) text.push(`[stderr]\n${result.stderr.trimEnd()}`);
  if (result.error) text.push(result.error.trimEnd());
  if (result.kind === 'interrupted')
    text.push(
      '[the cell passed its idle budget and was interrupted; the kernel and its state are kept]',
    );
  if (text.length > 0 || blocks.length === 0)
    blocks.push({ type: 'text', text: text.join('\n') || '(no output)' });
  return { content: blocks, isError: result.kind === 'interrupted' || !result.ok };
};

/**
 * The eval family for one job: one kernel per language, started on first use
 * inside the job's sandbox, disposed with the job. Cells reach the job's
 * tools through `bridge`, which applies every guard of a model-issued call.
 */
export const kernelFamily = (options: {
  workspace: string;
  sandbox: Sandbox;
  node: string;
  logger: Logger;
  bridge: Bridge;
  cellBudgetMs?: number;
}): ToolFamily => {
  const kernels = new Map<KernelLanguage, Kernel>();
  const budget = options.cellBudgetMs ?? DEFAULT_CELL_BUDGET_MS;
  const bridge: Bridge = (name, input, signal) =>
    NOT_BRIDGED.has(name)
      ? Promise.resolve({
          content: [{ type: 'text', text: `${name} cannot be called from inside a cell` }],
          isError: true,
        })
      : options.bridge(name, input, signal);

  const kernelFor = async (language: KernelLanguage, reset: boolean): Promise<Kernel> => {
    const existing = kernels.get(language);
    if (existing && existing.alive && !reset) return existing;
    if (existing) await existing.dispose();
    const kernel = new Kernel({ ...options, language, bridge });
    kernels.set(language, kernel);
    await kernel.start();
    return kernel;
  };

  const evalTool = defineTool({
    name: 'eval',
    level: 'exec',
    exclusive: true,
    description: [
      'Run a cell in a persistent Python (default) or JavaScript interpreter inside the sandbox: variables, imports and loaded data survive between calls.',
      'Use it to poke at data, reproduce a failure in a few lines, or time something, without writing throwaway files. The last expression is echoed; display(x) shows a value; a pandas DataFrame renders as a table; a matplotlib figure comes back as an image.',
      'Python accepts %pip, %cd, !cmd, %%bash and %%timeit. JavaScript has top-level await, require and import() from the workspace.',
      'Inside a cell, tool("read", {"path": ...}) calls one of your tools with the same rules as a direct call (Python returns its text or raises ToolError; JavaScript returns a promise).',
      `A cell that works for ${Math.round(budget / 60_000)} minutes without finishing is interrupted (time spent in bridged tool calls does not count). reset: true discards the interpreter first.`,
    ].join(' '),
    schema: EvalInput,
    run: async (input, _ctx, signal) => {
      let kernel: Kernel;
      try {
        kernel = await kernelFor(input.language, input.reset);
      } catch (error) {
        return {
          content: [
            {
              type: 'text',
              text: `the ${input.language} kernel could not start: ${error instanceof Error ? error.message : String(error)}`,
            },
          ],
          isError: true,
        };
      }
      const code = input.language === 'python' ? rewriteIPython(input.code) : input.code;
      return render(await kernel.execute(code, budget, signal), input.language);
    },
  });

  return {
    tools: [evalTool],
    dispose: async () => {
      await Promise.all([...kernels.values()].map((kernel) => kernel.dispose()));
      kernels.clear();
    },
  };
};
