import { ownToolsOnly, type ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import type { Tool } from '../types.ts';
import { astEditTool } from './ast-edit.ts';
import { astGrepTool } from './ast-grep.ts';
import { resolveTool } from './resolve.ts';
import { StagedEdits } from './staged-edits.ts';

/**
 * The ast family for one job (or worker): its staged edits live and die with
 * these tools. A language's grammar loads on its first search (`grammars.ts`),
 * fetched through `provided` when regreen does not ship it.
 */
export const astTools = (provided: ProvidedTools = ownToolsOnly()): Tool[] => {
  const staged = new StagedEdits();
  return [astGrepTool(provided), astEditTool(staged, provided), resolveTool(staged)];
};
