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
