import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { workspaceGit } from '../../workspace/repo/git.ts';

/** Files the setup step (or the runs on the base) created that git does not ignore stay out of every diff. */
export const excludeSetupArtifacts = async (workspace: string): Promise<void> => {
  // The setup's code wrote this tree: host git reads it on its view.
  const status = await workspaceGit(workspace).raw([
    'status',
    '--ignore-submodules=all',
    '--porcelain=v1',
    '-z',
    '--untracked-files=normal',
  ]);
  const untracked = status
    .split('\0')
    .filter((entry) => entry.startsWith('?? '))
    .map((entry) => excludeLine(entry.slice(3)))
    .filter((line) => line !== undefined);
  if (untracked.length > 0)
    appendFileSync(path.join(workspace, '.git', 'info', 'exclude'), `\n${untracked.join('\n')}\n`);
};

/**
 * An exclude line that names exactly `name` (a path from the top, a folder
 * ending in `/`): its wildcards and backslashes escaped, so a file the setup
 * named `*` excludes itself, not every new file after it; none for a name a
 * line cannot hold (a line break), which then stays in the diff.
 */
export const excludeLine = (name: string): string | undefined =>
  // A name that is not UTF-8 reads with U+FFFD in it: a line of that would name another file.
  /[\n\r\uFFFD]/.test(name)
    ? undefined
    : `/${name.replace(/[\\*?[\]]|\s$/g, (char) => `\\${char}`)}`;
