import type { Logger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import type { Tool, ToolFamily } from '../types.ts';
import { withDiagnosticsOnWrite } from './diagnostics-on-write.ts';
import { lspTool } from './lsp-tool.ts';
import { lspRenameTool } from './rename.ts';
import { whichIn } from '../../src/util/which.ts';
import type { ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import { serverSpecs } from './servers.ts';
import { LspSupervisor } from './supervisor.ts';

const WRITE_TOOLS = new Set(['write', 'edit', 'apply_patch']);

/**
 * The lsp family for one job: a supervisor of language servers in the job's
 * sandbox, the lsp and lsp_rename tools, and the write tools wrapped with
 * diagnostics on write. `dispose` shuts the servers down.
 */
export interface LspFamily {
  readonly supervisor: LspSupervisor;
  readonly tools: Tool[];
  wrapWrites(tools: readonly Tool[]): Tool[];
  dispose(): Promise<void>;
}

export const lspFamily = (options: {
  workspace: string;
  sandbox: Sandbox;
  logger: Logger;
  path: string | undefined;
  node: string;
  /** The npm servers regreen fetches on first use (default: only regreen's own copies). */
  provided?: ProvidedTools;
  requestTimeoutMs?: number;
}): ToolFamily & {
  supervisor: LspSupervisor;
  wrapWrites: (tools: readonly Tool[]) => Tool[];
} => {
  const supervisor = new LspSupervisor({
    workspace: options.workspace,
    sandbox: options.sandbox,
    specs: serverSpecs(whichIn(options.path), options.node, options.provided),
    logger: options.logger,
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
  });
  const seen = new Set<string>();
  return {
    supervisor,
    tools: [
      lspTool(supervisor),
      withDiagnosticsOnWrite(lspRenameTool(supervisor), supervisor, seen),
    ],
    wrapWrites: (tools) =>
      tools.map((tool) =>
        WRITE_TOOLS.has(tool.name) ? withDiagnosticsOnWrite(tool, supervisor, seen) : tool,
      ),
    dispose: () => supervisor.dispose(),
  };
};
