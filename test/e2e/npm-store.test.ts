import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeRepo } from '../../fixtures/build.ts';
import { callsScript, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const sha512 = (text: string): string => createHash('sha512').update(text).digest('hex');
const integrity = (text: string): string =>
  `sha512-${createHash('sha512').update(text).digest('base64')}`;
const address = (hex: string): string =>
  path.join('content-v2', 'sha512', hex.slice(0, 2), hex.slice(2, 4), hex.slice(4));

/**
 * A setup that fills ~/.npm/_cacache as a hostile one would: one tarball at
 * its true address, one forged (other bytes at the address of a tarball the
 * lockfile names), one link to a file of the host. The lockfile names all
 * three. Only the true one may reach regreen's store and a later job.
 */
describe("regreen's npm store: later jobs start from earlier downloads, checked", () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);
  const secret = path.join(temp.dir, 'host-secret.txt');
  writeFileSync(secret, 'the host secret');
  const good = 'a real tarball';
  const named = 'the tarball the lockfile names';
  const lock = {
    name: 'fixture-store',
    version: '1.0.0',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'fixture-store', version: '1.0.0' },
      'node_modules/good': { version: '1.0.0', integrity: integrity(good) },
      'node_modules/forged': { version: '1.0.0', integrity: integrity(named) },
      'node_modules/linked': { version: '1.0.0', integrity: integrity('the host secret') },
    },
  };
  const repo = makeRepo(path.join(temp.dir, 'store'), {
    'package.json': `${JSON.stringify({ name: 'fixture-store', version: '1.0.0', private: true, type: 'module', scripts: { test: 'node --test test/' } }, null, 2)}\n`,
    'package-lock.json': `${JSON.stringify(lock, null, 2)}\n`,
    '.gitignore': 'node_modules/\n',
    '.github/regreen.yml': 'setup_command: node install.mjs\n',
    'install.mjs': [
      "import { lstatSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';",
      "import os from 'node:os';",
      "import path from 'node:path';",
      "const cache = path.join(os.homedir(), '.npm', '_cacache');",
      'const put = (where, write) => {',
      '  const file = path.join(cache, where);',
      '  try {',
      '    lstatSync(file);',
      '    return;',
      '  } catch {}',
      '  mkdirSync(path.dirname(file), { recursive: true });',
      '  write(file);',
      '};',
      `put(${JSON.stringify(address(sha512(good)))}, (f) => writeFileSync(f, ${JSON.stringify(good)}));`,
      `put(${JSON.stringify(address(sha512(named)))}, (f) => writeFileSync(f, 'forged bytes'));`,
      `put(${JSON.stringify(address(sha512('the host secret')))}, (f) => symlinkSync(${JSON.stringify(secret)}, f));`,
      "mkdirSync('node_modules', { recursive: true });",
      '',
    ].join('\n'),
    'src/range.js':
      'export function range(n) {\n  const out = [];\n  for (let i = 0; i < n - 1; i += 1) out.push(i);\n  return out;\n}\n',
    'test/range.test.js': [
      "import { test } from 'node:test';",
      "import assert from 'node:assert/strict';",
      "import { range } from '../src/range.js';",
      "test('range(3) counts to 2', () => assert.deepEqual(range(3), [0, 1, 2]));",
      '',
    ].join('\n'),
  });
  const store = path.join(`${repo}-data`, 'caches', 'npm');
  const job = (name: string) =>
    fix(
      repo,
      callsScript(temp.dir, name, [
        { name: 'edit', input: { path: '$WORKSPACE/src/range.js', old: 'n - 1', new: 'n' } },
      ]),
      { REGREEN_SETUP_SNAPSHOT: 'off' },
    );
  const seededNote = (tracePath: string | undefined): string | undefined =>
    readFileSync(tracePath ?? '', 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { type: string; message?: string })
      .find((event) => event.type === 'note' && event.message?.startsWith('npm cache:'))?.message;

  it('keeps only the tarball whose bytes match its address, and seeds the next job with it alone', async () => {
    const first = await job('first');
    expect(first.outcome.status, JSON.stringify(first.outcome)).toBe('proposed');
    expect(seededNote(first.outcome.tracePath)).toBeUndefined();
    expect(readFileSync(path.join(store, address(sha512(good))), 'utf8')).toBe(good);
    expect(existsSync(path.join(store, address(sha512(named))))).toBe(false);
    expect(existsSync(path.join(store, address(sha512('the host secret'))))).toBe(false);

    const second = await job('second');
    expect(second.outcome.status, JSON.stringify(second.outcome)).toBe('proposed');
    expect(seededNote(second.outcome.tracePath)).toBe(
      'npm cache: 1 tarballs from earlier downloads',
    );
  });
});
