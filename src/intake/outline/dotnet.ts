/**
 * .NET test runners and Pester: `dotnet test`'s `Passed Name [12 ms]` with
 * the sections it reports under it (`Standard Output Messages:` and their
 * lines), its `Passed!` project summary, xUnit's `[PASS]`, Pester's `[+]`
 * are passing work.
 */
import { indentOf, type Outliner } from './types.ts';

const PASSED =
  /^\s*(?:Passed\s+(?:\S.*\s\[[<\d.\s]+(?:ms|s|m|h)\]|[\w.`<>+$]+(?:\(.*\))?)\s*$|Passed!\s+-\s|\[\+\]\s+\S)|\s\[PASS\]\s*$/;
/** `Skipped Name [1 ms]`: not run, not a failure. */
const SKIPPED = /^\s*Skipped\s+\S.*\[[<\d.\s]+(?:ms|s|m|h)\]\s*$/;
/** VSTest's sections under a test's result line. */
const SECTION =
  /^\s*(?:Standard Output Messages|Standard Error Messages|Additional Info Messages|Error Message|Stack Trace):\s*$/;
/** Another test's result: the report of the one before has ended. */
const RESULT = /^\s*(?:Passed|Failed|Skipped|X)\s+\S/;

export const dotnetTest: Outliner = (lines) => {
  const passing = new Set<number>();
  /** The passing result whose report follows: its indentation, and whether a section has begun. */
  let open: { depth: number; section: boolean } | undefined;
  lines.forEach(({ text }, i) => {
    if (PASSED.test(text) || SKIPPED.test(text)) {
      passing.add(i);
      open = { depth: indentOf(text), section: false };
    } else if (open && SECTION.test(text)) {
      passing.add(i);
      open = { ...open, section: true };
    } else if (
      open &&
      text.trim() !== '' &&
      !RESULT.test(text) &&
      (open.section || indentOf(text) > open.depth)
    ) {
      passing.add(i);
    } else {
      open = undefined;
    }
  });
  return { passing, failing: [] };
};
