/**
 * The excerpt of a CI log: the blocks of lines that say why it failed, chosen
 * by score within a line budget and shown in log order. A block is a line
 * that signals an error together with what belongs to it (a stack trace, a
 * compiler's gutter, the rest of an indented report); the failing command's
 * own end and a failing test's output are blocks too. What a test runner
 * reports as passing (Go's `ok` lines, a passing test and what it printed,
 * a Surefire class without failures) is never shown, and the budget is
 * filled from the failing part only. With the last green run's log, lines
 * it also printed count for little, new lines count for more, and every
 * line of the excerpt says which it is.
 */
import { runInvariant } from './log-baseline.ts';
import { terminalLines, type LogLine } from './formats/index.ts';
import { printedLines, type FailingRegion } from './log-regions.ts';
import { testOutline } from './outline/index.ts';
import { continues, lineSignal, opensBlock } from './log-signals.ts';

export type { FailingRegion } from './log-regions.ts';

export interface ExcerptInput {
  readonly lines: readonly LogLine[];
  /** Failing regions; empty when the log does not mark any. */
  readonly regions: readonly FailingRegion[];
  /** When true, lines outside the regions are never shown (a GitHub Actions failing step). */
  readonly strict: boolean;
  /** Indexes of lines a recogniser named (a failing test, a compiler error). */
  readonly recognised: readonly number[];
  /** The run-invariant lines of the last green run, when known. */
  readonly baseline?: ReadonlySet<string>;
  readonly maxLines: number;
}

export interface Excerpt {
  /** In log order; with a baseline each line says whether the green run printed it (`new`). */
  readonly lines: LogLine[];
  /** Indexes of the lines that signal the failure most strongly (for the fingerprint). */
  readonly keyLines: number[];
  /** The best line's score, 0–10 (before the baseline's weighting). */
  readonly strongest: number;
  /** Lines of the excerpt that the green run did not print (0 without a baseline). */
  readonly newLines: number;
}

interface Block {
  readonly from: number;
  readonly to: number;
  readonly score: number;
  readonly order: number;
}

/** Lines of a block past its anchor, at most. */
const MAX_BLOCK = 60;
/** A short failing command is shown whole. */
const SHORT_REGION = 40;
/** Lines at the end of a failing region always offered. */
const REGION_END = 12;
/** Blocks scoring this much come before the failing region's end; weaker ones after it. */
const STRONG_BLOCK = 3;
/** Lines from the failing region's end taken before the weaker blocks. */
const REGION_FILL = 40;
/** A failing command that printed this little checked what an earlier one printed: that is shown too. */
const QUIET_REGION = 1;
/** A failing test's output is worth showing, after the lines that say what failed. */
const TEST_OUTPUT = 4;

const isBlank = (line: LogLine | undefined): boolean => (line?.text.trim() ?? '') === '';

export const buildExcerpt = (input: ExcerptInput): Excerpt => {
  const { regions, strict, baseline, maxLines } = input;
  const lines = terminalLines(input.lines);
  const regionOf = new Int32Array(lines.length).fill(-1);
  regions.forEach((region, r) => {
    for (let i = region.from; i <= region.to && i < lines.length; i += 1) regionOf[i] = r;
  });
  const inScope = (i: number): boolean => !strict || regions.length === 0 || regionOf[i] !== -1;
  // What passed (a test runner's `ok` lines, passing tests and their output) is never the failing part.
  const outline = testOutline(lines);
  const passing = outline.passing;
  const shown = (i: number): boolean => inScope(i) && !passing.has(i);
  const weight = (i: number): number =>
    regions.length === 0 || regionOf[i] !== -1 ? 1 : strict ? 0 : 0.5;
  // A blank line says nothing, so it is never new.
  const isNew = (i: number): boolean => {
    const key = runInvariant(lines[i]?.text ?? '');
    return baseline !== undefined && key !== '' && !baseline.has(key);
  };
  const mark = (i: number): LogLine => {
    const line = lines[i] as LogLine;
    return baseline === undefined ? line : { line: line.line, text: line.text, new: isNew(i) };
  };

  const raw = lines.map((l) => lineSignal(l.text));
  for (const i of input.recognised) if (i >= 0 && i < raw.length) raw[i] = 10;
  const scored = raw.map((signal, i) => {
    if (signal === 0 || !shown(i)) return 0;
    let score = signal * weight(i);
    if (baseline !== undefined) score = isNew(i) ? score + 2 : score * 0.25;
    return score;
  });

  const blocks: Block[] = [];
  let order = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const score = scored[i] ?? 0;
    if (score <= 0) continue;
    blocks.push({ ...blockAround(lines, i, shown, (raw[i] ?? 0) >= 9), score, order: order++ });
  }
  for (const span of outline.failing) {
    if (!shown(span.to)) continue;
    const from = Math.max(span.from, span.to - SHORT_REGION + 1);
    blocks.push({ from, to: span.to, score: TEST_OUTPUT * weight(span.to), order: order++ });
  }
  for (const region of regions) {
    const length = region.to - region.from + 1;
    if (length <= SHORT_REGION)
      blocks.push({ from: region.from, to: region.to, score: 9.5, order: order++ });
    else
      blocks.push({ from: region.to - REGION_END + 1, to: region.to, score: 6.5, order: order++ });
  }
  if (blocks.length === 0) {
    const scope = lines.map((_, i) => i).filter(shown);
    const tail = scope.slice(-Math.min(maxLines, 40));
    return {
      lines: tail.map(mark),
      keyLines: [],
      strongest: 0,
      newLines: baseline ? tail.filter(isNew).length : 0,
    };
  }

  // Best first; among equals, the first in the log (the first error is the cause more often than the last).
  blocks.sort((a, b) => b.score - a.score || a.order - b.order);
  const keep = new Set<number>();
  const seen = new Set<string>();
  const take = (block: Block): void => {
    const signature = runInvariant(
      lines
        .slice(block.from, Math.min(block.to, block.from + 3) + 1)
        .map((l) => l.text)
        .join('\n'),
    );
    if (seen.has(signature) && block.to - block.from < 30) return;
    seen.add(signature);
    for (let i = block.from; i <= block.to && keep.size < maxLines; i += 1) {
      if (shown(i)) keep.add(i);
    }
  };
  // Where the budget is left, the end of the failing part, then of the log: where a person scrolls.
  // A failing part's fill stays inside it: the commands before it passed.
  const fillBack = (end: number, count: number, floor = 0, visible = shown): void => {
    let added = 0;
    for (let i = end; i >= floor && keep.size < maxLines && added < count; i -= 1) {
      if (visible(i) && !isBlank(lines[i]) && !keep.has(i)) {
        keep.add(i);
        added += 1;
      }
    }
  };
  for (const block of blocks) if (block.score >= STRONG_BLOCK && keep.size < maxLines) take(block);
  for (const region of regions) fillBack(region.to, REGION_FILL, region.from);
  for (const block of blocks) if (block.score < STRONG_BLOCK && keep.size < maxLines) take(block);
  regions.forEach((region, r) => {
    fillBack(region.to, maxLines, region.from);
    // A command that printed next to nothing (`grep -q`, `test -f`) checked what an earlier one printed.
    if (printedLines(lines, region) <= QUIET_REGION)
      fillBack(region.from - 1, maxLines, (regions[r - 1]?.to ?? -1) + 1, (i) => !passing.has(i));
  });
  fillBack(lines.length - 1, maxLines, (regions.at(-1)?.to ?? -1) + 1);
  // Blank lines between two shown lines are shown too: the excerpt reads as the terminal did, without a gap mark.
  for (const i of [...keep].sort((a, b) => a - b)) {
    let j = i + 1;
    while (j < lines.length && isBlank(lines[j]) && shown(j)) j += 1;
    for (let k = i + 1; k < j && keep.has(j) && keep.size < maxLines; k += 1) keep.add(k);
  }
  const chosen = [...keep].sort((a, b) => a - b);
  // What identifies the failure never depends on the baseline: the strongest lines of the failing part.
  const keyLines: number[] = [];
  let strongest = 0;
  for (let i = 0; i < lines.length; i += 1) {
    if (!inScope(i) || weight(i) !== 1) continue;
    strongest = Math.max(strongest, raw[i] ?? 0);
    if ((raw[i] ?? 0) >= 8 && keyLines.length < 20) keyLines.push(i);
  }
  return {
    lines: chosen.map(mark),
    keyLines,
    strongest,
    newLines: baseline ? chosen.filter(isNew).length : 0,
  };
};

/** The anchor's block: the report it belongs to, one line before, what continues it after. */
const blockAround = (
  lines: readonly LogLine[],
  anchor: number,
  inScope: (i: number) => boolean,
  strong: boolean,
): { from: number; to: number } => {
  let from = anchor;
  // Up to the line an indented report hangs from (the test's name above its trace).
  while (
    from > 0 &&
    anchor - from < 10 &&
    inScope(from - 1) &&
    !isBlank(lines[from - 1]) &&
    continues(lines[from - 1]?.text ?? '', lines[from]?.text ?? '')
  )
    from -= 1;
  if (from > 0 && inScope(from - 1) && !isBlank(lines[from - 1])) from -= 1;

  const section = opensBlock(lines[anchor]?.text ?? '');
  const paragraph = strong;
  let to = anchor;
  while (to + 1 < lines.length && to - anchor < MAX_BLOCK && inScope(to + 1)) {
    const next = lines[to + 1];
    const text = next?.text ?? '';
    if (section) {
      if (opensBlock(text) && to > anchor) break;
      if (isBlank(next) && isBlank(lines[to + 2])) break;
      to += 1;
      continue;
    }
    if (isBlank(next)) {
      // A blank line inside a report (pytest, rustc, an indented test output) when what follows still belongs to it.
      let ahead = to + 1;
      while (ahead < to + 3 && isBlank(lines[ahead])) ahead += 1;
      const after = lines[ahead]?.text ?? '';
      if (
        !isBlank(lines[ahead]) &&
        inScope(ahead) &&
        /^\s+\S/.test(after) &&
        (paragraph || continues(lines[to]?.text ?? '', after))
      ) {
        to = ahead;
        continue;
      }
      break;
    }
    if (paragraph ? opensBlock(text) : !continues(lines[to]?.text ?? '', text)) break;
    to += 1;
  }
  if (
    to + 1 < lines.length &&
    inScope(to + 1) &&
    !isBlank(lines[to + 1]) &&
    to - anchor < MAX_BLOCK
  )
    to += 1;
  return { from, to };
};
