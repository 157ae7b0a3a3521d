import type { Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { sandboxOption, type CliContext, dataDirOption } from './context.ts';
import { ToolRegistry } from '../agent/tool-registry.ts';
import { TOOL_LEVELS, type ToolLevel } from '../config/repo-config.ts';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { readRepoConfig } from '../job/stages/prepare.ts';
import type { SandboxKind } from '../workspace/sandbox/sandbox.ts';
import { detectTestCommand } from '../workspace/setup/detect.ts';
import { debugFamily } from '../../tools/debug/index.ts';
import { kernelFamily } from '../../tools/kernels/index.ts';
import { jobTools } from '../../tools/index.ts';
import { fail } from '../../tools/types.ts';
import { lspFamily } from '../../tools/lsp/index.ts';
import { describingSandbox } from '../workspace/sandbox/registry.ts';
import { adhocSandbox } from './adhoc-sandbox.ts';
import type { Env } from '../config/env.ts';
import { settingsOf } from '../config/env.ts';
import { providedToolsFor } from '../workspace/setup/provided-tools.ts';

export const parseLevel = (value: string | undefined): readonly ToolLevel[] => {
  if (value === undefined) return TOOL_LEVELS;
  if (!(TOOL_LEVELS as readonly string[]).includes(value)) {
    throw new RegreenError('usage', `unknown level "${value}": use ${TOOL_LEVELS.join(', ')}`);
  }
  return [value as ToolLevel];
};

/** `regreen tools list`: the tools a job registers, by level. */
export const listTools = async (
  level: string | undefined,
  json: boolean,
  logger: Logger,
): Promise<string> => {
  // Listing describes the tools; nothing is started, so the lsp family gets a sandbox that runs nothing.
  const lsp = lspFamily({
    workspace: process.cwd(),
    sandbox: describingSandbox(),
    logger,
    path: undefined,
    node: process.execPath,
  });
  const kernels = kernelFamily({
    workspace: process.cwd(),
    sandbox: describingSandbox(),
    node: process.execPath,
    logger,
    bridge: () => Promise.resolve(fail('not in a job')),
  });
  const debug = debugFamily({
    workspace: process.cwd(),
    sandbox: describingSandbox(),
    logger,
    path: undefined,
    node: process.execPath,
  });
  const definitions = new ToolRegistry([
    ...(await jobTools((message) => logger.warn(message), lsp)),
    ...kernels.tools,
    ...debug.tools,
  ]).definitions({ levels: parseLevel(level) });
  if (json) return JSON.stringify(definitions, null, 2);
  return definitions
    .map(
      (tool) =>
        `${tool.name.padEnd(12)} ${tool.level.padEnd(6)} ${tool.description.split('. ')[0] ?? ''}`,
    )
    .join('\n');
};

/** `regreen tools call`: one tool outside a job, with every guard a job applies. */
export const callTool = async (options: {
  name: string;
  workspace: string;
  input: string;
  sandbox: SandboxKind;
  dataDir?: string | undefined;
  env: Env;
  logger: Logger;
}): Promise<{ content: unknown; isError: boolean }> => {
  let input: unknown;
  try {
    input = JSON.parse(options.input);
  } catch (error) {
    throw new RegreenError('usage', `--input is not valid JSON: ${(error as Error).message}`);
  }
  const { sandbox, workspace } = await adhocSandbox({
    ...options,
    kind: options.sandbox,
    withRegistries: false,
  });
  const provided = providedToolsFor(options.env);
  const lsp = lspFamily({
    workspace,
    sandbox,
    logger: options.logger,
    path: settingsOf(options.env).path,
    node: process.execPath,
    provided,
  });
  const config = readRepoConfig(workspace);
  const ctx = {
    workspace,
    sandbox,
    logger: options.logger,
    testCommand: config.test_command ?? detectTestCommand(workspace) ?? 'npm test',
    commandTimeoutMs: config.timeouts.command_seconds * 1000,
  };
  const filter = { levels: TOOL_LEVELS };
  let registry: ToolRegistry | undefined;
  const kernels = kernelFamily({
    workspace,
    sandbox,
    node: process.execPath,
    logger: options.logger,
    bridge: (name, toolInput, signal) =>
      registry
        ? registry.call(name, toolInput, ctx, signal, filter)
        : Promise.resolve(fail('no registry')),
  });
  try {
    registry = new ToolRegistry([
      ...(await jobTools((message) => options.logger.warn(message), lsp, provided)),
      ...kernels.tools,
    ]);
    const result = await registry.call(
      options.name,
      input,
      ctx,
      new AbortController().signal,
      filter,
    );
    return { content: result.content, isError: result.isError };
  } finally {
    await kernels.dispose();
    await lsp.dispose();
    await sandbox.dispose();
  }
};

/** `regreen tools`. */
export const registerTools = (program: Command, { env, logger, setExit }: CliContext): void => {
  const tools = program.command('tools').description(SUMMARIES.tools);
  tools
    .command('list')
    .option('--level <level>', 'read, write or exec')
    .option('--json', 'print the definitions as JSON')
    .action(async (opts: { level?: string; json?: boolean }) => {
      process.stdout.write(`${await listTools(opts.level, opts.json === true, logger)}\n`);
      setExit(0);
    });
  tools
    .command('call <name>')
    .requiredOption('--workspace <dir>', 'the folder the tool works in')
    .requiredOption('--input <json>', "the tool's input as JSON")
    .addOption(sandboxOption())
    .addOption(dataDirOption())
    .action(
      async (
        name: string,
        opts: { workspace: string; input: string; sandbox: SandboxKind; dataDir?: string },
      ) => {
        const result = await callTool({ name, ...opts, env, logger });
        process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
        setExit(result.isError ? 1 : 0);
      },
    );
};
