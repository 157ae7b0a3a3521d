import path from 'node:path';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import type { ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import { defineTool, fail, ok, type Tool } from '../types.ts';
import { prepareSearch } from './prepare.ts';
import { MAX_AST_SEARCH_BYTES, searchAst, type AstMatch } from './search.ts';

const MATCH_LINES = 3;

export const formatMatch = (workspace: string, match: AstMatch): string => {
  const lines = match.text.split('\n');
  const text =
    lines.slice(0, MATCH_LINES).join('\n    ') +
    (lines.length > MATCH_LINES ? `\n    […${lines.length - MATCH_LINES} more lines]` : '');
  const captured = Object.entries(match.captures).map(
    ([name, value]) => `$${name} = ${value.length > 80 ? `${value.slice(0, 80)}…` : value}`,
  );
  return `${relativeToWorkspace(workspace, match.file)}:${match.line}:${match.column}: ${text}${captured.length > 0 ? `\n    ${captured.join(' ; ')}` : ''}`;
};

/** Its input (one schema for every job: its JSON form is made once, `inputSchemaOf`). */
const AstGrepInput = z.object({
  pattern: z.string().min(1),
  path: z.string().optional(),
  language: z.string().optional(),
  max_results: z.number().int().positive().max(500).default(50),
});

export const astGrepTool = (provided: ProvidedTools): Tool =>
  defineTool({
    name: 'ast_grep',
    level: 'read',
    description:
      'Structural code search: find code by shape with a pattern in the language itself. $NAME matches any node, $$$NAME a run of sibling nodes, $_ any node without binding; a metavariable used twice must match the same text. Matches regardless of spacing and comments, never inside strings or comments. `path` is a file or folder (default: the workspace); `language` (typescript, tsx, javascript, python, go, rust, java, c, cpp, dart, kotlin, ruby, bash, yaml, json, html, css) is inferred from a file path. Returns path:line:col, the match and its captures.',
    schema: AstGrepInput,
    run: async (input, ctx) => {
      const prepared = await prepareSearch(input, ctx.workspace, provided);
      if ('error' in prepared) return fail(prepared.error);
      const { matches, files, unread } = await searchAst({
        workspace: ctx.workspace,
        ...prepared,
      });
      const where = prepared.isDirectory
        ? `${relativeToWorkspace(ctx.workspace, prepared.target)}${path.sep}`
        : relativeToWorkspace(ctx.workspace, prepared.target);
      const how =
        prepared.context === 'as written' ? '' : ` (pattern parsed as a ${prepared.context})`;
      const unsearched = unread
        ? `${unread} file(s) not searched: a search reads at most ${MAX_AST_SEARCH_BYTES / 1024 / 1024} MiB of source, narrow path`
        : undefined;
      if (matches.length === 0)
        return ok(
          `no matches for the pattern in ${where} (${prepared.language.id})${how}${unsearched ? `\n[${unsearched}]` : ''}`,
        );
      const shown = matches
        .slice(0, input.max_results)
        .map((match) => formatMatch(ctx.workspace, match));
      const more =
        matches.length > shown.length
          ? `; ${shown.length} shown, raise max_results or narrow path`
          : '';
      return ok(
        `${shown.join('\n')}\n[${matches.length} matches in ${files} file(s)${more}${unsearched ? `; ${unsearched}` : ''}]${how}`,
      );
    },
  });
