import type {
  CodeAction,
  Command,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  SymbolInformation,
} from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { quote, tailLines } from '../../src/util/text.ts';
import { checkPath } from '../files/file-io.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import {
  defineTool,
  fail,
  ok,
  resultText,
  type Tool,
  type ToolContext,
  type ToolResult,
} from '../types.ts';
import { LspTimeoutError, uriOf, type LanguageServer } from './client.ts';
import { formatDiagnostic, formatLocations } from './format.ts';
import type { LspSupervisor } from './supervisor.ts';

const NAVIGATION = [
  'definition',
  'type_definition',
  'implementation',
  'references',
  'hover',
  'code_actions',
] as const;

/** A position from `line` + `symbol`: the symbol's first occurrence on that line; never a column guess. */
export const positionOf = (
  workspace: string,
  file: string,
  line: number,
  symbol: string | undefined,
): { line: number; character: number } | { error: string } => {
  const content = readTextInside(workspace, file);
  if (content === undefined) return { error: `cannot read ${file}` };
  const lines = content.split('\n');
  if (line < 1 || line > lines.length)
    return { error: `line ${line} is past the end: the file has ${lines.length} lines` };
  const text = lines[line - 1] ?? '';
  if (!symbol) return { error: `give symbol: a name on line ${line}, which reads: ${text.trim()}` };
  const character = text.indexOf(symbol);
  if (character === -1)
    return { error: `"${symbol}" is not on line ${line}, which reads: ${text.trim()}` };
  return { line: line - 1, character };
};

/** Runs a request against the file's server; a hang restarts the server, a crash is reported. */
export const withServer = async (
  supervisor: LspSupervisor,
  file: string,
  work: (server: LanguageServer) => Promise<ToolResult>,
): Promise<ToolResult> => {
  const found = await supervisor.serverFor(file);
  if ('reason' in found) return fail(`no language server for this file: ${found.reason}`);
  try {
    const result = await work(found.server);
    if (!found.note) return result;
    return { ...result, content: [{ type: 'text', text: `(${found.note})` }, ...result.content] };
  } catch (error) {
    if (error instanceof LspTimeoutError) {
      await supervisor.restart(found.server);
      return fail(
        `the ${found.server.spec.language} server did not answer (${error.message}); it was restarted: try again`,
      );
    }
    return fail(
      `the language server failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
};

const hoverText = (hover: Hover | null): string => {
  if (!hover) return '';
  const contents = Array.isArray(hover.contents) ? hover.contents : [hover.contents];
  return contents
    .map((part) => (typeof part === 'string' ? part : part.value))
    .join('\n')
    .slice(0, 3000);
};

const flattenSymbols = (
  symbols: readonly (DocumentSymbol | SymbolInformation)[],
  depth = 0,
): string[] =>
  symbols.flatMap((symbol) =>
    'location' in symbol
      ? [
          `${'  '.repeat(depth)}${symbol.name} (${symbol.kind}) :${symbol.location.range.start.line + 1}`,
        ]
      : [
          `${'  '.repeat(depth)}${symbol.name} (${symbol.kind}) :${symbol.selectionRange.start.line + 1}`,
          ...flattenSymbols(symbol.children ?? [], depth + 1),
        ],
  );

const projectDiagnostics = async (
  supervisor: LspSupervisor,
  ctx: ToolContext,
): Promise<ToolResult> => {
  const outputs: string[] = [];
  for (const spec of supervisor.specsWithCheckers()) {
    const route = supervisor.route(`${ctx.workspace}/__probe__.${spec.extensions[0] ?? ''}`);
    if (!route.ok || !spec.checker) continue;
    const unprovided = await spec.provide?.(route.root);
    if (unprovided) {
      outputs.push(`${spec.language}: ${unprovided}`);
      continue;
    }
    const checker = spec.checker(route.root);
    if ('missing' in checker) {
      outputs.push(`${spec.language}: ${checker.missing}`);
      continue;
    }
    const result = await ctx.sandbox.run({
      command: checker.argv.map(quote).join(' '),
      cwd: route.root,
      network: 'off',
      timeoutMs: ctx.commandTimeoutMs,
    });
    const lines = result.output
      .split('\n')
      .filter((line) => /error|warning/i.test(line))
      .map((line) => line.replaceAll(`${ctx.workspace}/`, '').trim());
    outputs.push(
      `${spec.language} (${result.exitCode === 0 ? 'clean' : `exit ${result.exitCode ?? 'killed'}`}): ${lines.length} problem line(s)\n${tailLines(lines.slice(0, 100).join('\n'), 100)}`,
    );
  }
  return outputs.length > 0
    ? ok(outputs.join('\n'))
    : fail(
        'no project checker applies here: no root marker of a language with a checker (tsconfig.json/package.json for tsc, pyproject.toml… for pyright)',
      );
};

/** Its input (one schema for every job: its JSON form is made once, `inputSchemaOf`). */
const LspInput = z.object({
  action: z.enum([
    'diagnostics',
    'definition',
    'type_definition',
    'implementation',
    'references',
    'hover',
    'symbols',
    'code_actions',
    'status',
    'reload',
  ]),
  file: z.string().optional(),
  line: z.number().int().positive().optional(),
  symbol: z.string().min(1).optional(),
  query: z.string().optional(),
});

export const lspTool = (supervisor: LspSupervisor): Tool =>
  defineTool({
    name: 'lsp',
    level: 'read',
    description:
      'Ask the language server. action: diagnostics (file, or file "*" to run the project checker such as tsc --noEmit or pyright), definition, type_definition, implementation, references (cap 50), hover, code_actions (each needs file, line and symbol: a name on that line, never a column), symbols (query for a workspace search, or file for its outline), status (which servers run and why one cannot), reload.',
    schema: LspInput,
    run: async (input, ctx) => {
      if (input.action === 'status') return ok(supervisor.status());
      if (input.action === 'reload') {
        const stopped = await supervisor.reloadAll();
        return ok(
          stopped.length > 0
            ? `restarted on next use: ${stopped.join(', ')}`
            : 'no server was running',
        );
      }
      if (input.action === 'diagnostics' && input.file === '*')
        return projectDiagnostics(supervisor, ctx);
      if (input.action === 'symbols' && input.query !== undefined && !input.file) {
        const files = supervisor.servableFiles(ctx.workspace);
        if (files.length === 0)
          return fail('no language server applies to this workspace: see lsp status');
        const rows: string[] = [];
        for (const sample of files) {
          const answer = await withServer(supervisor, sample, async (server) => {
            await server.sync(sample);
            await server.warmUp(sample);
            const symbols =
              (await server.request<SymbolInformation[] | null>('workspace/symbol', {
                query: input.query,
              })) ?? [];
            rows.push(
              ...symbols.map(
                (s) =>
                  `${s.name} (${s.kind}) ${formatLocations(ctx.workspace, [s.location], 1).split('\n')[0] ?? ''}`,
              ),
            );
            return ok('');
          });
          if (answer.isError) rows.push(`(${resultText(answer)})`);
        }
        return ok(
          `${rows.slice(0, 100).join('\n')}\n[${rows.length} symbol(s)${rows.length > 100 ? ', 100 shown' : ''}]`,
        );
      }
      if (!input.file) return fail(`give file for ${input.action}`);
      const checked = checkPath(ctx.workspace, input.file);
      if (!checked.ok) return fail(checked.error);
      const file = checked.value;
      return withServer(supervisor, file, async (server) => {
        const since = await server.sync(file);
        const textDocument = { uri: uriOf(file) };
        if (input.action === 'diagnostics') {
          const items = await server.settledDiagnostics(file, since);
          return ok(
            items.length === 0
              ? `no diagnostics in ${relativeToWorkspace(ctx.workspace, file)}`
              : `${items.map((d) => formatDiagnostic(ctx.workspace, file, d)).join('\n')}\n[${items.length} diagnostic(s)]`,
          );
        }
        if (input.action === 'symbols') {
          const symbols =
            (await server.request<(DocumentSymbol | SymbolInformation)[] | null>(
              'textDocument/documentSymbol',
              { textDocument },
            )) ?? [];
          const rows = flattenSymbols(symbols);
          return ok(
            `${rows.slice(0, 200).join('\n')}\n[${rows.length} symbol(s)${rows.length > 200 ? ', 200 shown' : ''}]`,
          );
        }
        if (!(NAVIGATION as readonly string[]).includes(input.action) || input.line === undefined)
          return fail(`give line and symbol for ${input.action}`);
        const position = positionOf(ctx.workspace, file, input.line, input.symbol);
        if ('error' in position) return fail(position.error);
        switch (input.action) {
          case 'hover': {
            const text = hoverText(
              await server.request<Hover | null>('textDocument/hover', { textDocument, position }),
            );
            return ok(text || `no hover information for ${input.symbol ?? ''}`);
          }
          case 'code_actions': {
            const diagnostics = (
              await server.settledDiagnostics(file, since, { firstMs: 3000, quietMs: 300 })
            ).filter(
              (d: Diagnostic) =>
                d.range.start.line <= position.line && d.range.end.line >= position.line,
            );
            const range = {
              start: position,
              end: {
                line: position.line,
                character: position.character + (input.symbol?.length ?? 0),
              },
            };
            const actions =
              (await server.request<(CodeAction | Command)[] | null>('textDocument/codeAction', {
                textDocument,
                range,
                context: { diagnostics },
              })) ?? [];
            const rows = actions.map(
              (action) =>
                `${action.title}${'kind' in action && action.kind ? ` [${action.kind}]` : ''}${'isPreferred' in action && action.isPreferred ? ' (preferred)' : ''}`,
            );
            return ok(rows.length > 0 ? rows.join('\n') : 'no code actions here');
          }
          default: {
            const methods: Record<string, string> = {
              definition: 'textDocument/definition',
              type_definition: 'textDocument/typeDefinition',
              implementation: 'textDocument/implementation',
              references: 'textDocument/references',
            };
            const method = methods[input.action] ?? 'textDocument/definition';
            if (input.action === 'references' || input.action === 'implementation')
              await server.warmUp(file);
            const params =
              input.action === 'references'
                ? { textDocument, position, context: { includeDeclaration: true } }
                : { textDocument, position };
            const result = await server.request<Location | Location[] | LocationLink[] | null>(
              method,
              params,
            );
            const locations = result === null ? [] : Array.isArray(result) ? result : [result];
            if (locations.length === 0)
              return ok(`no ${input.action.replace('_', ' ')} found for ${input.symbol ?? ''}`);
            return ok(
              formatLocations(ctx.workspace, locations, input.action === 'references' ? 50 : 20),
            );
          }
        }
      });
    },
  });
