import { statSync } from 'node:fs';
import path from 'node:path';

/** Finds an executable on PATH. */
export type Which = (name: string) => string | undefined;

export const whichIn =
  (pathVariable: string | undefined): Which =>
  (name) => {
    for (const dir of (pathVariable ?? '').split(path.delimiter).filter(Boolean)) {
      const candidate = path.join(dir, name);
      try {
        if (statSync(candidate).isFile()) return candidate;
      } catch {
        // not here
      }
    }
    return undefined;
  };
