/**
 * What a failing part of a log printed: a GitHub Actions step's header (its
 * `##[group]Run …` block with the script, shell and env) and a Travis
 * command's `$ …` echo are not output, nor the runner's line that says it
 * failed.
 */
import type { LogLine } from './formats/index.ts';

export interface FailingRegion {
  readonly from: number;
  readonly to: number;
}

const FAILED_MARK =
  /^##\[error\]Process completed with exit code|The command ".*" (?:failed and )?exited with/;

/** Non-blank lines the failing command itself printed. */
export const printedLines = (lines: readonly LogLine[], region: FailingRegion): number => {
  let from = region.from + 1;
  if (/^##\[group\]/.test(lines[region.from]?.text ?? '')) {
    for (let i = region.from; i <= region.to; i += 1) {
      if (/^##\[endgroup\]/.test(lines[i]?.text ?? '')) {
        from = i + 1;
        break;
      }
    }
  }
  let printed = 0;
  for (let i = from; i <= region.to; i += 1) {
    const text = lines[i]?.text ?? '';
    if (text.trim() !== '' && !FAILED_MARK.test(text)) printed += 1;
  }
  return printed;
};

/** Maven's verdict, and the header of a plugin's execution (`[INFO] --- maven-compiler-plugin:3.0:compile (default-compile) @ app ---`). */
const MAVEN_FAILED = /^\[(?:INFO|ERROR)\] BUILD FAILURE\s*$/;
const MAVEN_EXECUTION = /^\[INFO\] --- [\w.-]+:[\w.-]+:[\w.-]+ /;
const MAVEN_ERROR = /^\[ERROR\]/;

/**
 * Where a log marks no failing command (a Jenkins or a plain log), a Maven
 * build's failing part: the plugin execution that failed the build, from its
 * header to Maven's `[ERROR]` footer after `BUILD FAILURE` (what ran before
 * it, other commands' errors included, did not fail the build).
 */
export const mavenFailure = (lines: readonly LogLine[]): FailingRegion | undefined => {
  let failed = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1)
    if (MAVEN_FAILED.test(lines[i]?.text ?? '')) {
      failed = i;
      break;
    }
  if (failed < 0) return undefined;
  let from = failed;
  while (from > 0 && !MAVEN_EXECUTION.test(lines[from]?.text ?? '')) from -= 1;
  let to = failed;
  let footer = false;
  for (let i = failed + 1; i < lines.length; i += 1) {
    const error = MAVEN_ERROR.test(lines[i]?.text ?? '');
    if (footer && !error) break;
    if (error) footer = true;
    to = i;
  }
  return { from, to: footer ? to : failed };
};
