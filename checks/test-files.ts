import picomatch from 'picomatch';

/** Paths that are tests, in the conventions of the common ecosystems. */
export const TEST_FILE_GLOBS = [
  '**/*.{test,spec}.{js,jsx,ts,tsx,mjs,cjs,mts,cts}',
  '**/{test,tests,__tests__,spec}/**',
  '**/test_*.py',
  '**/*_test.py',
  '**/*_test.go',
  '**/*Test.{java,kt}',
  '**/*_spec.rb',
];

export const SNAPSHOT_GLOBS = ['**/__snapshots__/**', '**/*.snap'];

const isTest = picomatch(TEST_FILE_GLOBS, { dot: true });
const isSnapshot = picomatch(SNAPSHOT_GLOBS, { dot: true });

export const isTestFile = (file: string): boolean => isTest(file);
export const isSnapshotFile = (file: string): boolean => isSnapshot(file);
