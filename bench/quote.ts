/**
 * `npm run bench:quote`: copies every `bench/results/*.txt` into the blocks
 * of the README and `docs/` that quote it (see `bench/results.ts`), and says
 * which pages changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { QUOTING_PAGES, ROOT, requote } from './results.ts';

for (const page of QUOTING_PAGES()) {
  const before = readFileSync(page, 'utf8');
  const after = requote(before);
  if (after === before) continue;
  writeFileSync(page, after);
  console.log(`quoted the bench results anew in ${path.relative(ROOT, page)}`);
}
