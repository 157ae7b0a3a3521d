import { describe, expect, it } from 'vitest';
import { nextSteps, type FailureSummary } from '../../src/job/failure-summary.ts';

const failure: FailureSummary = {
  command: 'npm test',
  where: 'in the sandbox',
  exitCode: 1,
  tests: [],
  locations: [],
  excerpt: '',
  tried: [],
  reproduce: 'regreen fix --repo https://github.com/acme/lib --ref abc',
  noModel: true,
};

/** A diagnosis's next steps speak the language of the front door that ran the job. */
describe('next steps of a diagnosis', () => {
  it('in the Action: inputs, secrets and re-running the jobs, never a CLI flag or a PR command', () => {
    const steps = nextSteps('budget', failure, [], 'action').join('\n');
    expect(steps).toMatch(/`anthropic-api-key` input from a secret/);
    expect(steps).toMatch(/`max-turns`/);
    expect(steps).toMatch(/re-run the failed jobs/i);
    expect(steps.replace(failure.reproduce, '')).not.toMatch(/ --[a-z]|\/regreen fix/);
  });

  it('in the App: the operator’s settings and the PR commands', () => {
    const steps = nextSteps('setup-failed', failure, [], 'app').join('\n');
    expect(steps).toMatch(/operator sets `ANTHROPIC_API_KEY`/);
    expect(steps).toMatch(/`\/regreen fix` runs the job again/);
    expect(steps.replace(failure.reproduce, '')).not.toMatch(/ --[a-z]/);
  });

  it('in the CLI: its flags, and no PR command it cannot answer', () => {
    const steps = nextSteps('setup-failed', failure, [], 'cli').join('\n');
    expect(steps).toMatch(/`--model`/);
    expect(steps).toMatch(/`--job`/);
    expect(steps).not.toMatch(/\/regreen fix/);
  });
});
