import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { diagnoseMachine, doctorText } from '../../src/cli/doctor-command.ts';
import { runCli } from '../support/cli.ts';
import {
  limitEnforcement,
  unboundLimitsNote,
} from '../../src/workspace/sandbox/limit-enforcement.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-doctor-');
afterAll(() => temp.cleanup());

describe('regreen doctor', () => {
  it('on a bare machine names what regreen fix lacks, with the command that fixes each', async () => {
    // A PATH with node and nothing else.
    const bin = path.join(temp.dir, 'bin');
    mkdirSync(bin);
    symlinkSync(process.execPath, path.join(bin, 'node'));
    const bare = await runCli(['doctor'], { PATH: bin });
    expect(bare.code).toBe(1);
    // sudo only where regreen is not root (a container as root may have none).
    const sudo = process.geteuid?.() === 0 ? '' : 'sudo ';
    expect(bare.stdout).toMatch(
      new RegExp(
        `MISSING {2}bubblewrap \\(the sandbox\\) — bwrap is not on PATH\\n {9}fix: ${sudo}apt-get install -y bubblewrap`,
      ),
    );
    expect(bare.stdout).toContain(`fix: ${sudo}apt-get install -y socat`);
    expect(bare.stdout).toContain(
      `regreen fix cannot run here until: ${sudo}apt-get install -y git; `,
    );
  });

  it("run inside a hostile repository, it imports none of the repository's Python", () => {
    const repo = path.join(temp.dir, 'hostile');
    mkdirSync(repo);
    const marker = path.join(temp.dir, 'planted-ran');
    writeFileSync(
      path.join(repo, 'debugpy.py'),
      `open(${JSON.stringify(marker)}, 'w').write('ran')\n`,
    );
    try {
      execFileSync(
        process.execPath,
        [path.join(import.meta.dirname, '..', '..', 'bin', 'regreen.js'), 'doctor'],
        {
          cwd: repo,
          stdio: 'ignore',
        },
      );
    } catch {
      // the exit code is not what this test is about
    }
    expect(existsSync(marker)).toBe(false);
  });

  it('as root its fixes need no sudo; a Redis that does not answer is said; debugpy is fixed for the python3 it checked', () => {
    const findings = diagnoseMachine(
      { PATH: '/usr/bin', REDIS_URL: 'redis://user:secret@127.0.0.1:1' },
      {
        isRoot: true,
        which: (name) =>
          name === 'python3'
            ? '/opt/py/bin/python3'
            : name === 'rg'
              ? undefined
              : `/usr/bin/${name}`,
        readFile: () => undefined,
        runs: (file) => file !== 'redis-cli' && file !== 'python3',
        limits: () => limitEnforcement({ isRoot: true, cgroupKinds: [] }),
      },
    );
    const text = doctorText(findings);
    expect(text).toMatch(/fix: apt-get install -y ripgrep/);
    expect(text).not.toMatch(/sudo/);
    expect(text).toMatch(
      /missing {2}the Redis of REDIS_URL — redis:\/\/127\.0\.0\.1:1 does not answer a PING/,
    );
    expect(text).not.toContain('secret');
    expect(text).toMatch(/fix: \/opt\/py\/bin\/python3 -m pip install debugpy==\d/);
  });

  it("says the disk is not bounded when the operator's settings give a job no volume", async () => {
    for (const env of [{ REGREEN_JOB_VOLUME: 'off' }, { REGREEN_MAX_DISK_MB: '900000000' }]) {
      const run = await runCli(['doctor'], env);
      expect(run.stdout).toMatch(/missing {2}sandbox limit: disk — .*not bounded by the kernel/);
      expect(run.stdout).not.toMatch(/sandbox limit: disk — a volume of the limit/);
    }
  });

  it('on this machine: ready, and the user-namespace switch is judged by its value', async () => {
    const here = await runCli(['doctor', '--json']);
    expect(here.code, here.stdout).toBe(0);
    const restricted = diagnoseMachine(
      { PATH: '/usr/bin', REDIS_URL: 'redis://127.0.0.1:6379' },
      {
        which: (name) => `/usr/bin/${name}`,
        readFile: (file) => (file.includes('apparmor') ? '1' : undefined),
        runs: () => true,
        limits: () => limitEnforcement({ isRoot: true, cgroupKinds: [] }),
      },
    );
    const text = doctorText(restricted);
    const view = (JSON.parse(here.stdout) as { need: string; ok: boolean }[]).find((f) =>
      f.need.startsWith("host git's view of a workspace"),
    );
    expect(view?.ok).toBe(true);
    const noView = doctorText(
      diagnoseMachine(
        { PATH: '/usr/bin' },
        {
          which: (name) => `/usr/bin/${name}`,
          readFile: () => undefined,
          runs: () => true,
          limits: () => [],
          gitView: () => 'a link on the bound workspace was followed (nosymfollow had no effect)',
        },
      ),
    );
    // Without it nothing is staged: the fix cannot run, and doctor says so.
    expect(noView).toMatch(
      /MISSING {2}host git's view of a workspace .* — a link on the bound workspace was followed/,
    );
    expect(noView).toMatch(/regreen fix cannot run here until: .*a kernel of 5\.10 or later/);
    expect(text).toMatch(
      /MISSING {2}user namespaces \(kernel\.apparmor_restrict_unprivileged_userns\) — kernel\.apparmor_restrict_unprivileged_userns = 1\n {9}fix: sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/,
    );
    expect(text).toMatch(/redis-cli \(to reach REDIS_URL\)/);
    // A limit this host leaves unbound is said, never silently skipped.
    // As root the sandbox's uid is an unprivileged one: RLIMIT_NPROC binds it.
    expect(text).toMatch(
      /ok {7}sandbox limit: processes — RLIMIT_NPROC of the sandbox’s unprivileged/,
    );
    expect(text).toMatch(
      /missing {2}sandbox limit: memory — RLIMIT_DATA, per process; no memory cgroup/,
    );
  });

  it('says which language servers and grammars are here and which are fetched on first use, and whether npm is there to fetch them', () => {
    const findings = diagnoseMachine(
      { PATH: '/usr/bin', REGREEN_TOOLS_DIR: '/srv/regreen-tools' },
      {
        which: (name) => (name === 'npm' ? undefined : `/usr/bin/${name}`),
        readFile: () => undefined,
        runs: () => true,
        limits: () => [],
        provided: () => [
          { name: 'pyright', version: '1.1.414', dir: '/srv/regreen-tools/pyright@1.1.414' },
          { name: '@ast-grep/lang-kotlin', version: '0.0.7' },
        ],
      },
    );
    const text = doctorText(findings);
    expect(text).toMatch(
      /missing {2}npm \(fetches the language servers and grammars regreen does not ship\) — npm is not on PATH\n {9}fix: sudo apt-get install -y npm/,
    );
    expect(text).toContain(
      'language servers and grammars fetched on first use — here: pyright 1.1.414; fetched when first needed, from the registry npm uses (npm config get registry) into /srv/regreen-tools: @ast-grep/lang-kotlin 0.0.7',
    );
    // Neither blocks regreen fix: a tool that cannot be fetched is an error the agent reads.
    expect(text).toMatch(/regreen fix can run here\./);
  });

  it('names what bounds each limit where the host delegates cgroups, and the trace line says what is unbound', () => {
    const delegated = limitEnforcement({
      isRoot: true,
      cgroupKinds: ['pids', 'memory'],
      volumeUnavailable: 'no loop device',
    });
    expect(delegated.filter((l) => l.enforced).map((l) => l.limit)).toEqual([
      'processes',
      'memory',
    ]);
    // With a job volume too, every limit is the kernel's: the trace has nothing to say.
    const all = limitEnforcement({ isRoot: true, cgroupKinds: ['pids', 'memory'] });
    expect(all.every((l) => l.enforced)).toBe(true);
    expect(unboundLimitsNote(all)).toBeUndefined();
    expect(unboundLimitsNote(delegated)).toMatch(
      /^sandbox limits this host does not bind: disk \(/,
    );
    const user = limitEnforcement({ isRoot: false, cgroupKinds: [] });
    expect(user.find((l) => l.limit === 'processes')).toMatchObject({ enforced: true });
    expect(unboundLimitsNote(user)).toMatch(/memory \(no memory cgroup/);
  });
});
