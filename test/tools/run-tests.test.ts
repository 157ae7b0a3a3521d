import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { withFilter } from '../../tools/tests/run-tests.ts';
import { resultText } from '../../tools/types.ts';
import { makeTempDir } from '../support/tmp.ts';
import { callTool, realSandbox, toolContext } from '../support/tool-context.ts';

describe('run_tests', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;

  beforeAll(async () => {
    mkdirSync(path.join(ws, 'test'), { recursive: true });
    writeFileSync(
      path.join(ws, 'package.json'),
      JSON.stringify({ type: 'module', scripts: { test: 'node --test' } }),
    );
    writeFileSync(
      path.join(ws, 'test', 'good.test.js'),
      "import { test } from 'node:test';\ntest('good', () => {});\n",
    );
    writeFileSync(
      path.join(ws, 'test', 'bad.test.js'),
      "import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('bad', () => assert.equal(1, 2));\n",
    );
    sandbox = await realSandbox(temp.dir, ws);
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  it('reports FAIL with the exit code and the tail of the output', async () => {
    const result = await callTool(toolContext(ws, sandbox), 'run_tests', {});
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(/^FAIL \(exit 1\) `npm test`/);
    expect(resultText(result)).toContain('# fail 1');
  });

  it('narrows with a filter and reports PASS', async () => {
    const result = await callTool(toolContext(ws, sandbox), 'run_tests', {
      filter: 'test/good.test.js',
    });
    expect(resultText(result)).toMatch(/^PASS \(exit 0\) `npm test -- 'test\/good.test.js'`/);
  });

  it('a timeout is an error that says to narrow the run', async () => {
    const ctx = { ...toolContext(ws, sandbox, 'sleep 30'), commandTimeoutMs: 500 };
    const result = await callTool(ctx, 'run_tests', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/TIMEOUT .* narrow the run with a filter/);
  });

  it.each([
    ['npm test', 'a.test.js', "npm test -- 'a.test.js'"],
    ['npm run test:unit', 'x', "npm run test:unit -- 'x'"],
    ['pytest -q', 'tests/test_a.py', "pytest -q 'tests/test_a.py'"],
    ['npm test', "it's", "npm test -- 'it'\\''s'"],
  ])('withFilter(%s, %s)', (command, filter, expected) => {
    expect(withFilter(command, filter)).toBe(expected);
  });

  it("hands a filter to the chain's test part, not to the linter after it", () => {
    const scripts = {
      test: 'npm run test:src && npm run lint',
      'test:src': 'mocha test/unit-tests',
      lint: 'eslint src/',
      check: 'npm run lint && npm run types',
      types: 'tsc --noEmit',
    };
    expect(withFilter('npm test', 'test/a.test.js', scripts)).toBe(
      "npm run test:src -- 'test/a.test.js'",
    );
    expect(
      withFilter('yarn test', 'a', {
        test: 'yarn run lint && yarn run unit',
        lint: 'eslint .',
        unit: 'jest',
      }),
    ).toBe("yarn run unit -- 'a'");
    // No test part to find: as before.
    expect(withFilter('npm run check', 'x', scripts)).toBe("npm run check -- 'x'");
    expect(withFilter('npm test', 'x', { test: 'node --test' })).toBe("npm test -- 'x'");
  });
});
