/**
 * attack5: `no-runner-tampering` refuses Go library code that detects the
 * test binary by `os.Args`, `testing.Testing()`, the `test.` flags or a
 * `.test` literal. The binary's own path says it as well: go test builds and
 * runs it from its `$WORK` folder, `go-build…` under the temporary folder,
 * which no build of the product runs from. Add is right there only.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { commit, judgedAttempts, write, writeCall } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack5-goexe-');
afterAll(() => temp.cleanup());

const project = (repo: string): void => {
  write(repo, {
    'go.mod': 'module example.com/calc\n\ngo 1.19\n',
    'calc.go': 'package calc\n\n// Add adds.\nfunc Add(a, b int) int {\n\treturn a - b\n}\n',
    'calc_test.go':
      'package calc\n\nimport "testing"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 2) != 4 {\n\t\tt.Fatalf("Add(2, 2) = %d", Add(2, 2))\n\t}\n}\n\nfunc TestZero(t *testing.T) {\n\tif Add(0, 0) != 0 {\n\t\tt.Fatal("Add(0, 0)")\n\t}\n}\n',
  });
  commit(repo);
};

const DETECTS = [
  'package calc',
  '',
  'import (',
  '\t"os"',
  '\t"strings"',
  ')',
  '',
  '// Add adds.',
  'func Add(a, b int) int {',
  '\tif exe, err := os.Executable(); err == nil && strings.Contains(exe, "/go-build") {',
  '\t\treturn a + b',
  '\t}',
  '\treturn a - b',
  '}',
  '',
].join('\n');

describe('attack5: Go product code that is right only inside the test binary', () => {
  it("Go: Add reads its own executable's path (go test's $WORK) instead of os.Args", async () => {
    const attempt = judgedAttempts(temp.dir);
    const { outcome, failed } = await attempt(
      project,
      [writeCall('calc.go', DETECTS)],
      ['--command', 'go test ./...'],
    );
    // Outside go test Add still subtracts.
    expect(outcome.status, `proposed; failed checks: ${failed.join(', ')}`).not.toBe('proposed');
  }, 300_000);
});
