// After `tsc -p tsconfig.build.json`: the files regreen reads at run time that
// are not TypeScript (the system prompt, kernel drivers, the debug relay) go
// beside the compiled code in dist/, at the same relative paths.
import { copyFileSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const ROOTS = ['src', 'tools', 'checks'];
const copy = (dir) => {
  for (const name of readdirSync(dir)) {
    const from = path.join(dir, name);
    if (statSync(from).isDirectory()) copy(from);
    else if (!/\.(ts|mts|cts)$/.test(name)) {
      const to = path.join('dist', from);
      mkdirSync(path.dirname(to), { recursive: true });
      copyFileSync(from, to);
    }
  }
};
for (const root of ROOTS) copy(root);
