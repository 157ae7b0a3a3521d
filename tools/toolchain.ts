import { existsInside } from '../src/workspace/repo/confined-stat.ts';
import path from 'node:path';

/** The nearest folder from the file up to the workspace that holds a root marker. */
export const findRoot = (
  workspace: string,
  file: string,
  markers: readonly string[],
): string | undefined => {
  let dir = path.dirname(file);
  for (;;) {
    if (markers.some((marker) => existsInside(workspace, path.join(dir, marker)))) return dir;
    if (dir === workspace || !dir.startsWith(workspace)) return undefined;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
};

/** A toolchain's program: its argv, or why it cannot run here. */
export type ToolchainCommand = { readonly argv: string[] } | { readonly missing: string };

/**
 * The rule language servers and debug adapters share: a file is served when
 * a root marker stands above it and the toolchain's program is there; else
 * the reason names what is missing (the marker, the program, or both).
 */
export const routeToolchain = (options: {
  readonly who: string;
  readonly workspace: string;
  readonly target: string;
  readonly root: string | undefined;
  readonly markers: readonly string[];
  readonly command: ToolchainCommand;
}): { ok: true; root: string; argv: string[] } | { ok: false; reason: string } => {
  const { who, workspace, root, markers, command } = options;
  if (!root && 'missing' in command)
    return {
      ok: false,
      reason: `${who}: no root marker (${markers.join(', ')}) and ${command.missing}`,
    };
  if (!root)
    return {
      ok: false,
      reason: `${who}: no root marker (${markers.join(', ')}) above ${path.relative(workspace, options.target)}`,
    };
  if ('missing' in command)
    return {
      ok: false,
      reason: `${who}: root ${path.relative(workspace, root) || '.'} found, but ${command.missing}`,
    };
  return { ok: true, root, argv: command.argv };
};
