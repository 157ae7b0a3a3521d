import { fileURLToPath } from 'node:url';
import type { Diagnostic, Location, LocationLink } from 'vscode-languageserver-protocol';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'];

/** The key a diagnostic is known by across writes: severity + code + message, never its position. */
export const diagnosticKey = (diagnostic: Diagnostic): string =>
  `${diagnostic.severity ?? 1}\u0000${String(diagnostic.code ?? '')}\u0000${typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value}`;

export const formatDiagnostic = (workspace: string, file: string, diagnostic: Diagnostic): string =>
  `${relativeToWorkspace(workspace, file)}:${diagnostic.range.start.line + 1}: ${SEVERITY[diagnostic.severity ?? 1] ?? 'error'}${diagnostic.code !== undefined ? ` ${String(diagnostic.code)}` : ''}: ${(typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value).split('\n')[0] ?? ''}`;

const lineCache = new Map<string, string[]>();
/**
 * The line a location points at, read only inside the workspace and through
 * descriptors: a location a server (or a plugin of the repository's running
 * in it) reports elsewhere gets no snippet, never a line of a host file.
 */
const lineOf = (workspace: string, file: string, line: number): string => {
  let lines = lineCache.get(file);
  if (!lines) {
    lines = readTextInside(workspace, file)?.split('\n') ?? [];
    lineCache.set(file, lines);
  }
  return (lines[line] ?? '').trim().slice(0, 160);
};

/** `path:line: snippet` for locations, relative to the workspace (outside it: the absolute path). */
export const formatLocations = (
  workspace: string,
  locations: readonly (Location | LocationLink)[],
  cap: number,
): string => {
  lineCache.clear();
  const rows = locations.map((location) => {
    const uri = 'targetUri' in location ? location.targetUri : location.uri;
    const range = 'targetUri' in location ? location.targetSelectionRange : location.range;
    const file = uri.startsWith('file:') ? fileURLToPath(uri) : uri;
    const shown = file.startsWith(workspace) ? relativeToWorkspace(workspace, file) : file;
    return `${shown}:${range.start.line + 1}: ${lineOf(workspace, file, range.start.line)}`;
  });
  const unique = [...new Set(rows)];
  const shown = unique.slice(0, cap);
  return `${shown.join('\n')}\n[${unique.length} location(s)${unique.length > cap ? `, ${cap} shown` : ''}]`;
};
