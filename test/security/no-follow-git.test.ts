/**
 * The host's git reads a worktree the sandbox's processes may be changing (a
 * kernel's background process swapping folders for links while the early
 * fresh check snapshots the change): it reads it on a view where no link is
 * followed, so a swap between git's `lstat` and its `open` reads nothing of
 * the host's.
 */
import { spawn, spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hostGit, noFollowProbe } from '../../src/workspace/repo/git.ts';
import { addAll } from '../../src/workspace/repo/staged.ts';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import { makeTempDir } from '../support/tmp.ts';
import { CANARY } from './support.ts';

const temp = makeTempDir('regreen-nofollow-');
const PAIRS = 40;
const after: (() => void)[] = [];
afterAll(() => {
  for (const clean of after) clean();
  temp.cleanup();
});

/** A repository with a committed file, and a folder outside it holding the canary. */
const setUp = (name: string, under = temp.dir): { repo: string; secret: string } => {
  const root = path.join(under, name);
  const repo = path.join(root, 'repo');
  const secret = path.join(root, 'secret');
  mkdirSync(secret, { recursive: true });
  writeFileSync(path.join(secret, 'id_canary'), `${CANARY} ${name}\n`);
  mkdirSync(repo, { recursive: true });
  writeFileSync(path.join(repo, 'README'), 'base\n');
  for (const args of [
    ['init', '-q'],
    ['add', '-A'],
    ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'base'],
  ])
    execFileSync('git', args, { cwd: repo });
  return { repo, secret };
};

const ROOT = path.join(import.meta.dirname, '..', '..');

/**
 * Runs `body` (top-level await allowed) in a process of its own, with
 * `addAll`, `knownFiles` and `noFollowProbe` imported and `env` over a
 * plain environment, optionally as `uid`: what it printed.
 */
const inChild = (
  body: string,
  env: Record<string, string>,
  uid?: number,
  dir = temp.dir,
): string => {
  const script = path.join(dir, `child-${Math.random().toString(36).slice(2)}.mts`);
  const src = (file: string): string => JSON.stringify(path.join(ROOT, 'src', ...file.split('/')));
  writeFileSync(
    script,
    [
      `import { addAll } from ${src('workspace/repo/staged.ts')};`,
      `import { knownFiles } from ${src('workspace/repo/known-files.ts')};`,
      `import { noFollowProbe } from ${src('workspace/repo/git.ts')};`,
      body,
      '',
    ].join('\n'),
    { mode: 0o644 },
  );
  const node = [process.execPath, '--import', 'tsx', script];
  const [file, ...args] =
    uid === undefined
      ? node
      : ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', ...node];
  const result = spawnSync(file ?? '', args, {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: temp.dir, ...env },
  });
  return `${result.stdout}${result.stderr}`;
};

/** Whether the canary's bytes became an object of the repository. */
const hashed = (repo: string, text: string): boolean => {
  const sha = execFileSync('git', ['hash-object', '--stdin'], {
    input: text,
    encoding: 'utf8',
  }).trim();
  try {
    execFileSync('git', ['cat-file', '-e', sha], { cwd: repo, stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

describe("the host's git follows no link in a workspace", () => {
  it('this host provides the no-follow view (else the early fresh check is not begun)', async () => {
    expect(await noFollowProbe()).toBeUndefined();
  });

  it('a path through a link in the workspace is refused, where plain git reads the target', async () => {
    const { repo, secret } = setUp('plain');
    execFileSync('ln', ['-s', secret, path.join(repo, 'l')]);
    // Plain git follows the link to hash the file (the control).
    const plain = await hostGit(['hash-object', 'l/id_canary'], { cwd: repo });
    expect(plain.trim()).toMatch(/^[0-9a-f]{40}$/);
    await expect(
      hostGit(['hash-object', 'l/id_canary'], { cwd: repo, noFollow: true }),
    ).rejects.toThrow(/symbolic links/i);
    // A link is still stored as a link.
    await addAll(repo);
    const staged = await hostGit(['ls-files', '-s', 'l'], { cwd: repo });
    expect(staged).toMatch(/^120000 /);
  });

  it('folders swapped for links while `git add` walks the tree never put a host file into the repository', async () => {
    const { repo, secret } = setUp('race');
    // Decoy folders w00…w39 (git walks them) and links ign/l00…ign/l39 to the secret folder
    // (ignored, so git never lists them); a process exchanges each pair as fast as it can.
    mkdirSync(path.join(repo, 'ign'));
    writeFileSync(path.join(repo, '.gitignore'), 'ign/\n');
    for (let i = 0; i < PAIRS; i += 1) {
      const n = String(i).padStart(2, '0');
      mkdirSync(path.join(repo, `w${n}`));
      writeFileSync(path.join(repo, `w${n}`, 'id_canary'), `decoy ${n}\n`);
      execFileSync('ln', ['-s', secret, path.join(repo, 'ign', `l${n}`)]);
    }
    // The exchanges come from a small C program (as an attacker's would: an interpreted loop is
    // too slow to land between git's checks and its reads).
    const source = path.join(temp.dir, 'swap.c');
    writeFileSync(
      source,
      [
        '#include <fcntl.h>',
        '#include <stdio.h>',
        '#include <sys/syscall.h>',
        '#include <unistd.h>',
        'int main(int argc, char **argv) {',
        '  char a[4096], b[4096];',
        '  for (;;)',
        `    for (int i = 0; i < ${PAIRS}; i++) {`,
        '      snprintf(a, sizeof a, "%s/w%02d", argv[1], i);',
        '      snprintf(b, sizeof b, "%s/ign/l%02d", argv[1], i);',
        '      syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2);',
        '    }',
        '}',
        '',
      ].join('\n'),
    );
    execFileSync('gcc', ['-O2', '-o', path.join(temp.dir, 'swap'), source]);
    const indexes = path.join(temp.dir, 'race-indexes');
    mkdirSync(indexes);
    const swapper = spawn(path.join(temp.dir, 'swap'), [repo], { stdio: 'ignore' });
    try {
      for (let attempt = 0; attempt < 40; attempt += 1) {
        const index = path.join(indexes, `race-${attempt}.index`);
        await addAll(repo, [], { GIT_INDEX_FILE: index }).catch((error: unknown) => {
          // A swap may make git fail; regreen refusing the index's folder is no run at all.
          if (String(error).includes('holds the workspace')) throw error;
        });
        rmSync(index, { force: true });
      }
    } finally {
      swapper.kill('SIGKILL');
    }
    expect(hashed(repo, `${CANARY} race\n`)).toBe(false);
  }, 120_000);

  it('a `.git` file naming a repository elsewhere on the host tells host git nothing of it', async () => {
    // Sandboxed code plants sub/.git (`gitdir: <a host repository>`) and other/.git/commondir
    // (naming one). Plain git opens what they name to ask whether it is a repository: `add`
    // records its HEAD as a gitlink, and `ls-files --others` lists the folder as one entry.
    const { repo } = setUp('oracle');
    const host = setUp('oracle-host').repo;
    const secretHead = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: host, encoding: 'utf8' });
    mkdirSync(path.join(repo, 'sub'));
    writeFileSync(path.join(repo, 'sub', '.git'), `gitdir: ${path.join(host, '.git')}\n`);
    writeFileSync(path.join(repo, 'sub', 'f.txt'), 'f\n');
    // The control: plain git reads the host repository through the planted file.
    const plain = execFileSync('git', ['ls-files', '-z', '--others', '--exclude-standard'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(plain.split('\0')).toContain('sub/');

    expect(await knownFiles(repo)).toContain('sub/f.txt');
    expect(await knownFiles(repo)).not.toContain('sub/');
    await addAll(repo);
    const staged = await hostGit(['ls-files', '-s'], { cwd: repo });
    expect(staged).not.toContain(secretHead.trim());
    expect(staged).not.toMatch(/^160000 /m);
    expect(staged).toMatch(/\tsub\/f\.txt$/m);

    // A commondir naming the host repository: git stops at a path it cannot see, or records nothing of it.
    mkdirSync(path.join(repo, 'other', '.git', 'refs'), { recursive: true });
    mkdirSync(path.join(repo, 'other', '.git', 'objects'));
    writeFileSync(path.join(repo, 'other', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(path.join(repo, 'other', '.git', 'commondir'), path.join(host, '.git'));
    writeFileSync(path.join(repo, 'other', 'g.txt'), 'g\n');
    const added = await addAll(repo).then(
      () => 'added',
      (error: unknown) => String(error),
    );
    expect(added).toMatch(/^added$|Invalid path/);
    expect(await hostGit(['ls-files', '-s'], { cwd: repo })).not.toContain(secretHead.trim());
  });

  it('a host that cannot make the view stages nothing: no plain git reads the workspace instead', () => {
    // An attacker's finding: the probe's failure (its time limit on a slow host, the host's
    // language, anything) was remembered, and `add -A` then ran a plain git on the workspace.
    const { repo } = setUp('no-view');
    const host = setUp('no-view-host').repo;
    mkdirSync(path.join(repo, 'leak'));
    writeFileSync(path.join(repo, 'leak', '.git'), `gitdir: ${path.join(host, '.git')}\n`);
    const out = inChild(
      // No temporary folder (set after the imports, which need one): the probe cannot even make
      // its test tree.
      `process.env.TMPDIR = '/dev/null/absent';\n` +
        `await addAll(${JSON.stringify(repo)}).then(() => console.log('added'), (e) => console.log('refused:', e.message));\n` +
        `console.log('listed:', JSON.stringify(await knownFiles(${JSON.stringify(repo)})));`,
      {},
    );
    expect(out).toMatch(/refused: git add needs a view of the workspace of its own/);
    expect(out).toContain('"leak/.git"');
    const staged = execFileSync('git', ['ls-files', '-s'], { cwd: repo, encoding: 'utf8' });
    expect(staged).not.toMatch(/^160000 /m);
  });

  it('the probe a job begins early is one run for every caller meanwhile, and a failure is asked again', () => {
    // A job begins the probe beside its clone and does not wait: its first view waits instead.
    const out = inChild(
      [
        'const first = noFollowProbe();',
        "console.log('shared:', first === noFollowProbe());",
        "console.log('async:', (await first) ?? 'available');",
        // A caller after the answer: the answer kept, no second run.
        "console.log('again:', (await noFollowProbe()) ?? 'available');",
        // No temporary folder: the probe cannot make its test tree, and says so.
        "process.env.TMPDIR = '/dev/null/absent';",
        "console.log('later:', (await noFollowProbe(Date.now())) ?? 'available');",
      ].join('\n'),
      {},
    );
    expect(out).toContain('shared: true');
    expect(out).toContain('async: available');
    expect(out).toContain('again: available');
    // Available once is available for good: the host does not lose the view.
    expect(out).toContain('later: available');
    const failing = inChild(
      [
        "process.env.TMPDIR = '/dev/null/absent';",
        "console.log('first:', (await noFollowProbe()) ?? 'available');",
        'delete process.env.TMPDIR;',
        // Within the time a failure is kept: the same answer, no new run.
        "console.log('kept:', (await noFollowProbe()) ?? 'available');",
        "console.log('asked again:', (await noFollowProbe(Date.now() + 31_000)) ?? 'available');",
      ].join('\n'),
      {},
    );
    expect(failing).toMatch(/first: the view could not be made/);
    expect(failing).toMatch(/kept: the view could not be made/);
    expect(failing).toContain('asked again: available');
  });

  it("the probe reads git's answers whatever the host's language", () => {
    const out = inChild(`console.log('view:', (await noFollowProbe()) ?? 'available');`, {
      LANG: 'C.UTF-8',
      LANGUAGE: 'de',
    });
    expect(out).toContain('view: available');
  });

  it('a sparse .gitignore of gigabytes is refused by a bounded git, never read into the host memory', async () => {
    // It costs the sandbox no disk; git reads a .gitignore whole.
    const { repo } = setUp('sparse');
    mkdirSync(path.join(repo, 'src'));
    execFileSync('truncate', ['-s', '3G', path.join(repo, 'src', '.gitignore')]);
    writeFileSync(path.join(repo, 'src', 'a.ts'), 'x\n');
    await expect(knownFiles(repo)).rejects.toThrow(/memory|malloc/i);
  }, 60_000);

  it("a git the workspace holds is never run, whatever relative folder the caller's PATH names", () => {
    // An attacker's finding: host git runs with the workspace as its folder, so a relative entry
    // of the operator's PATH (`node_modules/.bin`, or an empty one: the folder itself) found the
    // repository's own `git`, run as regreen's user.
    const { repo } = setUp('path');
    const ran = path.join(temp.dir, 'planted-git-ran');
    for (const dir of [repo, path.join(repo, 'node_modules', '.bin')]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, 'git'), `#!/bin/sh\ntouch ${ran}\nexec /usr/bin/git "$@"\n`, {
        mode: 0o755,
      });
    }
    writeFileSync(path.join(repo, 'new.txt'), 'n\n');
    const out = inChild(
      `await addAll(${JSON.stringify(repo)});\nconsole.log('listed:', JSON.stringify(await knownFiles(${JSON.stringify(repo)})));`,
      { PATH: `node_modules/.bin::${process.env.PATH ?? '/usr/bin:/bin'}` },
    );
    expect(out).toContain('"new.txt"');
    expect(existsSync(ran)).toBe(false);
  });

  it('a view folder removed and made again by someone else is not used: its own is made again', () => {
    // An attacker's finding: the folder was vetted once; removed by a cleaner and made again
    // by another user, it would have held their table and their git, run as regreen's user.
    // Folders the unprivileged user reaches (the suite's own is root's alone).
    const own = mkdtempSync(path.join(os.tmpdir(), 'regreen-remade-'));
    after.push(() => execFileSync('rm', ['-rf', '--one-file-system', '--', own]));
    execFileSync('chmod', ['1777', own]);
    const { repo } = setUp('remade', own);
    execFileSync('chown', ['-R', '65534:65534', path.dirname(repo)]);
    const script = [
      `import { rmSync, mkdirSync, writeFileSync, chmodSync } from 'node:fs';`,
      `const base = ${JSON.stringify(path.join(own, 'regreen-git-view-65534'))};`,
      `writeFileSync(${JSON.stringify(path.join(repo, 'one.txt'))}, '1\\n');`,
      `await addAll(${JSON.stringify(repo)});`,
      // The cleaner, then another's folder (open to others) holding a table that mounts nothing usable.
      `rmSync(base, { recursive: true, force: true });`,
      `mkdirSync(base); chmodSync(base, 0o755);`,
      `writeFileSync(base + '/system.fstab', '/nonexistent ' + base + '/root/usr none bind 0 0\\n');`,
      `writeFileSync(${JSON.stringify(path.join(repo, 'two.txt'))}, '2\\n');`,
      `await addAll(${JSON.stringify(repo)});`,
      `console.log('staged again');`,
    ].join('\n');
    const out = inChild(script, { TMPDIR: own, HOME: own }, 65534, own);
    expect(out).toContain('staged again');
    const staged = execFileSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' });
    expect(staged).toContain('two.txt');
  });

  it('the listing of known files does not list a folder a link leads to', async () => {
    const { repo, secret } = setUp('listing');
    writeFileSync(path.join(secret, 'id_rsa'), 'x\n');
    execFileSync('ln', ['-s', secret, path.join(repo, 'l')]);
    expect((await knownFiles(repo)).some((file) => file.includes('id_'))).toBe(false);
  });
});
