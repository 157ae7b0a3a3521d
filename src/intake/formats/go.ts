import { perLine, repoPath, type RecognisedFailure, type Recogniser } from './types.ts';

const goTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*--- FAIL: (\S+) \([\d.]+s\)/.exec(entry.text);
    if (!match?.[1]) return;
    const detail = lines
      .slice(index + 1, index + 10)
      .map((l) => /^\s+(\S+?_test\.go):(\d+): (.*)$/.exec(l.text))
      .find((m) => m !== null);
    // Output printed before the FAIL line (go test -v) also names the location.
    const before = detail
      ? undefined
      : lines
          .slice(Math.max(0, index - 10), index)
          .map((l) => /^\s+(\S+?_test\.go):(\d+): (.*)$/.exec(l.text))
          .findLast((m) => m !== null);
    const hit = detail ?? before;
    out.push({
      format: 'go-test',
      ...(hit?.[1] ? { file: repoPath(hit[1]), line: Number(hit[2]) } : {}),
      test: match[1],
      ...(hit?.[3] ? { message: hit[3] } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

/** Go build and vet: `path/file.go:12:3: message` (not a test's own `file_test.go:12: message`). */
const goBuild = perLine(
  'go-build',
  /^(?:##\[error\])?((?:\.\/)?[^\s:]+\.go):(\d+):\d+: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

/** The recognisers of this family, in the order they are tried. */
export const GO: readonly Recogniser[] = [goTest, goBuild];
