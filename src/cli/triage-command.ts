import type { Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import type { CliContext } from './context.ts';
import { readFileSync, readSync, statSync } from 'node:fs';
import { RegreenError } from '../errors.ts';
import { formatExcerpt, triageLog, type Triage } from '../intake/actions-log.ts';
import type { RecognisedFailure } from '../intake/formats/index.ts';
import { EXIT } from './output.ts';

/** A log larger than this is refused: an Actions job log is at most a few tens of MB. */
const MAX_LOG_BYTES = 256 * 1024 * 1024;

/** A pause while stdin (non-blocking) has nothing yet: the read is synchronous, as a file's is. */
const pause = (ms: number): void => {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
};

/**
 * Standard input, read to its end but never past the bound a log file has:
 * the byte after the bound refuses it (a pipe is not held in memory unbounded).
 */
const readStdin = (flag: string): Buffer => {
  const chunks: Buffer[] = [];
  let total = 0;
  const chunk = Buffer.alloc(1 << 20);
  for (;;) {
    let read: number;
    try {
      read = readSync(0, chunk, 0, chunk.length, null);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        pause(20);
        continue;
      }
      if (code === 'EOF') break;
      throw new RegreenError(
        'usage',
        `${flag} -: standard input cannot be read (${code ?? 'error'})`,
      );
    }
    if (read === 0) break;
    total += read;
    if (total > MAX_LOG_BYTES)
      throw new RegreenError(
        'usage',
        `${flag} -: standard input holds more than ${MAX_LOG_BYTES} bytes, more than a CI log can be`,
      );
    chunks.push(Buffer.from(chunk.subarray(0, read)));
  }
  return Buffer.concat(chunks, total);
};

/** A log file's text (`-`: standard input): binary bytes and invalid UTF-8 are replaced, never fatal. */
const readLog = (flag: string, file: string): string => {
  if (file === '-') return readStdin(flag).toString('utf8').replaceAll('\u0000', '');
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new RegreenError(
      'usage',
      `${flag} ${file}: no such file. Give the path of a CI log saved to a file (gh run view --log-failed > ci.log saves one)`,
    );
  }
  if (size > MAX_LOG_BYTES)
    throw new RegreenError('usage', `${flag} ${file}: ${size} bytes is more than a CI log can be`);
  return readFileSync(file).toString('utf8').replaceAll('\u0000', '');
};

/** Triages a log file, against the log of the last green run of the same job when given. */
export const triageFile = (file: string, baseline?: string): Triage => {
  if (file === '-' && baseline === '-')
    throw new RegreenError(
      'usage',
      '--log - and --baseline -: standard input is one stream; save one of the logs to a file',
    );
  return triageLog(
    readLog('--log', file),
    baseline === undefined ? {} : { baseline: readLog('--baseline', baseline) },
  );
};

/**
 * `regreen triage`'s exit code, on the root's scale: 0 a failure located; 1
 * a report without a located failure (the excerpt holds best guesses); 3 no
 * failure found, the log shows a successful run (as `regreen fix` exits 3
 * when the failing command passes: there is nothing to fix).
 */
export const triageExitCode = (triage: Triage): number =>
  triage.verdict === 'located'
    ? 0
    : triage.verdict === 'success'
      ? EXIT['not-reproduced']
      : EXIT.diagnosis;

const VERDICT: Readonly<Record<Triage['verdict'], string>> = {
  located: 'a failure, located',
  guessed: 'a failure is not marked in this log; the excerpt holds the best guesses',
  success: 'no failure found: the log shows a successful run',
};

const where = (f: RecognisedFailure): string =>
  [f.file, f.line].filter((v) => v !== undefined).join(':');

/** "Explain this red build": the failing step, the recognised failures and the excerpt. */
export const triageText = (triage: Triage): string => {
  // A green log has no failing part to show: the verdict says so, and nothing is padded under it.
  if (triage.verdict === 'success')
    return [
      `verdict: ${VERDICT.success}`,
      ...(triage.steps.length > 0 ? [`steps: ${triage.steps.length}, none failed`] : []),
      'excerpt: none',
    ].join('\n');
  const marked = triage.newLines !== undefined;
  return [
    `verdict: ${VERDICT[triage.verdict]}`,
    ...(marked
      ? [
          `baseline: ranked against the last green run; ${triage.newLines} of ${triage.excerpt.length} excerpt lines are new in this log (marked +)`,
        ]
      : []),
    triage.failingStep
      ? `failing step: ${triage.failingStep.title} (log lines ${triage.failingStep.startLine}–${triage.failingStep.endLine}${triage.failingStep.exitCode !== undefined ? `, exit ${triage.failingStep.exitCode}` : ''})`
      : 'failing step: none marked in the log (read as plain output)',
    `fingerprint: ${triage.fingerprint}`,
    triage.failures.length > 0
      ? `failures (${triage.failures.length}):\n${triage.failures
          .map(
            (f) =>
              `  - [${f.format}] ${[where(f), f.test].filter(Boolean).join(' ')}${f.message ? ` — ${f.message}` : ''} (log line ${f.logLine})`,
          )
          .join('\n')}`
      : 'failures: no known format recognised',
    `excerpt:\n${formatExcerpt(triage.excerpt, marked)}`,
  ].join('\n');
};

/** `--json`: `failureFound` says whether the log shows a failure; with a baseline every excerpt line has `new`. */
export const triageJson = (triage: Triage): Record<string, unknown> => ({
  verdict: triage.verdict,
  failureFound: triage.verdict === 'located',
  ...(triage.newLines !== undefined ? { newLines: triage.newLines } : {}),
  failingStep: triage.failingStep ?? null,
  fingerprint: triage.fingerprint,
  failures: triage.failures,
  excerpt: triage.verdict === 'success' ? [] : triage.excerpt,
  steps: triage.steps,
  totalLines: triage.totalLines,
  truncated: triage.truncated,
});

/** `regreen triage`. */
export const registerTriage = (program: Command, { setExit }: CliContext): void => {
  program
    .command('triage')
    .description(SUMMARIES.triage)
    .requiredOption(
      '--log <file>',
      'a CI job log: GitHub Actions, Travis CI, Jenkins, or any build output; - reads standard input',
    )
    .option(
      '--baseline <file>',
      "the log of the same job's last green run: lines new in --log rank first and are marked +",
    )
    .option('--json', 'print the triage as JSON')
    .addHelpText(
      'after',
      '\nExit codes: 0 a failure located, 1 no failure located (the excerpt holds the best guesses), 2 usage error, 3 no failure found (the log shows a successful run).',
    )
    .action((opts: { log: string; baseline?: string; json?: boolean }) => {
      const triage = triageFile(opts.log, opts.baseline);
      process.stdout.write(
        `${opts.json ? JSON.stringify(triageJson(triage), null, 2) : triageText(triage)}\n`,
      );
      setExit(triageExitCode(triage));
    });
};
