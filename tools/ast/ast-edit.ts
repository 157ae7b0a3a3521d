import { createTwoFilesPatch } from 'diff';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import type { ProvidedTools } from '../../src/workspace/setup/provided-tools.ts';
import { defineTool, fail, ok, type Tool } from '../types.ts';
import { prepareSearch } from './prepare.ts';
import { rewriteFile } from './rewrite.ts';
import { MAX_AST_SEARCH_BYTES, searchAst, type AstMatch } from './search.ts';
import type { StagedEdits, StagedFile } from './staged-edits.ts';

const MAX_DIFF_LINES = 200;

/** Its input (one schema for every job: its JSON form is made once, `inputSchemaOf`). */
const AstEditInput = z.object({
  pattern: z.string().min(1),
  rewrite: z.string(),
  path: z.string().optional(),
  language: z.string().optional(),
});

export const astEditTool = (staged: StagedEdits, provided: ProvidedTools): Tool =>
  defineTool({
    name: 'ast_edit',
    level: 'write',
    description:
      'Stage a structural rewrite: every match of `pattern` (same syntax as ast_grep) is replaced by `rewrite`, with the captured $NAME / $$$NAME substituted. Nothing is written: the result shows the number of replacements and files and a diff, and an edit_id to pass to resolve (accept writes all files or none; discard drops it).',
    schema: AstEditInput,
    run: async (input, ctx) => {
      const prepared = await prepareSearch(input, ctx.workspace, provided);
      if ('error' in prepared) return fail(prepared.error);
      const { matches, unread } = await searchAst({ workspace: ctx.workspace, ...prepared });
      // A rewrite of some of the matches would be a change nobody asked for.
      if (unread)
        return fail(
          `${unread} file(s) could not be searched (a search reads at most ${MAX_AST_SEARCH_BYTES / 1024 / 1024} MiB of source): narrow path and rewrite part by part`,
        );
      if (matches.length === 0)
        return fail('no matches: nothing to rewrite. Check the pattern with ast_grep first');
      const byFile = new Map<string, AstMatch[]>();
      for (const match of matches)
        byFile.set(match.file, [...(byFile.get(match.file) ?? []), match]);
      const files: StagedFile[] = [];
      for (const [file, fileMatches] of byFile) {
        const before = readTextInside(ctx.workspace, file);
        const parsed = fileMatches[0]?.node.getRoot().root().text();
        if (before === undefined || parsed !== before)
          return fail(
            `${relativeToWorkspace(ctx.workspace, file)} changed while it was being searched: run ast_edit again`,
          );
        const after = rewriteFile(fileMatches, input.rewrite);
        if (after !== before) files.push({ path: file, before, after });
      }
      if (files.length === 0)
        return fail('the rewrite leaves every match as it is: nothing to stage');
      const edit = staged.stage(files, matches.length);
      const diff = files
        .map((file) => {
          const name = relativeToWorkspace(ctx.workspace, file.path);
          return createTwoFilesPatch(
            `a/${name}`,
            `b/${name}`,
            file.before,
            file.after,
            undefined,
            undefined,
            { context: 2 },
          )
            .split('\n')
            .slice(2)
            .join('\n');
        })
        .join('');
      const lines = diff.split('\n');
      const shown =
        lines.length > MAX_DIFF_LINES
          ? `${lines.slice(0, MAX_DIFF_LINES).join('\n')}\n[… ${lines.length - MAX_DIFF_LINES} more diff lines]`
          : diff;
      return ok(
        `(proposed) ${matches.length} replacements in ${files.length} file(s); nothing written yet: call resolve with edit_id "${edit.id}" and action accept or discard\n${shown}`,
      );
    },
  });
