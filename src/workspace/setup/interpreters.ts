import { existsSync } from 'node:fs';
import path from 'node:path';

/** The Python environment a setup creates in the workspace; commands see its `bin` first on PATH. */
export const PROJECT_VENV = '.venv';

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
