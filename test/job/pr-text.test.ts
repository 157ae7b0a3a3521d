import { describe, expect, it } from 'vitest';
import { commandHeadline } from '../../src/job/pr-text.ts';

describe('the headline of a command', () => {
  it("is a replayed step's script, not its environment, directory or toolchain", () => {
    expect(
      commandHeadline(
        "export PATH='/root/.pyenv/versions/3.8.18/bin':\"$PATH\"\nexport FORCE_COLOR='0'\ncd 'app'\nnpm test -- --ci\nnpm run lint",
      ),
    ).toBe('npm test -- --ci');
    expect(commandHeadline('npm test')).toBe('npm test');
    expect(commandHeadline("export A='1'")).toBe("export A='1'");
  });
});
