/**
 * Holding the base's tests still chowns and chmods files on the host, in a
 * tree whose setup ran repository code. That code may have swapped tracked
 * files and folders for links to host paths: the guard must change nothing
 * outside the tree, whatever the links, and still hold the real files.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { guardTree } from '../../src/job/stages/guard-tree.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CASE } from './support.ts';

const temp = makeTempDir('regreen-guard-');
afterAll(() => temp.cleanup());

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });

describe('guardTree and links the setup planted', () => {
  it('changes no host file a planted link points at, and holds the real ones', async () => {
    const tree = path.join(temp.dir, 'tree');
    const outside = path.join(temp.dir, 'outside');
    mkdirSync(path.join(tree, 'tests'), { recursive: true });
    mkdirSync(path.join(tree, 'spec'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    for (const file of ['tests/test_a.py', 'conftest.py', 'spec/keep.py', 'calc.py'])
      writeFileSync(path.join(tree, file), 'x = 1\n');
    git(tree, 'init', '-q');
    git(tree, 'add', '-A');
    git(tree, 'commit', '-qm', 'base');
    // What a hostile setup leaves: a tracked folder and a tracked file swapped for links out.
    writeFileSync(path.join(outside, 'test_a.py'), 'host\n', { mode: 0o644 });
    writeFileSync(path.join(outside, 'victim'), 'host\n', { mode: 0o644 });
    rmSync(path.join(tree, 'tests'), { recursive: true });
    symlinkSync(outside, path.join(tree, 'tests'));
    rmSync(path.join(tree, 'conftest.py'));
    symlinkSync(path.join(outside, 'victim'), path.join(tree, 'conftest.py'));
    const before = [outside, path.join(outside, 'test_a.py'), path.join(outside, 'victim')].map(
      (file) => statSync(file),
    );

    const guard = await guardTree(tree, new Set(['calc.py']));

    const after = [outside, path.join(outside, 'test_a.py'), path.join(outside, 'victim')].map(
      (file) => statSync(file),
    );
    after.forEach((stats, index) => {
      expect(stats.uid).toBe(before[index]?.uid);
      expect(stats.mode).toBe(before[index]?.mode);
    });
    // Made before the runs, the swaps are the setup's: the comparison counts what the runs change.
    expect(await guard.changed()).toEqual([]);
    if (guard.enforced) {
      const kept = statSync(path.join(tree, 'spec', 'keep.py'));
      expect(kept.uid).toBe(65_534);
      expect(kept.mode & 0o222).toBe(0);
      expect(statSync(path.join(tree, 'calc.py')).uid).toBe(0);
    }
  });
});

/**
 * An outside attacker's "fix" replaced a base test file in the top folder by
 * rename (the top folder stays the sandbox's) and put its original bytes back
 * once the runner had read the weakened copy: a content comparison saw
 * nothing. The guard now records what each held file and folder is (lstat:
 * device, inode, owner, mode, size, times) and names any that is not the same
 * after the runs; as root, the runs cannot rename the top folder's entries at
 * all (each is a mount point in them).
 */
describe('guardTree and files replaced behind their content', () => {
  const TEST = 'from calc import add\n\n\ndef test_add():\n    assert add(2, 2) == 4\n';
  let count = 0;
  const tree = (): string => {
    count += 1;
    const dest = path.join(temp.dir, `held-${count}`);
    mkdirSync(path.join(dest, 'tests'), { recursive: true });
    writeFileSync(path.join(dest, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    writeFileSync(path.join(dest, 'test_calc.py'), TEST);
    writeFileSync(path.join(dest, 'tests', 'test_more.py'), TEST);
    git(dest, 'init', '-q');
    git(dest, 'add', '-A');
    git(dest, 'commit', '-qm', 'base');
    return dest;
  };
  /** What a sandboxed process may do to the top folder between the guard and the comparison. */
  const pause = (): void => {
    // Let the clock's coarse tick pass, as any real run does (a sandbox takes far longer to start).
    const until = Date.now() + 20;
    while (Date.now() < until);
  };

  it('names a top-level test file replaced by rename and its bytes put back', async () => {
    const dest = tree();
    const guard = await guardTree(dest, new Set(['calc.py']));
    pause();
    const target = path.join(dest, 'test_calc.py');
    writeFileSync(`${target}.tmp`, TEST.replace('assert ', 'assert True or '));
    renameSync(`${target}.tmp`, target);
    writeFileSync(`${target}.tmp`, TEST);
    renameSync(`${target}.tmp`, target);
    expect(readFileSync(target, 'utf8')).toBe(TEST);
    expect(await guard.changed()).toEqual([]);
    const replaced = guard.replaced();
    expect(replaced).toHaveLength(1);
    // Its inode number may be the freed one again: another file all the same (birth, ctime).
    expect(replaced[0]).toMatch(/^test_calc\.py — another file now.*ctime/);
  });

  it('names a test file renamed away and back: the same inode, a new ctime', async () => {
    const dest = tree();
    const guard = await guardTree(dest, new Set(['calc.py']));
    pause();
    const target = path.join(dest, 'test_calc.py');
    renameSync(target, path.join(dest, '.kept'));
    writeFileSync(target, TEST.replace('assert ', 'assert True or '));
    renameSync(path.join(dest, '.kept'), target);
    expect(await guard.changed()).toEqual([]);
    expect(guard.replaced()).toEqual([
      expect.stringMatching(/^test_calc\.py — the same inode, its status changed .*ctime/),
    ]);
  });

  it('names a test folder swapped for another one', async () => {
    const dest = tree();
    const guard = await guardTree(dest, new Set(['calc.py']));
    pause();
    renameSync(path.join(dest, 'tests'), path.join(dest, '.kept'));
    mkdirSync(path.join(dest, 'tests'));
    // The same bytes, copied: every file in it is another file too.
    writeFileSync(path.join(dest, 'tests', 'test_more.py'), TEST);
    expect(await guard.changed()).toEqual([]);
    const replaced = guard.replaced().join('\n');
    expect(replaced).toMatch(/^tests\/ — another folder now: inode/m);
    expect(replaced).toMatch(/^tests\/test_more\.py — another file now/m);
  });

  it('holds the top folder’s entries of the base’s tests, not the judged change’s', async () => {
    const dest = tree();
    const guard = await guardTree(dest, new Set(['calc.py']));
    expect([...guard.held].sort()).toEqual(
      [path.join(dest, 'test_calc.py'), path.join(dest, 'tests')].sort(),
    );
  });

  it(`leaves honest runs alone: caches made beside the tests, files read ${CASE}`, async () => {
    const dest = tree();
    const guard = await guardTree(dest, new Set(['calc.py']));
    pause();
    mkdirSync(path.join(dest, 'tests', '__pycache__'));
    writeFileSync(path.join(dest, 'tests', '__pycache__', 'test_more.pyc'), 'x');
    mkdirSync(path.join(dest, '.pytest_cache'));
    readFileSync(path.join(dest, 'test_calc.py'));
    readFileSync(path.join(dest, 'tests', 'test_more.py'));
    writeFileSync(path.join(dest, 'calc.py'), 'def add(a, b):\n    return a + b\n');
    expect(await guard.changed()).toEqual([]);
    expect(guard.replaced()).toEqual([]);
  });
});

/**
 * The hold is a mount: a process that could make a user namespace of its own
 * (and a mount namespace in it) could bind a weakened file over a held test,
 * or unmount nothing and still run the runner there. The sandbox's filter
 * refuses a new user namespace in `unshare` and `clone`, and answers `clone3`
 * (whose flags it cannot read) with ENOSYS, as Docker's default profile does:
 * libc then falls back to `clone`.
 */
describe('a nested user namespace', () => {
  it(`cannot be made, so no mount can cover a held test ${CASE}`, async () => {
    const root = path.join(temp.dir, 'nested');
    const workspace = path.join(root, 'ws');
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, 'test_calc.py'), 'assert 1 + 1 == 2\n');
    const sandbox = await attackSandbox({ root, workspace });
    const nr =
      process.arch === 'arm64'
        ? { unshare: 97, clone: 220, clone3: 435 }
        : { unshare: 272, clone: 56, clone3: 435 };
    try {
      const result = await sandbox.run({
        command: [
          "echo 'assert True' > weak.py",
          'unshare --user --map-root-user --mount sh -c "mount --bind weak.py test_calc.py && cat test_calc.py"; echo unshare=$?',
          `python3 -c "import ctypes, os; libc = ctypes.CDLL(None, use_errno=True)
print('sys_unshare', libc.syscall(${nr.unshare}, 0x10000000), ctypes.get_errno())
r = libc.syscall(${nr.clone}, 0x10000000 | 17, 0, 0, 0, 0)
if r == 0: os._exit(0)
print('sys_clone', -1 if r < 0 else 'child', ctypes.get_errno() if r < 0 else 0)
print('sys_clone3', libc.syscall(${nr.clone3}, 0, 0), ctypes.get_errno())"`,
          // What every runtime needs still works: fork, threads, a child process.
          "python3 -c \"import os, threading; t = threading.Thread(target=print, args=('thread',)); t.start(); t.join(); pid = os.fork(); os._exit(0) if pid == 0 else print('fork', os.waitpid(pid, 0)[1])\"",
        ].join('\n'),
        cwd: workspace,
        network: 'off',
        timeoutMs: 60_000,
        hold: [path.join(workspace, 'test_calc.py')],
      });
      expect(result.output).not.toContain('assert True\n');
      expect(result.output).toMatch(/unshare=[1-9]/);
      expect(result.output).toContain('sys_unshare -1 1');
      expect(result.output).toContain('sys_clone -1 1');
      // ENOSYS (38), not EFAULT: the call was answered before its arguments were read.
      expect(result.output).toContain('sys_clone3 -1 38');
      expect(result.output).toContain('thread');
      expect(result.output).toContain('fork 0');
      expect(readFileSync(path.join(workspace, 'test_calc.py'), 'utf8')).toBe(
        'assert 1 + 1 == 2\n',
      );
    } finally {
      await sandbox.dispose();
    }
  });
});

/**
 * The top folder's owner may rename any entry in it, sticky or not: in the
 * judging runs, each held entry is a mount point, which cannot be renamed,
 * replaced or removed, while a held folder still takes new files (caches).
 */
describe('entries a sandboxed command holds', () => {
  it(`can be neither renamed, replaced nor removed, and a held folder still takes caches ${CASE}`, async () => {
    const root = path.join(temp.dir, 'sandboxed');
    const workspace = path.join(root, 'ws');
    mkdirSync(path.join(workspace, 'tests'), { recursive: true });
    writeFileSync(path.join(workspace, 'test_calc.py'), 'assert 1 + 1 == 2\n');
    writeFileSync(path.join(workspace, 'tests', 'test_more.py'), 'assert 2 + 2 == 4\n');
    const sandbox = await attackSandbox({ root, workspace });
    try {
      const attempts = [
        'mv test_calc.py moved.py',
        'echo "assert True" > new.py && mv -f new.py test_calc.py',
        'rm -f test_calc.py',
        'mv tests moved',
        "python3 -c \"import os; open('w.py', 'w').write('x'); os.replace('w.py', 'test_calc.py')\"",
      ];
      for (const command of attempts) {
        const result = await sandbox.run({
          command,
          cwd: workspace,
          network: 'off',
          timeoutMs: 60_000,
          hold: [path.join(workspace, 'test_calc.py'), path.join(workspace, 'tests')],
        });
        expect(result.exitCode, `${command}: ${result.output}`).not.toBe(0);
        expect(result.output).toMatch(/busy|EBUSY/i);
      }
      const caches = await sandbox.run({
        command: 'mkdir tests/__pycache__ && echo x > tests/__pycache__/c.pyc && cat test_calc.py',
        cwd: workspace,
        network: 'off',
        timeoutMs: 60_000,
        hold: [path.join(workspace, 'test_calc.py'), path.join(workspace, 'tests')],
      });
      expect(caches.exitCode, caches.output).toBe(0);
      expect(readFileSync(path.join(workspace, 'test_calc.py'), 'utf8')).toBe(
        'assert 1 + 1 == 2\n',
      );
      expect(existsSync(path.join(workspace, 'tests', 'test_more.py'))).toBe(true);
      // Without the hold, the same command may rename it: the hold is what refuses it.
      const free = await sandbox.run({
        command: 'mv tests moved && mv moved tests',
        cwd: workspace,
        network: 'off',
        timeoutMs: 60_000,
      });
      expect(free.exitCode, free.output).toBe(0);
    } finally {
      await sandbox.dispose();
    }
  });
});
