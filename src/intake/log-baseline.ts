/**
 * The last green run of the same job as a baseline: a line of the failing
 * log that the green log also printed (after the noise of a run is taken
 * out) is not why the job failed; a line that is new may be. Set-based, so
 * the order of parallel output does not matter.
 */

/** The parts of a log line that change from run to run of the same job. */
const RUN_NOISE: readonly [RegExp, string][] = [
  [/^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?/, ''],
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, '<time>'],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, '<time>'],
  [/(?:\/home\/runner\/work|\/Users\/runner\/work|\/home\/travis\/build|\/__w|[A-Za-z]:\\a)\/[^/\s]+\/[^/\s]+/g, '<repo>'],
  [/(?:\/tmp|\/var\/folders|\/private\/var|[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp)[/\\][^\s:'")\]]+/g, '<tmp>'],
  [/\b[0-9a-f]{7,64}\b/gi, '<hex>'],
  [/\b[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\b/gi, '<uuid>'],
  [/\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|minutes?|h)\b/g, '<dur>'],
  [/\b\d+(?:\.\d+)?\s?(?:B|KB|kB|KiB|MB|MiB|GB|GiB)\b/g, '<size>'],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b/g, '<addr>'],
  [/\b\d[\d,._]*\b/g, '<n>'],
  [/\s+/g, ' '],
];

/** One line as the baseline compares it. */
export const runInvariant = (text: string): string =>
  RUN_NOISE.reduce((acc, [pattern, replacement]) => acc.replace(pattern, replacement), text).trim();

/** The set of a green log's lines, each made run-invariant. */
export const baselineLines = (lines: Iterable<string>): Set<string> => {
  const out = new Set<string>();
  for (const line of lines) {
    const key = runInvariant(line);
    if (key) out.add(key);
  }
  return out;
};
