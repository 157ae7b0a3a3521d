import path from 'node:path';
import { settingsOf, type Env } from '../../config/env.ts';
import { openJobVolume } from '../../workspace/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../../workspace/sandbox.ts';
import type { Trace } from '../../observe/trace.ts';
import type { Disposables } from '../../util/disposables.ts';

/**
 * The job's scratch space (returned: where its sandboxed trees go): a volume the size of the disk limit
 * (`REGREEN_MAX_DISK_MB`), so the kernel bounds what the job's commands
 * write together; else the job's folder, and the note says the disk is
 * only watched.
 */
export const openScratch = async (
  dir: string,
  env: Env,
  trace: Trace,
  disposables: Disposables,
): Promise<string> => {
  const settings = settingsOf(env);
  const sizeMb = settings.maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb;
  const answer = await openJobVolume({ dir, sizeMb, mode: settings.jobVolume ?? 'auto' });
  if ('unavailable' in answer) {
    trace.emit({
      type: 'note',
      message: `disk: the job's trees are on the data dir's filesystem, watched while each command runs, not bounded by the kernel (${answer.unavailable})`,
    });
    return dir;
  }
  const { volume } = answer;
  trace.emit({
    type: 'note',
    message: `disk: the job's trees are on a ${volume.sizeMb} MiB volume of their own (${path.join(dir, 'volume.img')}): the kernel refuses a write past it`,
  });
  // Added first, so disposed last: after every sandbox of the job has ended.
  disposables.add(() => volume.dispose());
  return volume.root;
};
