/**
 * Names of failing tests found in a test runner's output, in the formats of
 * node:test/TAP, vitest, jest, mocha, pytest and go test. Empty when none is
 * recognised.
 */
export const failingTestNames = (output: string): Set<string> => {
  const names = new Set<string>();
  const patterns: RegExp[] = [
    /^\s*not ok \d+ - (.+?)\s*(?:#.*)?$/, // TAP, node:test
    /^\s*✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/, // node:test spec reporter
    /^\s*(?:×|✕|✗) (.+?)(?: \d+m?s)?$/, // vitest, jest
    /^\s*FAIL\s+(\S+\s+>\s+.+)$/, // vitest summary
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
