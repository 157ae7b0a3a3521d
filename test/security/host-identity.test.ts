import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdtempSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countedRun } from '../../src/job/stages/counted-run.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import {
  closedRootsNote,
  closedToSandbox,
  DEFAULT_SANDBOX_UID,
  sandboxUidOf,
} from '../../src/workspace/sandbox/identity.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, inSandbox } from './support.ts';

const isRoot = process.geteuid?.() === 0;
const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'regreen.js');

/** A repository at `repo` with one commit and gitlinks (in its index) at `present` (each folder made) and `absent`. */
const gitlinkedRepo = (
  repo: string,
  present: readonly string[],
  absent: readonly string[] = [],
): void => {
  for (const dir of present) mkdirSync(path.join(repo, dir), { recursive: true });
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: repo });
  git('init', '-q');
  writeFileSync(path.join(repo, 'f'), 'x');
  git('add', 'f');
  git('commit', '-qm', 'init');
  const head = git('rev-parse', 'HEAD').toString().trim();
  for (const dir of [...present, ...absent])
    git('update-index', '--add', '--cacheinfo', `160000,${head},${dir}`);
};

/**
 * #34 classes 1 and 3, as root (how the Action and most containers run
 * regreen): a sandboxed command is never host root, so the host's own
 * permissions hold wherever a list of masks forgets a place. The folder is a
 * toolchain's, on PATH, so the sandbox mounts it readable — as a real
 * toolchain folder under /opt or /usr/local would be.
 */
describe.runIf(isRoot)('a sandboxed command is an unprivileged user of the host', () => {
  const temp = makeTempDir();
  const root = temp.dir;
  const toolBin = path.join(root, 'opt', 'tool', 'bin');
  const workspace = path.join(root, 'data', 'jobs', 'j', 'workspace');
  const socketPath = path.join(toolBin, 'agent.sock');
  let sandbox: Sandbox;
  let listener: Server;
  let registry: Server;
  let connections = 0;

  beforeAll(async () => {
    mkdirSync(toolBin, { recursive: true });
    writeFileSync(path.join(toolBin, 'secret.conf'), CANARY, { mode: 0o600 });
    chmodSync(path.join(toolBin, 'secret.conf'), 0o600);
    writeFileSync(path.join(toolBin, 'public.conf'), 'PUBLIC-PROOF', { mode: 0o644 });
    // A root service's socket in a folder the sandbox can read (the default mode: root may write).
    listener = createServer((socket) => {
      connections += 1;
      socket.end(CANARY);
    });
    await new Promise<void>((resolve) => listener.listen(socketPath, resolve));
    chmodSync(socketPath, 0o755);
    registry = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    const port = (registry.address() as { port: number }).port;
    sandbox = await attackSandbox({
      root,
      workspace,
      env: { PATH: `${toolBin}:${process.env.PATH ?? ''}` },
      registryHosts: [`127.0.0.1:${port}`],
    });
  });

  afterAll(async () => {
    await sandbox?.dispose();
    listener?.close();
    registry?.close();
    temp.cleanup();
  });

  it('cannot read a 0600 root file in a folder it may read (its uid is not 0 on the host)', async () => {
    const result = await inSandbox(
      sandbox,
      `cat ${toolBin}/public.conf; echo; cat ${toolBin}/secret.conf; echo "exit=$?"; id -u`,
    );
    // Proof the command ran and could have printed the canary: the public file next to it shows.
    expect(result.output).toContain('PUBLIC-PROOF');
    expect(result.output).not.toContain(CANARY);
    expect(result.output).toMatch(/Permission denied/);
    expect(result.output).toContain('exit=1');
  });

  it('cannot connect to a root unix socket in a folder it may read, even in setup', async () => {
    const script = `import socket\ntry:\n    s = socket.socket(socket.AF_UNIX)\n    s.connect(${JSON.stringify(socketPath)})\n    print("CONNECTED", s.recv(100))\nexcept OSError as e:\n    print("REFUSED", e.errno)`;
    const result = await inSandbox(sandbox, `ls -l ${socketPath}; python3 -c '${script}'`, {
      network: 'setup',
    });
    // The socket is visible (the listing proves the command ran there) and refuses it: EACCES.
    expect(result.output).toContain('agent.sock');
    expect(result.output).toContain('REFUSED 13');
    expect(result.output).not.toContain(CANARY);
    expect(connections).toBe(0);
  });

  it("writes the workspace as the sandbox's uid, and whatever root made there becomes its own", async () => {
    mkdirSync(path.join(workspace, 'made-by-host'), { recursive: true });
    const result = await inSandbox(
      sandbox,
      'touch made-by-host/inside && mkdir -p cache/deep && echo ok',
    );
    expect(result.output).toContain('ok');
    expect(lstatSync(path.join(workspace, 'made-by-host', 'inside')).uid).toBe(DEFAULT_SANDBOX_UID);
    expect(lstatSync(path.join(workspace, 'cache', 'deep')).uid).toBe(DEFAULT_SANDBOX_UID);
  });

  it("runs no file of the sandbox's before a command: no ~/.bashrc, no BASH_ENV, for PID 1 or the command", async () => {
    // A helper's attack: bash reads ~/.bashrc when its stdin is a socket (Node's pipes are); PID 1
    // is the namespace's root, so a planted .bashrc ran as host root with every capability.
    const payload = `echo "PLANTED-RAN uid=$(id -u)"; cat ${toolBin}/secret.conf`;
    const plant = await inSandbox(
      sandbox,
      `printf '%s\\n' '${payload}' > "$HOME/.bashrc"; cp "$HOME/.bashrc" "$HOME/.profile"; cp "$HOME/.bashrc" "$HOME/env.sh"; echo planted`,
    );
    expect(plant.output).toContain('planted');
    const next = await inSandbox(sandbox, 'echo next-command-ran');
    expect(next.output).toContain('next-command-ran');
    expect(next.output).not.toContain('PLANTED-RAN');
    expect(next.output).not.toContain(CANARY);
    // A step may declare BASH_ENV, as on CI: it then runs as the command's own uid, never PID 1's.
    const declared = await sandbox.run({
      command: 'echo declared-ran',
      cwd: workspace,
      network: 'off',
      timeoutMs: 60_000,
      env: { BASH_ENV: '$HOME/env.sh', ENV: '$HOME/env.sh' },
    });
    expect(declared.output).toContain('declared-ran');
    expect(declared.output).toContain('PLANTED-RAN uid=1000');
    expect(declared.output).not.toMatch(/PLANTED-RAN uid=(?!1000)/);
    expect(declared.output).not.toContain(CANARY);
  });

  it("a command's declared environment never reaches the host processes that start it", async () => {
    // LD_DEBUG makes the dynamic loader of every process it reaches say which program it loads.
    const result = await sandbox.run({
      command: 'echo declared-ran',
      cwd: workspace,
      network: 'off',
      timeoutMs: 60_000,
      env: { LD_DEBUG: 'files' },
    });
    expect(result.output).toContain('declared-ran');
    // It reached the command (its shell's loader spoke), and no process on the host.
    expect(result.output).toMatch(/file=libc\.so\.6/);
    expect(result.output).not.toMatch(/bwrap|regreen-fds|regreen-cgroup/);
  });

  it('a counted run makes nothing on the host in the sandbox tmp; a report swapped for a link is neither read nor followed', async () => {
    const victim = path.join(root, 'victim.txt');
    writeFileSync(victim, CANARY, { mode: 0o600 });
    const result = await countedRun(sandbox, {
      // The command knows where the report goes, and plants a link to a host file there.
      command: [
        // Nothing of the host's is there when the command starts: no folder to swap for a link.
        'ls -a "$TMPDIR" | grep -c regreen-report',
        `f=$(printf %s "$PYTEST_ADDOPTS" | sed -e "s/.*--junit-xml=//" -e "s/'//g")`,
        `ln -s ${victim} "$f"`,
      ].join('; '),
      cwd: workspace,
      network: 'off',
      timeoutMs: 60_000,
    });
    expect(result.output.trim()).toBe('0');
    expect(result.proof?.junit).toBeUndefined();
    expect(readFileSync(victim, 'utf8')).toBe(CANARY);
    expect(statSync(victim).uid).toBe(0);
  });

  it('a descriptor regreen inherited never reaches the command', () => {
    writeFileSync(path.join(root, 'inherited.txt'), CANARY, { mode: 0o600 });
    const out = execFileSync(
      '/bin/bash',
      [
        '-c',
        `exec 200<${path.join(root, 'inherited.txt')}; exec "$0" "$@"`,
        process.execPath,
        BIN,
        'sandbox',
        'run',
        '--workspace',
        workspace,
        '--',
        'cat <&200; echo fd-checked',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(out).toContain('fd-checked');
    expect(out).not.toContain(CANARY);
  });

  it('a submodule folder swapped for a link between two commands never has a host folder mounted', async () => {
    // A helper's attack: the read-only binds of `.git` and submodule folders went by path, and a
    // parent replaced by a relative link had bubblewrap (the namespace's root) mount the host
    // folder it named, even under a 0700 /root. The parent is now held (a mount point) and cannot move.
    const repo = path.join(root, 'gitlinked');
    const hidden = path.join(root, 'hidden');
    mkdirSync(path.join(hidden, '.config'), { recursive: true });
    writeFileSync(path.join(hidden, '.config', 'proof.txt'), CANARY);
    gitlinkedRepo(repo, ['c/.config']);
    const linked = await attackSandbox({ root, workspace: repo, privateName: 'gitlinked' });
    try {
      const before = await inSandbox(linked, 'touch c/.config/x 2>&1; echo first-ran');
      expect(before.output).toMatch(/Read-only file system/);
      const swap = await inSandbox(
        linked,
        `mv c c.moved 2>&1 && ln -s ${path.relative(repo, hidden)} c && echo swapped`,
      );
      expect(swap.output).toMatch(/Device or resource busy/);
      expect(swap.output).not.toContain('swapped');
      const after = await inSandbox(linked, `cat c/.config/proof.txt 2>&1; echo ran`);
      expect(after.output).toContain('ran');
      expect(after.output).not.toContain(CANARY);
    } finally {
      await linked.dispose();
    }
  });

  it("a submodule folder below the top level keeps its pin: its parent cannot be renamed, and a link left at an absent gitlink's path stops no command", async () => {
    // An attacker's second round: renaming the parent moved the read-only bind with it, a
    // repository could be planted at the gitlink's path, and a link planted there then made
    // every later command fail to start (sandbox-unavailable).
    const repo = path.join(root, 'deep-gitlink');
    // A second gitlink whose folder is absent (a submodule never checked out).
    gitlinkedRepo(repo, ['vendor/lib'], ['other/absent']);
    const deep = await attackSandbox({ root, workspace: repo, privateName: 'deep-gitlink' });
    try {
      const plant = await inSandbox(
        deep,
        'mv vendor vendor.moved 2>&1; rm -rf vendor 2>&1; mkdir -p vendor/lib/.git 2>&1; git init -q vendor/lib 2>&1; echo planted=$?',
      );
      expect(plant.output).toMatch(/Device or resource busy/);
      expect(plant.output).toMatch(/Read-only file system/);
      expect(existsSync(path.join(repo, 'vendor', 'lib', '.git'))).toBe(false);
      expect(existsSync(path.join(repo, 'vendor.moved'))).toBe(false);
      // A link where the absent submodule's folder would be, to a host folder.
      const link = await inSandbox(
        deep,
        `mkdir -p other && ln -s ${root} other/absent && echo linked`,
      );
      expect(link.output).toContain('linked');
      const next = await inSandbox(deep, 'touch vendor/lib/x 2>&1; echo next-ran');
      expect(next.output).toContain('next-ran');
      expect(next.output).toMatch(/Read-only file system/);
    } finally {
      await deep.dispose();
    }
  });

  it("without root (the sandbox is the host's own uid), a submodule folder behind a parent a command made unreadable is still pinned, never skipped", () => {
    // An attacker's finding: `chmod 000 vendor` made the host's confined lstat fail (EACCES), the
    // submodule was dropped from the pins, and the next command could plant a repository there.
    const own = mkdtempSync(path.join(os.tmpdir(), 'regreen-unreadable-gitlink-'));
    try {
      chmodSync(own, 0o755);
      const repo = path.join(own, 'ws');
      gitlinkedRepo(repo, ['vendor/lib']);
      execFileSync('chown', ['-R', '65534:65534', repo]);
      chmodSync(path.join(repo, 'vendor'), 0o000);
      const probe = path.join(own, 'probe.mts');
      writeFileSync(
        probe,
        `import { gitlinkDirs } from ${JSON.stringify(path.join(import.meta.dirname, '..', '..', 'src', 'workspace', 'sandbox', 'bubblewrap-host.ts'))};\nconsole.log(JSON.stringify(gitlinkDirs(process.argv[2])));\n`,
      );
      chmodSync(probe, 0o644);
      // regreen as an unprivileged user, the owner of the workspace (as its sandbox would be).
      const out = execFileSync(
        'setpriv',
        [
          '--reuid=65534',
          '--regid=65534',
          '--clear-groups',
          process.execPath,
          '--import',
          'tsx',
          probe,
          repo,
        ],
        {
          cwd: path.join(import.meta.dirname, '..', '..'),
          encoding: 'utf8',
          env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: own },
        },
      );
      expect(JSON.parse(out.trim().split('\n').at(-1) ?? '[]')).toEqual([
        path.join(repo, 'vendor', 'lib'),
      ]);
    } finally {
      execFileSync('rm', ['-rf', '--one-file-system', '--', own]);
    }
  });

  it('holds no capability and cannot become root again', async () => {
    const result = await inSandbox(
      sandbox,
      "grep -E '^Cap(Prm|Eff|Bnd|Amb)' /proc/self/status; su -c id root </dev/null; echo su=$?; cat /proc/1/environ; echo environ=$?",
    );
    expect(result.output).toMatch(/CapEff:\s+0000000000000000/);
    expect(result.output).toMatch(/CapBnd:\s+0000000000000000/);
    expect(result.output).not.toContain('su=0');
    // PID 1 (regreen's, the namespace's root) is out of its reach.
    expect(result.output).toContain('environ=1');
  });
});

describe('what regreen shares read-only', () => {
  it("names the roots the sandbox's uid cannot read, with how to share them", () => {
    const temp = makeTempDir();
    try {
      const open = path.join(temp.dir, 'open');
      const closed = path.join(temp.dir, 'closed');
      mkdirSync(open, { mode: 0o755 });
      mkdirSync(closed);
      chmodSync(closed, 0o750);
      expect(closedToSandbox([open, closed, path.join(temp.dir, 'gone')], 64_000)).toEqual([
        closed,
      ]);
      expect(closedRootsNote([open, closed], 64_000)).toMatch(
        /closed to its host uid 64000 by their permissions: .*closed — to share one, let others read it \(chmod -R o\+rX <dir>\)/,
      );
      expect(closedRootsNote([open], 64_000)).toBeUndefined();
    } finally {
      temp.cleanup();
    }
  });
});

describe('the sandbox uid setting', () => {
  it('is 64000 by default and never 0 or nobody', () => {
    expect(sandboxUidOf(undefined)).toBe(DEFAULT_SANDBOX_UID);
    expect(sandboxUidOf('1234')).toBe(1234);
    expect(() => sandboxUidOf('0')).toThrow(/REGREEN_SANDBOX_UID/);
    expect(() => sandboxUidOf('65534')).toThrow(/nobody/);
    expect(() => sandboxUidOf('root')).toThrow(/REGREEN_SANDBOX_UID/);
  });
});
