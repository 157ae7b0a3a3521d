/**
 * Recognisers for the failure reports of common test runners, compilers and
 * linters, as they appear in a CI log. Each one reads the cleaned lines of
 * the failing step and names what failed: the file, the line and the test
 * where the output says them.
 */

/** A line of the log after cleaning, with its 1-based line number in the raw log. */
export interface LogLine {
  readonly line: number;
  readonly text: string;
}

export type FailureFormat =
  | 'vitest'
  | 'jest'
  | 'mocha'
  | 'node-test'
  | 'tsc'
  | 'eslint'
  | 'prettier'
  | 'pytest'
  | 'go-test'
  | 'cargo-test'
  | 'gradle'
  | 'maven'
  | 'junit'
  | 'javac'
  | 'gcc'
  | 'cmake'
  | 'go-build'
  | 'rustc'
  | 'dotnet'
  | 'xunit'
  | 'karma'
  | 'pester'
  | 'rspec'
  | 'python'
  | 'npm'
  | 'docker'
  | 'unittest'
  | 'flake8';

export interface RecognisedFailure {
  readonly format: FailureFormat;
  readonly file?: string;
  readonly line?: number;
  readonly test?: string;
  readonly message?: string;
  /** The raw-log line where it was recognised. */
  readonly logLine: number;
}

/** Runner checkouts are under these roots; the path inside the repository is what matters. */
const RUNNER_ROOTS = [
  /^\/home\/runner\/work\/[^/]+\/[^/]+\//,
  /^\/Users\/runner\/work\/[^/]+\/[^/]+\//,
  /^[A-Za-z]:[\\/]a[\\/][^\\/]+[\\/][^\\/]+[\\/]/,
  /^\/__w\/[^/]+\/[^/]+\//,
  /^\/home\/travis\/build\/[^/]+\/[^/]+\//,
  /^\/Users\/travis\/build\/[^/]+\/[^/]+\//,
  /^file:\/\/\/home\/runner\/work\/[^/]+\/[^/]+\//,
];

export const repoPath = (file: string): string => {
  let out = file.trim();
  for (const root of RUNNER_ROOTS) out = out.replace(root, '');
  return out.replace(/\\/g, '/').replace(/^\.\//, '');
};

const num = (value: string | undefined): number | undefined =>
  value === undefined ? undefined : Number.parseInt(value, 10);

type Recogniser = (lines: readonly LogLine[]) => RecognisedFailure[];

/** The first `file:line` location in the lines after `from` (a stack frame or an arrow). */
const locationAfter = (
  lines: readonly LogLine[],
  from: number,
  within: number,
  pattern: RegExp,
): { file: string; line: number } | undefined => {
  for (let i = from + 1; i < Math.min(lines.length, from + 1 + within); i += 1) {
    const match = pattern.exec(lines[i]?.text ?? '');
    if (match?.[1] && match[2] && !/node_modules|node:internal/.test(match[1]))
      return { file: repoPath(match[1]), line: Number(match[2]) };
  }
  return undefined;
};

const FRAME = /\(?((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):\d+\)?/;

const vitest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(.+?)\s*$/.exec(entry.text);
    if (!match?.[1] || !match[2]) return;
    const at = locationAfter(lines, index, 40, /❯\s+(\S+?):(\d+):\d+/);
    const message = lines
      .slice(index + 1, index + 4)
      .map((l) => l.text.trim())
      .find((t) => /Error|expected/i.test(t));
    out.push({
      format: 'vitest',
      file: at?.file ?? repoPath(match[1]),
      ...(at ? { line: at.line } : {}),
      test: match[2].replace(/\s+>\s+/g, ' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

const jest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let file: string | undefined;
  lines.forEach((entry, index) => {
    const failHeader = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s*(?:\(|$)/.exec(entry.text);
    if (failHeader?.[1]) {
      file = repoPath(failHeader[1]);
      return;
    }
    const bullet = /^\s*●\s+(.+?)\s*$/.exec(entry.text);
    if (!bullet?.[1] || /Console$|Test suite failed to run/.test(bullet[1])) return;
    const at = locationAfter(lines, index, 40, FRAME);
    const message = lines
      .slice(index + 1, index + 6)
      .map((l) => l.text.trim())
      .find((t) => t.length > 0);
    out.push({
      format: 'jest',
      ...((at?.file ?? file) ? { file: at?.file ?? file } : {}),
      ...(at ? { line: at.line } : {}),
      test: bullet[1].replace(/\s+›\s+/g, ' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  });
  return out;
};

const mocha: Recogniser = (lines) => {
  const start = lines.findIndex((l) => /^\s*\d+ failing\s*$/.test(l.text));
  if (start < 0) return [];
  const out: RecognisedFailure[] = [];
  for (let i = start + 1; i < lines.length; i += 1) {
    const entry = lines[i] as LogLine;
    const head = /^\s*\d+\)\s+(.+?):?\s*$/.exec(entry.text);
    if (!head?.[1]) continue;
    // The title continues on indented lines until the one ending with ':'.
    const parts = [head[1]];
    let j = i + 1;
    while (j < lines.length && !head[1].endsWith(':')) {
      const next = (lines[j] as LogLine).text.trim();
      if (next.length === 0) break;
      if (/Error|expected/.test(next)) break;
      parts.push(next.replace(/:$/, ''));
      j += 1;
      if (next.endsWith(':')) break;
    }
    const at = locationAfter(lines, i, 30, FRAME);
    const message = lines
      .slice(j, j + 4)
      .map((l) => l.text.trim())
      .find((t) => /Error|expected/.test(t));
    out.push({
      format: 'mocha',
      ...(at ? { file: at.file, line: at.line } : {}),
      test: parts.join(' > '),
      ...(message ? { message } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

const nodeTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    // TAP: "not ok 1 - name", then a YAML block with location: 'file:line:col'.
    const tap = /^\s*not ok \d+ - (.+?)\s*$/.exec(entry.text);
    if (tap?.[1]) {
      const at = locationAfter(lines, index, 20, /location:\s*'([^']+?):(\d+):\d+'/);
      const message = lines
        .slice(index + 1, index + 20)
        .map((l) => /^\s*error:\s*['|]?(.*?)'?$/.exec(l.text)?.[1])
        .find((t) => t !== undefined && t.length > 0);
      out.push({
        format: 'node-test',
        ...(at ? { file: at.file, line: at.line } : {}),
        test: tap[1],
        ...(message ? { message } : {}),
        logLine: entry.line,
      });
      return;
    }
    // spec: "test at file:line:col" followed by "✖ name (1.2ms)".
    const where = /^\s*test at (\S+?):(\d+):\d+\s*$/.exec(entry.text);
    const next = lines[index + 1];
    const title = next ? /^\s*✖\s+(.+?)\s*(?:\([\d.]+m?s\))?\s*$/.exec(next.text) : null;
    if (where?.[1] && where[2] && title?.[1]) {
      const message = lines
        .slice(index + 2, index + 6)
        .map((l) => l.text.trim())
        .find((t) => /Error|expected/i.test(t));
      out.push({
        format: 'node-test',
        file: repoPath(where[1]),
        line: Number(where[2]),
        test: title[1],
        ...(message ? { message } : {}),
        logLine: entry.line,
      });
    }
  });
  return out;
};

const tsc: Recogniser = (lines) =>
  lines.flatMap((entry) => {
    const match =
      /^\s*(\S+?\.[cm]?[jt]sx?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(entry.text) ??
      /^\s*(\S+?\.[cm]?[jt]sx?):(\d+):\d+ - error (TS\d+): (.*)$/.exec(entry.text);
    if (!match?.[1]) return [];
    return [
      {
        format: 'tsc' as const,
        file: repoPath(match[1]),
        line: Number(match[2]),
        message: `${match[3]}: ${match[4]}`,
        logLine: entry.line,
      },
    ];
  });

const eslint: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  let file: string | undefined;
  for (const entry of lines) {
    if (/^\s*(?:[A-Za-z]:)?[/\\]\S+\.\w+\s*$/.test(entry.text) || /^\S+\.\w+$/.test(entry.text)) {
      file = repoPath(entry.text);
      continue;
    }
    const match = /^\s+(\d+):\d+\s+error\s+(.+?)\s{2,}(\S+)\s*$/.exec(entry.text);
    if (match && file) {
      out.push({
        format: 'eslint',
        file,
        line: num(match[1]) ?? 0,
        message: `${match[2]} (${match[3]})`,
        logLine: entry.line,
      });
    }
  }
  return out;
};

const prettier: Recogniser = (lines) => {
  const summary = lines.find((l) =>
    /Code style issues (?:found|were found)|Forgot to run Prettier\?/.test(l.text),
  );
  if (!summary) return [];
  return lines.flatMap((entry) => {
    const match = /^\s*\[warn\]\s+(\S+\.\w+)\s*$/.exec(entry.text);
    return match?.[1]
      ? [
          {
            format: 'prettier' as const,
            file: repoPath(match[1]),
            message: 'not formatted',
            logLine: entry.line,
          },
        ]
      : [];
  });
};

const pytest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  for (const entry of lines) {
    const match = /^\s*(?:FAILED|ERROR)\s+(\S+?\.py)::(\S+)(?:\s+-\s+(.*))?$/.exec(entry.text);
    if (!match?.[1] || !match[2]) continue;
    const file = repoPath(match[1]);
    const leaf = match[2].split('::').at(-1)?.replace(/\[.*$/, '') ?? match[2];
    // "file.py:12: AssertionError" in the traceback section gives the line.
    const loc = lines.find((l) =>
      new RegExp(`^\\s*${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+): \\w+`).test(l.text),
    );
    const header = lines.findIndex((l) => new RegExp(`_{3,} .*\\b${leaf}\\b.* _{3,}`).test(l.text));
    const locAfterHeader =
      header >= 0
        ? lines
            .slice(header)
            .find((l) => /^\s*\S+\.py:\d+: \w+/.test(l.text) && l.text.includes(file))
        : undefined;
    const where = /:(\d+): /.exec((locAfterHeader ?? loc)?.text ?? '');
    out.push({
      format: 'pytest',
      file,
      ...(where?.[1] ? { line: Number(where[1]) } : {}),
      test: match[2],
      ...(match[3] ? { message: match[3] } : {}),
      logLine: entry.line,
    });
  }
  return out;
};

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

const cargoTest: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    const match = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(entry.text);
    if (!match?.[1]) return;
    const name = match[1];
    const panic = lines.find((l) => l.text.includes(`thread '${name}' panicked at`));
    const where = panic ? /panicked at (\S+?):(\d+):\d+/.exec(panic.text) : null;
    const panicIndex = panic ? lines.indexOf(panic) : -1;
    const message =
      panicIndex >= 0
        ? (/panicked at [^,]+?:\d+:\d+:\s*(.+)$/.exec(panic?.text ?? '')?.[1] ??
          lines[panicIndex + 1]?.text.trim())
        : undefined;
    out.push({
      format: 'cargo-test',
      ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
      test: name,
      ...(message ? { message } : {}),
      logLine: entry.line || lines[index]?.line || 0,
    });
  });
  return out;
};

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

/** One failure per line that matches, with file, line and message taken from the match. */
const perLine =
  (
    format: FailureFormat,
    pattern: RegExp,
    pick: (m: RegExpExecArray) => { file?: string; line?: string; test?: string; message?: string },
  ): Recogniser =>
  (lines) =>
    lines.flatMap((entry) => {
      const match = pattern.exec(entry.text);
      if (!match) return [];
      const { file, line, test, message } = pick(match);
      return [
        {
          format,
          ...(file ? { file: repoPath(file) } : {}),
          ...(line ? { line: Number(line) } : {}),
          ...(test ? { test } : {}),
          ...(message ? { message: message.trim() } : {}),
          logLine: entry.line,
        },
      ];
    });

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

const gcc = perLine(
  'gcc',
  /^\s*((?:[A-Za-z]:)?[^\s:]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|s|S)):(\d+)(?::\d+)?: (?:fatal )?error: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

const cmake = perLine('cmake', /^CMake Error(?: at (\S+?):(\d+))?.*?(?::\s*(.*))?$/, (m) => ({
  ...(m[1] ? { file: m[1], line: m[2] } : {}),
  ...(m[3] ? { message: m[3] } : {}),
}));

/** Go build and vet: `path/file.go:12:3: message` (not a test's own `file_test.go:12: message`). */
const goBuild = perLine(
  'go-build',
  /^(?:##\[error\])?((?:\.\/)?[^\s:]+\.go):(\d+):\d+: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] }),
);

const rustc: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^error(?:\[(E\d{4})\])?: (.*)$/.exec(entry.text);
    if (!match?.[2] || /^(?:aborting due to|could not compile|test failed)/.test(match[2]))
      return [];
    const at = lines
      .slice(index + 1, index + 4)
      .map((l) => /^\s*--> (\S+?):(\d+):\d+/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'rustc' as const,
        ...(at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {}),
        message: match[1] ? `${match[1]}: ${match[2]}` : match[2],
        logLine: entry.line,
      },
    ];
  });

const dotnet = perLine(
  'dotnet',
  /^\s*(?:\d+>)?((?:[A-Za-z]:)?[^\s(:]+\.(?:cs|fs|vb|csproj|fsproj|props|targets))\((\d+),\d+\): error ((?:CS|FS|BC|MSB|NU)\d+): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ file: m[1], line: m[2], message: `${m[3]}: ${m[4]}` }),
);

const xunit = perLine('xunit', /^\s*([\w.`<>]+(?:\([^)]*\))?) \[FAIL\]\s*$/, (m) => ({
  test: m[1],
}));

const karma: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^((?:[A-Z][\w-]* )+[\d.]+ \([^)]*\)) (.+) FAILED\s*$/.exec(entry.text);
    if (!match?.[2]) return [];
    const message = lines[index + 1]?.text.trim();
    return [
      {
        format: 'karma' as const,
        test: match[2],
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

const pester: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^\s*\[-\] (.+?)(?: \d+(?:\.\d+)?m?s)?\s*$/.exec(entry.text);
    if (!match?.[1]) return [];
    const message = lines[index + 1]?.text.trim();
    const at = lines
      .slice(index + 1, index + 8)
      .map((l) => /at .*?, (\S+\.ps1): line (\d+)/.exec(l.text))
      .find((m) => m !== null);
    return [
      {
        format: 'pester' as const,
        ...(at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {}),
        test: match[1],
        ...(message ? { message } : {}),
        logLine: entry.line,
      },
    ];
  });

const rspec = perLine('rspec', /^rspec (\.\/\S+?):(\d+) # (.*)$/, (m) => ({
  file: m[1],
  line: m[2],
  test: m[3],
}));

/** A Python traceback: the exception on its last line, the innermost frame in the repository. */
const python: Recogniser = (lines) => {
  const out: RecognisedFailure[] = [];
  lines.forEach((entry, index) => {
    if (!/^\s*Traceback \(most recent call last\):/.test(entry.text)) return;
    let frame: RegExpExecArray | null = null;
    for (let i = index + 1; i < Math.min(lines.length, index + 200); i += 1) {
      const text = lines[i]?.text ?? '';
      const at = /^\s*File "([^"]+)", line (\d+)/.exec(text);
      if (at) {
        if (!/site-packages|dist-packages|<frozen|\/lib\/python\d/.test(at[1] ?? '')) frame = at;
        continue;
      }
      const error = /^([\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\w*)(?::\s*(.*))?$/.exec(
        text,
      );
      if (error?.[1]) {
        out.push({
          format: 'python',
          ...(frame?.[1] ? { file: repoPath(frame[1]), line: Number(frame[2]) } : {}),
          message: error[2] ? `${error[1]}: ${error[2]}` : error[1],
          logLine: entry.line,
        });
        return;
      }
    }
  });
  return out;
};

const npm: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^npm ERR! code (\S+)/.exec(entry.text);
    if (!match?.[1]) return [];
    const detail = lines
      .slice(index + 1, index + 6)
      .map((l) => /^npm ERR! (?!code |errno |path |syscall )(.+)$/.exec(l.text)?.[1])
      .find((t) => t !== undefined && t.trim() !== '');
    return [
      {
        format: 'npm' as const,
        message: detail ? `${match[1]}: ${detail}` : match[1],
        logLine: entry.line,
      },
    ];
  });

const docker = perLine(
  'docker',
  /^(?:#\d+ )?(?:ERROR: failed to solve: (.*)|The command '(.*)' returned a non-zero code: \d+)$/,
  (m) => ({ message: m[1] ?? `'${m[2] ?? ''}' failed` }),
);

/** pytest without `-r` summary lines: a `____ test_name ____` banner, then `file.py:12: Error`. */
const pytestBanner: Recogniser = (lines) =>
  lines.flatMap((entry, index) => {
    const match = /^_{3,} ((?:\w+\.)?test\w*(?:\[.*\])?) _{3,}$/.exec(entry.text);
    if (!match?.[1]) return [];
    let where: RegExpExecArray | null = null;
    for (let i = index + 1; i < Math.min(lines.length, index + 150); i += 1) {
      const text = lines[i]?.text ?? '';
      if (/^_{3,} .* _{3,}$|^={3,}/.test(text)) break;
      where = /^((?:[A-Za-z]:)?[^\s:]+\.py):(\d+): (\w+.*)$/.exec(text) ?? where;
    }
    return [
      {
        format: 'pytest' as const,
        ...(where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {}),
        test: match[1],
        ...(where?.[3] ? { message: where[3] } : {}),
        logLine: entry.line,
      },
    ];
  });

const unittest = perLine('unittest', /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/, (m) => ({
  test: `${m[2]}.${m[1]}`,
}));

const flake8 = perLine('flake8', /^((?:\.\/)?[^\s:]+\.py):(\d+):\d+: ([A-Z]\d{3} .*)$/, (m) => ({
  file: m[1],
  line: m[2],
  message: m[3],
}));

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

const RECOGNISERS: readonly Recogniser[] = [
  vitest,
  jest,
  mocha,
  nodeTest,
  tsc,
  eslint,
  prettier,
  pytest,
  goTest,
  cargoTest,
  gradle,
  maven,
  junit,
  javac,
  gcc,
  cmake,
  goBuild,
  rustc,
  dotnet,
  xunit,
  karma,
  pester,
  rspec,
  python,
  npm,
  docker,
  pytestBanner,
  unittest,
  flake8,
  gradleBuild,
];

/** Every failure the known formats recognise in the lines, in log order, without repeats. */
export const recogniseFailures = (lines: readonly LogLine[], max = 50): RecognisedFailure[] => {
  const seen = new Set<string>();
  return RECOGNISERS.flatMap((recognise) => recognise(lines))
    .filter((failure) => {
      const key = `${failure.format}|${failure.file ?? ''}|${failure.line ?? ''}|${failure.test ?? ''}|${failure.message ?? ''}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => a.logLine - b.logLine)
    .slice(0, max);
};
