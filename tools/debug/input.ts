import { z } from 'zod';

const OPS = [
  'adapters',
  'status',
  'breakpoints',
  'launch',
  'attach',
  'continue',
  'pause',
  'step_over',
  'step_in',
  'step_out',
  'threads',
  'stack',
  'scopes',
  'variables',
  'evaluate',
  'output',
  'terminate',
] as const;

export const DebugInput = z.object({
  op: z.enum(OPS),
  file: z.string().optional().describe('breakpoints: the absolute path of the source file'),
  lines: z
    .array(z.number().int().positive())
    .optional()
    .describe('breakpoints: line numbers; [] clears the file'),
  program: z
    .string()
    .optional()
    .describe('launch: absolute path of the script, Go package folder or executable'),
  args: z.array(z.string()).default([]).describe("launch: the program's arguments"),
  adapter: z
    .enum(['debugpy', 'delve', 'lldb', 'dart'])
    .optional()
    .describe('launch/attach: force an adapter'),
  port: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('attach: the port of a program already under a debugger'),
  thread_id: z.number().int().optional(),
  frame_id: z.number().int().optional().describe('scopes/evaluate: a frame id from stack'),
  reference: z
    .number()
    .int()
    .optional()
    .describe('variables: a variablesReference from scopes or variables'),
  expression: z.string().optional().describe('evaluate: an expression in the frame'),
  wait_seconds: z
    .number()
    .positive()
    .max(120)
    .optional()
    .describe('continue/step: how long to wait for the next stop'),
});
export type DebugInput = z.infer<typeof DebugInput>;
