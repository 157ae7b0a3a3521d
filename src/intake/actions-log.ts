import { stripAnsi } from '../util/text.ts';
import { fingerprint, normaliseErrorLines } from './failure-report.ts';
import { recogniseFailures, type LogLine, type RecognisedFailure } from './formats/index.ts';
import { baselineLines } from './log-baseline.ts';
import { buildExcerpt, type FailingRegion } from './log-excerpt.ts';
import { mavenFailure } from './log-regions.ts';

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
  /**
   * `located`: the log marks a failing step or command, or names the failure in a
   * known format; `guessed`: it does not, and the excerpt holds the best guesses;
   * `success`: the log shows a successful run.
   */
  readonly verdict: 'located' | 'guessed' | 'success';
  /** With a baseline: how many excerpt lines the last green run did not print. */
  readonly newLines?: number;
}

export interface TriageLimits {
  /** Characters kept of one line. */
  readonly maxLineChars: number;
  /** Lines in the excerpt. */
  readonly maxExcerptLines: number;
}

export interface TriageOptions extends Partial<TriageLimits> {
  /** The log of the last green run of the same job: lines new in the failing log rank first. */
  readonly baseline?: string;
}

const DEFAULT_LIMITS: TriageLimits = { maxLineChars: 500, maxExcerptLines: 120 };

/** A raw log larger than this is read from its end: the failure is at the end of a job. */
const MAX_LOG_CHARS = 16 * 1024 * 1024;

const TIMESTAMP = /^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?/;
/** Travis CI's fold and timer markers, which end at an escape, a carriage return or the line's end. */
// eslint-disable-next-line no-control-regex
const TRAVIS_MARKER = /travis_(?:fold|time):(?:start|end):[^\u001b\r\n]*?(?=\u001b|\r|$)/g;

const ERROR_LINE =
  /(error|fail(?:ed|ure|ing)?\b|assert|expected|exception|panic|traceback|✖|×|✕|❯|●|not ok|\[warn\]|<<< )/i;
const NOISE =
  /^(?:##\[(?:group|endgroup|debug|command)\]|shell: |env:$|Post job cleanup|Cleaning up orphan|Complete job|Process completed with exit code)/;

const clip = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)} [… ${text.length - max} chars cut]`;

/**
 * One cleaned line: timestamp, CI markers and ANSI codes stripped, bounded. A
 * line redrawn with carriage returns keeps its last two non-blank pieces (what
 * a terminal showed).
 */
const clean = (raw: string, maxChars: number): string => {
  const budget = maxChars * 4;
  const cut =
    raw.length <= budget ? raw : raw.includes('\r') ? raw.slice(-budget) : raw.slice(0, budget);
  let text = stripAnsi(cut.replace(TIMESTAMP, '').replace(TRAVIS_MARKER, ''));
  if (text.includes('\r')) {
    const pieces = text.split('\r').filter((piece) => piece.trim() !== '');
    text = pieces.slice(-2).join(' ⏎ ');
  }
  return clip(text, maxChars);
};

/**
 * Reads a raw GitHub Actions job log: finds the steps and the failing one,
 * recognises the failures of the known tools, and builds a bounded excerpt
 * of the error lines with context, numbered as in the raw log.
 */
export const triageLog = (raw: string, options: TriageOptions = {}): Triage => {
  const { maxLineChars, maxExcerptLines } = { ...DEFAULT_LIMITS, ...options };
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
  const indexOf = new Map(lines.map((l, i) => [l.line, i]));
  const regions: FailingRegion[] = failingStep
    ? [
        {
          from: indexOf.get(failingStep.startLine) ?? 0,
          to: indexOf.get(failingStep.endLine) ?? lines.length - 1,
        },
      ]
    : failingCommandsOrBuild(lines);
  const scope = failingStep
    ? lines.filter((l) => l.line >= failingStep.startLine && l.line <= failingStep.endLine)
    : lines;
  const body = scope.filter((l) => !NOISE.test(l.text.replace(/^##\[error\]/, '')));
  const failures = recogniseFailures(body);
  const excerpt = buildExcerpt({
    lines,
    regions,
    strict: failingStep !== undefined,
    recognised: verdictFailures(failures).map((f) => indexOf.get(f.logLine) ?? -1),
    ...(options.baseline !== undefined
      ? { baseline: baselineLines(options.baseline.split('\n').map((l) => clean(l, maxLineChars))) }
      : {}),
    maxLines: maxExcerptLines,
  });
  const keyText = excerpt.keyLines
    .map((i) => lines[i]?.text ?? '')
    .filter((text) => !NOISE.test(text.replace(/^##\[error\]/, '')))
    .join('\n');
  const errorText =
    keyText ||
    excerpt.lines
      .filter((l) => ERROR_LINE.test(l.text) && !NOISE.test(l.text.replace(/^##\[error\]/, '')))
      .map((l) => l.text)
      .join('\n');
  const located =
    failingStep !== undefined ||
    regions.length > 0 ||
    failures.length > 0 ||
    excerpt.strongest >= 8;
  return {
    steps,
    ...(failingStep ? { failingStep } : {}),
    excerpt: excerpt.lines,
    failures,
    fingerprint: failureFingerprint(failures, failingStep?.title ?? '', errorText),
    totalLines: lines.at(-1)?.line ?? 0,
    truncated,
    verdict: located ? 'located' : showsSuccess(lines, steps) ? 'success' : 'guessed',
    ...(options.baseline !== undefined ? { newLines: excerpt.newLines } : {}),
  };
};

/**
 * The failures that failed the run: where Pester names failed tests, the
 * PowerShell error records written along the way (a cmdlet's non-terminating
 * errors, while tests passed) are output, not the verdict.
 */
const verdictFailures = (failures: readonly RecognisedFailure[]): readonly RecognisedFailure[] =>
  failures.some((f) => f.format === 'pester')
    ? failures.filter((f) => f.format !== 'powershell')
    : failures;

/** Travis CI's failing commands, else a Maven build's failing part. */
const failingCommandsOrBuild = (lines: readonly LogLine[]): FailingRegion[] => {
  const commands = failingCommands(lines);
  if (commands.length > 0) return commands;
  const maven = mavenFailure(lines);
  return maven ? [maven] : [];
};

/** Travis CI's `The command "…" exited with N.` closes a command echoed as `$ …`. */
const failingCommands = (lines: readonly LogLine[]): FailingRegion[] => {
  const regions: FailingRegion[] = [];
  lines.forEach((entry, index) => {
    if (!/The command ".*" (?:failed and )?exited with [1-9]\d*/.test(entry.text)) return;
    let from = index;
    const floor = regions.at(-1)?.to ?? -1;
    while (from > floor + 1 && !/(?:^|⏎ )\$ \S/.test(lines[from - 1]?.text ?? '')) from -= 1;
    regions.push({ from: from > floor + 1 ? from - 1 : from, to: index });
  });
  return regions;
};

/** The log says the run passed: every step green, or the CI's own success line, and no error. */
const showsSuccess = (lines: readonly LogLine[], steps: readonly LogStep[]): boolean => {
  const text = (l: LogLine): string => l.text;
  if (lines.some((l) => /^##\[error\]/.test(text(l)))) return false;
  if (steps.length > 0) return steps.every((s) => !s.failed);
  return lines
    .slice(-50)
    .some((l) =>
      /^(?:Done\. Your build exited with 0\.|Finished: SUCCESS|\[INFO\] BUILD SUCCESS|BUILD SUCCESSFUL\b)/.test(
        text(l),
      ),
    );
};

/**
 * What identifies a failure: the failures recognised in it alone when there
 * are any (the same tests or files failing the same way, whichever log or
 * run printed them and whatever the step was called), else the command and
 * its error lines. `regreen triage` of CI's log, the App's and the Action's
 * jobs, and `regreen fix` reproducing it give one fingerprint.
 */
export const failureFingerprint = (
  failures: readonly RecognisedFailure[],
  command: string,
  errorText: string,
): string =>
  failures.length > 0
    ? fingerprint({
        command: '',
        errorLines: normaliseErrorLines(
          failures
            .map((f) => `${f.format} ${f.file ?? ''} ${f.test ?? ''} ${f.message ?? ''}`)
            .join('\n'),
        ),
      })
    : fingerprint({ command, errorLines: normaliseErrorLines(errorText).slice(0, 60) });

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

/**
 * The excerpt as text, each line with its raw-log number (for the model and
 * the diagnosis) and `…` where lines are left out. `marked` (an excerpt
 * ranked against a baseline) puts a gutter before each line: `+` for a line
 * the green run did not print.
 */
export const formatExcerpt = (excerpt: readonly LogLine[], marked = false): string => {
  const width = String(excerpt.at(-1)?.line ?? 0).length;
  const gutter = (entry: LogLine): string => (!marked ? '' : entry.new === true ? '+ ' : '  ');
  const out: string[] = [];
  let previous = -1;
  for (const entry of excerpt) {
    if (previous >= 0 && entry.line !== previous + 1) out.push(`${marked ? '  ' : ''}…`);
    out.push(`${gutter(entry)}${String(entry.line).padStart(width)}: ${entry.text}`);
    previous = entry.line;
  }
  return out.join('\n');
};
