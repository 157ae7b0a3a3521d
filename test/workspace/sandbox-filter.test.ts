import { describe, expect, it } from 'vitest';
import { bwrapArgv } from '../../src/workspace/sandbox/bwrap.ts';
import { describeFilter, unixSocketFilter } from '../../src/workspace/sandbox/seccomp-filter.ts';

describe('unixSocketFilter', () => {
  it.each([false, true])(
    'is an array of sock_filter records checking the arch first (unix sockets allowed: %s)',
    (allowUnixSockets) => {
      for (const arch of ['x64', 'arm64']) {
        const bytes = unixSocketFilter(arch, { allowUnixSockets });
        expect(bytes.length % 8).toBe(0);
        const lines = describeFilter(arch, { allowUnixSockets });
        expect(lines).toHaveLength(bytes.length / 8);
        expect(lines[0]).toBe('0: code=0x20 jt=0 jf=0 k=0x4');
        // Every jump lands inside the program.
        lines.forEach((line, index) => {
          if (!/code=0x[134]5 /.test(line)) return;
          const [, jt, jf] = /jt=(\d+) jf=(\d+)/.exec(line) ?? [];
          expect(index + 1 + Number(jt)).toBeLessThan(lines.length);
          expect(index + 1 + Number(jf)).toBeLessThan(lines.length);
        });
        // The last two instructions: EPERM, then ENOSYS (clone3's answer).
        expect(lines.at(-2)).toMatch(/code=0x6 .* k=0x50001/);
        expect(lines.at(-1)).toMatch(/code=0x6 .* k=0x50026/);
        // Only the strict program looks at socket()'s family.
        expect(lines.some((line) => / code=0x15 .* k=0x1$/.test(line))).toBe(!allowUnixSockets);
      }
    },
  );

  it('refuses the kernel keyring calls on both architectures', () => {
    // add_key, request_key, keyctl
    for (const [arch, numbers] of [
      ['x64', [248, 249, 250]],
      ['arm64', [217, 218, 219]],
    ] as const) {
      const lines = describeFilter(arch, { allowUnixSockets: true });
      for (const nr of numbers) {
        const at = lines.findIndex((line) => line.endsWith(` k=0x${nr.toString(16)}`));
        expect(at).toBeGreaterThan(0);
        const jt = Number(/jt=(\d+)/.exec(lines[at] ?? '')?.[1]);
        expect(lines[at + 1 + jt]).toMatch(/k=0x50001$/);
      }
    }
  });

  it('refuses a new user namespace in unshare and clone, and answers clone3 with ENOSYS', () => {
    for (const [arch, unshare, clone] of [
      ['x64', 272, 56],
      ['arm64', 97, 220],
    ] as const) {
      const lines = describeFilter(arch, { allowUnixSockets: false });
      const landing = (k: number): string => {
        const at = lines.findIndex(
          (line) => / code=0x15 /.test(line) && line.endsWith(` k=0x${k.toString(16)}`),
        );
        expect(at).toBeGreaterThan(0);
        const jt = Number(/jt=(\d+)/.exec(lines[at] ?? '')?.[1]);
        return lines.slice(at + 1 + jt, at + 4 + jt).join(' | ');
      };
      // Both load the first argument and refuse it when CLONE_NEWUSER is set.
      for (const nr of [unshare, clone])
        expect(landing(nr)).toMatch(
          /code=0x20 .*k=0x10 \| \d+: code=0x45 jt=1 .*k=0x10000000 \| \d+: code=0x6 .*k=0x7fff0000/,
        );
      expect(landing(435)).toMatch(/^\d+: code=0x6 .*k=0x50026/);
    }
  });

  it('refuses an architecture it has no numbers for', () => {
    expect(() => unixSocketFilter('ia32')).toThrow(/x64 or arm64/);
  });
});

describe('bwrapArgv', () => {
  it('puts the filter on PID 1 itself and nothing of the host but the mounts given', () => {
    const argv = bwrapArgv({
      bwrap: '/usr/bin/bwrap',
      mounts: [
        { kind: 'ro', source: '/usr', target: '/usr' },
        { kind: 'mask-file', source: '/etc/shadow', target: '/etc/shadow' },
        { kind: 'rw', source: '/w', target: '/w' },
      ],
      cwd: '/w',
      seccompFd: 3,
      identity: { usernsFd: 4, setpriv: '/usr/bin/setpriv', insideId: 1000 },
      argv: ['/bin/bash', '-c', 'true'],
    });
    // As root: the namespace regreen made, and setpriv drops every privilege before the command.
    // PID 1 reads no startup file and gets no environment.
    expect(argv.join(' ')).toContain(
      `--as-pid-1 --seccomp 3 -- /bin/bash --norc --noprofile -c exec 4<&-; /usr/bin/setpriv --reuid=1000 --regid=1000 --clear-groups --bounding-set=-all --inh-caps=-all --ambient-caps=-all -- "$@"; exit $? regreen-init /bin/bash -c true`,
    );
    expect(argv.join(' ')).toContain(
      '--clearenv --userns 4 --cap-drop ALL --cap-add CAP_SETUID --cap-add CAP_SETGID --cap-add CAP_SETPCAP',
    );
    expect(argv).not.toContain('--unshare-user');
    // A masked file reads as an empty regular file (a device on bubblewrap's nodev binds would deny).
    // The folders on the way to a mount that no bind brings are made reachable (0755).
    expect(argv.join(' ')).toMatch(
      /--ro-bind \/usr \/usr --perms 0755 --dir \/etc --ro-bind \S+\/mask-\d+ \/etc\/shadow --bind \/w \/w/,
    );
    expect(argv).toContain('--unshare-net');
    expect(argv.join(' ')).not.toMatch(/--ro-bind \/ \//);
  });

  it('joins no namespace and switches no user when regreen is not root', () => {
    const argv = bwrapArgv({
      bwrap: '/usr/bin/bwrap',
      mounts: [{ kind: 'rw', source: '/w', target: '/w/x' }],
      cwd: '/w',
      seccompFd: 3,
      identity: undefined,
      argv: ['/bin/true'],
    });
    expect(argv).toContain('--unshare-user');
    expect(argv.join(' ')).toContain('--seccomp 3 -- /bin/true');
    // Not root: bubblewrap's environment is cleared, and nothing is set for its first process.
    expect(argv.join(' ')).toContain('--clearenv');
    expect(argv).not.toContain('--setenv');
    expect(argv.join(' ')).not.toContain('setpriv');
  });
});
