import path from 'node:path';
import type { CodeAction, Command } from 'vscode-languageserver-protocol';
import { atomicWrite, checkPath } from '../../tools/files/file-io.ts';
import { readTextInside } from '../workspace/repo/confined-fs.ts';
import type { Recipe } from './types.ts';

/** `file(line,col): error TS2304: Cannot find name 'X'.` (plain) or `file:line:col - error TS2304: …` (pretty). */
const MISSING_NAME =
  /^(?<file>[^\s(:]+\.(?:ts|tsx|mts|cts))(?:\((?<line>\d+),(?<col>\d+)\):|:(?<line2>\d+):(?<col2>\d+) -) error TS(?:2304|2552): Cannot find name '(?<name>[^']+)'/gm;

interface MissingName {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly name: string;
}

export const missingNames = (output: string): MissingName[] =>
  [...output.matchAll(MISSING_NAME)].map((match) => {
    const groups = match.groups ?? {};
    return {
      file: groups.file ?? '',
      line: Number(groups.line ?? groups.line2),
      column: Number(groups.col ?? groups.col2),
      name: groups.name ?? '',
    };
  });

/** The import action among a server's code actions: the preferred "Add import from …" quick fix. */
const importAction = (actions: readonly (CodeAction | Command)[]): CodeAction | undefined => {
  const imports = actions.filter(
    (action): action is CodeAction =>
      'edit' in action && /^(Add|Update) import from/.test(action.title),
  );
  return imports.find((action) => action.isPreferred) ?? imports[0];
};

/**
 * A TypeScript "Cannot find name" error fixed the way an editor would: the
 * language server's preferred "Add import" quick fix, applied for each
 * missing name (only when the server offers exactly that kind of fix).
 */
export const missingImportRecipe: Recipe = {
  name: 'missing-import',
  allowsProtected: [],
  applies: ({ output }) => missingNames(output).length > 0,
  apply: async ({ workspace, sandbox, logger, path: pathVariable, output, provided }) => {
    // The language servers' protocol is loaded by the one recipe that asks a server, when it applies.
    const [{ uriOf }, { lspFamily }, { applyTextEdits, editsByFile }] = await Promise.all([
      import('../../tools/lsp/client.ts'),
      import('../../tools/lsp/index.ts'),
      import('../../tools/lsp/rename.ts'),
    ]);
    const lsp = lspFamily({
      workspace,
      sandbox,
      logger,
      path: pathVariable,
      node: process.execPath,
      ...(provided ? { provided } : {}),
    });
    const fixed: string[] = [];
    try {
      for (const missing of missingNames(output)) {
        const checked = checkPath(workspace, path.resolve(workspace, missing.file));
        if (!checked.ok) continue;
        const file = checked.value;
        const found = await lsp.supervisor.serverFor(file);
        if ('reason' in found)
          return { ok: false, summary: `no TypeScript server: ${found.reason}` };
        const server = found.server;
        await server.sync(file);
        await server.warmUp(file); // the quick fix needs the rest of the project loaded
        const position = { line: missing.line - 1, character: missing.column - 1 };
        const diagnostics = server
          .current(file)
          .filter((d) => d.range.start.line === position.line && String(d.code) === '2304');
        const range = {
          start: position,
          end: { line: position.line, character: position.character + missing.name.length },
        };
        const actions =
          (await server.request<(CodeAction | Command)[] | null>('textDocument/codeAction', {
            textDocument: { uri: uriOf(file) },
            range,
            context: { diagnostics, only: ['quickfix'] },
          })) ?? [];
        const action = importAction(actions);
        if (!action?.edit) continue;
        for (const [target, edits] of editsByFile(action.edit)) {
          const inside = checkPath(workspace, target);
          if (!inside.ok) continue;
          const before = readTextInside(workspace, inside.value);
          if (before === undefined) continue;
          await atomicWrite(workspace, inside.value, applyTextEdits(before, edits));
          await server.sync(inside.value);
        }
        fixed.push(`${missing.name} (${action.title})`);
      }
    } finally {
      await lsp.dispose();
    }
    return fixed.length > 0
      ? { ok: true, summary: `added imports: ${fixed.join('; ')}` }
      : { ok: false, summary: 'the language server offered no import to add' };
  },
};
