import {
  perLine,
  repoPath,
  type LogLine,
  type RecognisedFailure,
  type Recogniser,
} from './types.ts';

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

/**
 * Each `[ERROR]   FooTest.testAdd:12 message` summary entry by the name before its `:` (compared
 * as a string, never a pattern), the first of each, read in one pass: each failing test then
 * looks its entry up rather than reading the log again.
 */
const summaries = (lines: readonly LogLine[]): Map<string, RegExpExecArray> => {
  const found = new Map<string, RegExpExecArray>();
  for (const entry of lines) {
    const rest = /^\[ERROR\]\s+(\S.*)$/.exec(entry.text)?.[1];
    const colon = rest?.indexOf(':') ?? -1;
    if (!rest || colon < 0) continue;
    const name = rest.slice(0, colon);
    const where = found.has(name) ? null : /^:(\d+) (.*)$/.exec(rest.slice(colon));
    if (where) found.set(name, where);
  }
  return found;
};

const maven: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let summary: Map<string, RegExpExecArray> | undefined;
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
    summary ??= summaries(lines);
    const where = summary.get(simple);
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

/** `  at pkg.Cls.method(Cls.java:12)`: the file and line, when the frame is `method` of `cls`. */
const frameOf = (text: string, method: string, cls: string): readonly string[] | undefined => {
  const frame = /^\s+at ([\w.$]+)\(([\w$]+)(\.\w+):(\d+)\)/.exec(text);
  return frame?.[1]?.endsWith(`.${method}`) && frame[2] === cls
    ? [frame[0], `${frame[2]}${frame[3] ?? ''}`, frame[4] ?? '']
    : undefined;
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
      .map((l) => frameOf(l.text, match[1] ?? '', cls))
      .find((m) => m !== undefined);
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

/**
 * The tests a `<<< FAILURE!` line names, as `Class.method` (the class's simple name), in one
 * pass: each summary entry then looks itself up, never reads those lines again.
 */
const reportedTests = (lines: readonly LogLine[]): Set<string> => {
  const named = new Set<string>();
  for (const { text } of lines) {
    if (!/<<< (?:FAILURE|ERROR)!/.test(text)) continue;
    const v3 = /^(?:\[ERROR\]\s+)?(\S+)\.(\w+)\s+--\s+Time elapsed/.exec(text);
    const v2 = /^(?:\[ERROR\]\s+)?(\w+)\(([\w.$]+)\)\s+Time elapsed/.exec(text);
    const cls = v3?.[1] ?? v2?.[2];
    const method = v3?.[2] ?? v2?.[1];
    if (cls && method) named.add(`${cls.split('.').at(-1) ?? cls}.${method}`);
  }
  return named;
};

/**
 * Surefire's summary of the run, for tests no `<<< FAILURE!` line names:
 * `Failed tests:` / `Tests in error:` (Surefire 2), `[ERROR] Failures:` /
 * `[ERROR] Errors:` (3), each entry `FooTest.testAdd:12 message`, `FooTest.testDiv:20 » Arithmetic / by zero`
 * or `testAdd(com.x.FooTest): message`.
 */
const surefireSummary: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  const reported = reportedTests(lines);
  let inSection = false;
  for (const entry of lines) {
    const header =
      /^\s*(?:\[ERROR\]\s*)?(?:Failed tests|Tests in error|Failures|Errors):\s*(\S.*|)$/.exec(
        entry.text,
      );
    const body = header ? (header[1] ?? '') : entry.text.replace(/^\s*\[ERROR\]/, '');
    if (header) inSection = true;
    else if (!inSection || !/^\s+\S/.test(body)) {
      inSection = false;
      continue;
    }
    // One `->\S+` takes in any more (a repeated one backtracks exponentially on a line of
    // arrows); the message is what follows the blank and an optional `» `.
    const v3 = /^\s*(?:Run \d+: )?([\w$]+(?:\.[\w$]+)*)\.(\w+):(\d+)(?:->\S+)?\s+(\S.*|)$/.exec(
      body,
    );
    if (v3?.[4]?.startsWith('» ')) v3[4] = v3[4].slice(2);
    const v2 = /^\s*(\w+)\(([\w.$]+)\)(?::\s*(\S.*|))?$/.exec(body);
    const cls = v3?.[1] ?? v2?.[2];
    const method = v3?.[2] ?? v2?.[1];
    if (!cls || !method) continue;
    const simple = cls.split('.').at(-1) ?? cls;
    if (reported.has(`${simple}.${method}`)) continue;
    const message = (v3?.[4] ?? v2?.[3])?.trim();
    out.push({
      format: 'maven',
      ...(v3?.[3] ? { file: `${simple}.java`, line: Number(v3[3]) } : {}),
      test: `${cls}.${method}`,
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

/** Maven's `[ERROR] Failed to execute goal g:a:v:goal (id) on project p: message`: the plugin that failed the build. */
const mavenGoal = perLine(
  'maven',
  /^\[ERROR\]\s+Failed to execute goal (?:[\w.-]+:)?([\w.-]+):[\w.-]+:([\w-]+)(?: \([^)]*\))? on project [\w.-]+: (.*?)(?: -> \[Help \d+\])?$/,
  (m) => ({ message: `${m[1]}:${m[2]}: ${m[3]}` }),
);

/** javac and kotlinc as Maven, Gradle and Ant print them. */
const javac: Recogniser = (lines) =>
  lines.flatMap((entry) => {
    const match =
      // Maven: `[ERROR] /path/Foo.java:[12,5] message`, checkers: `[ERROR] /path/Foo.java:12: message`.
      /^\[ERROR\]\s+(\S+\.(?:java|kt|scala|groovy)):(?:\[(\d+),\d+\]|(\d+):)\s+(\S.*|)$/.exec(
        entry.text,
      ) ??
      // javac itself (Gradle, Ant): `src/Foo.java:12: error: message`.
      /^\s*(?:\[javac\]\s+)?((?:[A-Za-z]:)?[^\s:]+\.java):(\d+)():\s+error:\s+(\S.*|)$/.exec(
        entry.text,
      ) ??
      // kotlinc: `e: /path/Foo.kt: (12, 5): message`, `e: file:///path/Foo.kt:12:5 message`.
      /^e: (?:file:\/\/)?(\S+?\.kts?)(?::\s*\((\d+), \d+\):|:(\d+):\d+)\s+(\S.*|)$/.exec(
        entry.text,
      );
    if (!match?.[1]) return [];
    return [
      {
        format: 'javac' as const,
        file: repoPath(match[1]),
        line: Number(match[2] || match[3]),
        ...(match[4] ? { message: match[4].trim() } : {}),
        logLine: entry.line,
      },
    ];
  });

/** A JVM that died of an exception: `Exception in thread "main" x.Y: message`, at its first frame. */
const uncaught: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^Exception in thread "[^"]*" ([\w.$]+(?::\s*(?:\S.*|))?)$/.exec(entry.text);
    if (!match?.[1]) return [];
    const frame = lines
      .slice(index + 1, index + 4)
      .map((l) => /^\s+at \S+\((\w+\.(?:java|kt|scala|groovy)):(\d+)\)/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'jvm-exception' as const,
        ...(frame?.[1] ? { file: frame[1], line: Number(frame[2]) } : {}),
        message: match[1],
        logLine: entry.line,
      },
    ];
  });

/** The recognisers of this family, in the order they are tried. */
export const JVM: readonly Recogniser[] = [
  gradle,
  gradleBuild,
  maven,
  junit,
  surefireSummary,
  mavenGoal,
  javac,
  uncaught,
];
