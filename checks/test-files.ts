import picomatch from 'picomatch';

const JS_EXT = '{js,jsx,ts,tsx,mjs,cjs,mts,cts}';

/**
 * Paths that are tests, in the conventions of the common ecosystems and the
 * defaults of their runners: node --test's (`*.test.*`, `*-test.*`,
 * `*_test.*`, `test-*.*`, `test.*`, `test/**`), unittest's `test*.py`,
 * pytest's, go test's, Maven Surefire's (`Test*`, `*Test`, `*Tests`,
 * `*TestCase`), PHPUnit's, minitest's, RSpec's, ExUnit's.
 */
export const TEST_FILE_GLOBS = [
  `**/*.{test,spec}.${JS_EXT}`,
  `**/*{-,_}test.${JS_EXT}`,
  `**/test-*.${JS_EXT}`,
  '**/{test,tests,__tests__,spec}/**',
  `**/test.${JS_EXT}`,
  '**/tests.{js,ts,mjs,cjs}',
  '**/test*.py',
  '**/*_test.py',
  '**/tests.py',
  '**/*_test.go',
  '**/{Test*,*Test,*Tests,*TestCase}.{java,kt}',
  '**/*{Test,Tests}.cs',
  '**/*Test.php',
  '**/*_spec.rb',
  '**/*_test.rb',
  '**/test_*.rb',
  '**/*_test.exs',
];

export const SNAPSHOT_GLOBS = ['**/__snapshots__/**', '**/*.snap'];

/** Made on first use, not when the module loads: compiling the globs is start-up time for every command. */
let testMatcher: picomatch.Matcher | undefined;
let snapshotMatcher: picomatch.Matcher | undefined;
const isTest = (file: string): boolean =>
  (testMatcher ??= picomatch(TEST_FILE_GLOBS, { dot: true }))(file);
const isSnapshot = (file: string): boolean =>
  (snapshotMatcher ??= picomatch(SNAPSHOT_GLOBS, { dot: true }))(file);

/** Source files that may hold tests inline (Rust's `#[cfg(test)]` modules, Go's examples, doctests). */
const INLINE_TEST_MARKERS = /#\[cfg\(test\)\]|#\[test\]|#\[tokio::test\]/;

/**
 * What defines a test a runner collects, by language: the file is a test
 * file whatever its name. Not Rust's inline tests nor doctests: those are in
 * product files, judged with them (`inline-tests.ts`).
 */
const TEST_DEFINITIONS: readonly { files: RegExp; defines: RegExp; with?: RegExp }[] = [
  // unittest's TestCase classes, pytest's test functions
  {
    files: /\.py$/,
    defines: /^class\s+\w+\s*\([^)]*TestCase\b|^(async\s+)?def\s+test(_\w*|[A-Z]\w*)?\s*\(/m,
  },
  // pytest's Test classes
  {
    files: /\.py$/,
    defines: /^class\s+Test\w*/m,
    with: /^[^\S\n\r\u2028\u2029]+(async\s+)?def\s+test/m,
  },
  // node:test, vitest, jest, mocha, ava, tap, uvu, playwright, Deno: a test or suite by its name
  {
    files: /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts)$/,
    defines:
      /^[^\S\n\r\u2028\u2029]*(?:(?:describe|it|test|suite|context|specify)(?:\.(?:only|skip|todo|concurrent|sequential|serial|parallel|describe))*|Deno\.test|tap\.test)\s*\(\s*['"`]/m,
  },
  {
    files: /\.go$/,
    defines: /^func\s+(Test|Benchmark|Fuzz)\w*\s*\(\s*\w+\s+\*testing\.[TBF]\s*\)/m,
  },
  {
    files: /\.(java|kt)$/,
    defines:
      /^[^\S\n\r\u2028\u2029]*@(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\b/m,
    with: /^import\s+(static\s+)?(org\.junit|org\.testng|kotlin\.test|io\.kotest)\b/m,
  },
  {
    files: /\.cs$/,
    defines: /^[^\S\n\r\u2028\u2029]*\[(Fact|Theory|Test|TestMethod|TestCase)\b/m,
    with: /^using\s+(Xunit|NUnit|Microsoft\.VisualStudio\.TestTools)\b/m,
  },
  {
    files: /\.rb$/,
    defines:
      /<\s*(Minitest::Test|Test::Unit::TestCase|ActiveSupport::TestCase)\b|^(RSpec\.)?describe\b[^\n]*\bdo\b/m,
  },
  { files: /\.php$/, defines: /\bextends\s+\\?(PHPUnit\\Framework\\)?TestCase\b/ },
  { files: /\.exs?$/, defines: /^[^\S\n\r\u2028\u2029]*use\s+ExUnit\.Case\b/m },
];

export const isTestFile = (file: string): boolean => isTest(file);
export const isSnapshotFile = (file: string): boolean => isSnapshot(file);

/** The content defines tests a runner collects (a test file whatever its name). */
export const definesTests = (file: string, content: string | undefined): boolean =>
  content !== undefined &&
  TEST_DEFINITIONS.some(
    (rule) =>
      rule.files.test(file) &&
      rule.defines.test(content) &&
      (rule.with === undefined || rule.with.test(content)),
  );

/**
 * One of the base's tests: a test by its name, or a file whose base version
 * defines tests (`calc_checks.py` with a `unittest.TestCase`). Tests by
 * construction: what the base runs as a test is a test, whatever the list of
 * names forgets.
 */
export const isBaseTest = (file: string, base: string | undefined): boolean =>
  isTest(file) || definesTests(file, base);

/** A test file by its name or content, or a source file whose content (before or after) holds tests. */
export const holdsTests = (file: string, contents: readonly (string | undefined)[]): boolean =>
  isTest(file) ||
  contents.some((content) => definesTests(file, content)) ||
  (/\.rs$/.test(file) &&
    contents.some((content) => content !== undefined && INLINE_TEST_MARKERS.test(content)));

/** How many of the base's code files a check reads to learn what its tests and product use. */
const SCAN_LIMIT = 4000;

/**
 * The base's code files of a language (`files`), each read once (its first
 * 256 KiB) and told a test (by name or content) or not; at most `SCAN_LIMIT`
 * of them, installed dependencies left out.
 */
export function* baseCode(
  baseFiles: readonly string[] | undefined,
  baseContent: (file: string) => string | undefined,
  files: RegExp,
): Generator<{ file: string; text: string; test: boolean }> {
  const code = (baseFiles ?? []).filter((f) => files.test(f) && !/(^|\/)node_modules\//.test(f));
  for (const file of code.slice(0, SCAN_LIMIT)) {
    const text = baseContent(file)?.slice(0, 256 * 1024);
    if (text !== undefined) yield { file, text, test: isBaseTest(file, text) };
  }
}
