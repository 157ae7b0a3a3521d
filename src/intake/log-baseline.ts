/**
 * The last green run of the same job as a baseline: a line of the failing
 * log that the green log also printed (after the noise of a run is taken
 * out) is not why the job failed; a line that is new may be. Set-based, so
 * the order of parallel output does not matter.
 */
import { withoutVolatile } from './failure-report.ts';

/** What differs between two runs of the same line beyond what the fingerprint already drops. */
const RUN_NOISE: readonly [RegExp, string][] = [
  // Go's and others' compound durations: `1m2.5s`, `1h2m3s`, `0m0s`.
  [
    /\b\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|us|ns)(?:\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|us|ns))+\b/g,
    '<dur>',
  ],
  // Addresses and offsets: `0xc000123456`, `+0x1d`.
  [/\b0x[0-9a-f]+\b/gi, '<hex>'],
];

/** One line as the baseline compares it: volatile parts and every number gone. */
export const runInvariant = (text: string): string =>
  withoutVolatile(RUN_NOISE.reduce((acc, [pattern, to]) => acc.replace(pattern, to), text))
    .replace(/\b\d[\d,._]*\b/g, '<n>')
    .replace(/\s+/g, ' ');

/** The set of a green log's lines, each made run-invariant. */
export const baselineLines = (lines: Iterable<string>): Set<string> => {
  const out = new Set<string>();
  for (const line of lines) {
    const key = runInvariant(line);
    if (key) out.add(key);
  }
  return out;
};
