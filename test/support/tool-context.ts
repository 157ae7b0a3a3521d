import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { sandboxFactory } from '../../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import type { ToolContext } from '../../tools/types.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { coreTools } from '../../tools/index.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';

/** A real bubblewrap sandbox over `workspace`, with its private folder beside it. */
export const realSandbox = async (root: string, workspace: string): Promise<Sandbox> => {
  const dataDir = path.join(root, 'data');
  mkdirSync(dataDir, { recursive: true });
  return sandboxFactory(
    'bubblewrap',
    silentLogger(),
  )(
    buildSandboxPolicy({
      workspace,
      privateDir: path.join(dataDir, 'private'),
      home: path.join(root, 'home'),
      dataDir,
      registryHosts: [],
      baseEnv: { PATH: process.env.PATH },
    }),
  );
};

export const toolContext = (
  workspace: string,
  sandbox: Sandbox,
  testCommand = 'npm test',
): ToolContext => ({
  workspace,
  sandbox,
  logger: silentLogger(),
  testCommand,
  commandTimeoutMs: 30_000,
});

/** Calls a core tool through the registry exactly as the agent loop does. */
export const callTool = (ctx: ToolContext, name: string, input: unknown) =>
  new ToolRegistry(coreTools()).call(name, input, ctx, new AbortController().signal, {
    levels: TOOL_LEVELS,
  });
