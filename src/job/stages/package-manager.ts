import { defaultToolsDir } from '../../config/env.ts';
import { describeError } from '../../errors.ts';
import { whichIn } from '../../util/which.ts';
import { settingsOf } from '../../config/env.ts';
import {
  installPackageManager,
  wantedPackageManager,
  type InstalledManager,
} from '../../workspace/package-managers.ts';
import type { JobContext } from '../context.ts';
import type { Replay } from './replay.ts';

const provided = new WeakMap<JobContext, InstalledManager>();

/** The package manager regreen provided for the job, first on every sandbox's PATH. */
export const providedManager = (job: JobContext): InstalledManager | undefined => provided.get(job);

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
  const which = whichIn(settingsOf(job.deps.env).path);
  const wanted = wantedPackageManager(
    workspace,
    (name) => which(name) !== undefined,
    plan?.replay.packageManager,
  );
  if (!wanted) return undefined;
  try {
    const installed = await installPackageManager({
      wanted,
      toolsDir: defaultToolsDir(job.deps.env),
      env: job.deps.env,
    });
    provided.set(job, installed);
    return `package manager: ${installed.name} ${installed.version} (${wanted.from}) is first on PATH`;
  } catch (error) {
    return `package manager: ${wanted.name} ${wanted.version} (${wanted.from}) could not be installed from the npm registry: ${describeError(error)}`;
  }
};
