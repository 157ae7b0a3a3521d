import path from 'node:path';
import { stripAnsi } from '../../util/text.ts';
import { protectionOf } from '../../../checks/protected-files.ts';
import { RECIPES } from '../../recipes/index.ts';
import type { Recipe } from '../../recipes/types.ts';
import type { AllowedChange } from '../../../checks/types.ts';
import { readTextInside } from '../../workspace/repo/confined-fs.ts';
import { workspaceGit } from '../../workspace/repo/git.ts';
import { providedToolsFor } from '../../workspace/setup/provided-tools.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import type { JobContext } from '../context.ts';
import { baseContent } from './judged-change.ts';
import type { Reproduced } from './reproduce.ts';
import { settingsOf } from '../../config/env.ts';

type Failed = Extract<Reproduced, { failed: true }>;

export interface RecipesResult {
  readonly fixedBy: string | undefined;
  readonly applied: readonly string[];
  /** Protected files a recipe changed, with the content it left: the checks allow exactly that. */
  readonly allowedProtected: readonly AllowedChange[];
  /** The failure as it stands after the recipes (what the agent starts from). */
  readonly output: string;
}

// The recipes' tools ran in the sandbox over this tree: host git reads (and writes) it on its view.
const isDirty = async (workspace: string): Promise<boolean> =>
  (
    await workspaceGit(workspace).raw(['status', '--porcelain', '--ignore-submodules=all'])
  ).trim() !== '';

/**
 * A recipe formats or fixes what its tool touches, which may be a protected file (a formatter
 * over `package.json`): the checks would refuse the whole fix for it. What the recipe may not
 * change (all but its `allowsProtected`) is put back as the base had it, so the rest stands.
 */
export const restoreProtected = async (
  workspace: string,
  config: { readonly protected: readonly string[]; readonly unprotected: readonly string[] },
  recipe: Recipe,
): Promise<string[]> => {
  const repo = workspaceGit(workspace);
  const changed = (await repo.raw(['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--']))
    .split('\0')
    .filter(Boolean);
  const isProtected = protectionOf({
    protectedGlobs: config.protected,
    unprotectedGlobs: config.unprotected,
    existing: () => true,
    // A base file that defines tests is an existing test, whatever its name.
    baseContent: baseContent(workspace, 'HEAD'),
  });
  const restore = changed.filter(
    (file) => isProtected(file) && !recipe.allowsProtected.includes(file),
  );
  if (restore.length > 0) await repo.raw(['checkout', 'HEAD', '--', ...restore]);
  return restore;
};

/** Re-runs what failed: the setup step then the failing command, or the failing command. */
export const rerun = async (job: JobContext, failed: Failed): Promise<CommandResult> => {
  const { prepared } = failed;
  const { sandbox, workspace, config } = prepared;
  const timeoutMs = config.timeouts.command_seconds * 1000;
  if (failed.setupFailed && prepared.setupCommand) {
    const setup = await sandbox.run({
      command: prepared.setupCommand,
      cwd: workspace,
      network: 'setup',
      timeoutMs: config.timeouts.setup_seconds * 1000,
      signal: job.signal,
    });
    if (setup.exitCode !== 0) return setup;
  }
  return sandbox.run({
    command: prepared.failingCommand,
    cwd: workspace,
    network: 'off',
    timeoutMs,
    signal: job.signal,
  });
};

/** Deterministic fixes, in order; the first after which the failure passes wins. */
export const runRecipes = async (
  job: JobContext,
  failed: Failed,
  recipes: readonly Recipe[] = RECIPES,
): Promise<RecipesResult> => {
  const { workspace, sandbox, config } = failed.prepared;
  const applied: string[] = [];
  const allowedProtected: AllowedChange[] = [];
  let output = stripAnsi(failed.result.output);
  for (const recipe of recipes) {
    const input = {
      workspace,
      command: failed.command,
      output,
      sandbox,
      timeoutMs: config.timeouts.command_seconds * 1000,
      logger: job.logger,
      path: settingsOf(job.deps.env).path,
      provided: providedToolsFor(job.deps.env),
    };
    if (!recipe.applies(input)) continue;
    const result = await recipe.apply(input);
    job.trace.emit({ type: 'note', message: `recipe ${recipe.name}: ${result.summary}` });
    const restored = await restoreProtected(workspace, config, recipe);
    if (restored.length > 0)
      job.trace.emit({
        type: 'note',
        message: `recipe ${recipe.name}: left protected files as they were: ${restored.join(', ')}`,
      });
    if (!result.ok || !(await isDirty(workspace))) continue;
    applied.push(`${recipe.name}: ${result.summary}`);
    for (const file of recipe.allowsProtected) {
      const content = readTextInside(workspace, path.join(workspace, file));
      if (content !== undefined) allowedProtected.push({ path: file, content });
    }
    const after = await rerun(job, failed);
    output = stripAnsi(after.output);
    if (after.exitCode === 0) return { fixedBy: recipe.name, applied, allowedProtected, output };
  }
  return { fixedBy: undefined, applied, allowedProtected, output };
};
