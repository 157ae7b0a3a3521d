import type { Check } from './types.ts';
import { isSnapshotFile, isTestFile } from './test-files.ts';

const SKIP_MARKERS = [
  /\.(skip|only|todo)\s*\(/,
  /\b(xit|xdescribe|xtest|fit|fdescribe)\s*\(/,
  /@pytest\.mark\.(skip|xfail)/,
  /\bt\.Skip(Now|f)?\(/,
  /#\[ignore\]/,
  /@(Disabled|Ignore)\b/,
];

const ASSERTION =
  /\b(expect|assert\w*|should|t\.(?:equal|deepEqual|ok|is|throws|Error|Fatal)\w*)\s*[.(]/g;
const countAssertions = (text: string | undefined): number => (text?.match(ASSERTION) ?? []).length;

/** No test weakened: no added skip/only/todo, no fewer assertions in a touched test file, no snapshot rewritten. */
export const noWeakenedTests: Check = (ctx) => {
  const problems: string[] = [];
  for (const file of ctx.diff.files) {
    if (isSnapshotFile(file.path) && file.status !== 'added')
      problems.push(`snapshot rewritten: ${file.path}`);
    if (!isTestFile(file.path)) continue;
    const marker = file.added.find((line) => SKIP_MARKERS.some((pattern) => pattern.test(line)));
    if (marker !== undefined) problems.push(`${file.path}: adds "${marker.trim()}"`);
    if (file.status === 'deleted') {
      problems.push(`test file deleted: ${file.path}`);
      continue;
    }
    const before = countAssertions(ctx.baseContent(file.oldPath ?? file.path));
    const after = countAssertions(ctx.newContent(file.path));
    if (after < before)
      problems.push(`${file.path}: ${before - after} fewer assertion(s) (${before} → ${after})`);
  }
  return problems.length === 0
    ? { name: 'no-weakened-tests', ok: true, detail: 'no test weakened' }
    : { name: 'no-weakened-tests', ok: false, detail: problems.join('; ') };
};
