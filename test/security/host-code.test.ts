import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changedTreeLinks } from '../../src/job/stages/judged-change.ts';
import { parseDiff } from '../../checks/diff.ts';
import { noEscapingLinks } from '../../checks/no-escaping-links.ts';
import { noNestedRepository } from '../../checks/no-nested-repository.ts';
import type { CheckContext } from '../../checks/types.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { createLocalForge } from '../../src/forge/local.ts';
import { commitProposal } from '../../src/forge/commit.ts';
import { workspaceDiff } from '../../src/workspace/repo/staged.ts';
import { hostGit, hostGitSync } from '../../src/workspace/repo/git.ts';
import { excludeSetupArtifacts } from '../../src/job/stages/setup-exclusions.ts';
import { restoreProtected } from '../../src/job/stages/recipes.ts';
import type { Recipe } from '../../src/recipes/types.ts';
import { cloneWorkspace } from '../../src/workspace/repo/clone.ts';
import { knownFiles } from '../../src/workspace/repo/known-files.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { astTools } from '../../tools/ast/index.ts';
import { createSetupCache } from '../../src/workspace/setup/cache.ts';
import { coreTools } from '../../tools/index.ts';
import { resultText, type ToolContext } from '../../tools/types.ts';
import { stagedTree } from '../support/staged-tree.ts';
import { makeTempDir } from '../support/tmp.ts';
import { toolContext } from '../support/tool-context.ts';
import { attackSandbox, CANARY, inSandbox, plant } from './support.ts';

const git = (cwd: string, ...args: string[]): string =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    encoding: 'utf8',
  });

/**
 * A repository with a gitlink at `vendor/lib`, and what sandboxed code can leave there: a
 * repository at the recorded commit whose clean filter writes `marker` (a file whose stat makes
 * its git hash it again), and a `.gitmodules` saying not to ignore it.
 */
const plantAtGitlink = (repo: string): { repo: string; marker: string } => {
  mkdirSync(repo, { recursive: true });
  git(repo, 'init', '-q');
  writeFileSync(path.join(repo, 'f'), 'x\n');
  git(repo, 'add', 'f');
  git(repo, 'commit', '-qm', 'init');
  const head = git(repo, 'rev-parse', 'HEAD').trim();
  git(repo, 'update-index', '--add', '--cacheinfo', `160000,${head},vendor/lib`);
  git(repo, 'commit', '-qm', 'gitlink');
  const nested = path.join(repo, 'vendor', 'lib');
  mkdirSync(nested, { recursive: true });
  git(nested, 'init', '-q');
  git(nested, 'fetch', '-q', path.join(repo, '.git'), head);
  git(nested, 'reset', '-q', '--hard', 'FETCH_HEAD');
  const marker = `${repo}-PWNED`;
  git(nested, 'config', 'filter.x.clean', `sh -c 'id > ${marker}; cat'`);
  writeFileSync(path.join(nested, '.gitattributes'), '* filter=x\n');
  writeFileSync(path.join(nested, 'f'), 'x\n');
  execFileSync('touch', ['-d', '2001-01-01', path.join(nested, 'f')]);
  writeFileSync(
    path.join(repo, '.gitmodules'),
    '[submodule "a"]\n\tpath = vendor/lib\n\turl = ./n\n\tignore = none\n',
  );
  return { repo, marker };
};

/**
 * Attacks on the host: repository data that tries to become code regreen runs
 * (git filters of a planted repository, refs read as options), and tool calls
 * that try to make regreen's own file access leave the workspace.
 */
describe('code of theirs on the host', () => {
  const temp = makeTempDir();
  const root = temp.dir;
  const source = path.join(root, 'source');
  const workspace = path.join(root, 'data', 'jobs', 'j', 'workspace');
  const outside = path.join(root, 'outside');
  /** What a planted filter or option creates when it runs on the host. */
  const pwned = path.join(root, 'PWNED');
  let baseSha = '';
  let sandbox: Sandbox;
  let ctx: ToolContext;
  const registry = new ToolRegistry([...coreTools(), ...astTools()]);
  const call = async (name: string, input: unknown) => {
    const result = await registry.call(name, input, ctx, new AbortController().signal, {
      levels: TOOL_LEVELS,
    });
    return { ...result, text: resultText(result) };
  };
  const filterConfig = `[filter "x"]\n\tclean = "sh -c 'touch ${pwned}; cat'"\n\tsmudge = "sh -c 'touch ${pwned}; cat'"\n[diff "x"]\n\ttextconv = "sh -c 'touch ${pwned}; cat'"\n[core]\n\tfsmonitor = "sh -c 'touch ${pwned}'"\n\tpager = "sh -c 'touch ${pwned}'"\n`;

  beforeAll(async () => {
    mkdirSync(source, { recursive: true });
    git(source, 'init', '-q', '-b', 'main');
    writeFileSync(path.join(source, 'index.js'), 'module.exports = 1;\n');
    mkdirSync(path.join(source, 'cfg'));
    writeFileSync(path.join(source, 'cfg', 'victim.js'), 'foo(1);\n');
    writeFileSync(
      path.join(source, '.gitmodules'),
      '[submodule "sub"]\n\tpath = sub\n\turl = ./sub\n',
    );
    git(source, 'add', '-A');
    // A gitlink: the workspace gets an empty folder `sub`.
    git(source, 'update-index', '--add', '--cacheinfo', `160000,${'a'.repeat(40)},sub`);
    git(source, 'commit', '-q', '-m', 'base');
    const cloned = await cloneWorkspace({
      source: { location: source, localRoot: source },
      ref: undefined,
      dest: workspace,
    });
    baseSha = cloned.baseSha;
    mkdirSync(path.join(workspace, 'sub'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    sandbox = await attackSandbox({ root, workspace });
    ctx = toolContext(workspace, sandbox);
  });

  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  describe('planted nested repositories', () => {
    it('code in the sandbox cannot plant a repository in a submodule folder', async () => {
      const result = await inSandbox(
        sandbox,
        `mkdir -p sub/.git && git init -q sub; printf '%s' ${JSON.stringify(filterConfig)} >> sub/.git/config; echo exit=$?`,
      );
      expect(existsSync(path.join(workspace, 'sub', '.git'))).toBe(false);
      expect(result.output).toMatch(/Read-only file system|exit=[1-9]/);
    });

    it('the write tools refuse a .git folder at any depth', async () => {
      for (const target of ['sub/.git/config', 'a/b/.git/hooks/pre-commit', 'x/.GIT/config']) {
        const result = await call('write', {
          path: path.join(workspace, target),
          content: filterConfig,
        });
        expect(result.isError, target).toBe(true);
        expect(result.text).toMatch(/\.git folder/);
      }
      expect(existsSync(path.join(workspace, 'a', 'b', '.git'))).toBe(false);
    });

    it('host git runs no filter, driver, textconv, fsmonitor or pager of a planted repository or of the global config', async () => {
      // The operator's global config defines the same names: never read for a workspace.
      const fakeHome = path.join(root, 'operator-home');
      plant(path.join(fakeHome, '.gitconfig'), filterConfig);
      const home = process.env.HOME;
      writeFileSync(path.join(workspace, '.gitattributes'), '* filter=x diff=x\n');
      writeFileSync(path.join(workspace, 'index.js'), 'module.exports = 2;\n');
      const nested = path.join(workspace, 'other');
      try {
        process.env.HOME = fakeHome;
        await excludeSetupArtifacts(workspace);
        process.env.HOME = home;
        // Planted as if it got there another way: a nested repository with filters and a
        // tracked file rewritten same-size, added once (as a gitlink) and then again.
        mkdirSync(nested, { recursive: true });
        git(nested, 'init', '-q');
        writeFileSync(path.join(nested, 'f.txt'), 'aaaa\n');
        git(nested, 'add', '-A');
        git(nested, 'commit', '-q', '-m', 'n');
        writeFileSync(path.join(nested, '.git', 'config'), filterConfig, { flag: 'a' });
        writeFileSync(path.join(nested, '.gitattributes'), '* filter=x diff=x\n');
        process.env.HOME = fakeHome;
        // The folder search of ast_grep and the setup cache list the workspace's files with host git.
        await call('ast_grep', { pattern: 'module.exports = $X', language: 'javascript' });
        await createSetupCache(path.join(root, 'setup-cache')).run({
          workspace,
          command: 'true',
          setup: () =>
            Promise.resolve({
              exitCode: 0,
              timedOut: false,
              output: '',
              droppedBytes: 0,
              durationMs: 0,
            }),
        });
        expect(existsSync(pwned)).toBe(false);
        // The read the fresh check begins with while the agent works: through an index of regreen's.
        mkdirSync(path.join(root, 'index'));
        await workspaceDiff(workspace, baseSha, path.join(root, 'index', 'own.index'));
        expect(existsSync(pwned)).toBe(false);
        await workspaceDiff(workspace, baseSha);
        writeFileSync(path.join(nested, 'f.txt'), 'bbbb\n');
        const diff = await workspaceDiff(workspace, baseSha);
        expect(existsSync(pwned)).toBe(false);
        const check = noNestedRepository({ diff: parseDiff(diff) } as CheckContext);
        expect(check.ok).toBe(false);
        expect(check.detail).toMatch(/other is a gitlink/);
        await commitProposal({ workspace, tree: await stagedTree(workspace) }, 'fix', 'body');
        expect(existsSync(pwned)).toBe(false);
        // The local forge commits a change and writes the fix as a patch (format-patch) on the host.
        writeFileSync(path.join(workspace, 'index.js'), 'module.exports = 3;\n');
        const proposed = await createLocalForge({
          target: workspace,
          localRoot: undefined,
          dataDir: path.join(root, 'forge-data'),
        }).propose({
          workspace,
          baseSha,
          tree: await stagedTree(workspace),
          branch: 'regreen/attack',
          fingerprint: 'attack',
          title: 'fix',
          body: 'body',
        });
        expect(readFileSync(proposed.patchPath as string, 'utf8')).toMatch(
          /^Subject: \[PATCH[^\]]*\] fix/m,
        );
        expect(existsSync(pwned)).toBe(false);
      } finally {
        process.env.HOME = home;
        rmSync(nested, { recursive: true, force: true });
        rmSync(path.join(workspace, '.gitattributes'), { force: true });
      }
    });

    it("host git never enters a submodule, whatever the worktree's .gitmodules says (ignore = none)", async () => {
      // An attacker's finding: `ignore = none` in .gitmodules (sandboxed code writes it) overrode
      // `diff.ignoreSubmodules=all`, so a worktree status or diff ran `git status` inside a
      // repository planted at a gitlink's path, with its own config: its clean filter ran on the host.
      const { repo, marker } = plantAtGitlink(path.join(root, 'gitmodules-none'));
      // The host's worktree comparisons: the fresh tree's guard, a recipe's check, the CLI's.
      hostGitSync(['status', '--porcelain', '-z', '--untracked-files=no', '--no-renames'], {
        cwd: repo,
      });
      await hostGit(['diff', '--name-only', '-z', '--no-renames', 'HEAD', '--'], { cwd: repo });
      await hostGit(['status', '--porcelain', '--untracked-files=no'], { cwd: repo });
      hostGitSync(['diff-files', '--name-only'], { cwd: repo });
      hostGitSync(['diff-index', '--name-only', 'HEAD'], { cwd: repo });
      expect(existsSync(marker)).toBe(false);
    });

    it('the proposal is committed by plumbing: no status of the worktree, so no submodule entered even when nothing is staged', async () => {
      // An attacker's finding: with nothing staged, `git commit` ran a status of the worktree, which
      // entered a repository planted at a gitlink's path (`.gitmodules`: ignore = none) and ran its filter.
      const { repo, marker } = plantAtGitlink(path.join(root, 'commit-plumbing'));
      writeFileSync(path.join(repo, '.git', 'info', 'exclude'), '/.gitmodules\n');
      const refused: unknown = await commitProposal(
        { workspace: repo, tree: await stagedTree(repo) },
        'fix',
        'body',
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(existsSync(marker)).toBe(false);
      expect(String(refused)).toMatch(/nothing to commit/);
      // No host git commits by porcelain, whoever asks.
      await expect(
        hostGit(['-c', 'user.name=x', 'commit', '--allow-empty', '-m', 'x'], { cwd: repo }),
      ).rejects.toThrow(/plumbing only/);
      expect(existsSync(marker)).toBe(false);
      // A change is committed on the branch, its message cleaned as `git commit -m` cleans it.
      const before = git(repo, 'rev-parse', 'HEAD').trim();
      writeFileSync(path.join(repo, 'f'), 'y\n');
      const commit = await commitProposal(
        { workspace: repo, tree: await stagedTree(repo) },
        'fix: the title  ',
        '\n\nthe body \n\n\n\nend\n\n',
      );
      expect(existsSync(marker)).toBe(false);
      expect(git(repo, 'rev-parse', 'HEAD').trim()).toBe(commit);
      expect(git(repo, 'rev-parse', `${commit}^`).trim()).toBe(before);
      // The message is the title and the body's first paragraph (#59: the rest is the PR's).
      expect(git(repo, 'log', '-1', '--format=%B', commit)).toBe('fix: the title\n\nthe body\n\n');
      expect(git(repo, 'show', `${commit}:f`)).toBe('y\n');
    });

    it('a FIFO where host git opens a file (a .gitignore) ends that git at its time limit, never holds the process', () => {
      // An attacker's finding: git blocks in open() on a FIFO, and a synchronous host git with no
      // time limit held regreen's whole process (every timer, every other job) forever.
      const repo = path.join(root, 'fifo-gitignore');
      mkdirSync(path.join(repo, 'sub'), { recursive: true });
      git(repo, 'init', '-q');
      writeFileSync(path.join(repo, 'sub', 'a.ts'), 'x\n');
      execFileSync('mkfifo', [path.join(repo, 'sub', '.gitignore')]);
      expect(() =>
        hostGitSync(['ls-files', '-z', '--others', '--exclude-standard'], {
          cwd: repo,
          timeoutMs: 2000,
        }),
      ).toThrow(/ETIMEDOUT|timed out|SIGKILL/);
    }, 30_000);

    it('a FIFO where git opens a .gitignore of a worktree holds that call only: timers run meanwhile', async () => {
      // The walks of a worktree sandboxed code wrote (the known files, what a set-up left, the
      // tracked changes after the judged runs) are asynchronous: a planted FIFO holds one call.
      const repo = path.join(root, 'fifo-known-files');
      mkdirSync(path.join(repo, 'sub'), { recursive: true });
      git(repo, 'init', '-q');
      writeFileSync(path.join(repo, 'sub', 'a.ts'), 'x\n');
      const fifo = path.join(repo, 'sub', '.gitignore');
      execFileSync('mkfifo', [fifo]);
      let settled = false;
      const listing = knownFiles(repo).finally(() => (settled = true));
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
      expect(settled).toBe(false);
      // A writer that closes at once: git (waiting to read) reads an empty file and goes on.
      const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
      closeSync(writer);
      expect(await listing).toContain('sub/a.ts');
    }, 30_000);

    it("the local forge reads a person's signed branch without running the repository's gpg.program", async () => {
      const target = path.join(root, 'signed-target');
      mkdirSync(target, { recursive: true });
      git(target, 'init', '-q');
      writeFileSync(path.join(target, 'a.txt'), 'a\n');
      git(target, 'add', '-A');
      git(target, 'commit', '-qm', 'base');
      const base = git(target, 'rev-parse', 'HEAD').trim();
      // A person's commit on regreen's branch, carrying a signature header.
      const tree = git(target, 'rev-parse', 'HEAD^{tree}').trim();
      const signed = execFileSync('git', ['hash-object', '-t', 'commit', '-w', '--stdin'], {
        cwd: target,
        encoding: 'utf8',
        input: `tree ${tree}\nparent ${base}\nauthor P <p@example.com> 1700000000 +0000\ncommitter P <p@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n AAAA\n -----END PGP SIGNATURE-----\n\nmine\n`,
      }).trim();
      git(target, 'update-ref', 'refs/heads/regreen/signed', signed);
      const pwned = path.join(root, 'gpg-ran');
      const gpg = path.join(root, 'fake-gpg.sh');
      writeFileSync(gpg, `#!/bin/sh\ntouch ${pwned}\nexit 1\n`, { mode: 0o755 });
      git(target, 'config', 'log.showSignature', 'true');
      git(target, 'config', 'gpg.program', gpg);
      const work = path.join(root, 'signed-work');
      execFileSync('git', ['clone', '-q', target, work]);
      writeFileSync(path.join(work, 'a.txt'), 'b\n');
      await expect(
        createLocalForge({
          target,
          localRoot: target,
          dataDir: path.join(root, 'signed-data'),
        }).propose({
          workspace: work,
          baseSha: base,
          tree: await stagedTree(work),
          branch: 'regreen/signed',
          fingerprint: 'signed',
          title: 'fix',
          body: 'body',
        }),
      ).rejects.toThrow(/not regreen's/);
      expect(existsSync(pwned)).toBe(false);
      expect(git(target, 'rev-parse', 'regreen/signed').trim()).toBe(signed);
    });

    it("the local forge writes its branch without running the person's repository's receive hooks or upload-pack", async () => {
      const target = path.join(root, 'hooked-target');
      mkdirSync(target, { recursive: true });
      git(target, 'init', '-q');
      writeFileSync(path.join(target, 'a.txt'), 'a\n');
      git(target, 'add', '-A');
      git(target, 'commit', '-qm', 'base');
      const base = git(target, 'rev-parse', 'HEAD').trim();
      // Hooks in the person's repository (a hook manager such as husky installs the repository's
      // own there): each marks that it ran on the host; so does an upload-pack its config names.
      const ran = path.join(root, 'hooks-ran');
      const hooks = [
        'pre-receive',
        'update',
        'post-receive',
        'post-update',
        'reference-transaction',
      ];
      for (const hook of hooks)
        writeFileSync(
          path.join(target, '.git', 'hooks', hook),
          `#!/bin/sh\necho ${hook} >> ${ran}\n`,
          {
            mode: 0o755,
          },
        );
      const work = path.join(root, 'hooked-work');
      execFileSync('git', ['clone', '-q', target, work]);
      git(
        target,
        'config',
        `remote.${work}.uploadpack`,
        `sh -c 'echo uploadpack >> ${ran}; exit 1'`,
      );
      writeFileSync(path.join(work, 'a.txt'), 'b\n');
      const proposed = await createLocalForge({
        target,
        localRoot: target,
        dataDir: path.join(root, 'hooked-data'),
      }).propose({
        workspace: work,
        baseSha: base,
        tree: await stagedTree(work),
        branch: 'regreen/hooked',
        fingerprint: 'hooked',
        title: 'fix',
        body: 'body',
      });
      expect(existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe('');
      expect(git(target, 'rev-parse', 'regreen/hooked').trim()).toBe(proposed.commit);
      expect(git(target, 'show', 'regreen/hooked:a.txt')).toBe('b\n');
    });

    it("a recipe's protected file is put back without writing through a link the sandbox swapped in", async () => {
      const ws = path.join(root, 'restore-ws');
      const outside = path.join(root, 'restore-outside');
      mkdirSync(path.join(ws, 'sub'), { recursive: true });
      mkdirSync(outside, { recursive: true });
      git(ws, 'init', '-q');
      writeFileSync(path.join(ws, 'sub', 'package.json'), '{}\n');
      git(ws, 'add', '-A');
      git(ws, 'commit', '-qm', 'base');
      writeFileSync(path.join(ws, 'sub', 'package.json'), '{"formatted": true}\n');
      writeFileSync(path.join(outside, 'package.json'), `${CANARY}\n`);
      // The recipe's tool (the repository's own formatter) swaps the folder for a link out.
      rmSync(path.join(ws, 'sub'), { recursive: true });
      symlinkSync(outside, path.join(ws, 'sub'));
      await restoreProtected(ws, { protected: [], unprotected: [] }, {
        name: 'x',
        allowsProtected: [],
      } as unknown as Recipe);
      expect(readFileSync(path.join(outside, 'package.json'), 'utf8')).toBe(`${CANARY}\n`);
    });

    it('a ref that starts with "-" is never read as an option', async () => {
      await expect(
        cloneWorkspace({
          source: { location: source, localRoot: source },
          ref: `--upload-pack=touch ${pwned}`,
          dest: path.join(root, 'clone-2'),
        }),
      ).rejects.toThrow(/not a ref/);
      expect(existsSync(pwned)).toBe(false);
    });
  });

  describe('symlinks and races around the file tools', () => {
    it('resolve refuses a folder swapped for a symlink after ast_edit staged it', async () => {
      const staged = await call('ast_edit', {
        pattern: 'foo($A)',
        rewrite: 'bar($A)',
        path: path.join(workspace, 'cfg', 'victim.js'),
      });
      expect(staged.isError, staged.text).toBe(false);
      const id = /edit_id "(edit_\d+)"/.exec(staged.text)?.[1] ?? '';
      // The swap, as an eval cell in the sandbox would do it.
      plant(path.join(outside, 'cfg', 'victim.js'), 'foo(1);\n');
      renameSync(path.join(workspace, 'cfg'), path.join(workspace, 'cfg-moved'));
      symlinkSync(path.join(outside, 'cfg'), path.join(workspace, 'cfg'));
      const accepted = await call('resolve', { edit_id: id, action: 'accept' });
      expect(accepted.isError).toBe(true);
      expect(readFileSync(path.join(outside, 'cfg', 'victim.js'), 'utf8')).toBe('foo(1);\n');
    });

    it('read and write never reach outside while a directory and a symlink are exchanged', async () => {
      const race = path.join(workspace, 'race');
      plant(path.join(race, 'd', 'f.txt'), 'inside\n');
      plant(path.join(outside, 'race', 'f.txt'));
      symlinkSync(path.join(outside, 'race'), path.join(race, 'l'));
      const swapper = [
        'import ctypes, os, time',
        'libc = ctypes.CDLL(None, use_errno=True)',
        'end = time.time() + 8',
        "a, b = b'd', b'l'",
        `dirfd = os.open(${JSON.stringify(race)}, os.O_RDONLY)`,
        'while time.time() < end:',
        '    libc.renameat2(dirfd, a, dirfd, b, 2)',
      ].join('\n');
      const running = inSandbox(sandbox, `python3 -c '${swapper}'`, { timeoutMs: 30_000 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      const target = path.join(race, 'd', 'f.txt');
      let reads = 0;
      for (let attempt = 0; attempt < 300; attempt += 1) {
        const read = await call('read', { path: target });
        expect(read.text).not.toContain(CANARY);
        if (!read.isError) reads += 1;
        await call('write', { path: target, content: `written ${attempt}\n` });
      }
      await running;
      expect(readFileSync(path.join(outside, 'race', 'f.txt'), 'utf8')).toBe(CANARY);
      expect(readdirSync(path.join(outside, 'race'))).toEqual(['f.txt']);
      expect(reads).toBeGreaterThan(0);
    });

    it('search runs in the sandbox: a FIFO ends it by its timeout at worst, a link out shows nothing of the host', async () => {
      const dir = path.join(workspace, 'search-attack');
      mkdirSync(dir, { recursive: true });
      execFileSync('mkfifo', [path.join(dir, 'pipe.txt')]);
      plant(path.join(outside, 'search-secret.txt'));
      symlinkSync(outside, path.join(dir, 'out'));
      writeFileSync(path.join(dir, 'here.txt'), `${CANARY.slice(0, 6)} inside\n`);
      const result = await call('search', { pattern: CANARY.slice(0, 6), path: dir });
      expect(result.text).not.toContain(CANARY);
      expect(result.text).not.toContain('search-secret');
      // A FIFO named outright: ripgrep waits for a writer that never comes; the timeout ends it.
      const stalled = await call('search', { pattern: 'x', path: path.join(dir, 'pipe.txt') });
      expect(stalled.isError).toBe(true);
      expect(stalled.text).toMatch(/search stopped after/);
      rmSync(dir, { recursive: true, force: true });
    }, 90_000);

    it('read refuses a symlink that points outside', async () => {
      plant(path.join(outside, 'secret.txt'));
      symlinkSync(path.join(outside, 'secret.txt'), path.join(workspace, 'link.txt'));
      const result = await call('read', { path: path.join(workspace, 'link.txt') });
      expect(result.isError).toBe(true);
      expect(result.text).not.toContain(CANARY);
    });

    it('apply_patch refuses a path that leaves the workspace', async () => {
      const result = await call('apply_patch', {
        patch: `--- a/../outside/evil.txt\n+++ b/../outside/evil.txt\n@@ -0,0 +1 @@\n+x\n`,
      });
      expect(result.isError).toBe(true);
      expect(existsSync(path.join(outside, 'evil.txt'))).toBe(false);
    });
  });

  describe('links a change adds', () => {
    it('a symlink that points outside the repository fails a check', async () => {
      symlinkSync('/etc/passwd', path.join(workspace, 'abs-link'));
      symlinkSync('../../../outside', path.join(workspace, 'cfg-moved', 'up-link'));
      symlinkSync('index.js', path.join(workspace, 'inside-link'));
      const diff = parseDiff(await workspaceDiff(workspace, baseSha));
      const check = noEscapingLinks({ diff, linkIn: changedTreeLinks(workspace) } as CheckContext);
      expect(check.ok).toBe(false);
      expect(check.detail).toContain('abs-link -> /etc/passwd');
      expect(check.detail).toContain('cfg-moved/up-link -> ../../../outside');
      expect(check.detail).not.toContain('inside-link');
    });
  });
});
