import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxRun } from '../../src/cli/adhoc-sandbox.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, CASE, inSandbox, plant, readAttack } from './support.ts';

/** Where credentials live in a home folder, beyond the usual ~/.ssh and ~/.aws. */
const HOME_SECRETS = [
  '.pgpass',
  '.vault-token',
  '.gradle/gradle.properties',
  '.m2/settings.xml',
  '.terraform.d/credentials.tfrc.json',
  '.config/rclone/rclone.conf',
  '.bash_history',
  '.ssh/id_ed25519',
];

/**
 * Attacks from inside the sandbox: what repository code (setup, tests, a
 * kernel cell) can read, reach, keep and blame. Each test is one attack; it
 * "holds" when the canary never shows and nothing outside changes.
 */
describe('the sandbox boundary', () => {
  const temp = makeTempDir();
  const root = temp.dir;
  const home = path.join(root, 'home');
  const source = path.join(root, 'source');
  const workspace = path.join(root, 'data', 'jobs', 'j', 'workspace');
  const runnerTemp = path.join(root, 'runner-temp');
  const store = path.join(root, 'elsewhere', 'regreen.db');
  let sandbox: Sandbox;
  let registry: Server;
  let other: ReturnType<typeof createNetServer>;
  let registryPort = 0;
  let otherPort = 0;
  let hostSocket = '';

  beforeAll(async () => {
    for (const file of [...HOME_SECRETS, '.npm/_logs/debug.log']) plant(path.join(home, file));
    // The source checkout, where actions/checkout persists the token in .git/config.
    mkdirSync(source, { recursive: true });
    execFileSync('git', ['init', '-q', source]);
    writeFileSync(
      path.join(source, '.git', 'config'),
      `[http "https://github.com/"]\n\textraheader = AUTHORIZATION: basic ${CANARY}\n`,
      { flag: 'a' },
    );
    plant(path.join(runnerTemp, 'secrets.env'));
    plant(store);
    mkdirSync(workspace, { recursive: true });
    writeFileSync(path.join(workspace, 'package.json'), '{}\n');
    registry = createServer((_req, res) => res.end('REGISTRY-REACHED'));
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryPort = (registry.address() as AddressInfo).port;
    other = createNetServer((socket) => socket.end(`+${CANARY}\r\n`));
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherPort = (other.address() as AddressInfo).port;
    hostSocket = path.join(root, 'host.sock');
    const unix = createNetServer((socket) => socket.end(CANARY));
    await new Promise<void>((resolve) => unix.listen(hostSocket, resolve));
    sandbox = await attackSandbox({
      root,
      workspace,
      registryHosts: [`127.0.0.1:${registryPort}`],
      env: {
        RUNNER_TEMP: runnerTemp,
        PGPASSWORD: CANARY,
        GITHUB_PAT: CANARY,
        OPENAI_APIKEY: CANARY,
        DATABASE_URL: `postgres://app:${CANARY}@db/app`,
        SENTRY_DSN: `https://${CANARY}@sentry.example.test/1`,
        AZURE_STORAGE_CONNECTION_STRING: `AccountKey=${CANARY}`,
        GITHUB_TOKEN: CANARY,
        PIP_EXTRA_INDEX_URL: `https://${CANARY}:@pypi.example.test/simple`,
        UV_EXTRA_INDEX_URL: `https://ci:${CANARY}@uv.example.test/simple`,
        GOPROXY: `https://${CANARY}@proxy.example.test,direct`,
      },
    });
  });

  afterAll(async () => {
    await sandbox.dispose();
    registry.close();
    other.close();
    temp.cleanup();
  });

  const cannotRead = async (file: string): Promise<void> => {
    await readAttack(sandbox, (f) => `cat ${f}`, file);
  };

  describe('reads', () => {
    it.each(HOME_SECRETS)('cannot read ~/%s', (file) => cannotRead(path.join(home, file)));

    it('cannot read the source checkout and the token in its .git/config', () =>
      cannotRead(path.join(source, '.git', 'config')));

    it('cannot read $RUNNER_TEMP', () => cannotRead(path.join(runnerTemp, 'secrets.env')));

    it('cannot read a job store outside the data dir', () => cannotRead(store));

    it('cannot read /etc/shadow, whoever regreen runs as', async () => {
      const result = await inSandbox(sandbox, 'cat /etc/shadow; echo exit=$?');
      expect(result.output).not.toMatch(/^root:/m);
    });

    it('cannot read or plant a key in the kernel keyring (the calls are refused)', async () => {
      const nr =
        process.arch === 'arm64' ? { addKey: 217, keyctl: 219 } : { addKey: 248, keyctl: 250 };
      // KEYCTL_GET_KEYRING_ID of the session (-3) and user (-4) keyrings; add_key into the session keyring.
      const result = await inSandbox(
        sandbox,
        `python3 -c "import ctypes; libc = ctypes.CDLL(None, use_errno=True)
for ring in (-3, -4):
    print('keyctl', ring, libc.syscall(${nr.keyctl}, 0, ring, 0), ctypes.get_errno())
print('add_key', libc.syscall(${nr.addKey}, b'user', b'planted', b'x', 1, -3), ctypes.get_errno())"`,
      );
      expect(result.output).toContain('keyctl -3 -1 1');
      expect(result.output).toContain('keyctl -4 -1 1');
      expect(result.output).toContain('add_key -1 1');
    });

    it('a masked file reads as empty, never as "Permission denied" (git without GIT_CONFIG_NOSYSTEM works)', async () => {
      // setuptools-scm strips regreen's GIT_CONFIG_* variables before it calls git: git then reads
      // /etc/gitconfig, and a mask that denies the read fails the install.
      const result = await inSandbox(
        sandbox,
        'cat /etc/shadow; echo shadow=$?; env -u GIT_CONFIG_NOSYSTEM -u GIT_CONFIG_GLOBAL git config --system --list; echo git=$?',
      );
      expect(result.output).toContain('shadow=0');
      expect(result.output).not.toMatch(/Permission denied/);
      expect(result.output).toMatch(/git=(0|1)\b/);
    });

    it('cannot read the environment of host processes through /proc', async () => {
      // The control: a variable of the command's own, which its /proc/self/environ holds.
      const output = await readAttack(
        sandbox,
        () => 'for f in /proc/[0-9]*/environ; do cat "$f" 2>/dev/null | tr "\\0" "\\n"; done',
        'host',
        { env: { CONTROL: CANARY } },
      );
      expect(output).not.toContain('ANTHROPIC_API_KEY');
    });

    it('sees no unix socket of the host', async () => {
      const result = await inSandbox(
        sandbox,
        `ls ${hostSocket} /run /var/run 2>&1; find / -xdev -type s 2>/dev/null | head`,
      );
      expect(result.output).not.toMatch(/^\/.*host\.sock$/m);
      expect(result.output).toMatch(/No such file/);
    });
  });

  describe('environment', () => {
    it.each([
      'PGPASSWORD',
      'GITHUB_PAT',
      'OPENAI_APIKEY',
      'DATABASE_URL',
      'SENTRY_DSN',
      'AZURE_STORAGE_CONNECTION_STRING',
      'GITHUB_TOKEN',
      'RUNNER_TEMP',
    ])('does not pass %s', async (name) => {
      // The control: `env` prints a variable the command was given.
      const output = await readAttack(sandbox, () => 'env', name, { env: { CONTROL: CANARY } });
      expect(output).not.toContain(`${name}=`);
    });
  });

  it('a URL enters without its credentials (an index URL with a token as its user)', async () => {
    const result = await inSandbox(sandbox, 'env');
    // No form of the operator's URL enters: each is its alias (issue 61), served by the setup proxy.
    expect(result.output).toMatch(
      /^PIP_EXTRA_INDEX_URL=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/~$/m,
    );
    expect(result.output).toMatch(
      /^GOPROXY=http:\/\/127\.0\.0\.1:3128\/regreen-registry\/\d+\/,direct$/m,
    );
    expect(result.output).not.toContain('example.test');
    expect(result.output).not.toContain(CANARY);
  });

  describe('network', () => {
    const curl = (url: string) =>
      `curl -sS -m 5 --proxy "$HTTP_PROXY" ${url}; echo; curl -sS -m 5 --noproxy '*' ${url}`;

    it('reaches no host in the agent phase, loopback included', async () => {
      const result = await inSandbox(sandbox, curl(`http://127.0.0.1:${registryPort}/`));
      expect(result.output).not.toContain('REGISTRY-REACHED');
    });

    it('setup reaches the registry on its port, and no other port of the same host', async () => {
      const allowed = await inSandbox(sandbox, curl(`http://127.0.0.1:${registryPort}/`), {
        network: 'setup',
      });
      expect(allowed.output).toContain('REGISTRY-REACHED');
      const redisLike = await inSandbox(
        sandbox,
        `curl -sS -m 5 --proxy "$HTTP_PROXY" http://127.0.0.1:${otherPort}/; curl -sS -m 5 -p --proxy "$HTTP_PROXY" telnet://127.0.0.1:${otherPort} </dev/null`,
        { network: 'setup' },
      );
      expect(redisLike.output).not.toContain(CANARY);
      expect(redisLike.output).toContain(`the setup proxy refused 127.0.0.1:${otherPort}`);
    });

    it("a flood of refused names keeps the proxy's report (and the host's memory) bounded", async () => {
      // 1000 requests for distinct 8 KB names: before, every name went into the report, appended
      // after the output cap (51 MB of output for 4000).
      const flood = [
        'import os, socket',
        'host, port = os.environ["HTTP_PROXY"].rsplit("/", 1)[-1].split(":")',
        'for i in range(1000):',
        '    name = ("x%05d" % i) + "a" * 8192',
        '    try:',
        '        s = socket.create_connection((host, int(port)))',
        '        s.sendall(("GET http://%s.invalid:1/ HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n" % name).encode())',
        '        s.settimeout(5)',
        '        s.recv(4096)',
        '        s.close()',
        '    except Exception:',
        '        pass',
      ].join('\n');
      const result = await inSandbox(sandbox, `python3 -c '${flood}'; echo flooded`, {
        network: 'setup',
        timeoutMs: 120_000,
      });
      expect(result.output).toContain('flooded');
      expect(result.output).toMatch(/the setup proxy refused x00000a+:1, /);
      expect(result.output).toMatch(/\(\d+ requests in all\)/);
      expect(result.output.length).toBeLessThan(64 * 1024);
    });

    it('resolves no name itself (no DNS)', async () => {
      const result = await inSandbox(sandbox, 'getent hosts github.com; echo exit=$?', {
        network: 'setup',
      });
      expect(result.output).toContain('exit=2');
    });

    it('cannot open a unix socket, in either phase', async () => {
      const script = `import socket\ntry:\n    socket.socket(socket.AF_UNIX).connect(${JSON.stringify(hostSocket)})\n    print("CONNECTED")\nexcept OSError as e:\n    print("REFUSED", e.errno)`;
      const off = await inSandbox(sandbox, `python3 -c '${script}'`);
      expect(off.output).toContain('REFUSED 1');
      const setup = await inSandbox(sandbox, `python3 -c '${script}'`, { network: 'setup' });
      expect(setup.output).toContain('REFUSED');
      expect(setup.output).not.toContain('CONNECTED');
    });
  });

  describe('no unfiltered process to plant code in', () => {
    // Code written into another process of the sandbox runs with that process's filter: every
    // process has one. The code is written as an attacker would without a debugger: a sleeping
    // process is stopped, machine code (socket(AF_UNIX, SOCK_STREAM, 0), then exit with its
    // result) goes into its text through /proc/<pid>/mem, and it is let go. A filtered call
    // returns -errno (an exit status of 256 - errno); an open socket would be a small fd.
    // (gdb's calls into another process need to write the CPU's extended state back, which
    // some virtual machines refuse; the same write through /proc needs nothing of the kind.)
    const plantSocketCall = `
sleep 30 & victim=$!
sleep 0.2
for pid in $(ls /proc | grep -E '^[0-9]+$'); do
  grep -q '^Seccomp:' /proc/$pid/status 2>/dev/null || continue
  echo "pid $pid seccomp $(awk '/^Seccomp:/{print $2}' /proc/$pid/status) $(tr '\\0' ' ' < /proc/$pid/cmdline | cut -c1-40)"
done
python3 - $victim <<'PY'
import os, signal, sys
victim = int(sys.argv[1])
os.kill(victim, signal.SIGSTOP)
while open(f"/proc/{victim}/stat").read().split(") ")[1][0] != "T":
    pass
# The stopped sleep is in a system call: /proc/<pid>/syscall ends with the address after it.
# Two NOPs over that call: a call the kernel restarts goes back two bytes, one it does not goes on.
pc = int(open(f"/proc/{victim}/syscall").read().split()[-1], 16) - 2
code = bytes.fromhex("9090" "bf01000000" "be01000000" "31d2" "b829000000" "0f05" "89c7" "b83c000000" "0f05")
with open(f"/proc/{victim}/mem", "r+b", buffering=0) as mem:
    mem.seek(pc)
    mem.write(code)
os.kill(victim, signal.SIGCONT)
PY
wait $victim
echo "planted exit $?"`;

    it.runIf(process.arch === 'x64').each(['off', 'setup'] as const)(
      'every process is filtered and planted code cannot open a unix socket (%s)',
      async (network) => {
        const result = await inSandbox(sandbox, plantSocketCall, { network });
        const seccomp = [...result.output.matchAll(/^pid (\d+) seccomp (\d)/gm)];
        expect(seccomp.length).toBeGreaterThan(1);
        for (const [line, , mode] of seccomp) expect(mode, line).toBe('2');
        // The planted code ran: it exited with the call's result, not with the sleep's 0.
        const exit = Number(/^planted exit (\d+)$/m.exec(result.output)?.[1]);
        expect(exit, result.output).toBeGreaterThan(0);
        // With the network off the call failed (-errno), never a socket; the setup phase may
        // make one (its connections are bounded by what it can reach, tested above).
        if (network === 'off') expect(exit, result.output).toBeGreaterThan(200);
      },
    );
  });

  describe('what stays behind', () => {
    it('kills processes that outlive the command, even in a new session', async () => {
      const marker = `${Math.floor(Math.random() * 9000) + 1000}.${process.pid}`;
      await inSandbox(
        sandbox,
        `setsid nohup sleep ${marker} >/dev/null 2>&1 & disown; echo started`,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      let survivors = '';
      try {
        survivors = execFileSync('pgrep', ['-f', `sleep ${marker}`], { encoding: 'utf8' });
      } catch {
        survivors = '';
      }
      expect(survivors.trim()).toBe('');
    });

    it("cannot write the host's npm logs or anything of the real home", async () => {
      await inSandbox(
        sandbox,
        `echo x >> ${path.join(home, '.npm', '_logs', 'debug.log')}; echo x > ${path.join(home, 'planted')}`,
      );
      expect(existsSync(path.join(home, 'planted'))).toBe(false);
    });

    it(`${CASE} removes the private tmp and home when the sandbox is disposed`, async () => {
      const mine = await attackSandbox({ root, workspace, privateName: 'short-lived' });
      await inSandbox(mine, 'echo kept > "$TMPDIR/x" && echo kept > "$HOME/y"');
      const privateDir = mine.policy.privateDir;
      expect(existsSync(path.join(privateDir, 'tmp', 'x'))).toBe(true);
      await mine.dispose();
      expect(existsSync(privateDir)).toBe(false);
    });
  });

  describe('blame', () => {
    it(`${CASE} a command that deletes its tmp is not a sandbox failure`, async () => {
      const result = await inSandbox(
        sandbox,
        'rm -rf "$TMPDIR"/* "$TMPDIR"/.[!.]* /tmp/* 2>/dev/null; exit 3',
      );
      expect(result.exitCode).toBe(3);
    });

    it(`${CASE} a command's syntax error is the command's, not the sandbox's`, async () => {
      const result = await inSandbox(sandbox, 'echo "unterminated');
      expect(result.exitCode).toBe(2);
      expect(result.output).toMatch(/unexpected EOF|syntax error/);
    });

    it(`${CASE} regreen sandbox run quotes argv`, async () => {
      const dataDir = path.join(root, 'adhoc-data');
      const result = await sandboxRun({
        workspace,
        argv: ['node', '-e', "console.log('a(b)')"],
        network: 'off',
        sandbox: 'bubblewrap',
        timeout: '60',
        dataDir,
        env: { PATH: process.env.PATH },
        logger: silentLogger(),
      });
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain('a(b)');
      rmSync(dataDir, { recursive: true, force: true });
    });
  });
});
