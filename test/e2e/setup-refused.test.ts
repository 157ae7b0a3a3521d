import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { runJson } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

/** A set-up that fails because the sandbox refused a download says so, and what to do about it. */
describe('a set-up the setup proxy refused a host to', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('ends as a set-up diagnosis naming the host and how to allow it, or to vendor', async () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), {
      'package.json': `${JSON.stringify({ name: 'x', version: '1.0.0', private: true, scripts: { test: 'exit 1' } })}\n`,
      '.github/regreen.yml':
        'setup_command: curl -fsS -m 5 -o /dev/null http://crates-mirror.invalid:4444/index/config.json\n',
    });
    const { json } = await runJson([
      'fix',
      '--repo',
      repo,
      '--model',
      'none',
      '--data-dir',
      path.join(temp.dir, 'data'),
    ]);
    expect(json.status, JSON.stringify(json)).toBe('diagnosis');
    expect(json.category).toBe('setup-failed');
    expect(String(json.reason)).toMatch(
      /it asked for crates-mirror\.invalid:4444, which is not a registry of regreen's machine \(name it in that client's configuration there .*or vendor the dependencies/,
    );
  }, 120_000);
});
