import { describe, expect, it } from 'vitest';
import { describeFilter, unixSocketFilter } from '../../src/workspace/seccomp-filter.ts';
import { tracerArgv } from '../../src/workspace/sandbox-tracer.ts';

const HELPER = '/opt/srt/vendor/seccomp/x64/apply-seccomp';

describe('tracerArgv: the library command for a debugger', () => {
  it('adds the filter to a direct bubblewrap call and drops the nested-namespace helper', () => {
    const argv = [
      '/usr/bin/bwrap',
      '--unshare-pid',
      '--',
      '/bin/bash',
      '-c',
      `${HELPER} /bin/bash -c 'dlv dap'`,
    ];
    expect(tracerArgv(argv, 3)).toEqual([
      '/usr/bin/bwrap',
      '--seccomp',
      '3',
      '--as-pid-1',
      '--unshare-pid',
      '--',
      '/bin/bash',
      '-c',
      ` /bin/bash -c 'dlv dap'`,
    ]);
  });

  it('edits a bubblewrap call wrapped in a shell line', () => {
    const line = `bwrap --new-session --unshare-pid -- /bin/bash -c 'socat A B &\n${HELPER} /bin/bash -c '"'"'lldb-dap'"'"''`;
    const [shell, flag, edited] = tracerArgv(['/bin/bash', '-c', line], 3);
    expect([shell, flag]).toEqual(['/bin/bash', '-c']);
    expect(edited).toMatch(/^bwrap --seccomp 3 --as-pid-1 --new-session/);
    expect(edited).not.toContain('apply-seccomp');
    expect(edited).toContain(`socat A B &\n /bin/bash -c`);
  });

  it('refuses a shape it does not know rather than run a weaker sandbox', () => {
    expect(() => tracerArgv(['/bin/bash', '-c', 'echo no bubblewrap here'], 3)).toThrow(
      /no bubblewrap/,
    );
    expect(() => tracerArgv(['bwrap', '--', `${HELPER} ${HELPER} x`], 3)).toThrow(
      /2 seccomp helpers/,
    );
    expect(() => tracerArgv(['bwrap', '--', `'/a b/apply-seccomp' x`], 3)).toThrow(
      /quoted seccomp helper/,
    );
    expect(() => tracerArgv([], 3)).toThrow(/empty command/);
  });
});

describe('unixSocketFilter', () => {
  it('is an array of sock_filter records checking the arch first', () => {
    for (const arch of ['x64', 'arm64']) {
      const bytes = unixSocketFilter(arch);
      expect(bytes.length % 8).toBe(0);
      const lines = describeFilter(arch);
      expect(lines).toHaveLength(bytes.length / 8);
      expect(lines[0]).toBe('0: code=0x20 jt=0 jf=0 k=0x4');
      // Every jump lands inside the program.
      lines.forEach((line, index) => {
        if (!/code=0x[13]5 /.test(line)) return;
        const [, jt, jf] = /jt=(\d+) jf=(\d+)/.exec(line) ?? [];
        expect(index + 1 + Number(jt)).toBeLessThan(lines.length);
        expect(index + 1 + Number(jf)).toBeLessThan(lines.length);
      });
      // The last two instructions: allow, then EPERM.
      expect(lines.at(-2)).toMatch(/code=0x6 .* k=0x7fff0000/);
      expect(lines.at(-1)).toMatch(/code=0x6 .* k=0x50001/);
    }
    expect(() => unixSocketFilter('ia32')).toThrow(/x64 or arm64/);
  });
});
