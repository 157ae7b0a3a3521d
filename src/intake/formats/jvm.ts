import { perLine, type RecognisedFailure, type Recogniser } from './types.ts';

const gradle: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*([\w.$]+) > (.+?) FAILED\s*$/.exec(entry.text);
    if (!match?.[1] || !match[2]) return;
    const next = lines[index + 1]?.text ?? '';
    const at = /^\s+(\S+?)(?: at (\S+?\.(?:java|kt)):(\d+))?\s*$/.exec(next);
    out.push({
      format: 'gradle',
      ...(at?.[2] ? { file: at[2], line: Number(at[3]) } : {}),
      test: `${match[1]}.${match[2]}`,
      ...(at?.[1] ? { message: at[1] } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

/** Gradle's `* What went wrong:` and the message under it. */
const gradleBuild: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    if (!/^\s*\* What went wrong:/.test(entry.text)) return [];
    const message = lines
      .slice(index + 1, index + 4)
      .map((l) => l.text.trim())
      .filter(Boolean)
      .join(' ');
    return [{ format: 'gradle' as const, ...(message ? { message } : {}), logLine: entry.line }];
  });

const maven: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  for (const entry of lines) {
    // Surefire 3: "[ERROR] com.x.FooTest.testAdd -- Time elapsed: 0.01 s <<< FAILURE!"
    // Surefire 2: "[ERROR] testAdd(com.x.FooTest)  Time elapsed: 0.01 s  <<< FAILURE!"
    const v3 = /^\[ERROR\]\s+(\S+)\.(\w+)\s+--\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(
      entry.text,
    );
    const v2 = /^\[ERROR\]\s+(\w+)\((\S+)\)\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(
      entry.text,
    );
    const test = v3 ? `${v3[1]}.${v3[2]}` : v2 ? `${v2[2]}.${v2[1]}` : undefined;
    if (!test) continue;
    const simple = test.split('.').slice(-2).join('.');
    const summary = lines.find((l) =>
      new RegExp(`^\\[ERROR\\]\\s+${simple.replace('.', '\\.')}:(\\d+) (.*)$`).test(l.text),
    );
    const where = summary ? /:(\d+) (.*)$/.exec(summary.text) : null;
    const cls = test.split('.').slice(-2, -1)[0];
    out.push({
      format: 'maven',
      ...(where?.[1] && cls ? { file: `${cls}.java`, line: Number(where[1]) } : {}),
      test,
      ...(where?.[2] ? { message: where[2] } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

/** Surefire 2 without Maven's `[ERROR]` prefix: `testAdd(com.x.FooTest)  Time elapsed: … <<< FAILURE!`. */
const junit: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^(\w+)\(([\w.$]+)\)\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(entry.text);
    if (!match?.[1] || !match[2]) return [];
    const message = lines[index + 1]?.text.trim();
    const cls = match[2].split('.').at(-1) ?? match[2];
    const frame = lines
      .slice(index + 1, index + 40)
      .map((l) =>
        new RegExp(`^\\s+at [\\w.$]+\\.${match[1]}\\((${cls}\\.\\w+):(\\d+)\\)`).exec(l.text),
      )
      .find((m) => m !== null);
    return [
      {
        format: 'junit' as const,
        ...(frame?.[1] ? { file: frame[1], line: Number(frame[2]) } : {}),
        test: `${match[2]}.${match[1]}`,
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

const javac = perLine(
  'javac',
  /^\[ERROR\]\s+(\S+\.(?:java|kt|scala|groovy)):\[(\d+),\d+\]\s+(.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

/** The recognisers of this family, in the order they are tried. */
export const JVM: readonly Recogniser[] = [gradle, gradleBuild, maven, junit, javac];
