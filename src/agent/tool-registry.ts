import { SuspendJob } from '../questions/pending.ts';
import type { ToolLevel } from '../config/repo-config.ts';
import type { ToolDefinition } from '../model/types.ts';
import { fail, type Tool, type ToolContext, type ToolResult } from '../../tools/types.ts';

/**
 * The most one tool call's input may weigh, as JSON: a model's call is text strangers steer (a
 * repository's files and a log are in its context), bounded where it enters the host. A whole
 * file a tool writes (8 MiB at most) fits, with its escapes.
 */
export const MAX_TOOL_INPUT_CHARS = 24 * 1024 * 1024;

export interface ToolFilter {
  /** Levels visible to this surface (plan mode: read only). */
  readonly levels: readonly ToolLevel[];
  /** Tools the repository's config withholds. */
  readonly disabled?: readonly string[];
  /** Asked before every exec-level tool runs (see ToolPolicy). */
  readonly gate?: ToolGate;
}

/**
 * Each tool's input as JSON Schema, converted once per schema (a tool's is a
 * constant of its module): zod's conversion costs about half a millisecond a
 * tool, and a job asks for them while its model waits. Each caller gets a
 * copy of its own.
 */
const jsonSchemas = new WeakMap<Tool['schema'], Record<string, unknown>>();
export const inputSchemaOf = (tool: Tool): Record<string, unknown> => {
  let made = jsonSchemas.get(tool.schema);
  if (!made) {
    made = tool.schema.toJSONSchema({ io: 'input' });
    jsonSchemas.set(tool.schema, made);
  }
  return structuredClone(made);
};

const formatIssues = (
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): string =>
  issues
    .map((issue) => `${issue.path.map(String).join('.') || 'input'}: ${issue.message}`)
    .join('; ');

/**
 * The job's tools. A tool is registered only while its resource is connected;
 * the filter decides what a surface sees — hidden tools are absent, not refused.
 */
/** Asked before an exec-level tool runs: undefined lets it run, a result refuses it. */
export type ToolGate = (
  name: string,
  input: unknown,
  signal: AbortSignal,
) => Promise<ToolResult | undefined>;

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();

  constructor(tools: readonly Tool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): () => void {
    if (this.tools.has(tool.name)) throw new Error(`tool registered twice: ${tool.name}`);
    this.tools.set(tool.name, tool);
    return () => this.tools.delete(tool.name);
  }

  visible(filter: ToolFilter): Tool[] {
    return [...this.tools.values()].filter(
      (tool) => filter.levels.includes(tool.level) && !(filter.disabled ?? []).includes(tool.name),
    );
  }

  definitions(filter: ToolFilter): ToolDefinition[] {
    return this.visible(filter).map((tool) => ({
      name: tool.name,
      description: tool.description,
      level: tool.level,
      inputSchema: inputSchemaOf(tool),
    }));
  }

  /** Validates and runs one call. Never throws: every failure is an isError result. */
  async call(
    name: string,
    input: unknown,
    ctx: ToolContext,
    signal: AbortSignal,
    filter: ToolFilter,
  ): Promise<ToolResult> {
    const tool = this.visible(filter).find((candidate) => candidate.name === name);
    if (!tool) {
      const names = this.visible(filter)
        .map((candidate) => candidate.name)
        .join(', ');
      return fail(`unknown tool "${name}": the tools available are ${names}`);
    }
    const size = JSON.stringify(input ?? null).length;
    if (size > MAX_TOOL_INPUT_CHARS)
      return fail(
        `the input of ${name} is ${size} characters, over the ${MAX_TOOL_INPUT_CHARS} a call may carry: split the change into smaller calls`,
      );
    const parsed = tool.schema.safeParse(input);
    if (!parsed.success)
      return fail(`invalid input for ${name}: ${formatIssues(parsed.error.issues)}`);
    try {
      if (filter.gate && tool.level === 'exec') {
        const refused = await filter.gate(name, parsed.data, signal);
        if (refused) return refused;
      }
      if (tool.exclusive && ctx.locks)
        return await ctx.locks.run(tool.name, signal, () => tool.run(parsed.data, ctx, signal));
      return await tool.run(parsed.data, ctx, signal);
    } catch (error) {
      // A job that stops to wait for a person is not a tool failure.
      if (error instanceof SuspendJob) throw error;
      ctx.logger.warn({ tool: name, err: error }, 'tool threw');
      if (signal.aborted) return fail(`${name} was cancelled`);
      return fail(
        `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }
}
