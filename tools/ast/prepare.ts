import { stat } from 'node:fs/promises';
import type { NapiConfig } from '@ast-grep/napi';
import { checkPath } from '../files/file-io.ts';
import type { ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import { loadGrammar } from './grammars.ts';
import { astLanguages, languageOfFile, type AstLanguage } from './languages.ts';
import { compilePattern, metavariables } from './pattern.ts';

export interface PreparedSearch {
  readonly language: AstLanguage;
  readonly target: string;
  readonly isDirectory: boolean;
  readonly rule: NapiConfig | string;
  readonly context: string;
  readonly vars: { single: string[]; multi: string[] };
}

/**
 * Resolves the path and the language, loads its grammar (fetched the first
 * time it is needed) and compiles the pattern: what ast_grep and ast_edit share.
 */
export const prepareSearch = async (
  input: { pattern: string; path?: string | undefined; language?: string | undefined },
  workspace: string,
  provided: ProvidedTools,
): Promise<PreparedSearch | { error: string }> => {
  const checked = checkPath(workspace, input.path ?? workspace);
  if (!checked.ok) return { error: checked.error };
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(checked.value)).isDirectory();
  } catch {
    return { error: `not found: ${input.path ?? workspace}` };
  }
  const { languages } = astLanguages();
  let language: AstLanguage | undefined;
  if (input.language !== undefined) {
    language = languages.get(input.language.toLowerCase());
    if (!language)
      return {
        error: `unknown language "${input.language}": use one of ${[...languages.keys()].join(', ')}`,
      };
  } else if (!isDirectory) {
    language = languageOfFile(checked.value);
    if (!language)
      return {
        error: `cannot tell the language of ${input.path ?? ''} from its extension: give language (${[...languages.keys()].join(', ')})`,
      };
  } else {
    return { error: `give language when searching a folder (${[...languages.keys()].join(', ')})` };
  }
  const unloaded = await loadGrammar(language, workspace, provided);
  if (unloaded) return unloaded;
  const compiled = compilePattern(language, input.pattern);
  if (!compiled.ok) return { error: compiled.error };
  return {
    language,
    target: checked.value,
    isDirectory,
    rule: compiled.rule,
    context: compiled.context,
    vars: metavariables(input.pattern),
  };
};
