import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

describe('errors at the terminal', () => {
  it('one style on stderr; with --json, the error is a JSON object on stdout with its exit code', async () => {
    const plain = await runCli(['fix', '--sandbox', 'docker']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(
      /^regreen: the sandbox must be bubblewrap or none, not "docker"$/m,
    );
    expect(plain.stdout).toBe('');
    const json = await runCli(['fix', '--json', '--sandbox', 'docker']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toEqual({
      error: {
        code: 'usage',
        message: 'the sandbox must be bubblewrap or none, not "docker"',
        exit: 2,
      },
    });
    const unknown = await runCli(['fix', '--json', '--bogus']);
    expect(unknown.code).toBe(2);
    expect(JSON.parse(unknown.stdout)).toMatchObject({
      error: { code: 'usage', message: "unknown option '--bogus'", exit: 2 },
    });
  });
});
