import { describe, expect, it } from 'vitest';
import { isSetupStep } from '../../src/intake/setup-step.ts';

describe('a step that sets the job up (issue 57, items 4 and 10)', () => {
  it.each([
    'pip install coverage tox',
    'python -m pip install --upgrade pip\npython -m pip install pytest numpy pandas',
    'corepack enable\ncorepack prepare yarn@4.1.0 --activate',
    'yarn install',
    'yarn --frozen-lockfile',
    'npm ci',
    'export CI=1\ncd packages/app && pnpm install --frozen-lockfile',
    'pipx install poetry && poetry install --with test',
    'go mod download',
    'sudo gem install bundler',
  ])('installs: %s', (script) => {
    expect(isSetupStep(script)).toBe(true);
  });

  it.each([
    'yarn test',
    'npm test',
    'python -m pytest',
    'pip install -e . && pytest',
    'npm ci\nnpm run lint',
    'echo hello',
    'python -m tox -e py311',
  ])('does not only install: %s', (script) => {
    expect(isSetupStep(script)).toBe(false);
  });
});
