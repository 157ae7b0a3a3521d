import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { commandMounts } from '../../src/workspace/sandbox/bubblewrap-plan.ts';
import { clientConfigMounts } from '../../src/workspace/sandbox/client-configs.ts';
import { DEFAULT_COMMAND_LIMITS } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';

const plant = (file: string): string => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, 'token=x\n');
  return file;
};

describe('clientConfigMounts', () => {
  const temp = makeTempDir('regreen-client-configs-unit-');
  afterAll(() => temp.cleanup());

  it("masks a mounted conda prefix's files, its environments' pip.conf, by conda's layout", () => {
    const conda = path.join(temp.dir, 'conda');
    const files = [
      plant(path.join(conda, 'pip.conf')),
      plant(path.join(conda, '.condarc')),
      plant(path.join(conda, 'envs', 'ci', 'pip.conf')),
    ];
    plant(path.join(conda, 'condarc.d', 'corp.yml'));
    // Deeper than any layout: not looked for (no tree is walked).
    plant(path.join(conda, 'pkgs', 'x', 'info', 'pip.conf'));
    const masks = clientConfigMounts([conda], { PATH: '/usr/bin:/bin' });
    const mine = masks.filter((mask) => mask.target.startsWith(`${conda}/`));
    expect(mine.map((mask) => [mask.kind, mask.target]).sort()).toEqual(
      [
        ...files.map((file) => ['mask-file', file]),
        ['mask-dir', path.join(conda, 'condarc.d')],
      ].sort(),
    );
  });

  it('masks nothing the sandbox does not show', () => {
    const hidden = path.join(temp.dir, 'hidden-pyenv');
    plant(path.join(hidden, 'versions', '3.12.0', 'pip.conf'));
    const masks = clientConfigMounts([], { PATH: '/usr/bin:/bin', PYENV_ROOT: hidden });
    expect(masks.filter((mask) => mask.target.startsWith(hidden))).toEqual([]);
  });

  it("empties a Maven home's settings as <settings/>, only where Maven is", () => {
    const maven = path.join(temp.dir, 'maven');
    plant(path.join(maven, 'bin', 'mvn'));
    plant(path.join(maven, 'conf', 'settings.xml'));
    const other = path.join(temp.dir, 'other');
    plant(path.join(other, 'conf', 'settings.xml'));
    const masks = clientConfigMounts([maven, other], { PATH: '/usr/bin:/bin' });
    expect(masks).toContainEqual({
      kind: 'mask-file',
      source: path.join(maven, 'conf', 'settings.xml'),
      target: path.join(maven, 'conf', 'settings.xml'),
      content: '<settings/>\n',
    });
    expect(masks.some((mask) => mask.target.startsWith(other))).toBe(false);
  });

  describe("a command's mounts", () => {
    afterEach(() => vi.useRealTimers());

    it("reuse the host's part for at most 5 s: a file the host adds later is masked from the commands after", () => {
      const conda = path.join(temp.dir, 'conda-later');
      mkdirSync(conda);
      const plan = {
        policy: {
          workspace: path.join(temp.dir, 'ws'),
          privateDir: path.join(temp.dir, 'private'),
          readable: [conda],
          registryHosts: Promise.resolve([]),
          limits: DEFAULT_COMMAND_LIMITS,
          baseEnv: { PATH: '/usr/bin:/bin' },
        },
        ids: { passwd: '/etc/passwd', group: '/etc/group' },
        tmp: path.join(temp.dir, 'tmp'),
        home: path.join(temp.dir, 'home'),
      };
      vi.useFakeTimers({ now: new Date('2026-12-05T00:00:00Z'), toFake: ['Date'] });
      const masked = (): boolean =>
        commandMounts(plan, undefined, []).some(
          (mount) => mount.kind === 'mask-file' && mount.target === path.join(conda, 'pip.conf'),
        );
      expect(masked()).toBe(false);
      plant(path.join(conda, 'pip.conf'));
      // The command made just after (the sandbox made ahead, then the one the command takes).
      vi.setSystemTime(new Date('2026-12-05T00:00:04.900Z'));
      expect(masked()).toBe(false);
      vi.setSystemTime(new Date('2026-12-05T00:00:05Z'));
      expect(masked()).toBe(true);
      // A clock set back is no reason to keep what was found.
      vi.setSystemTime(new Date('2026-12-04T23:59:59Z'));
      rmSync(path.join(conda, 'pip.conf'));
      expect(masked()).toBe(false);
    });
  });
});
