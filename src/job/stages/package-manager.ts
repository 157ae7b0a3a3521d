import { defaultToolsDir, homeOf, settingsOf, type Env } from '../../config/env.ts';
import { describeError } from '../../errors.ts';
import { whichIn } from '../../util/which.ts';
import {
  installPackageManager,
  managerRegistry,
  wantedPackageManager,
  type InstalledManager,
  type ManagerName,
} from '../../workspace/setup/package-managers.ts';
import type { JobContext } from '../context.ts';
import type { Replay } from './replay.ts';

/** A manager regreen provided, with the registry it fetches from (for the setup's allow-list). */
export type ProvidedManager = InstalledManager & { readonly registries: readonly string[] };

const provided = new WeakMap<JobContext, ProvidedManager>();

/** The package manager regreen provided for the job, first on every sandbox's PATH. */
export const providedManager = (job: JobContext): ProvidedManager | undefined => provided.get(job);

/**
 * The package manager a project's CI has, installed into regreen's tools
 * folder when the machine lacks it: the one place both a job and the eval's
 * judge get it from. `note` says what was done, or why it could not be.
 */
export const provideManager = async (
  workspace: string,
  env: Env,
  fromWorkflow?: { readonly name: ManagerName; readonly version: string; readonly step: string },
): Promise<{ manager?: ProvidedManager; note?: string }> => {
  const which = whichIn(settingsOf(env).path);
  const wanted = wantedPackageManager(workspace, (name) => which(name) !== undefined, fromWorkflow);
  if (!wanted) return {};
  const toolsDir = defaultToolsDir(env);
  try {
    const installed = await installPackageManager({ wanted, toolsDir, env });
    const registry = await managerRegistry(installed, homeOf(env), env);
    return {
      manager: { ...installed, registries: registry ? [registry] : [] },
      note: `package manager: ${installed.name} ${installed.version} (${wanted.from}) is first on PATH`,
    };
  } catch (error) {
    return {
      note: `package manager: ${wanted.name} ${wanted.version} (${wanted.from}) could not be installed from the npm registry: ${describeError(error)}`,
    };
  }
};

/**
 * Puts the package manager the project's CI has on the job's PATH (see
 * `wantedPackageManager`), before any sandbox of the job opens. What it did,
 * or why it could not (the set-up then fails and says so), is a note for the
 * trace and the diagnosis.
 */
export const providePackageManager = async (
  job: JobContext,
  workspace: string,
  plan: Replay | undefined,
): Promise<string | undefined> => {
  const { manager, note } = await provideManager(
    workspace,
    job.deps.env,
    plan?.replay.packageManager,
  );
  if (manager) provided.set(job, manager);
  return note;
};
