import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { sandboxFactory } from '../../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('bubblewrap sandbox', () => {
  const temp = makeTempDir();
  const home = path.join(temp.dir, 'home');
  const dataDir = path.join(temp.dir, 'data');
  const workspace = path.join(dataDir, 'jobs', 'j1', 'workspace');
  let sandbox: Sandbox;
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    mkdirSync(path.join(home, '.ssh'), { recursive: true });
    writeFileSync(path.join(home, '.ssh', 'id_rsa'), 'PLANTED-SSH-SECRET');
    mkdirSync(path.join(workspace, '.git', 'hooks'), { recursive: true });
    writeFileSync(path.join(workspace, '.git', 'config'), '[core]\n');
    writeFileSync(path.join(dataDir, 'state.json'), 'PLANTED-DATA-SECRET');
    writeFileSync(path.join(workspace, 'hello.txt'), 'hello from the workspace');
    server = createServer((_req, res) => res.end('REACHED'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    const policy = buildSandboxPolicy({
      workspace,
      privateDir: path.join(dataDir, 'jobs', 'j1', 'private'),
      home,
      dataDir,
      registryHosts: [],
      baseEnv: { PATH: process.env.PATH, GITHUB_TOKEN: 'ghp_planted', MY_API_KEY: 'planted' },
    });
    sandbox = await sandboxFactory('bubblewrap', silentLogger())(policy);
  });

  afterAll(async () => {
    await sandbox.dispose();
    server.close();
    temp.cleanup();
  });

  const run = (command: string, timeoutMs = 30_000) =>
    sandbox.run({ command, cwd: workspace, network: 'off', timeoutMs });

  it('reads and writes inside the workspace', async () => {
    const result = await run('cat hello.txt && echo written > out.txt && cat out.txt');
    expect(result.exitCode).toBe(0);
    expect(result.output).toContain('hello from the workspace');
    expect(result.output).toContain('written');
  });

  it('cannot read a secret planted under the home folder', async () => {
    const result = await run(`cat ${path.join(home, '.ssh', 'id_rsa')}`);
    expect(result.output).not.toContain('PLANTED-SSH-SECRET');
    expect(result.exitCode).not.toBe(0);
  });

  it("cannot read regreen's data dir outside the workspace", async () => {
    const result = await run(`cat ${path.join(dataDir, 'state.json')}`);
    expect(result.output).not.toContain('PLANTED-DATA-SECRET');
  });

  it('cannot write outside the workspace', async () => {
    const outside = path.join(temp.dir, 'escaped.txt');
    await run(`echo x > ${outside}`);
    expect(existsSync(outside)).toBe(false);
    const system = await run('echo x > /etc/regreen-escaped.txt');
    expect(system.exitCode).not.toBe(0);
    expect(existsSync('/etc/regreen-escaped.txt')).toBe(false);
  });

  it('sees no credentials in its environment', async () => {
    const result = await run('env');
    expect(result.output).not.toContain('ghp_planted');
    expect(result.output).not.toContain('MY_API_KEY');
  });

  it('cannot open a network connection in the agent phase', async () => {
    const script = `fetch('http://127.0.0.1:${port}/').then(r => r.text()).then(t => console.log('GOT', t), e => { console.log('BLOCKED', e.cause?.code ?? e.message); process.exit(7); })`;
    const result = await run(`node -e "${script}"`);
    expect(result.output).not.toContain('REACHED');
    expect(result.exitCode).toBe(7);
  });

  it('kills a runaway command and its children at the limit', async () => {
    const marker = `${Math.floor(Math.random() * 1000) + 1000}.${process.pid}`;
    const result = await run(`(sleep ${marker} &) ; sleep ${marker}`, 1500);
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).not.toBe(0);
    const survivors = (() => {
      try {
        return execFileSync('pgrep', ['-f', `sleep ${marker}`], { encoding: 'utf8' });
      } catch {
        return '';
      }
    })();
    expect(survivors.trim()).toBe('');
  });

  it('the setup step reaches only the registry hosts of the policy', async () => {
    const curl = `curl -sS --noproxy '' --proxy "$HTTP_PROXY" -m 5 http://127.0.0.1:${port}/`;
    const setupPolicy = { ...sandbox.policy, registryHosts: [`127.0.0.1:${port}`] };
    const setupSandbox = await sandboxFactory('bubblewrap', silentLogger())(setupPolicy);
    try {
      const allowed = await setupSandbox.run({
        command: curl,
        cwd: workspace,
        network: 'setup',
        timeoutMs: 30_000,
      });
      expect(allowed.output).toContain('REACHED');
      const off = await setupSandbox.run({
        command: curl,
        cwd: workspace,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(off.output).not.toContain('REACHED');
      const elsewhere = await setupSandbox.run({
        command: `curl -sS --noproxy '' --proxy "$HTTP_PROXY" -m 5 http://localhost:${port}/`,
        cwd: workspace,
        network: 'setup',
        timeoutMs: 30_000,
      });
      expect(elsewhere.output).not.toContain('REACHED');
    } finally {
      await setupSandbox.dispose();
    }
  });

  it("one job's policy never reaches another job's commands in the same process", async () => {
    const other = path.join(dataDir, 'jobs', 'j2', 'workspace');
    mkdirSync(other, { recursive: true });
    const second = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )({
      ...sandbox.policy,
      workspace: other,
      privateDir: path.join(dataDir, 'jobs', 'j2', 'private'),
    });
    try {
      const fromFirst = await run(`echo x > ${path.join(other, 'planted.txt')}`);
      expect(fromFirst.exitCode).not.toBe(0);
      const fromSecond = await second.run({
        command: `echo x > ${path.join(workspace, 'planted.txt')}; cat ${path.join(workspace, 'hello.txt')}`,
        cwd: other,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(fromSecond.output).not.toContain('hello from the workspace');
      expect(existsSync(path.join(other, 'planted.txt'))).toBe(false);
      expect(existsSync(path.join(workspace, 'planted.txt'))).toBe(false);
      const own = await second.run({
        command: 'echo mine > mine.txt && cat mine.txt',
        cwd: other,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(own.output).toContain('mine');
    } finally {
      await second.dispose();
    }
  });

  it('cannot plant a git hook or config for the host to run', async () => {
    const result = await run('echo "[core] fsmonitor = touch /tmp/pwned" >> .git/config');
    expect(result.exitCode).not.toBe(0);
    expect(readFileSync(path.join(workspace, '.git', 'config'), 'utf8')).toBe('[core]\n');
    const hook = await run('echo "touch /tmp/pwned" > .git/hooks/pre-commit');
    expect(hook.exitCode).not.toBe(0);
    expect(existsSync(path.join(workspace, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('runs git as a suite would: reads the workspace repository, makes repositories of its own in tmp', async () => {
    const repo = path.join(temp.dir, 'git-ws');
    mkdirSync(repo, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A'], { cwd: repo });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'base'], {
      cwd: repo,
    });
    const gitSandbox = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )({
      ...sandbox.policy,
      workspace: repo,
      privateDir: path.join(dataDir, 'jobs', 'git', 'private'),
    });
    try {
      const result = await gitSandbox.run({
        command: [
          'echo b >> a.txt',
          'git status --short',
          'git log --format=%s',
          'git diff --stat',
          'cd "$TMPDIR" && git init -q own && cd own && echo x > x && git add x',
          'git -c user.name=t -c user.email=t@t commit -qm own && git log --format=%s',
          'git -C ' + repo + ' commit -qam "into .git" 2>&1 | tail -1',
        ].join(' && '),
        cwd: repo,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(result.output).toContain(' M a.txt');
      expect(result.output).toContain('base');
      expect(result.output).toContain('1 insertion');
      expect(result.output).toContain('own');
      // The workspace's own .git stays read-only.
      expect(
        execFileSync('git', ['log', '--format=%s'], { cwd: repo, encoding: 'utf8' }).trim(),
      ).toBe('base');
    } finally {
      await gitSandbox.dispose();
    }
  });

  it('sees a readable folder that lives under /tmp (a checkout of regreen there, a toolchain)', async () => {
    const tool = path.join(temp.dir, 'toolchain');
    mkdirSync(tool, { recursive: true });
    writeFileSync(path.join(tool, 'tool.txt'), 'the toolchain');
    const withTool = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )({ ...sandbox.policy, readable: [...sandbox.policy.readable, tool] });
    try {
      const result = await withTool.run({
        command: `cat ${path.join(tool, 'tool.txt')}`,
        cwd: workspace,
        network: 'off',
        timeoutMs: 30_000,
      });
      expect(result.output).toContain('the toolchain');
    } finally {
      await withTool.dispose();
    }
  });

  it('refuses a working directory outside the workspace', async () => {
    await expect(
      sandbox.run({ command: 'pwd', cwd: temp.dir, network: 'off', timeoutMs: 5000 }),
    ).rejects.toThrow(/outside the workspace/);
  });

  it('keeps only the tail of a huge output', async () => {
    const result = await sandbox.run({
      command: 'seq 1 200000',
      cwd: workspace,
      network: 'off',
      timeoutMs: 30_000,
      maxOutputBytes: 1000,
    });
    expect(result.output).toContain('200000');
    expect(result.output).not.toContain('\n1\n');
    expect(result.droppedBytes).toBeGreaterThan(0);
  });
  it('runs a debugger (tracer) in one PID namespace where every process is filtered', async () => {
    writeFileSync(
      path.join(workspace, 'probe.py'),
      [
        'import json, os, socket, subprocess',
        'out = {}',
        'try:',
        '    socket.socket(socket.AF_UNIX)',
        '    out["unix"] = "opened"',
        'except OSError as e:',
        '    out["unix"] = e.errno',
        'a, b = socket.socketpair()',
        'out["pair"] = "ok"',
        'try:',
        `    socket.create_connection(("127.0.0.1", ${port}), timeout=2)`,
        '    out["net"] = "connected"',
        'except OSError as e:',
        '    out["net"] = "refused"',
        'child = subprocess.Popen(["sleep", "5"])',
        'import time',
        'for _ in range(100):',
        '    with open(f"/proc/{child.pid}/cmdline", "rb") as f:',
        '        out["child"] = f.read().split(b"\\0")[0].decode()',
        '    if out["child"] == "sleep": break',
        '    time.sleep(0.02)',
        'child.kill()',
        'out["nspid"] = [l for l in open("/proc/self/status") if l.startswith("NSpid")][0].split()[1:]',
        'out["seccomp"] = {}',
        'for pid in [p for p in os.listdir("/proc") if p.isdigit()]:',
        '    try:',
        '        line = [l for l in open(f"/proc/{pid}/status") if l.startswith("Seccomp:")][0]',
        '        out["seccomp"][pid] = int(line.split()[1])',
        '    except OSError:',
        '        pass',
        `out["secret"] = os.path.exists(${JSON.stringify(path.join(home, '.ssh', 'id_rsa'))}) and open(${JSON.stringify(path.join(home, '.ssh', 'id_rsa'))}).read()`,
        'print(json.dumps(out))',
      ].join('\n'),
    );
    const spawned = await sandbox.spawn({
      argv: ['/usr/bin/python3', 'probe.py'],
      cwd: workspace,
    });
    let stdout = '';
    let stderr = '';
    spawned.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    spawned.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    spawned.stdin.end();
    expect(await spawned.exited, stderr).toBe(0);
    const probe = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as {
      unix: unknown;
      pair: string;
      net: string;
      child: string;
      nspid: string[];
      seccomp: Record<string, number>;
      secret: unknown;
    };
    expect(probe.unix).toBe(1); // EPERM
    expect(probe.pair).toBe('ok');
    expect(probe.net).toBe('refused');
    // The debuggee's pid names the debuggee in /proc: what ptrace-based debuggers need.
    expect(probe.child).toBe('sleep');
    expect(probe.nspid).toHaveLength(1);
    // No unfiltered process (reaper, proxy bridge) shares the namespace.
    expect(Object.keys(probe.seccomp).length).toBeGreaterThan(0);
    expect(Object.values(probe.seccomp).every((mode) => mode === 2)).toBe(true);
    expect(probe.secret).not.toBe('PLANTED-SSH-SECRET');
  });
});

describe("the operator's dependency caches as local registries", () => {
  const temp = makeTempDir();
  const home = path.join(temp.dir, 'home');
  const dataDir = path.join(temp.dir, 'data');
  const workspace = path.join(dataDir, 'jobs', 'j1', 'workspace');
  const privateDir = path.join(dataDir, 'jobs', 'j1', 'private');
  const downloads = path.join(home, 'go', 'pkg', 'mod', 'cache', 'download');
  const m2 = path.join(home, '.m2', 'repository');
  const outside = path.join(temp.dir, 'outside');
  let sandbox: Sandbox;

  beforeAll(async () => {
    mkdirSync(path.join(downloads, 'example.com', 'x', '@v'), { recursive: true });
    writeFileSync(path.join(downloads, 'example.com', 'x', '@v', 'list'), 'v1.0.0\n');
    mkdirSync(path.join(m2, 'junit', 'junit', '4.13.2'), { recursive: true });
    writeFileSync(path.join(m2, 'junit', 'junit', '4.13.2', 'junit-4.13.2.pom'), '<project/>');
    writeFileSync(
      path.join(home, '.m2', 'settings.xml'),
      '<settings><servers><server><password>PLANTED-MAVEN-PASSWORD</password></server></servers></settings>',
    );
    mkdirSync(workspace, { recursive: true });
    mkdirSync(outside, { recursive: true });
    sandbox = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )(
      buildSandboxPolicy({
        workspace,
        privateDir,
        home,
        dataDir,
        registryHosts: [],
        baseEnv: { PATH: process.env.PATH, GOPROXY: 'https://proxy.example,direct' },
      }),
    );
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });
  const run = (command: string) =>
    sandbox.run({ command, cwd: workspace, network: 'off', timeoutMs: 30_000 });

  it("Go reads the module cache as its first proxy, then the user's list", async () => {
    const result = await run(
      'echo "$GOPROXY"; p="${GOPROXY%%,*}"; sed "s/^/listed /" "${p#file://}"/example.com/x/@v/list',
    );
    // The user's proxy by its alias (issue 61): the setup proxy sends its requests on.
    expect(result.output).toContain(
      `file://${downloads},http://127.0.0.1:3128/regreen-registry/0/,direct`,
    );
    expect(result.output).toContain('listed v1.0.0');
    const write = await run(`touch ${downloads}/planted`);
    expect(write.exitCode).not.toBe(0);
  });

  it("Maven reads the local repository through the sandbox's own settings, never the operator's", async () => {
    const result = await run(
      `cat "$HOME/.m2/settings.xml"; cat ${m2}/junit/junit/4.13.2/junit-4.13.2.pom; cat ${path.join(home, '.m2', 'settings.xml')}`,
    );
    expect(result.output).toContain(`<url>file://${m2}</url>`);
    expect(result.output).toContain('<project/>');
    expect(result.output).not.toContain('PLANTED-MAVEN-PASSWORD');
    // Offline (`mvn -o`) Maven refuses a file:// repository too unless told: `mvn` sources ~/.mavenrc.
    const rc = await run('MAVEN_OPTS=-Xmx1g; . "$HOME/.mavenrc"; echo "opts: $MAVEN_OPTS"');
    expect(rc.output).toContain('opts: -Xmx1g -Daether.offline.protocols=file');
  });

  it('the operator can keep the caches to themselves (REGREEN_HOST_CACHES=off)', () => {
    const policy = buildSandboxPolicy({
      workspace,
      privateDir: path.join(dataDir, 'jobs', 'j2', 'private'),
      home,
      dataDir,
      registryHosts: [],
      baseEnv: { PATH: process.env.PATH, REGREEN_HOST_CACHES: 'off' },
    });
    expect(policy.readable).not.toContain(m2);
    expect(policy.readable).not.toContain(downloads);
    expect(Object.keys(policy.homeFiles ?? {})).not.toContain(path.join('.m2', 'settings.xml'));
  });

  it('a link planted in the home never leads the next command’s setup out of it (attack)', async () => {
    // The command swaps the home's .m2 for a link to a host folder; regreen must write nothing there.
    await run(`rm -rf "$HOME/.m2" && ln -s ${outside} "$HOME/.m2"`);
    const next = await run('echo next');
    expect(next.output).toContain('next');
    expect(existsSync(path.join(outside, 'settings.xml'))).toBe(false);
  });
});

describe("the user's pip index settings in the sandbox", () => {
  it('become a pip.conf of the sandbox home, without a URL that carries credentials', async () => {
    const { pipConfFrom } = await import('../../src/workspace/setup/dependency-caches.ts');
    const conf = pipConfFrom(
      [
        "global.extra-index-url='file:///opt/pypi/simple https://user:s3cret@corp.example/simple'",
        "user.find-links='/opt/wheels'",
        "global.cert='/etc/ssl/certs/ca-certificates.crt'",
        "global.client-cert='/root/.ssl/me.pem'",
        ":env:.index-url='https://from-env.example/simple'",
      ].join('\n'),
    );
    expect(conf).toContain('extra-index-url = file:///opt/pypi/simple\n');
    expect(conf).toContain('find-links = /opt/wheels\n');
    // The CA bundle pip trusts comes along (the system files that named it read as empty in
    // the sandbox); a client certificate is a credential and does not.
    expect(conf).toContain('cert = /etc/ssl/certs/ca-certificates.crt\n');
    expect(conf).not.toMatch(/s3cret|corp\.example|client-cert|me\.pem|from-env/);
    expect(pipConfFrom(":env:.cert='/x'")).toBeUndefined();
  });

  it("are read from pip's own files in pip's order, without starting Python", async () => {
    const { pipConfigFromFiles, pipConfFrom } =
      await import('../../src/workspace/setup/dependency-caches.ts');
    const { mkdtempSync, mkdirSync, writeFileSync } = await import('node:fs');
    const os = await import('node:os');
    const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-pipconf-'));
    const home = path.join(root, 'home');
    const xdg = path.join(root, 'xdg');
    mkdirSync(path.join(home, '.config', 'pip'), { recursive: true });
    mkdirSync(path.join(xdg, 'pip'), { recursive: true });
    writeFileSync(path.join(xdg, 'pip', 'pip.conf'), '[global]\nfind-links = /opt/site-wheels\n');
    writeFileSync(
      path.join(home, '.config', 'pip', 'pip.conf'),
      [
        '# the team index',
        '[global]',
        'index-url = file:///srv/pypi/simple',
        'extra-index-url =',
        '    file:///srv/extra/simple',
        '    https://me:t0ken@corp.example/simple',
        '[install]',
        'trusted-host: pypi.corp.example',
        '',
      ].join('\n'),
    );
    const env = { HOME: home, XDG_CONFIG_DIRS: xdg };
    const conf = pipConfFrom(pipConfigFromFiles(home, env)) ?? '';
    // (This machine's /etc/pip.conf may add words of its own after these.)
    expect(conf).toMatch(/^index-url = file:\/\/\/srv\/pypi\/simple\b/m);
    expect(conf).toMatch(/^extra-index-url = file:\/\/\/srv\/extra\/simple\b/m);
    expect(conf).toMatch(/^find-links = \/opt\/site-wheels\b/m);
    expect(conf).toMatch(/^trusted-host = pypi\.corp\.example\b/m);
    expect(conf).not.toMatch(/t0ken|corp\.example\/simple/);
    expect(pipConfigFromFiles(home, { ...env, PIP_CONFIG_FILE: os.devNull })).toBe('');
  });
});
