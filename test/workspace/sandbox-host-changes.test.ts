import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, inSandbox } from '../security/support.ts';

const isRoot = process.geteuid?.() === 0;

/**
 * #57 item 8: while the host's package manager writes /etc (dpkg unpacks each file as a
 * `.dpkg-new` of mode 0 and renames it), the sandbox's plan saw a file there that was gone by
 * the time bubblewrap mounted its mask, and every try to start failed with "Can't create file
 * at …: Read-only file system". Only root can write /etc: the files are real ones there.
 */
describe.runIf(isRoot)('a sandbox starts while the host writes /etc', () => {
  const temp = makeTempDir();
  const tag = randomBytes(4).toString('hex');
  const unpacked = `/etc/regreen-test-${tag}.dpkg-new`;
  const folder = `/etc/regreen-test-${tag}`;
  const nested = path.join(folder, 'README.dpkg-new');
  const appeared = `/etc/regreen-test-${tag}-appeared`;
  let sandbox: Sandbox;

  beforeAll(async () => {
    // As dpkg leaves them while it unpacks: mode 0, so the plan masks them.
    writeFileSync(unpacked, 'x');
    chmodSync(unpacked, 0);
    mkdirSync(folder);
    writeFileSync(nested, 'x');
    chmodSync(nested, 0);
    sandbox = await attackSandbox({ root: temp.dir, workspace: path.join(temp.dir, 'ws') });
  });

  afterAll(async () => {
    await sandbox.dispose();
    for (const file of [unpacked, folder, appeared]) rmSync(file, { recursive: true, force: true });
    temp.cleanup();
  });

  it('starts every command after masked files vanished and an unreadable one appeared', async () => {
    const first = await inSandbox(sandbox, 'echo started');
    expect(first.exitCode).toBe(0);
    // The plan has them now; dpkg renames them away, and writes a new one.
    rmSync(unpacked);
    rmSync(nested);
    writeFileSync(appeared, CANARY, { mode: 0o600 });
    for (let run = 0; run < 3; run += 1) {
      const result = await inSandbox(sandbox, `cat ${appeared} 2>/dev/null; echo started`);
      expect(result.exitCode).toBe(0);
      expect(result.output).toContain('started');
      expect(result.output).not.toContain(CANARY);
    }
  });

  it('still shows /etc as the host has it, with what an unprivileged user could not read empty', async () => {
    const result = await inSandbox(
      sandbox,
      'cat /etc/os-release | head -1; cat /etc/shadow; echo shadow=$?; ls -d /etc/ssl/certs',
    );
    expect(result.output).toMatch(/^(NAME|PRETTY_NAME|ID)=/m);
    expect(result.output).toContain('shadow=0');
    expect(result.output).not.toMatch(/^root:/m);
    expect(result.output).toContain('/etc/ssl/certs');
  });
});
