import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The Python of a project: its `.venv/bin/python` or `venv/bin/python`, else
 * `python3` from `PATH` (a different environment, which is why the project's
 * own comes first).
 */
export const projectPython = (workspace: string): string => {
  for (const candidate of ['.venv/bin/python', 'venv/bin/python']) {
    const full = path.join(workspace, candidate);
    if (existsSync(full)) return full;
  }
  return 'python3';
};
