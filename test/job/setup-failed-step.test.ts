import { describe, expect, it } from 'vitest';
import { replayScript } from '../../src/intake/workflow-replay.ts';
import { failedStep, stepLabel } from '../../src/job/stages/setup-failed.ts';

const steps = [
  { title: 'Mark CI', command: 'echo A=1 >> "$GITHUB_ENV"', run: 'echo A=1 >> "$GITHUB_ENV"' },
  {
    title: 'Install tools',
    command: 'export X=1\npip install coverage tox',
    run: 'pip install coverage tox',
  },
  { title: 'Run npm ci', command: 'npm ci', run: 'npm ci' },
];

describe('a failed set-up step, as a person finds it (issue 57, item 5)', () => {
  it('is named by its name: and its own run: text, never the wrapper', () => {
    expect(replayScript(steps)).toContain('regreen_carry');
    expect(stepLabel(steps[1]!)).toBe('step "Install tools" (`pip install coverage tox`)');
    expect(stepLabel(steps[2]!)).toBe('step `npm ci`');
  });

  it('is the last marker naming a step of the replay, with its own output after it', () => {
    const output =
      '[regreen] step: Mark CI\n[regreen] step: Install tools\nCollecting coverage\nERROR: No matching distribution found for tox\n[regreen] step: Made up\n';
    const found = failedStep(steps, output);
    expect(found?.step.title).toBe('Install tools');
    expect(found?.output).toContain('ERROR: No matching distribution found for tox');
    expect(found?.output).not.toContain('Mark CI');
  });
});
