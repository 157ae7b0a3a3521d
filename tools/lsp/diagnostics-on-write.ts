import type { Diagnostic } from 'vscode-languageserver-protocol';
import { checkPath } from '../files/file-io.ts';
import { patchPaths } from '../files/apply-patch.ts';
import type { Tool, ToolContext, ToolResult } from '../types.ts';
import { diagnosticKey, formatDiagnostic } from './format.ts';
import type { LspSupervisor } from './supervisor.ts';

/** Files a write tool's input names, resolved (unguarded names are dropped: the tool refuses them itself). */
const writtenFiles = (tool: string, input: unknown, workspace: string): string[] => {
  const record = (input ?? {}) as Record<string, unknown>;
  const names =
    tool === 'apply_patch'
      ? patchPaths(typeof record.patch === 'string' ? record.patch : '').map(
          (name) => `${workspace}/${name}`,
        )
      : typeof record.path === 'string'
        ? [record.path]
        : [];
  return names.flatMap((name) => {
    const checked = checkPath(workspace, name);
    return checked.ok ? [checked.value] : [];
  });
};

/**
 * Diagnostics on write: after a successful write the file is synced through
 * its language server, and only diagnostics this job has not seen before are
 * appended. The per-job registry keys on severity + code + message, never the
 * position, so an error that merely moved is not reported again. A file no
 * server serves costs nothing.
 */
export const withDiagnosticsOnWrite = (
  tool: Tool,
  supervisor: LspSupervisor,
  seen: Set<string>,
): Tool => ({
  ...tool,
  run: async (input: unknown, ctx: ToolContext, signal: AbortSignal): Promise<ToolResult> => {
    const files = writtenFiles(tool.name, input, ctx.workspace).filter((file) => {
      const route = supervisor.route(file);
      return route.ok && (route.spec.reportsDiagnostics?.(file, route.root) ?? true);
    });
    // What the job already knew: the file's diagnostics before this write (opening it waits for the first report).
    for (const file of files) {
      const found = await supervisor.serverFor(file);
      if ('reason' in found) continue;
      if ((await found.server.sync(file).catch(() => -1)) < 0) continue;
      for (const diagnostic of found.server.current(file)) seen.add(diagnosticKey(diagnostic));
    }
    const result = await tool.run(input, ctx, signal);
    if (result.isError || files.length === 0) return result;
    const fresh: string[] = [];
    for (const file of files) {
      const found = await supervisor.serverFor(file);
      if ('reason' in found) continue;
      const since = await found.server.sync(file).catch(() => -1);
      if (since < 0) continue;
      const diagnostics: Diagnostic[] = await found.server.settledDiagnostics(file, since);
      for (const diagnostic of diagnostics) {
        const key = diagnosticKey(diagnostic);
        if (seen.has(key)) continue;
        seen.add(key);
        fresh.push(formatDiagnostic(ctx.workspace, file, diagnostic));
      }
    }
    if (fresh.length === 0) return result;
    return {
      ...result,
      content: [
        ...result.content,
        {
          type: 'text',
          text: `This write introduced ${fresh.length} new diagnostic(s):\n${fresh.slice(0, 20).join('\n')}`,
        },
      ],
    };
  },
});
