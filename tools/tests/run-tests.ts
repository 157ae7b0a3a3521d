import { z } from 'zod';
import { tailLines } from '../../src/util/text.ts';
import { quote } from '../../src/workspace/sandbox-shared.ts';
import { defineTool, fail, ok } from '../types.ts';

const TAIL_LINES = 150;

/** Appends a filter the way the command's runner expects it. */
export const withFilter = (command: string, filter: string | undefined): string => {
  if (!filter) return command;
  const passThrough =
    /^\s*(npm|pnpm|yarn)\s+(test|run\s+\S+)\s*$/.test(command) && !command.includes(' -- ');
  return `${command}${passThrough ? ' --' : ''} ${quote(filter)}`;
};

export const runTestsTool = defineTool({
  name: 'run_tests',
  level: 'exec',
  // Two test runs in one workspace can trip over each other's files: one agent at a time.
  exclusive: true,
  description:
    "Run the repository's test command in the sandbox (no network) and get PASS or FAIL with the exit code and the tail of the output. Optional `filter` is passed to the test runner (a file or a test name) to run less.",
  schema: z.object({ filter: z.string().min(1).optional() }),
  run: async (input, ctx, signal) => {
    const command = withFilter(ctx.testCommand, input.filter);
    const result = await ctx.sandbox.run({
      command,
      cwd: ctx.workspace,
      network: 'off',
      timeoutMs: ctx.commandTimeoutMs,
      signal,
    });
    const tail = tailLines(result.output.trimEnd(), TAIL_LINES);
    if (result.timedOut) {
      return {
        ...fail(
          `TIMEOUT after ${Math.round(ctx.commandTimeoutMs / 1000)}s running \`${command}\`: narrow the run with a filter.\n${tail}`,
        ),
        tests: 'timed out',
      };
    }
    const passed = result.exitCode === 0;
    return {
      ...ok(
        `${passed ? 'PASS' : 'FAIL'} (exit ${result.exitCode ?? 'killed'}) \`${command}\`\n${tail}`,
      ),
      tests: passed ? 'passed' : 'failed',
    };
  },
});
