import { describe, expect, it } from 'vitest';
import { parseFailureEvent } from '../../src/intake/github-events.ts';
import { JobPayloadSchema } from '../../src/queue/jobs.ts';
import { adaptRepository, examplePayload } from '../support/webhook-payloads.ts';

const repo = { owner: 'acme', name: 'lib', cloneUrl: 'https://github.test/acme/lib.git' };

/** Fork pull requests: off by default; a maintainer's `/regreen fix` starts one; the fix is proposed here. */
describe("a fork's pull request", () => {
  const red = (headRepository: string) => {
    const payload = adaptRepository(examplePayload('workflow_run', 'completed'), repo, 77);
    const run = payload.workflow_run as Record<string, unknown>;
    Object.assign(run, { conclusion: 'failure' });
    (run.head_repository as Record<string, unknown>).full_name = headRepository;
    return parseFailureEvent('workflow_run', payload);
  };

  it('a red build of a fork is ignored, and the reason names the command that starts it', () => {
    const parsed = red('stranger/lib');
    expect(parsed.kind).toBe('ignored');
    if (parsed.kind === 'ignored') expect(parsed.why).toMatch(/fork stranger\/lib.*\/regreen fix/);
  });

  it("the repository's own branch is a red build as before", () => {
    expect(red('acme/lib').kind).toBe('red');
  });

  it('a job for a fork carries where the fix goes through the queue', () => {
    const target = {
      owner: 'acme',
      repo: 'lib',
      branch: 'patch-1',
      headSha: 'a'.repeat(40),
      pullNumber: 7,
      cloneUrl: repo.cloneUrl,
      fork: { repo: 'stranger/lib', baseBranch: 'main' },
    };
    const parsed = JobPayloadSchema.parse({
      kind: 'triage',
      installationId: 77,
      build: { target, source: { kind: 'run', runId: 1 } },
      force: 123,
    });
    expect(parsed.kind === 'triage' && parsed.build.target.fork).toEqual(target.fork);
  });
});
