/**
 * issue 61, class 1: patterns whose match moves along a line quadratically
 * (no backtracking rule catches them): the fidelity comparison's word
 * splitter on one 400,000-character line without a slash, a setup-node
 * version from `.nvmrc` stripped by `(\.x)+$`, and `apply_patch` reading
 * `diff --git a/… b/…` with `(.+) b\/(.+)$`. Each held the host for minutes;
 * each is called here in a child killed past a deadline.
 */
import { describe, expect, it } from 'vitest';
import { callWithin } from '../support/deadline.ts';

const DEADLINE = 60_000;

describe('attack61: a long line read on the host ends in time', () => {
  it('the fidelity comparison of a 400,000-character error line without a slash', async () => {
    const line = `Error: ${'a-'.repeat(200_000)}`;
    const ended = await callWithin(
      'src/intake/failure-compare.ts',
      'compareFailures',
      [line, line],
      DEADLINE,
    );
    expect(ended.signal, ended.stderr).toBeNull();
  }, 90_000);

  it('a setup-node version of 100,000 `.x` and one more character', async () => {
    const asked = `18${'.x'.repeat(100_000)}!`;
    const ended = await callWithin(
      'src/workspace/setup/toolchains.ts',
      'satisfies',
      [asked, '18.1.0'],
      DEADLINE,
    );
    expect(ended.signal, ended.stderr).toBeNull();
    const pinned = await callWithin(
      'src/workspace/setup/toolchains.ts',
      'isPinned',
      [asked],
      DEADLINE,
    );
    expect(pinned).toMatchObject({ signal: null, value: false });
  }, 180_000);

  it('an apply_patch header line of 100,000 ` b/` and a carriage return', async () => {
    const patch = `diff --git a/x${' b/x'.repeat(100_000)}\r\n`;
    const ended = await callWithin('tools/files/apply-patch.ts', 'patchPaths', [patch], DEADLINE);
    expect(ended.signal, ended.stderr).toBeNull();
  }, 90_000);

  it('apply_patch still reads the paths of an ordinary header', async () => {
    const ended = await callWithin(
      'tools/files/apply-patch.ts',
      'patchPaths',
      ['diff --git a/src/a b.ts b/src/a b.ts\n--- a/src/a b.ts\n+++ b/src/a b.ts\n'],
      DEADLINE,
    );
    expect(ended.value).toEqual(['src/a b.ts']);
  }, 90_000);
});
