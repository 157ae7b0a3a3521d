import { z } from 'zod';
import { relativeToWorkspace } from '../../src/workspace/repo/paths.ts';
import { writeAllOrNothing } from '../files/file-io.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import { defineTool, fail, ok, type Tool } from '../types.ts';
import type { StagedEdits } from './staged-edits.ts';

/** Its input (one schema for every job: its JSON form is made once, `inputSchemaOf`). */
const ResolveInput = z.object({
  edit_id: z.string().min(1),
  action: z.enum(['accept', 'discard']),
});

export const resolveTool = (staged: StagedEdits): Tool =>
  defineTool({
    name: 'resolve',
    level: 'write',
    description:
      'Accept or discard an edit staged by ast_edit. accept writes every file of the edit, or none: if any file changed since it was staged, the whole edit is rejected (stage it again). discard drops it.',
    schema: ResolveInput,
    run: async (input, ctx) => {
      const edit = staged.take(input.edit_id);
      if (!edit) {
        const pending = staged.pending;
        return fail(
          `no staged edit "${input.edit_id}"${pending.length > 0 ? `: pending are ${pending.join(', ')}` : ': nothing is staged'}`,
        );
      }
      if (input.action === 'discard')
        return ok(`discarded ${edit.id} (${edit.files.length} file(s) left as they are)`);
      // Compare and swap: every file must still be what it was when staged.
      for (const file of edit.files) {
        if (readTextInside(ctx.workspace, file.path) !== file.before) {
          return fail(
            `rejected ${edit.id}: ${relativeToWorkspace(ctx.workspace, file.path)} changed since the edit was staged; nothing was written. Run ast_edit again`,
          );
        }
      }
      // Each write re-checks its path through descriptors: a folder swapped for a symlink since staging is refused.
      const outcome = await writeAllOrNothing(
        ctx.workspace,
        edit.files,
        (file) => ctx.views?.recordWrite(file) ?? Promise.resolve(),
      );
      if (!outcome.ok) {
        const restored = outcome.restored.map((file) => relativeToWorkspace(ctx.workspace, file));
        return fail(
          `could not write ${relativeToWorkspace(ctx.workspace, outcome.failed)} (${outcome.code}); ${restored.length > 0 ? `restored ${restored.join(', ')}` : 'no file had been written'}: the tree is as before`,
        );
      }
      return ok(
        `accepted ${edit.id}: ${edit.replacements} replacements written to ${edit.files.map((file) => relativeToWorkspace(ctx.workspace, file.path)).join(', ')}`,
      );
    },
  });
