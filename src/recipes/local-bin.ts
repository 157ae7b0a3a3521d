import { existsSync } from 'node:fs';
import path from 'node:path';
import { statInside } from '../workspace/repo/confined-stat.ts';
import type { Sandbox } from '../workspace/sandbox/sandbox.ts';
import { quote } from '../util/text.ts';

/** A tool installed in the workspace's node_modules/.bin, never fetched. */
export const localBin = (workspace: string, name: string): string | undefined => {
  const bin = path.join(workspace, 'node_modules', '.bin', name);
  return existsSync(bin) ? bin : undefined;
};

/** Whether a regular file is at `file` inside the workspace, asked without following any link. */
const fileInside = (workspace: string, file: string): boolean => {
  try {
    return statInside(workspace, path.join(workspace, file))?.isFile() ?? false;
  } catch {
    return false;
  }
};

/**
 * Workspace-relative files named in the output that exist, asked through the
 * confined reader: a committed link (`r -> /`) does not turn the output into
 * a question about host paths.
 */
export const filesNamed = (workspace: string, candidates: readonly string[]): string[] =>
  [...new Set(candidates)]
    .map((file) => (path.isAbsolute(file) ? path.relative(workspace, file) : file))
    .filter((file) => file.length > 0 && !file.startsWith('..') && !path.isAbsolute(file))
    .filter((file) => fileInside(workspace, file));

/**
 * Runs the workspace's own copy of a tool, offline in the sandbox, on the
 * files the output named that exist (else on the whole repository): the step
 * the formatter and linter recipes share.
 */
export const runLocalBin = async (options: {
  workspace: string;
  sandbox: Sandbox;
  timeoutMs: number;
  name: string;
  flag: string;
  named: readonly string[];
}): Promise<{ exitCode: number | null; where: string }> => {
  const bin = localBin(options.workspace, options.name) ?? options.name;
  const files = filesNamed(options.workspace, options.named);
  const targets = files.length > 0 ? files.map(quote).join(' ') : '.';
  const result = await options.sandbox.run({
    command: `${quote(bin)} ${options.flag} ${targets}`,
    cwd: options.workspace,
    network: 'off',
    timeoutMs: options.timeoutMs,
  });
  return {
    exitCode: result.exitCode,
    where: files.length > 0 ? files.join(', ') : 'the repository',
  };
};
