/**
 * Every host git that reads (or writes) a tree sandboxed code wrote runs on
 * the tree's view (`src/workspace/repo/git-view.ts`), asynchronously and
 * bounded: the recipes' restore of protected files, the setup's exclusions,
 * the tracked changes after the judged runs, and the patch applied to a
 * fresh tree. Each attack below is an outside attacker's finding against the
 * callers that ran a plain git.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { JobContext } from '../../src/job/context.ts';
import { trackedChanges } from '../../src/job/stages/guard-tree.ts';
import { applyPatch } from '../../src/job/stages/apply-patch.ts';
import { excludeLine, excludeSetupArtifacts } from '../../src/job/stages/setup-exclusions.ts';
import { restoreProtected } from '../../src/job/stages/recipes.ts';
import { workspaceDiff } from '../../src/workspace/repo/staged.ts';
import type { Recipe } from '../../src/recipes/types.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-view-callers-');
afterAll(() => temp.cleanup());

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });

/** A committed repository of `files` at `temp/name/repo`. */
const repoOf = (name: string, files: Record<string, string>): string => {
  const repo = path.join(temp.dir, name, 'repo');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  git(repo, 'init', '-q');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-qm', 'base');
  return repo;
};

/** Whether timers run while `pending` is pending (20 ticks of 25 ms), and that it still is after. */
const heldAlone = async (pending: Promise<unknown>): Promise<boolean> => {
  let settled = false;
  void pending.finally(() => (settled = true)).catch(() => undefined);
  let ticks = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      ticks += 1;
      if (ticks === 20) {
        clearInterval(timer);
        resolve();
      }
    }, 25);
  });
  return ticks === 20 && !settled;
};

/**
 * Lets the readers a FIFO holds go on until `pending` settles: a writer that
 * closes at once (an empty file), again for each later open.
 */
const releaseUntil = async (fifo: string, pending: Promise<unknown>): Promise<void> => {
  let settled = false;
  void pending.finally(() => (settled = true)).catch(() => undefined);
  while (!settled) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // no reader at this moment
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
};

describe('host git over a tree sandboxed code wrote', () => {
  it("the recipes' restore of a protected file writes nothing through a folder swapped for a link", async () => {
    // A process the sandbox left running exchanges `.github/cron` with a link to a host folder
    // (renameat2 RENAME_EXCHANGE) while root's git checks the path out: a plain git checked the
    // leading folder, then created the file through the link (won within 9 attempts, 4 of 4).
    const target = path.join(temp.dir, 'host-target');
    mkdirSync(target);
    const ws = repoOf('restore', { '.github/cron/pwn': 'planted\n', README: 'hi\n' });
    writeFileSync(path.join(ws, '.github', 'cron', 'pwn'), 'changed\n');
    symlinkSync(target, path.join(ws, '.github', 'swap'));
    const source = path.join(temp.dir, 'swap.c');
    writeFileSync(
      source,
      [
        '#define _GNU_SOURCE',
        '#include <errno.h>',
        '#include <fcntl.h>',
        '#include <stdio.h>',
        '#include <sys/stat.h>',
        '#include <sys/syscall.h>',
        '#include <unistd.h>',
        'static int is_link(const char *p) { struct stat st; return lstat(p, &st) == 0 && S_ISLNK(st.st_mode); }',
        'int main(int argc, char **argv) {',
        '  char junk[4096];',
        '  for (unsigned long i = 0;; i++) {',
        '    if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2) < 0 && errno == ENOENT) {',
        '      if (access(argv[1], F_OK) != 0 && !is_link(argv[1])) mkdir(argv[1], 0755);',
        '      if (!is_link(argv[2]) && access(argv[2], F_OK) != 0) symlink(argv[3], argv[2]);',
        '    }',
        // Now and then the link is made anew where git left a folder in its place.
        '    if (i % 256 == 0 && !is_link(argv[1]) && !is_link(argv[2])) {',
        '      snprintf(junk, sizeof junk, "%s.junk%lu", argv[2], i);',
        '      rename(argv[2], junk);',
        '      symlink(argv[3], argv[2]);',
        '    }',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    execFileSync('gcc', ['-O2', '-o', path.join(temp.dir, 'swap'), source]);
    const swapper = spawn(
      path.join(temp.dir, 'swap'),
      [path.join(ws, '.github', 'cron'), path.join(ws, '.github', 'swap'), target],
      { stdio: 'ignore' },
    );
    const recipe = { name: 'fmt', allowsProtected: [] } as unknown as Recipe;
    try {
      for (let attempt = 0; attempt < 150; attempt += 1)
        await restoreProtected(ws, { protected: [], unprotected: [] }, recipe).catch(() => []);
    } finally {
      swapper.kill('SIGKILL');
    }
    expect(readdirSync(target)).toEqual([]);
  }, 120_000);

  it("the tracked changes are read by a bounded git: a sparse file re-encoded by the tree's attributes takes no gigabytes", async () => {
    // An empty tracked file grown sparse by the setup, and a `working-tree-encoding` line: a
    // plain git re-encoded it in memory at about 35 times its size (96 MiB took 3.3 GiB).
    const tree = repoOf('encoding', { 'pkg/__init__.py': '', 'calc.py': 'x = 1\n' });
    execFileSync('truncate', ['-s', '96M', path.join(tree, 'pkg', '__init__.py')]);
    writeFileSync(path.join(tree, '.gitattributes'), '*.py working-tree-encoding=ISO-8859-1\n');
    await expect(trackedChanges(tree)).rejects.toThrow(/memory|alloc/i);
  }, 60_000);

  it('a FIFO where git reads the .gitattributes holds the patch being applied, not the process', async () => {
    const tree = repoOf('apply', { 'a.txt': 'one\n' });
    execFileSync('mkfifo', [path.join(tree, '.gitattributes')]);
    const job = { dir: path.join(temp.dir, 'apply') } as JobContext;
    const applying = applyPatch(
      job,
      tree,
      `diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-one\n+two\n`,
    );
    expect(await heldAlone(applying)).toBe(true);
    await releaseUntil(path.join(tree, '.gitattributes'), applying);
    await applying;
    expect(readFileSync(path.join(tree, 'a.txt'), 'utf8')).toBe('two\n');
  }, 60_000);

  it("the setup's exclusions never open what a planted .git file names (a FIFO would hold a plain git)", async () => {
    const ws = repoOf('exclude', { 'a.txt': 'a\n' });
    const fifo = path.join(temp.dir, 'exclude', 'host-fifo');
    execFileSync('mkfifo', [fifo]);
    mkdirSync(path.join(ws, 'planted'));
    writeFileSync(path.join(ws, 'planted', '.git'), `gitdir: ${fifo}\n`);
    writeFileSync(path.join(ws, 'planted', 'f'), 'f\n');
    // The setup also left a file named `*`: it excludes itself, not every new file after it.
    writeFileSync(path.join(ws, '*'), 'star\n');
    await excludeSetupArtifacts(ws);
    const exclude = readFileSync(path.join(ws, '.git', 'info', 'exclude'), 'utf8');
    expect(exclude).toContain('/planted/\n');
    expect(exclude).toContain('/\\*\n');
    // (This test's own plain git would open the FIFO: the planted file goes first.)
    rmSync(path.join(ws, 'planted', '.git'));
    writeFileSync(path.join(ws, 'new.txt'), 'new\n');
    expect(git(ws, 'status', '--porcelain')).toContain('?? new.txt');
  }, 60_000);

  it("the change's diff reads the tree's attributes on its view: no gigabytes from one file linked into every level, nothing through a link", async () => {
    // A third round's findings: `diff --cached` ran plain, reading `.gitattributes` along each
    // changed path, each whole (one 24 MiB file hard-linked into three levels: 4.7 GiB of
    // root's memory), and through a tracked folder swapped for a link to a host folder.
    const ws = repoOf('diff-attributes', { 'd1/d2/x': 'x\n', 'e/f': 'f\n', 'keep.txt': 'k\n' });
    const base = git(ws, 'rev-parse', 'HEAD').trim();
    rmSync(path.join(ws, 'd1', 'd2', 'x'));
    const line = '* a\n';
    writeFileSync(path.join(ws, '.gitattributes'), line.repeat((24 * 1024 * 1024) / line.length));
    for (const dir of ['d1', path.join('d1', 'd2')])
      execFileSync('ln', [path.join(ws, '.gitattributes'), path.join(ws, dir, '.gitattributes')]);
    writeFileSync(path.join(ws, '.gitignore'), '.gitignore\n.gitattributes\n');
    await expect(workspaceDiff(ws, base)).rejects.toThrow(/memory|alloc/i);

    const linked = repoOf('diff-link', { 'd1/d2/x': 'x\n', 'keep.txt': 'k\n' });
    const linkedBase = git(linked, 'rev-parse', 'HEAD').trim();
    const host = path.join(temp.dir, 'diff-link', 'host-only');
    mkdirSync(path.join(host, 'd2'), { recursive: true });
    writeFileSync(path.join(host, 'd2', '.gitattributes'), 'x -diff\n');
    rmSync(path.join(linked, 'd1'), { recursive: true });
    symlinkSync(host, path.join(linked, 'd1'));
    const diff = await workspaceDiff(linked, linkedBase);
    // The host's attributes would have made the deletion a binary patch.
    expect(diff).toContain('-x');
    expect(diff).not.toContain('GIT binary patch');
  }, 120_000);

  it('an exclude line names exactly its path', () => {
    expect(excludeLine('*')).toBe('/\\*');
    expect(excludeLine('a[b]?c\\')).toBe('/a\\[b\\]\\?c\\\\');
    expect(excludeLine('trailing ')).toBe('/trailing\\ ');
    expect(excludeLine('#x')).toBe('/#x');
    expect(excludeLine('two\nlines')).toBeUndefined();
    // Not UTF-8: read with U+FFFD, whose line would name another file.
    expect(excludeLine('i\uFFFD')).toBeUndefined();
  });
});
