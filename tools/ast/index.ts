import type { Tool } from '../types.ts';
import { astEditTool } from './ast-edit.ts';
import { astGrepTool } from './ast-grep.ts';
import { astLanguages } from './languages.ts';
import { resolveTool } from './resolve.ts';
import { StagedEdits } from './staged-edits.ts';

/** The ast family for one job (or worker): its staged edits live and die with these tools. */
export const astTools = (): Tool[] => {
  astLanguages();
  const staged = new StagedEdits();
  return [astGrepTool, astEditTool(staged), resolveTool(staged)];
};
