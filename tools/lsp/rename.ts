import { fileURLToPath } from 'node:url';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { checkPath, writeAllOrNothing } from '../files/file-io.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import { defineTool, fail, ok, type Tool } from '../types.ts';
import { uriOf } from './client.ts';
import { positionOf, withServer } from './lsp-tool.ts';
import type { LspSupervisor } from './supervisor.ts';

/** Applies LSP text edits to a text (offsets computed on the original, applied from the end). */
export const applyTextEdits = (text: string, edits: readonly TextEdit[]): string => {
  const starts = [0];
  for (let i = 0; i < text.length; i += 1) if (text[i] === '\n') starts.push(i + 1);
  const offset = (line: number, character: number): number =>
    Math.min(text.length, (starts[line] ?? text.length) + character);
  const sorted = [...edits].sort(
    (a, b) =>
      offset(b.range.start.line, b.range.start.character) -
      offset(a.range.start.line, a.range.start.character),
  );
  let out = text;
  for (const edit of sorted) {
    out =
      out.slice(0, offset(edit.range.start.line, edit.range.start.character)) +
      edit.newText +
      out.slice(offset(edit.range.end.line, edit.range.end.character));
  }
  return out;
};

/** The edits of a WorkspaceEdit per file, from `changes` or `documentChanges`. */
export const editsByFile = (edit: WorkspaceEdit): Map<string, TextEdit[]> => {
  const out = new Map<string, TextEdit[]>();
  for (const [uri, edits] of Object.entries(edit.changes ?? {}))
    out.set(fileURLToPath(uri), [...edits]);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change)
      out.set(fileURLToPath(change.textDocument.uri), [
        ...(out.get(fileURLToPath(change.textDocument.uri)) ?? []),
        ...(change.edits as TextEdit[]),
      ]);
  }
  return out;
};

/** Its input (one schema for every job: its JSON form is made once, `inputSchemaOf`). */
const RenameInput = z.object({
  file: z.string(),
  line: z.number().int().positive(),
  symbol: z.string().min(1),
  new_name: z.string().min(1),
});

export const lspRenameTool = (supervisor: LspSupervisor): Tool =>
  defineTool({
    name: 'lsp_rename',
    level: 'write',
    description:
      'Rename a symbol everywhere the language server knows it is used: give file, line, symbol (a name on that line) and new_name. All files change or none.',
    schema: RenameInput,
    run: async (input, ctx) => {
      const checked = checkPath(ctx.workspace, input.file);
      if (!checked.ok) return fail(checked.error);
      const file = checked.value;
      return withServer(supervisor, file, async (server) => {
        await server.sync(file);
        const position = positionOf(ctx.workspace, file, input.line, input.symbol);
        if ('error' in position) return fail(position.error);
        const edit = await server.request<WorkspaceEdit | null>('textDocument/rename', {
          textDocument: { uri: uriOf(file) },
          position,
          newName: input.new_name,
        });
        const byFile = edit ? editsByFile(edit) : new Map<string, TextEdit[]>();
        if (byFile.size === 0)
          return fail(`the server offers no rename for "${input.symbol}" on line ${input.line}`);
        // Every file through the common write path's guards first; then all are written, or none.
        const planned: { path: string; before: string; after: string; edits: number }[] = [];
        for (const [target, edits] of byFile) {
          const inside = checkPath(ctx.workspace, target);
          if (!inside.ok)
            return fail(
              `rename refused: it would change ${target}, outside the workspace; nothing was written`,
            );
          const conflict = await ctx.views?.checkWrite(
            inside.value,
            relativeToWorkspace(ctx.workspace, inside.value),
          );
          if (conflict) return fail(`rename refused: ${conflict}`);
          const before = readTextInside(ctx.workspace, inside.value);
          if (before === undefined)
            return fail(
              `rename refused: cannot read ${relativeToWorkspace(ctx.workspace, inside.value)}`,
            );
          planned.push({
            path: inside.value,
            before,
            after: applyTextEdits(before, edits),
            edits: edits.length,
          });
        }
        const outcome = await writeAllOrNothing(
          ctx.workspace,
          planned,
          (file) => ctx.views?.recordWrite(file) ?? Promise.resolve(),
        );
        if (!outcome.ok) {
          return fail(
            `could not write ${relativeToWorkspace(ctx.workspace, outcome.failed)} (${outcome.code}); the files already written were restored`,
          );
        }
        for (const change of planned) await server.sync(change.path);
        const total = planned.reduce((sum, change) => sum + change.edits, 0);
        return ok(
          `renamed ${input.symbol} to ${input.new_name}: ${total} edit(s) in ${planned.length} file(s): ${planned.map((change) => relativeToWorkspace(ctx.workspace, change.path)).join(', ')}`,
        );
      });
    },
  });
