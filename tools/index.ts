import { applyPatchTool } from './files/apply-patch.ts';
import { editTool } from './files/edit.ts';
import { listTool } from './files/list.ts';
import { readTool } from './files/read.ts';
import { searchTool } from './files/search.ts';
import { writeTool } from './files/write.ts';
import { runTestsTool } from './tests/run-tests.ts';
import type { LspFamily } from './lsp/index.ts';
import type { ProvidedTools } from '../src/workspace/setup/provided-tools.ts';
import type { Tool } from './types.ts';

/** The tools every job has: files and tests. Other families register when their resource connects. */
export const coreTools = (): Tool[] =>
  [readTool, searchTool, listTool, writeTool, editTool, applyPatchTool, runTestsTool] as Tool[];

/**
 * Every tool family whose resource is available in this process: the core
 * tools always; the ast family when its native library loads (its grammars
 * load on first use, fetched through `provided` when regreen does not ship
 * them); the lsp family when the job has a language-server supervisor (its
 * write tools then carry diagnostics on write).
 */
export const jobTools = async (
  warn: (message: string) => void,
  lsp?: LspFamily,
  provided?: ProvidedTools,
): Promise<Tool[]> => {
  const tools = lsp ? lsp.wrapWrites(coreTools()) : coreTools();
  if (lsp) tools.push(...lsp.tools);
  try {
    const { astTools } = await import('./ast/index.ts');
    tools.push(...astTools(provided));
  } catch (error) {
    warn(`ast tools unavailable: ${error instanceof Error ? error.message : String(error)}`);
  }
  return tools;
};
