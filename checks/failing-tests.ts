/**
 * Names of failing tests — and of files and packages that failed whole — found
 * in a test runner's output, in the formats of node:test/TAP, vitest, jest,
 * mocha, pytest and go test. Empty when none is recognised.
 */
export const failingTestNames = (output: string): Set<string> => {
  const names = new Set<string>();
  const patterns: RegExp[] = [
    /^\s*not ok \d+ - ([^#]+)/, // TAP, node:test (a `#` begins its directive)
    /^\s*✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/, // node:test spec reporter
    /^\s*(?:×|✕|✗) (.+?)(?: \d+m?s)?$/, // vitest, jest
    /^\s*FAIL\s+(\S+ +> .+)$/, // vitest summary
    /^\s*FAIL\s+(\S+)\s+\[ /, // vitest: a file that failed whole
    /^\s*FAIL\s+(\S+\.\w+)\s*$/, // jest: a failing file (a suite that failed to run, too)
    /^ERROR (\S+)/, // pytest: a collection or setup error
    /^FAIL\s+(\S+\s+\[(?:build|setup) failed\])/, // go: a package that does not build
    /^FAIL\s+(\S+)\s+[\d.]+s$/, // go: a failing package
    /^FAILED (\S+::\S+)/, // pytest
    /^--- FAIL: (\S+)/, // go test
    /^\s*\d+\) (.+)$/, // mocha
  ];
  for (const line of output.split('\n')) {
    for (const pattern of patterns) {
      const match = pattern.exec(line);
      if (match?.[1]) {
        names.add(match[1].trim());
        break;
      }
    }
  }
  return names;
};
