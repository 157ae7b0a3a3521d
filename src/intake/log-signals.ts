/**
 * How much a line of build output says "this is why it failed", per
 * ecosystem: the markers compilers, test runners and build tools print when
 * something goes wrong, and the lines that look alarming but are not (a
 * summary with zero failures, Maven's help footer, a download). Scores are
 * 0–10; the excerpt takes the highest-scoring blocks first.
 */

interface Signal {
  readonly pattern: RegExp;
  readonly score: number;
}

/** Lines that carry an error word but report nothing wrong. */
const NOT_AN_ERROR: readonly RegExp[] = [
  /\b(?:Failures|Errors|failed|errors|failures): 0\b(?!\.\d)(?:(?!Failures: [1-9]|Errors: [1-9]).)*$/i,
  /\b0 (?:failures?|errors?|failed)\b(?!.*\b[1-9]\d* (?:failures?|errors?|failed)\b)/i,
  /^\s*\[INFO\]/,
  /^\s*(?:Download(?:ing|ed)|Progress|Receiving objects|Resolving deltas|remote: )/,
  /^\s*npm (?:WARN|notice)\b/,
  /\b-W(?:error|no-error)\b|-Werror=|--fail-fast|--failfast|-DfailIfNoTests|fail_on|failOnError|continue-on-error/,
  /^\s*(?:ok|PASS|PASSED|passed|✓|√|✔|\[\+\])(?:\s|$)/,
  /\bPASSED\b|\bpassed\b(?!.*\bfailed\b)/,
  /^\s*\[(?:WARNING|WARN)\]/,
  /^\s*(?:Setting up|Unpacking|Selecting previously|Preparing to unpack|Get:\d+|Hit:\d+|Fetched )/,
  /^\s*(?:Compiling|Checking|Fresh|Installing|Collecting|Requirement already satisfied|Successfully installed)\b/,
  /^\s*(?:\$ |\+ )?(?:export |travis_|echo )/,
  /[/\\](?:errors?|failures?|exceptions?)[/\\.]|\b(?:error|failure|exception)s?\.(?:java|py|go|rs|js|ts|c|cc|cpp|h|rb|cs)\b/i,
];

/** Maven's footer after `[ERROR]`: always the same advice, never the reason. */
const MAVEN_FOOTER =
  /^\s*\[ERROR\]\s*(?:$|->\s*\[Help|To see the full stack trace|Re-run Maven|For more information about|\[Help \d+\]|After correcting the problems|mvn <goals>|Please refer to .* for the individual test results|See dump files)/;

const SIGNALS: readonly Signal[] = [
  // Runner markers of a failed step or command.
  { pattern: /^##\[error\]/, score: 9 },
  { pattern: /The command ".*" (?:failed and )?exited with [1-9]\d*/, score: 6 },
  { pattern: /^(?:Build step .* marked build as failure|Finished: FAILURE)/, score: 3 },
  // Maven, surefire/failsafe, enforcer, dependency resolution. (Three patterns, not one: after
  // `\s*`, `.*` starts at the first non-blank and `\S+[.:]` at the first `.` or `:`, or each
  // blank and each dot is a place to backtrack from on a long line.)
  {
    pattern:
      /^\s*\[ERROR\]\s*(?:Failed to execute goal|COMPILATION ERROR|Failed tests:|Tests in error:|Tests run:.*(?:Failures|Errors): [1-9]|Could not resolve dependencies|Rule \d+:|Failed to collect dependencies|Errors?:|Failures?:)/,
    score: 10,
  },
  {
    pattern:
      /^\s*\[ERROR\]\s*(?:\S.*)?(?:\.(?:java|kt|scala|groovy):\[?\d+|<<< (?:FAILURE|ERROR)!)/,
    score: 10,
  },
  { pattern: /^\s*\[ERROR\]\s+\S[^\s.:]*[.:]\S+:\d+ /, score: 10 },
  { pattern: /^\s*\[ERROR\]/, score: 7 },
  { pattern: /<<< (?:FAILURE|ERROR)!/, score: 10 },
  { pattern: /^\s*(?:Failed tests|Tests in error|Tests with failures):/, score: 10 },
  { pattern: /Tests run:.*(?:Failures|Errors): [1-9]/, score: 8 },
  { pattern: /BUILD FAILURE|\[FATAL\]/, score: 6 },
  // Gradle and JUnit/TestNG.
  { pattern: /^\s*\* What went wrong:/, score: 10 },
  { pattern: /^\s*(?:FAILURE: Build failed|BUILD FAILED)/, score: 8 },
  { pattern: /^[\w.$]+ > \S.* FAILED\s*$/, score: 10 },
  // Karma and other browser runners: `Chrome 70.0 (Linux 0.0.0) suite should … FAILED`.
  { pattern: /^(?:[A-Z][\w-]* )+[\d.]+ \([^)]*\) .* FAILED\s*$/, score: 10 },
  { pattern: /\bFAILED\s*$/, score: 7 },
  { pattern: /^> Task \S+ FAILED/, score: 8 },
  { pattern: /^\s*(?:Exception in thread|Caused by:)/, score: 8 },
  { pattern: /^\s*(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Failure)\b(?::|$)/, score: 8 },
  // Python: pytest, unittest, tox/nox, tracebacks, flake8.
  { pattern: /^\s*Traceback \(most recent call last\)/, score: 9 },
  { pattern: /^E {2,}\S|^E\s+\w+(?:Error|Exception)\b/, score: 8 },
  { pattern: /^_{3,} (?:ERROR collecting|ERROR at|.+) _{3,}$/, score: 8 },
  { pattern: /^={3,} (?:FAILURES|ERRORS) ={3,}$/, score: 7 },
  { pattern: /^(?:FAILED|ERROR) \S+(?:::|\.py)/, score: 9 },
  { pattern: /^(?:FAIL|ERROR): \w+ \(/, score: 10 },
  { pattern: /^\w*(?:Error|Exception): /, score: 8 },
  {
    pattern: /^ERROR: .*(?:commands? failed|InvocationError|could not)|^\s*\w+: commands failed/,
    score: 8,
  },
  { pattern: /^=+ .*\b(?:\d+ (?:failed|errors?))\b.* =+$/, score: 8 },
  { pattern: /^\S+\.py:\d+:\d+: [A-Z]\d{3} /, score: 9 },
  // Go: tests, build, vet, panics.
  { pattern: /^\s*--- FAIL: /, score: 10 },
  { pattern: /^\s*panic: |^fatal error: /, score: 10 },
  { pattern: /^FAIL\s+\S+/, score: 7 },
  { pattern: /^\s*\S+\.go:\d+(?::\d+)?: /, score: 9 },
  { pattern: /^# \S+$/, score: 4 },
  // Rust: rustc/cargo diagnostics, test failures, panics.
  { pattern: /^error(?:\[E\d{4}\])?: /, score: 10 },
  { pattern: /^\s*--> \S+:\d+:\d+/, score: 8 },
  { pattern: /^test \S+ \.\.\. FAILED/, score: 10 },
  { pattern: /panicked at /, score: 10 },
  { pattern: /^---- \S+ stdout ----/, score: 9 },
  { pattern: /^test result: FAILED/, score: 8 },
  // C/C++: gcc/clang, linkers, make, CMake.
  { pattern: /:\d+(?::\d+)?: (?:fatal )?error: /, score: 10 },
  {
    pattern:
      /undefined reference to|ld returned \d+ exit status|Undefined symbols? for architecture/,
    score: 10,
  },
  { pattern: /^CMake Error\b/, score: 10 },
  { pattern: /^(?:g?make(?:\[\d+\])?|ninja): \*\*\*|^ninja: build stopped|^FAILED: /, score: 7 },
  { pattern: /^(?:fatal )?error: |^\s*collect2: error/, score: 9 },
  { pattern: /\bAssertion .* failed\b|\bSegmentation fault\b|\bAborted \(core dumped\)/, score: 9 },
  // JavaScript/TypeScript: tsc, eslint, jest, mocha, tap, npm.
  { pattern: /\(\d+,\d+\): error TS\d+|\berror TS\d+:/, score: 10 },
  { pattern: /^\s*\d+:\d+\s+(?:error|✖)\s/, score: 9 },
  { pattern: /^\s*✖ \d+ problems?/, score: 8 },
  { pattern: /^\s*● /, score: 10 },
  { pattern: /^\s*(?:FAIL|✕|×|✗|✘)\s+\S/, score: 8 },
  { pattern: /^\s*\d+\) \S/, score: 7 },
  { pattern: /^\s*\d+ failing\b/, score: 9 },
  { pattern: /^not ok \d+/, score: 9 },
  { pattern: /^\s*(?:Assertion|Type|Reference|Syntax|Range)Error\b/, score: 9 },
  {
    pattern:
      /^npm ERR! (?:code|errno|Failed at|Test failed|missing script|\S+ (?:ERESOLVE|E404|ETARGET))/,
    score: 8,
  },
  { pattern: /^npm ERR!|^error Command failed|^ERR_PNPM_|^\s*ELIFECYCLE/, score: 6 },
  { pattern: /^\S+\.[cm]?[jt]sx?:\d+(?::\d+)? /, score: 8 },
  // .NET: msbuild (any tool's code: CS, MSB, NU, NETSDK, CA, IDE, SA…), xunit/nunit/mstest/vstest.
  { pattern: /\[FAIL\]\s*$/, score: 10 },
  { pattern: /\berror [A-Z]{2,8}\d{3,5}\b/, score: 10 },
  { pattern: /^\s*\d+\) (?:Failed|Error|Invalid|Test Failure|Test Error) : \S/, score: 10 },
  { pattern: /^\s*(?:Failed|X) \S+ \[[<\d]/, score: 9 },
  { pattern: /^\s*Failed!\s+-\s+Failed:\s+[1-9]/, score: 8 },
  { pattern: /^\s*Build FAILED\.|^\s*Test Run Failed\./, score: 8 },
  // PowerShell: Pester's failed tests, exceptions, error records (`At script.ps1:12 char:5`, `+ CategoryInfo`).
  { pattern: /^\s*\[-\] \S/, score: 10 },
  { pattern: /^At \S+\.ps[dm]?1:\d+|^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId)\s*:/, score: 8 },
  { pattern: /^\s*(?:[A-Z]\w*)?(?:Exception|Error): \S/, score: 8 },
  // Ruby and others: rspec, minitest, rubocop, PHPUnit, Elixir, Haskell.
  { pattern: /^\s*(?:Failure|Error):\s*$|^\s*\d+\) (?:Failure|Error):/, score: 9 },
  { pattern: /^\s*(?:Failures|Errors|Failed tests?|Failing tests?):\s*$/, score: 8 },
  { pattern: /^rspec \.\/\S+:\d+/, score: 9 },
  { pattern: /^\d+ (?:examples?|tests?|runs?), \d+ (?:failures?|assertions)/, score: 7 },
  { pattern: /^There (?:was|were) \d+ (?:failures?|errors?):/, score: 10 },
  { pattern: /^\S+:\d+:\d+: [CEFW]: /, score: 8 },
  { pattern: /^\*\* \(\w+\)|^\s*\*\* \(\S+Error\)/, score: 9 },
  // The system and the shell.
  {
    pattern:
      /No space left on device|[Cc]ommand not found|Permission denied|Out of memory|Killed\b.*signal|[Ss]egmentation fault|Connection refused|cannot stat|No such file or directory|Cannot allocate memory|Too many open files/,
    score: 7,
  },
  { pattern: /^(?:\/bin\/)?(?:ba|z|da)?sh: (?:line \d+: )?\S/, score: 7 },
  // Docker builds.
  { pattern: /^(?:ERROR: failed to solve|The command '.*' returned a non-zero code)/, score: 9 },
  // Anything that says it.
  { pattern: /\b(?:fatal|FATAL)\b/, score: 6 },
  { pattern: /\berror\b|\bERROR\b|\bError\b/, score: 5 },
  { pattern: /\b(?:fail(?:ed|ure|ing|s)?|FAIL(?:ED|URE)?|Fail(?:ed|ure)?)\b/, score: 5 },
  { pattern: /\bexception\b|\bException\b|\bpanic\b|\bTraceback\b/, score: 5 },
  { pattern: /\b(?:expected|Expected|actual|Actual|assert)\b/, score: 3 },
  { pattern: /\b(?:warning|Warning|WARNING)\b|\bnot found\b|\bcannot\b|\bunable to\b/i, score: 2 },
];

/** 0–10: how much this (cleaned) line says what went wrong. */
export const lineSignal = (text: string): number => {
  if (text.length === 0) return 0;
  if (MAVEN_FOOTER.test(text)) return 1;
  let best = 0;
  for (const signal of SIGNALS) {
    if (signal.score > best && signal.pattern.test(text)) best = signal.score;
  }
  if (best > 0 && best <= 5 && NOT_AN_ERROR.some((pattern) => pattern.test(text))) return 0;
  if (best > 5 && NOT_AN_ERROR.slice(0, 2).some((pattern) => pattern.test(text))) return 1;
  return best;
};

/** A line that belongs to the block above it: indented, a frame, a diagnostic's gutter, a prefix. */
export const continues = (previous: string, text: string): boolean => {
  if (text.length === 0) return false;
  if (/^\s+\S/.test(text)) return true;
  if (/^(?:at |Caused by:|\.\.\. \d+ more|\|\s|\d+\s*\||=\s|\^|~+)/.test(text)) return true;
  const prefix = /^(\[ERROR\]|npm ERR!|E {2,}|E$|>|##\[error\]|error:|warning:|note:|help:)/.exec(
    previous,
  )?.[1];
  return prefix !== undefined && text.startsWith(prefix.trimEnd());
};

/** A heading that opens a block of its own: a section rule, a test's banner, a tool's header. */
export const opensBlock = (text: string): boolean =>
  /^(?:={3,}|_{3,}|-{3,} \S|\* What went wrong|[\w.$]+ > \S.* FAILED|Failures:|failures:|Tests in error:|Failed tests:)/.test(
    text,
  );
