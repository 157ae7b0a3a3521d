import path from 'node:path';
import { settingsOf, type Env } from '../../config/env.ts';
import { writeFileSync } from 'node:fs';
import { ChangeTooLargeError, workspaceDiff } from '../../workspace/repo/staged.ts';
import { openJobVolume, releaseOrphanVolumes } from '../../workspace/sandbox/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../../workspace/sandbox/sandbox.ts';
import type { Trace } from '../../observe/trace.ts';
import type { Disposables } from '../../util/disposables.ts';
import { discardDir } from '../../util/discard.ts';

/**
 * The job's scratch space (returned: where its sandboxed trees go, and whether that is a volume of
 * its own, which goes whole when the job ends): a volume the size of the disk limit
 * (`REGREEN_MAX_DISK_MB`), so the kernel bounds what the job's commands
 * write together; else the job's folder, and the note says the disk is
 * only watched.
 */
export const openScratch = async (
  dir: string,
  env: Env,
  trace: Trace,
  disposables: Disposables,
): Promise<{ root: string; onVolume: boolean }> => {
  const settings = settingsOf(env);
  const sizeMb = settings.maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb;
  const mode = settings.jobVolume ?? 'auto';
  if (mode !== 'off')
    for (const released of releaseOrphanVolumes())
      trace.emit({
        type: 'note',
        message: `disk: released ${released}, left mounted by a regreen that died`,
      });
  const answer = await openJobVolume({ dir, sizeMb, mode });
  if ('unavailable' in answer) {
    trace.emit({
      type: 'note',
      message: `disk: the job's trees are on the data dir's filesystem, watched while each command runs, not bounded by the kernel (${answer.unavailable})`,
    });
    return { root: dir, onVolume: false };
  }
  const { volume } = answer;
  trace.emit({
    type: 'note',
    message: `disk: the job's trees are on a ${volume.sizeMb} MiB volume of their own (${path.join(dir, 'volume.img')}): the kernel refuses a write past it`,
  });
  // Added first, so disposed last: after every sandbox of the job has ended.
  disposables.add(() => volume.dispose());
  return { root: volume.root, onVolume: true };
};

/**
 * Removes a folder of the job's scratch space when the job ends (`dir` is
 * below it): on a volume of the job's own nothing is removed file by file,
 * since the volume is unmounted and its image deleted right after (disposed
 * last); in the job's folder it is discarded (`discardDir`).
 */
export const discardAtEnd =
  (job: { readonly scratchOnVolume: boolean }, dir: string) => (): void => {
    if (!job.scratchOnVolume) discardDir(dir);
  };

/** Where a finished job keeps what it changed (its workspace against the base), beside its trace. */
export const CHANGE_FILE = 'change.diff';

/**
 * Writes what the job changed into its folder when it ends, before its
 * volume goes: the eval and a person read it there, not from the trees. A job
 * that proposed keeps the change it proposed (what its checks read); any
 * other, its workspace against the base as it is now.
 */
export const keepChange = async (
  job: { readonly dir: string; readonly proposed: { readonly change?: string } },
  workspace: string,
  baseSha: string,
): Promise<void> => {
  let change = job.proposed.change;
  try {
    change ??= await workspaceDiff(workspace, baseSha);
  } catch (error) {
    if (!(error instanceof ChangeTooLargeError)) throw error;
    change = `# not kept: ${error.message}\n`;
  }
  writeFileSync(path.join(job.dir, CHANGE_FILE), change);
};
