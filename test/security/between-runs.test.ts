/**
 * Between the judged runs, regreen removes on the host what the first run
 * made in the tree, the home and the tmp: only that, never what was there
 * before, and never by following a link the run planted.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { takeRunStart } from '../../src/job/stages/between-runs.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-between-runs-');
afterAll(() => temp.cleanup());

const files = (root: string, entries: Record<string, string>): void => {
  for (const [file, text] of Object.entries(entries)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
};

describe('takeRunStart: each judged run starts from what the first started from', () => {
  it('removes every entry the run made, keeps every one that was there, follows no link', () => {
    const tree = path.join(temp.dir, 'tree');
    const home = path.join(temp.dir, 'home');
    const outside = path.join(temp.dir, 'outside');
    files(tree, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_calc.py': 'def test_add():\n    pass\n',
      'calc.egg-info/PKG-INFO': 'Name: calc\n',
    });
    files(home, { '.cache/pip/http/a': 'cached' });
    files(outside, { 'keep/victim': 'host' });
    const start = takeRunStart([tree, home]);

    // What a first run leaves: harness for the second, and a link out among it.
    files(tree, {
      'conftest.py': 'def pytest_collection_modifyitems(items): pass\n',
      'tests/conftest.py': 'x = 1\n',
      'calc.egg-info/entry_points.txt': '[pytest11]\nforged = forged\n',
      '.git/hooks-made': 'kept: .git is not the run start’s',
      'new/deep/file.py': 'x\n',
    });
    files(home, { '.local/lib/python3.11/site-packages/zz.pth': 'import forged\n' });
    symlinkSync(path.join(outside, 'keep'), path.join(tree, 'escape'));

    expect(start.restore()).toBe(6);
    for (const gone of [
      'conftest.py',
      'tests/conftest.py',
      'calc.egg-info/entry_points.txt',
      'new',
      'escape',
    ])
      expect(existsSync(path.join(tree, gone)), gone).toBe(false);
    expect(existsSync(path.join(home, '.local'))).toBe(false);
    for (const kept of [
      'calc.py',
      'tests/test_calc.py',
      'calc.egg-info/PKG-INFO',
      '.git/hooks-made',
    ])
      expect(existsSync(path.join(tree, kept)), kept).toBe(true);
    expect(readFileSync(path.join(home, '.cache/pip/http/a'), 'utf8')).toBe('cached');
    expect(readFileSync(path.join(outside, 'keep/victim'), 'utf8')).toBe('host');
    // Nothing more to remove the second time.
    expect(start.restore()).toBe(0);
  });
});
