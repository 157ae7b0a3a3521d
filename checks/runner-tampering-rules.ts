/**
 * The rules of `no-runner-tampering`, as data: which product lines reach into
 * a test runner, print its result lines, end the test process, or detect the
 * test run. A list by nature; each rule is written for the mechanism, not one
 * spelling of it: a rule marked `literals` reads every string literal of the
 * line as the program would see it (pieces joined — `"=" + "== RUN"`,
 * `"_py" "test"` —, escapes decoded, each printed line apart, and once more
 * with its format placeholders removed — `"pas{}sed"`, `"--- %s:"`).
 */
import { pattern } from '../src/util/pattern.ts';
export interface Pattern {
  readonly files: RegExp;
  readonly lines: RegExp;
  readonly why: string;
  /** Read each string literal of the line (see above) instead of the line. */
  readonly literals?: boolean;
  /** Only when the file's added lines also hold this. */
  readonly with?: RegExp;
  /** Not when the file, as changed, holds this (a Go `package main` may exit). */
  readonly notIn?: RegExp;
  /** Not for these paths (a Rust binary's `src/main.rs` may exit). */
  readonly notPath?: RegExp;
  /** Read comment lines too (a `//go:linkname` directive, cgo's C preamble); else they are skipped. */
  readonly comments?: boolean;
}

export const PY = /\.pyi?$/;
export const GO = /\.go$/;
export const RS = /\.rs$/;
export const JS = /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts|vue|svelte)$/;
export const RB = /\.(rb|rake)$/;
export const ANY = /./;

/**
 * A line that is a comment from its start (Python's `#`, elsewhere `//`): it
 * runs nothing. Only those: a line opening with `/*` or `*` may hold code
 * after the comment closes, and a comment at a line's end is read with it.
 */
export const isCommentLine = (file: string, line: string): boolean =>
  PY.test(file) || RB.test(file) ? /^\s*#/.test(line) : /^\s*\/\//.test(line);

/** A Go file of a program, not a library: it may exit, and read its own command line. */
export const GO_MAIN = /^package\s+main\b/m;
/** A Rust binary's own files: they may exit. */
const RUST_BIN = /(^|\/)src\/(main\.rs$|bin\/)/;
/** What a Go file prints with. */
const GO_PRINTS =
  /\bfmt\s*\.\s*(Print|Fprint)|\bos\s*\.\s*Stdout\b|\bprintln\s*\(|\bio\s*\.\s*WriteString\b/;

export const RUNNER_MODULES = /(?:pytest|_pytest|unittest|doctest|builtins)/;

/** What pytest's and unittest's classes run a test or report it with; product code never rebinds these. */
const RUNNER_METHODS =
  /runtest|runTest|_callTestMethod|_callSetUp|_callTearDown|addFailure|addError|addSuccess|addSkip|_addSkip|addExpectedFailure|addUnexpectedSuccess|assert[A-Z]\w*/;

export const PATTERNS: readonly Pattern[] = [
  // Python
  { files: PY, lines: /\b_pytest\b/, why: "reaches into pytest's internals" },
  {
    files: PY,
    lines:
      /\bsys\s*\.\s*(modules|meta_path|path_hooks|path_importer_cache|__dict__)\b|\bfrom\s+sys\s+import\b[^#]*\b(modules|meta_path|path_hooks|path_importer_cache)\b|\bgetattr\s*\(\s*sys\s*,(?!\s*(['"])(?!(modules|meta_path|path_hooks|path_importer_cache|__dict__)\3)\w+\3)|\bvars\s*\(\s*sys\s*\)/,
    why: 'reaches into loaded modules or the import system (sys.modules, import hooks)',
  },
  {
    // A judged run reads no bytecode cache; in-process, the prefix could still be moved to one.
    files: PY,
    lines: /\bpycache_prefix\b|\bMAGIC_NUMBER\b|\bcache_from_source\b|\bmarshal\s*\.\s*dumps?\b/,
    why: 'writes compiled modules or moves where the runner reads them from (bytecode caches)',
  },
  {
    files: PY,
    lines: /\b(pytest|unittest|doctest)\s*\.\s*(skip|xfail|exit|fail|main)\s*\(/,
    why: 'steers the test runner',
  },
  {
    files: PY,
    lines: /\b(pytest|unittest|doctest|builtins|_pytest)(\.\w+)+\s*=(?!=)/,
    why: "rebinds a runner's or the builtins' attribute",
  },
  {
    files: PY,
    lines: /\bsetattr\s*\(\s*(pytest|unittest|doctest|builtins|_pytest)\b/,
    why: "rebinds a runner's or the builtins' attribute",
  },
  {
    files: PY,
    lines: pattern()`\.\s*(${RUNNER_METHODS})\s*=(?!=)|\bsetattr\s*\([^,]+,\s*['"](${RUNNER_METHODS})['"]|\b(${RUNNER_METHODS})\s*=\s*lambda\b`,
    why: 'rebinds what a runner runs or reports a test with, through any name',
  },
  {
    files: PY,
    lines:
      /\b(os|posix|nt)\s*\.\s*(_exit|abort|exec\w*)\b|\bos\s*\.\s*kill\s*\(\s*os\s*\.\s*getpid\b/,
    why: 'ends or replaces the process',
  },
  {
    files: PY,
    lines:
      /\b(__import__|import_module)\s*\(\s*['"](pytest|_pytest|unittest|doctest|builtins|sys)\b/,
    why: 'loads a runner module by name',
  },
  {
    files: PY,
    lines:
      /\b__code__\b|\bsys\.(setprofile|settrace|_getframe)\b|\bgc\.(get_objects|get_referrers)\b|\binspect\.stack\s*\(/,
    why: "reaches into other code's frames or functions",
  },
  {
    files: PY,
    lines: /\batexit\b|PYTEST_ADDOPTS/,
    why: 'acts when the test process ends, or on its report',
  },
  {
    files: PY,
    lines: /pytest|py\.test|\bunittest\b/i,
    literals: true,
    why: 'detects the test run (names the runner in a string: its module, its variables)',
  },
  {
    files: PY,
    lines: /\bsys\s*\.\s*(argv|orig_argv|executable)\b.*\btest/i,
    why: 'detects the test run from the command line',
  },
  // JavaScript and TypeScript
  {
    files: JS,
    lines:
      /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\bgetBuiltinModule\s*\(\s*)(['"`])(node:)?(assert(\/strict)?|test)\2/,
    why: 'loads the assertion or test module into product code',
  },
  {
    files: JS,
    lines: /^(node:(assert|test)|assert\/strict)(\/|$)/,
    literals: true,
    why: 'names the assertion or test module',
  },
  {
    files: JS,
    lines:
      /\bgetBuiltinModule\b(?!['"`]\s+in\b)(?!\s*\(\s*(['"`])(?!(node:)?(assert|test)\b)[\w:/.-]+\1\s*\))/,
    why: 'loads a built-in module by a name it computes',
  },
  {
    files: JS,
    lines:
      /\b(expect|chai)\s*\.\s*(extend|use|addEqualityTesters|addSnapshotSerializer|Assertion|getState|setState)\b|\b(vi|jest)\s*\.\s*(fn|spyOn|mock|doMock|stubGlobal|stubEnv|useFakeTimers|setSystemTime|importActual|hoisted|mocked)\s*\(/,
    why: "uses a runner's assertion or mocking globals in product code",
  },
  {
    files: JS,
    lines: /(['"`])node:\1\s*\+|`node:\$\{/,
    why: "builds a built-in module's name",
  },
  {
    files: JS,
    lines:
      /\bprocess\.(on|once|prependListener)\s*\(\s*['"](exit|beforeExit)['"]|\bprocess\.(reallyExit|binding)\b/,
    why: 'hooks or bypasses the process exit',
  },
  {
    files: JS,
    lines: /\bmodule\.constructor\b|\._load\s*\(|\brequire\.cache\b|\bcreateRequire\b/,
    why: "loads modules behind the runner's back",
  },
  {
    files: JS,
    lines:
      /\b(VITEST\w*|JEST_WORKER_ID|JEST_\w+|NODE_TEST_CONTEXT|MOCHA_\w+|__vitest_\w+|__VITEST_\w+|npm_lifecycle_(event|script))\b/,
    why: 'detects the test run (a variable or global only a runner sets)',
  },
  {
    files: JS,
    lines:
      /\bNODE_ENV\b.*(['"`])test\1|(['"`])test\2.*\bNODE_ENV\b|\bimport\.meta\.env\b.*(['"`])test\3/,
    why: 'detects the test run (NODE_ENV is "test" under a runner)',
  },
  {
    files: JS,
    lines: /\bprocess\s*\.\s*(argv0?|execArgv|title)\b.*(test|vitest|jest|mocha|\bava\b|\btap\b)/i,
    why: 'detects the test run from the command line',
  },
  // Go
  {
    files: GO,
    lines: /\b(os|syscall|unix)\s*\.\s*Exit\b|\bSYS_EXIT(_GROUP)?\b|\bruntime\s*\.\s*Goexit\b/,
    with: /^\s*func\s+init\s*\(/,
    why: 'exits from an init function, before any test runs',
  },
  { files: GO, lines: /^\s*func\s+TestMain\s*\(/, why: 'takes over the test binary' },
  {
    files: GO,
    lines:
      /\b(os|syscall|unix)\s*\.\s*Exit\b|\bSYS_EXIT(_GROUP)?\b|\bruntime\s*\.\s*Goexit\b|^\s*(import\s+)?\.\s+"(os|syscall)"/,
    notIn: GO_MAIN,
    why: 'exits from a library package (called, or taken as a value)',
  },
  {
    files: GO,
    lines: /\/\/\s*go:linkname\b/,
    comments: true,
    why: "reaches into another package's internals",
  },
  {
    files: GO,
    lines:
      /\btesting\s*\.\s*(Testing|Short|Verbose|CoverMode|Coverage)\s*\(|\bflag\s*\.\s*(Lookup|CommandLine\s*\.\s*Lookup)\s*\(\s*"-?test\./,
    why: 'detects the test binary',
  },
  {
    files: GO,
    lines: /\.test$|^-{0,2}test\.\w+/,
    literals: true,
    why: "detects the test binary (its name's suffix, its flags)",
  },
  {
    files: GO,
    lines: /\bos\s*\.\s*Args\b/,
    notIn: GO_MAIN,
    why: 'reads the command line from a library (the test binary is named for it)',
  },
  {
    files: GO,
    lines:
      /^[^\S\n\r\u2028\u2029]*-{3}[ \t]|\b(PASS|FAIL|SKIP):|={2,3}\s?(RUN|PAUSE|CONT|NAME)\b|^ok(\s{2,}|\t)/m,
    literals: true,
    why: "prints go test's result lines",
  },
  {
    files: GO,
    lines: /^(PASS|FAIL|--- )$/,
    literals: true,
    with: GO_PRINTS,
    why: "prints go test's result lines",
  },
  {
    files: /\.(go|c|h|cc|cpp)$/,
    lines: /__attribute__\s*\(\(\s*constructor|\.init_array/,
    comments: true,
    why: 'runs before main',
  },
  // Rust
  { files: RS, lines: /link_section|init_array|#\[used\]|\bctor\b/, why: 'runs before main' },
  {
    files: RS,
    lines:
      /\bprocess\s*::\s*(exit|abort)\b|\bprocess\s*::\s*\{[^}]*\b(exit|abort)\b|\blibc\s*::\s*(_?exit|_Exit|abort|kill|raise)\b|\bintrinsics\s*::\s*abort\b/,
    notPath: RUST_BIN,
    why: 'ends the process from library code',
  },
  {
    files: RS,
    lines:
      /\.\.\.\s(ok|FAILED|ignored)\b|\bresult:\s(ok|FAILED)\b|\btest result\b|\bpassed;(?:\s*\d+)?\s*failed\b|^[^\S\n\r\u2028\u2029]*running\s\d*\s?tests?\b/m,
    literals: true,
    why: "prints cargo test's result lines",
  },
  // Every language
  {
    files: ANY,
    lines:
      /--- (PASS|FAIL|SKIP):|=== RUN|test result: (ok|FAILED)\.|\b\d+ passed\b|^\s*['"`]?ok \d+ - |# pass \d+/,
    why: "prints a test runner's result lines",
  },
];

/** The quotes a language's string literals take (Rust's `'` is a char or a lifetime). */
const quotesOf = (file: string): string =>
  PY.test(file) ? `'"` : GO.test(file) ? '"`' : RS.test(file) ? '"' : JS.test(file) ? `'"\`` : `'"`;

/**
 * The line with literals joined as the program joins them: `"a" + "b"`
 * everywhere, `"a" "b"` in Python, `concat!("a", "b")` in Rust.
 */
export const joinedLiterals = (file: string, line: string): string => {
  const quotes = quotesOf(file);
  const between = PY.test(file)
    ? /\s*\+?\s*[rbfuRBFU]*/
    : RS.test(file) && /\bconcat!/.test(line)
      ? /(?<!\s)\s*[+,]\s*/
      : /(?<!\s)\s*\+\s*/;
  const pair = pattern()`([${quotes}])((?:\\.|(?!\1)[^\\])*)\1${between}([${quotes}])((?:\\.|(?!\3)[^\\])*)\3`;
  let joined = line;
  for (let step = 0; step < 64; step += 1) {
    const next = joined.replace(
      pair,
      (_all, open: string, a: string, _close: string, b: string) => `${open}${a}${b}${open}`,
    );
    if (next === joined) break;
    joined = next;
  }
  return joined;
};

const decoded = (text: string): string =>
  text
    .replace(/\\x([0-9a-fA-F]{2})/g, (_all, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\u\{([0-9a-fA-F]{1,6})\}|\\u([0-9a-fA-F]{4})/g, (_all, a?: string, b?: string) =>
      String.fromCodePoint(parseInt(a ?? b ?? '0', 16)),
    )
    .replace(/\\([0-7]{3})/g, (_all, octal: string) => String.fromCharCode(parseInt(octal, 8)))
    .replace(/\\t/g, '\t')
    .replace(/\\n/g, '\n')
    .replace(/\\r/g, '\r')
    .replace(/\\(.)/g, '$1');

/** Format placeholders of every language here: `{}`, `{t}`, `{:?}`, `${x}`, `%s`, `%5.2f`. */
const withoutPlaceholders = (text: string): string =>
  text.replace(/\$?\{[^{}\n]*\}/g, '').replace(/%[-+# 0-9.*]*[a-zA-Z%]/g, '');

/** Every string literal of a line as the program sees it, and each once more without its placeholders. */
export const literalsOf = (file: string, line: string): string[] => {
  const quotes = quotesOf(file);
  const literal = pattern('g')`([${quotes}])((?:\\.|(?!\1)[^\\])*)\1`;
  const found: string[] = [];
  for (const match of joinedLiterals(file, line).matchAll(literal)) {
    const text = decoded(match[2] ?? '');
    found.push(text, withoutPlaceholders(text));
  }
  return [...new Set(found)];
};
