import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder of regreen's package.json: a checkout, or the installed package (run from `src/` or `dist/`). */
export const packageRoot = (): string => {
  if (root !== undefined) return root;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      if (manifest.name === 'regreen') return (root = dir);
    } catch {
      // no package.json here: go up
    }
    const parent = path.dirname(dir);
    if (parent === dir)
      return (root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..'));
    dir = parent;
  }
};

/** regreen's version, from its package.json. */
export const packageVersion = (): string => {
  try {
    const manifest = JSON.parse(readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as {
      version?: unknown;
    };
    return typeof manifest.version === 'string' ? manifest.version : 'unknown';
  } catch {
    return 'unknown';
  }
};
