import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runCli, type CliRun } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

/** `sh -c SCRIPT` with `$REGREEN` the real binary: a pipe into it, as a person types one. */
const piped = (script: string): Promise<CliRun> =>
  new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', script],
      {
        env: { ...process.env, REGREEN: `${process.execPath} ${BIN}` },
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });

const LOG = [
  '2026-12-01T10:00:00.0000000Z ##[group]Run python -m pytest -q',
  '2026-12-01T10:00:00.0000000Z python -m pytest -q',
  '2026-12-01T10:00:00.0000000Z ##[endgroup]',
  '2026-12-01T10:00:01.0000000Z F.                                                   [100%]',
  '2026-12-01T10:00:01.0000000Z FAILED tests/test_calc.py::test_add - assert 3 == 4',
  '2026-12-01T10:00:01.0000000Z 1 failed, 1 passed in 0.02s',
  '2026-12-01T10:00:01.0000000Z ##[error]Process completed with exit code 1.',
].join('\n');

describe('regreen triage --log -', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  const file = path.join(temp.dir, 'ci.log');
  writeFileSync(file, `${LOG}\n`);

  it('reads the log from standard input, as it reads the same log from a file', async () => {
    const fromFile = await runCli(['triage', '--log', file, '--json']);
    const fromStdin = await piped(`cat '${file}' | $REGREEN triage --log - --json`);
    expect(fromStdin.code, fromStdin.stderr).toBe(0);
    expect(JSON.parse(fromStdin.stdout)).toEqual(JSON.parse(fromFile.stdout));
    expect(JSON.parse(fromStdin.stdout)).toMatchObject({ verdict: 'located' });
  });

  it('refuses a stream past the bound a log file has, after reading no more than it', async () => {
    // 256 MiB and one byte of zeros: the byte past the bound is refused, as a file that size is.
    const { code, stdout, stderr } = await piped(
      `head -c 268435457 /dev/zero | $REGREEN triage --log -`,
    );
    expect(code).toBe(2);
    expect(`${stdout}${stderr}`).toMatch(/standard input holds more than 268435456 bytes/);
  });

  it('one stream cannot be both logs', async () => {
    const { code, stdout, stderr } = await piped(
      `cat '${file}' | $REGREEN triage --log - --baseline -`,
    );
    expect(code).toBe(2);
    expect(`${stdout}${stderr}`).toMatch(/standard input is one stream/);
  });
});
