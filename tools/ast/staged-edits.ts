import type { FileChange } from '../files/file-io.ts';

/** One file of a staged structural edit: its content when staged, and after. */
export type StagedFile = FileChange;

export interface StagedEdit {
  readonly id: string;
  readonly files: readonly StagedFile[];
  readonly replacements: number;
}

/** Staged edits of one job (or one worker): nothing is written until `resolve` accepts one. */
export class StagedEdits {
  private readonly edits = new Map<string, StagedEdit>();
  private next = 1;

  stage(files: readonly StagedFile[], replacements: number): StagedEdit {
    const edit = { id: `edit_${this.next}`, files, replacements };
    this.next += 1;
    this.edits.set(edit.id, edit);
    return edit;
  }

  take(id: string): StagedEdit | undefined {
    const edit = this.edits.get(id);
    this.edits.delete(id);
    return edit;
  }

  get pending(): string[] {
    return [...this.edits.keys()];
  }
}
