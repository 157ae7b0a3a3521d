/**
 * node:test's failures as the running Node prints them: its TAP reporter
 * writes a multi-line assertion message as a YAML block scalar (`error: |-`),
 * whose first line is the message, not the `-` of the indicator.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { recogniseFailures } from '../../src/intake/formats/index.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-node-test-');
afterAll(() => temp.cleanup());

const tapOf = (body: string): string => {
  const file = path.join(temp.dir, `case-${Math.random().toString(36).slice(2)}.test.js`);
  writeFileSync(
    file,
    `const test = require('node:test');\nconst assert = require('node:assert');\n${body}\n`,
  );
  const run = spawnSync(process.execPath, ['--test', '--test-reporter=tap', file], {
    encoding: 'utf8',
  });
  return run.stdout;
};

const recognise = (text: string) =>
  recogniseFailures(text.split('\n').map((line, i) => ({ line: i + 1, text: line })));

describe('node:test (TAP, the running Node)', () => {
  it('a multi-line assertion message is read from the block below `error: |-`', () => {
    const tap = tapOf(
      "test('range is inclusive', () => { assert.deepStrictEqual([0, 1], [0, 1, 2]); });",
    );
    expect(tap).toMatch(/error: \|-/);
    const [failure] = recognise(tap);
    expect(failure?.format).toBe('node-test');
    expect(failure?.test).toBe('range is inclusive');
    expect(failure?.message).toMatch(/Expected values to be strictly deep-equal/);
  });

  it('a one-line message is read from its line', () => {
    const tap = tapOf("test('sum', () => { assert.strictEqual(1 + 1, 3, 'sum should be 3'); });");
    const [failure] = recognise(tap);
    expect(failure?.message).toBe('sum should be 3');
  });
});
