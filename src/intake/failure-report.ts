import { createHash } from 'node:crypto';
import { stripAnsi } from '../util/text.ts';

/**
 * What every front door builds before calling `runJob`: which repository, at
 * which ref, failed how, and the command that reproduces it.
 */
export interface FailureReport {
  /** A local path or a git URL. */
  readonly repo: string;
  /** Branch, tag or sha; undefined means the repository's HEAD. */
  readonly ref?: string;
  /** The branch CI built (a run's head branch), when the trigger knows it: tests see it checked out. */
  readonly branch?: string;
  /** The command that failed, when the trigger knows it. */
  readonly command?: string;
  /** A workflow job name whose `run:` steps are the command. */
  readonly workflowJob?: string;
  /** The failing step of a CI job: prepare derives the command from the workflow file. */
  readonly workflowStep?: { readonly job: string; readonly step: string };
  /** Error lines from the CI log (numbered as in the raw log), when there is a log. */
  readonly errorExcerpt?: string;
  /** The fingerprint intake computed from the CI log; the job uses it when given. */
  readonly fingerprint?: string;
  /**
   * A person's request: a review comment on regreen's PR, or an issue's problem
   * statement (eval's hidden tasks). The job works on it even if nothing fails.
   */
  readonly task?: {
    readonly text: string;
    readonly author: string;
    readonly source?: 'review' | 'issue';
  };
  /** Where the report came from: cli, app, action, eval. */
  readonly trigger: 'cli' | 'app' | 'action' | 'eval';
}

/** Volatile parts removed so that the same failure hashes the same on every run. */
const VOLATILE: readonly [RegExp, string][] = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [
    /(?:\/home\/runner\/work|\/Users\/runner\/work|\/home\/travis\/build|\/Users\/travis\/build|\/__w|[A-Za-z]:\\a)[/\\][^/\\\s]+[/\\][^/\\\s]+/g,
    '<repo>',
  ],
  [
    /(?:\/tmp|\/var\/folders|\/private\/var|[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp)[/\\][^\s:'")\]]+/g,
    '<tmp>',
  ],
  [/\b[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b[0-9a-f]{7,64}\b/gi, '<hex>'],
  [/\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|minutes?|h)\b/g, '<dur>'],
  [/\(\d+(?:\.\d+)?ms\)/g, ''],
  [/\b\d+(?:\.\d+)?\s?(?:B|KB|kB|KiB|MB|MiB|GB|GiB)\b/g, '<size>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\blocalhost:\d+\b|\[::1?\]:\d+/g, '<addr>'],
  [/\b\d{1,3}(?:,\d{3})+\b/g, '<n>'],
  [/[ \t]+/g, ' '],
];

/** One line without what changes from run to run of the same job (times, paths, hashes, ports). */
export const withoutVolatile = (line: string): string =>
  VOLATILE.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), line).trim();

export const normaliseErrorLines = (text: string): string[] =>
  stripAnsi(text)
    .split('\n')
    .map(withoutVolatile)
    .filter((line) => line.length > 0);

/**
 * A short, stable id for a failure: a hash of its normalised error lines (or
 * of the command when there is no error output). Used for dedupe and branches.
 */
export const fingerprint = (parts: { command: string; errorLines: readonly string[] }): string => {
  const hash = createHash('sha256');
  hash.update(parts.command.trim());
  hash.update('\n');
  for (const line of parts.errorLines) hash.update(`${line}\n`);
  return hash.digest('hex').slice(0, 12);
};
