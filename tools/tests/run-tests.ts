import path from 'node:path';
import { z } from 'zod';
import { readFileInside } from '../../src/workspace/repo/confined-fs.ts';
import { quote, tailLines } from '../../src/util/text.ts';
import { defineTool, fail, ok } from '../types.ts';

const TAIL_LINES = 150;

const SCRIPT_CALL = /^\s*(npm|pnpm|yarn)\s+(?:run\s+)?(\S+)\s*$/;
const TEST_RUNNER =
  /\b(mocha|jest|vitest|ava|tape|tap|jasmine|karma|uvu|c8|nyc)\b|\bnode\s+(--\S+\s+)*--test\b|\bplaywright\s+test\b/;

/**
 * The part of a package script chain that runs the tests, for a filtered run:
 * with `"test": "npm run test:src && npm run lint"`, `npm test -- FILE` would
 * hand FILE to the linter and run every test; `npm run test:src -- FILE`
 * runs the tests alone. Undefined when the command is no such chain.
 */
export const testPartOf = (
  command: string,
  scripts: Readonly<Record<string, unknown>>,
): string | undefined => {
  const call = SCRIPT_CALL.exec(command);
  const manager = call?.[1];
  const body = call?.[2] ? scripts[call[2]] : undefined;
  if (!manager || typeof body !== 'string' || !body.includes('&&')) return undefined;
  for (const part of body.split('&&').map((p) => p.trim())) {
    const inner = SCRIPT_CALL.exec(part);
    const name = inner?.[2];
    const script = name ? scripts[name] : undefined;
    if (!name || typeof script !== 'string') continue;
    if (TEST_RUNNER.test(script) || /^test\b/.test(name)) return `${manager} run ${name}`;
  }
  return undefined;
};

/** Appends a filter the way the command's runner expects it. */
export const withFilter = (
  command: string,
  filter: string | undefined,
  scripts: Readonly<Record<string, unknown>> = {},
): string => {
  if (!filter) return command;
  const target = testPartOf(command, scripts) ?? command;
  const passThrough = SCRIPT_CALL.test(target) && !target.includes(' -- ');
  return `${target}${passThrough ? ' --' : ''} ${quote(filter)}`;
};

/** The workspace's package scripts, read through descriptors; none when there is no readable package.json. */
const packageScripts = (workspace: string): Readonly<Record<string, unknown>> => {
  try {
    const manifest = JSON.parse(
      readFileInside(workspace, path.join(workspace, 'package.json')).toString('utf8'),
    ) as { scripts?: unknown };
    return manifest.scripts && typeof manifest.scripts === 'object'
      ? (manifest.scripts as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
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
    const command = withFilter(
      ctx.testCommand,
      input.filter,
      input.filter ? packageScripts(ctx.workspace) : {},
    );
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
