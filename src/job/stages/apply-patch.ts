import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeError, RegreenError } from '../../errors.ts';
import { hostGit } from '../../workspace/repo/git.ts';
import type { JobContext } from '../context.ts';

/**
 * Applies the diff to a tree's clone; a diff that does not apply is regreen's
 * error, not a check's. The tree's setup may have run already (an early tree):
 * git applies it on the tree's view, asynchronously (a FIFO planted where git
 * reads a `.gitattributes` holds this call, not the process), the patch read
 * on its stdin.
 */
export const applyPatch = async (
  job: JobContext,
  dest: string,
  diffText: string,
): Promise<void> => {
  // Kept beside the trace: what the tree was given.
  writeFileSync(path.join(job.dir, `proposed-${path.basename(dest)}.diff`), diffText);
  try {
    await hostGit(['apply', '--binary', '--whitespace=nowarn', '-'], {
      cwd: dest,
      noFollow: true,
      input: diffText,
    });
  } catch (error) {
    throw new RegreenError(
      'internal',
      `the proposed diff does not apply to a clean clone: ${describeError(error)}`,
      { cause: error },
    );
  }
};
