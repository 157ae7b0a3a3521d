import { stripAnsi } from '../util/text.ts';
import { fingerprint, normaliseErrorLines } from './failure-report.ts';
import { recogniseFailures, type LogLine, type RecognisedFailure } from './failure-formats.ts';

/** A step of a job's log: from its `##[group]Run …` header to the next step. */
export interface LogStep {
  /** The header without `Run ` (the first line of the `run:` script, or the action). */
  readonly title: string;
  readonly startLine: number;
  readonly endLine: number;
  /** The exit code from `##[error]Process completed with exit code N.` */
  readonly exitCode?: number;
  readonly failed: boolean;
}

export interface Triage {
  readonly steps: readonly LogStep[];
  readonly failingStep?: LogStep;
  /** Error lines with context, numbered by their line in the raw log. */
  readonly excerpt: readonly LogLine[];
  readonly failures: readonly RecognisedFailure[];
  readonly fingerprint: string;
  /** The raw log had this many lines (and was cut when `truncated`). */
  readonly totalLines: number;
  readonly truncated: boolean;
}

export interface TriageLimits {
  /** Characters kept of one line. */
  readonly maxLineChars: number;
  /** Lines in the excerpt. */
  readonly maxExcerptLines: number;
  /** Lines of context either side of an error line. */
  readonly context: number;
}

const DEFAULT_LIMITS: TriageLimits = { maxLineChars: 500, maxExcerptLines: 120, context: 3 };

/** A raw log larger than this is read from its end: the failure is at the end of a job. */
const MAX_LOG_CHARS = 16 * 1024 * 1024;

const TIMESTAMP = /^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?/;

const ERROR_LINE =
  /(error|fail(?:ed|ure|ing)?\b|assert|expected|exception|panic|traceback|✖|×|✕|❯|●|not ok|\[warn\]|<<< )/i;
const NOISE =
  /^(?:##\[(?:group|endgroup|debug|command)\]|shell: |env:$|Post job cleanup|Cleaning up orphan|Complete job|Process completed with exit code)/;

const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)} [… ${text.length - max} chars cut]`;

/** One cleaned line: timestamp and ANSI codes stripped, bounded. */
const clean = (raw: string, maxChars: number): string =>
  clip(stripAnsi(raw.slice(0, maxChars * 4).replace(TIMESTAMP, '')).replace(/\r$/, ''), maxChars);

/**
 * Reads a raw GitHub Actions job log: finds the steps and the failing one,
 * recognises the failures of the known tools, and builds a bounded excerpt
 * of the error lines with context, numbered as in the raw log.
 */
export const triageLog = (raw: string, limits: Partial<TriageLimits> = {}): Triage => {
  const { maxLineChars, maxExcerptLines, context } = { ...DEFAULT_LIMITS, ...limits };
  const truncated = raw.length > MAX_LOG_CHARS;
  const text = truncated ? raw.slice(raw.length - MAX_LOG_CHARS) : raw;
  const rawLines = text.split('\n');
  const offset = truncated ? raw.slice(0, raw.length - MAX_LOG_CHARS).split('\n').length - 1 : 0;
  const lines: LogLine[] = rawLines.map((line, index) => ({
    line: index + 1 + offset,
    text: clean(line, maxLineChars),
  }));
  if (lines.at(-1)?.text === '') lines.pop();

  const steps = findSteps(lines);
  const failingStep = steps.findLast((step) => step.failed);
  const scope = failingStep
    ? lines.filter((l) => l.line >= failingStep.startLine && l.line <= failingStep.endLine)
    : lines;
  const body = scope.filter((l) => !NOISE.test(l.text.replace(/^##\[error\]/, '')));
  const failures = recogniseFailures(body);
  const excerpt = buildExcerpt(scope, failures, { maxExcerptLines, context });
  const errorText = excerpt
    .filter((l) => ERROR_LINE.test(l.text) && !NOISE.test(l.text.replace(/^##\[error\]/, '')))
    .map((l) => l.text)
    .join('\n');
  return {
    steps,
    ...(failingStep ? { failingStep } : {}),
    excerpt,
    failures,
    fingerprint: fingerprint({
      command: failingStep?.title ?? '',
      errorLines: failureKeyLines(failures, errorText),
    }),
    totalLines: lines.at(-1)?.line ?? 0,
    truncated,
  };
};

/** What identifies the failure: the recognised failures when there are any, else the error lines. */
const failureKeyLines = (failures: readonly RecognisedFailure[], errorText: string): string[] =>
  failures.length > 0
    ? normaliseErrorLines(
        failures
          .map((f) => `${f.format} ${f.file ?? ''} ${f.test ?? ''} ${f.message ?? ''}`)
          .join('\n'),
      )
    : normaliseErrorLines(errorText).slice(0, 60);

const findSteps = (lines: readonly LogLine[]): LogStep[] => {
  const heads: { title: string; index: number }[] = [];
  lines.forEach((entry, index) => {
    const match = /^##\[group\](?:Run )?(.+)$/.exec(entry.text);
    // A step's own header; groups printed by tools inside a step ("##[group]Some tool output") count too,
    // but only a header right after an endgroup of the previous step or at the top begins a step.
    if (match?.[1] && /^##\[group\]Run /.test(entry.text)) heads.push({ title: match[1], index });
  });
  return heads.map((head, i) => {
    let endIndex = (heads[i + 1]?.index ?? lines.length) - 1;
    let span = lines.slice(head.index, endIndex + 1);
    const exitAt = span.findIndex((l) =>
      /##\[error\]Process completed with exit code \d+\./.test(l.text),
    );
    // The step ends at its exit line; the runner's post-job clean-up follows.
    if (exitAt >= 0) {
      endIndex = head.index + exitAt;
      span = span.slice(0, exitAt + 1);
    }
    const exit =
      exitAt >= 0
        ? /##\[error\]Process completed with exit code (\d+)\./.exec(span[exitAt]?.text ?? '')
        : undefined;
    const failed = exit !== undefined || span.some((l) => l.text.startsWith('##[error]'));
    return {
      title: head.title.trim(),
      startLine: lines[head.index]?.line ?? 0,
      endLine: lines[endIndex]?.line ?? 0,
      ...(exit?.[1] ? { exitCode: Number(exit[1]) } : {}),
      failed,
    };
  });
};

/** Error lines (recognised failures first) with context, merged, capped, in log order. */
const buildExcerpt = (
  scope: readonly LogLine[],
  failures: readonly RecognisedFailure[],
  limits: { maxExcerptLines: number; context: number },
): LogLine[] => {
  const indexOf = new Map(scope.map((l, i) => [l.line, i]));
  const anchors: number[] = [];
  for (const failure of failures) {
    const i = indexOf.get(failure.logLine);
    if (i !== undefined) anchors.push(i);
  }
  scope.forEach((l, i) => {
    if (ERROR_LINE.test(l.text) && !/^##\[(?:group|endgroup)\]/.test(l.text)) anchors.push(i);
  });
  if (anchors.length === 0) {
    // No error line: the end of the step is the best evidence.
    return scope.slice(-Math.min(limits.maxExcerptLines, 40));
  }
  const keep = new Set<number>();
  for (const anchor of anchors) {
    if (keep.size >= limits.maxExcerptLines) break;
    for (let i = anchor - limits.context; i <= anchor + limits.context; i += 1) {
      if (i >= 0 && i < scope.length && keep.size < limits.maxExcerptLines) keep.add(i);
    }
  }
  return [...keep].sort((a, b) => a - b).map((i) => scope[i] as LogLine);
};

/** The excerpt as text, each line with its raw-log number (for the model and the diagnosis). */
export const formatExcerpt = (excerpt: readonly LogLine[]): string => {
  const width = String(excerpt.at(-1)?.line ?? 0).length;
  const out: string[] = [];
  let previous = -1;
  for (const entry of excerpt) {
    if (previous >= 0 && entry.line !== previous + 1) out.push('…');
    out.push(`${String(entry.line).padStart(width)}: ${entry.text}`);
    previous = entry.line;
  }
  return out.join('\n');
};
