import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { settingsOf } from '../../config/env.ts';
import { RegreenError } from '../../errors.ts';
import { whichIn } from '../../util/which.ts';
import { lstatInside } from '../repo/confined-stat.ts';
import { indexGitlinks } from '../repo/staged.ts';
import { hostIdentity } from './identity.ts';
import type { SandboxPolicy } from './sandbox.ts';

/**
 * What the bubblewrap sandbox needs of the host, and the files of its own it
 * shows the command: the checks that it can start here, the submodule folders
 * it keeps read-only, and the passwd and group files naming its user.
 */

let checked: { bwrap: string } | undefined;
let checking: Promise<{ bwrap: string }> | undefined;

/** The bubblewrap a sandbox runs, when the host has what it needs; else fails saying what to install. */
const requiredPrograms = (): string => {
  if (process.platform !== 'linux' || !['x64', 'arm64'].includes(process.arch)) {
    throw new RegreenError(
      'sandbox-unavailable',
      `the bubblewrap sandbox needs Linux on x64 or arm64, not ${process.platform}/${process.arch}; use --sandbox none at your own risk`,
    );
  }
  const which = whichIn(settingsOf(process.env).path);
  const bwrap = which('bwrap');
  const missing = [bwrap ? undefined : 'bubblewrap', which('socat') ? undefined : 'socat'].filter(
    Boolean,
  );
  if (!bwrap || missing.length > 0) {
    throw new RegreenError(
      'sandbox-unavailable',
      `the sandbox cannot start: ${missing.join(' and ')} not found. On Debian/Ubuntu: apt-get install -y bubblewrap socat`,
    );
  }
  return bwrap;
};

/** A user namespace bubblewrap makes, and leaves at once: what every sandbox needs of the kernel. */
const NAMESPACE_TEST = ['--unshare-user', '--ro-bind', '/', '/', '--', '/bin/true'];
const NAMESPACE_TEST_TIMEOUT_MS = 20_000;

const noNamespace = (stderr: string): RegreenError =>
  new RegreenError(
    'sandbox-unavailable',
    `the sandbox cannot start: bubblewrap cannot create a user namespace (${stderr || 'no output'}). Allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1; on Ubuntu 24.04 also kernel.apparmor_restrict_unprivileged_userns=0)`,
  );

/**
 * Fails with what to install (or which setting to change) when bubblewrap
 * cannot run here. Its namespace test is a process the caller need not wait
 * on: a job begins it beside its clone (`warmBubblewrapHost`), and its first
 * sandbox takes the answer. A failure is asked again by the next caller.
 */
export const bubblewrapReady = (): Promise<{ bwrap: string }> => {
  if (checked) return Promise.resolve(checked);
  checking ??= (async () => {
    const bwrap = requiredPrograms();
    await new Promise<void>((resolve, reject) => {
      execFile(
        bwrap,
        NAMESPACE_TEST,
        { timeout: NAMESPACE_TEST_TIMEOUT_MS, killSignal: 'SIGKILL', encoding: 'utf8' },
        (error, _stdout, stderr) => (error ? reject(noNamespace(stderr.trim())) : resolve()),
      ).stdin?.end();
    });
    checked = { bwrap };
    return checked;
  })().finally(() => (checking = undefined));
  return checking;
};

/**
 * Begins what every bubblewrap sandbox of this process needs of the host (the
 * check that it can run here, the identity its commands run as), so that a
 * job's first sandbox does not wait for it. What fails is said when that
 * sandbox is made: each is asked again then.
 */
export const warmBubblewrapHost = (): void => {
  void bubblewrapReady().catch(() => undefined);
  void processIdentity()?.catch(() => undefined);
};

/** Who this process's sandboxed commands are on the host (`hostIdentity`), from its settings. */
export const processIdentity = (): ReturnType<typeof hostIdentity> => {
  const settings = settingsOf(process.env);
  return hostIdentity({
    isRoot: process.geteuid?.() === 0,
    uidSetting: settings.sandboxUid,
    which: whichIn(settings.path),
  });
};

/**
 * Folders of submodules (gitlinks) in the base tree: read-only, so no code can
 * plant a repository there. Only a folder reached without a link is one (asked
 * by the confined reader: a link a command left at a gitlink's path is not
 * followed on the host, and is no submodule folder). A path that cannot be
 * asked about (a parent made unreadable, as a sandbox of the host's own uid
 * can) is kept: its pin then refuses the command, never skipped unseen.
 */
export const gitlinkDirs = (workspace: string): string[] => {
  if (!existsSync(path.join(workspace, '.git'))) return [];
  try {
    return indexGitlinks(workspace)
      .map((entry) => path.join(workspace, entry))
      .filter((dir) => {
        try {
          return lstatInside(workspace, dir)?.isDirectory() === true;
        } catch (error) {
          // A link or a file on the way: no submodule folder. Anything else: unknown, so pinned.
          return (error as NodeJS.ErrnoException).code !== 'ELOOP';
        }
      });
  } catch {
    return [];
  }
};

/** passwd and group files naming the sandbox's own user, so tools that look themselves up work. */
export const identityFiles = (policy: SandboxPolicy, home: string, uid: number, gid: number) => {
  const passwd = path.join(policy.privateDir, 'passwd');
  const group = path.join(policy.privateDir, 'group');
  writeFileSync(
    passwd,
    [
      'root:x:0:0:root:/root:/bin/bash',
      ...(uid === 0 ? [] : [`regreen:x:${uid}:${gid}:regreen:${home}:/bin/bash`]),
      'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
      '',
    ].join('\n'),
  );
  writeFileSync(
    group,
    ['root:x:0:', ...(gid === 0 ? [] : [`regreen:x:${gid}:`]), 'nogroup:x:65534:', ''].join('\n'),
  );
  return { passwd, group };
};
