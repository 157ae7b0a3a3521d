/**
 * "Did you mean …?" for a word a person mistyped: the known word nearest to
 * it by edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours each count one), when it is near enough to be a slip rather
 * than another word (more than half of the longer word kept).
 */

/** The optimal-string-alignment distance between two words. */
export const editDistance = (a: string, b: string): number => {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
};

/** The known word nearest to `word`, or undefined when none is near enough. */
export const nearestWord = (word: string, known: readonly string[]): string | undefined => {
  let found: { word: string; distance: number } | undefined;
  for (const candidate of known) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    const longer = Math.max(word.length, candidate.length);
    if ((longer - distance) / longer <= 0.5) continue;
    if (!found || distance < found.distance) found = { word: candidate, distance };
  }
  return found?.word;
};
