import picomatch from 'picomatch';

/** Paths that are tests, in the conventions of the common ecosystems. */
export const TEST_FILE_GLOBS = [
  '**/*.{test,spec}.{js,jsx,ts,tsx,mjs,cjs,mts,cts}',
  '**/{test,tests,__tests__,spec}/**',
  '**/test.{js,jsx,ts,tsx,mjs,cjs,mts,cts}',
  '**/tests.{js,ts,mjs,cjs}',
  '**/test_*.py',
  '**/*_test.py',
  '**/tests.py',
  '**/*_test.go',
  '**/*Test.{java,kt}',
  '**/*Tests.{java,kt,cs}',
  '**/*_spec.rb',
  '**/*_test.rb',
  '**/*_test.exs',
];

export const SNAPSHOT_GLOBS = ['**/__snapshots__/**', '**/*.snap'];

const isTest = picomatch(TEST_FILE_GLOBS, { dot: true });
const isSnapshot = picomatch(SNAPSHOT_GLOBS, { dot: true });

/** Source files that may hold tests inline (Rust's `#[cfg(test)]` modules, Go's examples, doctests). */
const INLINE_TEST_MARKERS = /#\[cfg\(test\)\]|#\[test\]|#\[tokio::test\]/;

export const isTestFile = (file: string): boolean => isTest(file);
export const isSnapshotFile = (file: string): boolean => isSnapshot(file);

/** A test file by its name, or a source file whose content (before or after) holds tests. */
export const holdsTests = (file: string, contents: readonly (string | undefined)[]): boolean =>
  isTest(file) ||
  (/\.rs$/.test(file) &&
    contents.some((content) => content !== undefined && INLINE_TEST_MARKERS.test(content)));
