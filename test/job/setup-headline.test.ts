import { describe, expect, it } from 'vitest';
import { setupHeadline } from '../../src/job/stages/prepare.ts';

describe("the prepare stage's line names the set-up in a few words (a new user's R3)", () => {
  it('drops the fallback and cuts a long command; a short one is shown whole', () => {
    expect(
      setupHeadline(
        "python3 -m venv .venv && .venv/bin/python -m pip install pytest -e . || { echo 'regreen: installing the project failed; installing the test runner alone' >&2; .venv/bin/python -m pip install pytest; }",
      ),
    ).toBe('python3 -m venv .venv && .venv/bin/python -m pip install pytest -e . …');
    expect(setupHeadline('npm ci')).toBe('npm ci');
    expect(setupHeadline('npm ci\nnpm run build')).toBe('npm ci …');
    const long = `pip install ${'a'.repeat(200)}`;
    expect(setupHeadline(long)).toBe(`${long.slice(0, 99)}…`);
  });
});
