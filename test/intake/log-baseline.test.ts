/**
 * What the baseline compares: two runs of the same job print the same line
 * with other times, durations, addresses, ids and temp paths; those are one
 * line to the baseline, and a line the green run never printed is new.
 */
import { describe, expect, it } from 'vitest';
import { baselineLines, runInvariant } from '../../src/intake/log-baseline.ts';

describe('runInvariant', () => {
  it.each([
    ['an ISO timestamp', '2024-05-01T10:00:00.123Z starting', '2024-05-02T11:22:33.456Z starting'],
    ['a clock time', '[10:00:01] building', '[11:22:33] building'],
    ["a test's duration", '--- PASS: TestA (0.01s)', '--- PASS: TestA (12.50s)'],
    ["Go's compound durations", 'ok  \tpkg\t1m2.5s', 'ok  \tpkg\t3m0.1s'],
    ['hours, minutes and seconds', 'took 1h2m3s', 'took 0h0m1s'],
    [
      'a log prefix with an elapsed time',
      'Jun 20 22:33:51.719 - 0m0s DEBUG x',
      'Jun 21 01:02:03.004 - 0m2s DEBUG x',
    ],
    ["a goroutine's addresses", 'main.f(0xc000123456, 0x1d)', 'main.f(0xc0000a6000, 0x2f)'],
    ['a commit', 'HEAD is now at 1a2b3c4d fix', 'HEAD is now at 9f8e7d6c fix'],
    [
      'a uuid',
      'id 123e4567-e89b-12d3-a456-426614174000',
      'id 00000000-0000-0000-0000-000000000001',
    ],
    [
      "Go's temp dir",
      'open /tmp/TestFoo123456/001/a.txt: denied',
      'open /tmp/TestFoo987654/002/a.txt: denied',
    ],
    [
      "Windows's temp dir",
      'C:\\Users\\runneradmin\\AppData\\Local\\Temp\\abc123\\f.txt missing',
      'C:\\Users\\runneradmin\\AppData\\Local\\Temp\\zzz999\\f.txt missing',
    ],
    [
      "the runner's checkout",
      '/home/runner/work/a/a/x.go:3: boom',
      '/home/runner/work/b/b/x.go:3: boom',
    ],
    ['a port', 'listening on 127.0.0.1:41777', 'listening on 127.0.0.1:39001'],
  ])('%s is the same line on another run', (_, a, b) => {
    expect(runInvariant(a)).toBe(runInvariant(b));
  });

  it('keeps what differs in words', () => {
    expect(runInvariant('--- FAIL: TestA (0.01s)')).not.toBe(
      runInvariant('--- PASS: TestA (0.01s)'),
    );
    expect(runInvariant('0x1d bytes')).not.toBe(runInvariant('0x1d lines'));
  });

  it('leaves blank lines out of the green run', () => {
    expect([...baselineLines(['', '   ', 'ok'])]).toEqual(['ok']);
  });
});
