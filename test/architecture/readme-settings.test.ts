import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsOf, toolchainRootsOf, type Env } from '../../src/config/env.ts';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/** The README's configuration reference: its section, up to the next of the same level. */
const reference = (): string => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const start = readme.indexOf('\n## Configuration reference\n');
  if (start === -1) throw new Error('README: no "## Configuration reference" section');
  const end = readme.indexOf('\n## ', start + 1);
  return readme.slice(start, end === -1 ? undefined : end);
};

/** Every variable the one reader reads, as it reads them: by watching it read an environment. */
const variablesRead = (): string[] => {
  const read = new Set<string>();
  const env = new Proxy<Env>(
    {},
    {
      get: (_, name) => {
        if (typeof name === 'string') read.add(name);
        return undefined;
      },
    },
  );
  settingsOf(env);
  toolchainRootsOf(env);
  return [...read].sort();
};

describe("the README's configuration reference (#37)", () => {
  it('names every variable src/config/env.ts reads', () => {
    const names = variablesRead();
    // The watch sees the reads (a broken watch would make this test pass on nothing).
    expect(names).toContain('REGREEN_LOG_LEVEL');
    expect(names.length).toBeGreaterThan(50);
    const text = reference();
    expect(names.filter((name) => !text.includes(`\`${name}\``))).toEqual([]);
  });
});
