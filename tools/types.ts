import type { z } from 'zod';
import type { ToolLevel } from '../src/config/repo-config.ts';
import type { ToolContent } from '../src/model/types.ts';
import type { Logger } from '../src/logger.ts';
import type { ToolLocks } from './locks.ts';
import type { Sandbox } from '../src/workspace/sandbox/sandbox.ts';
import type { FileViews } from './files/file-views.ts';

export type { ToolLevel };

export type { ToolContent };

/** What every tool returns. A tool never throws into the loop. */
export interface ToolResult {
  readonly content: readonly ToolContent[];
  readonly isError: boolean;
  /** What the call found, for the loop to read without parsing text (run_tests: the suite's verdict). */
  readonly tests?: 'passed' | 'failed' | 'timed out';
}

/** What a tool may use: the job's workspace, its sandbox, its settings. */
export interface ToolContext {
  /** Absolute path of the workspace root. */
  readonly workspace: string;
  readonly sandbox: Sandbox;
  readonly logger: Logger;
  /** The command `run_tests` runs (the repo's test command, else the failing one). */
  readonly testCommand: string;
  readonly commandTimeoutMs: number;
  /** What this agent has read of each file: writes to files changed since are refused. */
  readonly views?: FileViews;
  /** Job-wide locks for tools that are not parallel-safe. */
  readonly locks?: ToolLocks;
}

/** The one contract of every tool. */
export interface Tool<Input = unknown> {
  readonly name: string;
  readonly level: ToolLevel;
  /** Written for the model: what it does, when to use it, what it returns. */
  readonly description: string;
  /** Validated before run; its output is what `run` receives. */
  readonly schema: z.ZodType;
  /** Not parallel-safe: held by one agent of the job at a time. */
  readonly exclusive?: boolean;
  run(input: Input, ctx: ToolContext, signal: AbortSignal): Promise<ToolResult>;
}

export const ok = (text: string): ToolResult => ({
  content: [{ type: 'text', text }],
  isError: false,
});
export const fail = (text: string): ToolResult => ({
  content: [{ type: 'text', text }],
  isError: true,
});

/** The text of a result, joined (images omitted). */
export const resultText = (result: ToolResult): string =>
  result.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n');

/** Declares a tool with its input type inferred from the schema. */
export const defineTool = <Schema extends z.ZodType>(tool: {
  name: string;
  level: ToolLevel;
  description: string;
  schema: Schema;
  exclusive?: boolean;
  run(input: z.infer<Schema>, ctx: ToolContext, signal: AbortSignal): Promise<ToolResult>;
}): Tool<z.infer<Schema>> => tool;

/** A family of tools over one resource (language servers, kernels, a debugger): its tools, and how to release it. */
export interface ToolFamily {
  readonly tools: Tool[];
  dispose(): Promise<void>;
}
