import type { Check } from './types.ts';

const GITLINK = '160000';
const GIT_SEGMENT = /(^|\/)\.git(\/|$)/i;

/**
 * The change adds no repository inside the repository: no gitlink (a
 * submodule entry), no file under a `.git` folder at any depth, no change to
 * `.gitmodules`. A nested repository is how code in the workspace would get
 * its own git configuration (filters, hooks) in front of a git that runs
 * outside the sandbox — on a maintainer's machine after the merge, if not on
 * regreen's host.
 */
export const noNestedRepository: Check = (ctx) => {
  const found = ctx.diff.files.flatMap((file) => {
    const reasons: string[] = [];
    if (file.modes.includes(GITLINK))
      reasons.push(`${file.path} is a gitlink (a nested repository)`);
    if (GIT_SEGMENT.test(file.path) || (file.oldPath && GIT_SEGMENT.test(file.oldPath)))
      reasons.push(`${file.path} is inside a .git folder`);
    if (/(^|\/)\.gitmodules$/i.test(file.path)) reasons.push(`${file.path} changes submodules`);
    return reasons;
  });
  return {
    name: 'no-nested-repository',
    ok: found.length === 0,
    detail: found.length === 0 ? 'no gitlink, .git folder or .gitmodules change' : found.join('; '),
  };
};
