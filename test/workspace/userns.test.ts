import { describe, expect, it } from 'vitest';
import { ensureUserNamespaces } from '../../src/workspace/sandbox/userns.ts';
import { silentLogger } from '../../src/logger.ts';

describe('ensureUserNamespaces (Ubuntu 24.04 runners)', () => {
  it('does nothing when user namespaces are allowed', () => {
    const calls: string[][] = [];
    ensureUserNamespaces({
      logger: silentLogger(),
      read: () => '0',
      sudo: (a) => calls.push([...a]),
    });
    ensureUserNamespaces({
      logger: silentLogger(),
      read: () => undefined,
      sudo: (a) => calls.push([...a]),
    });
    expect(calls).toEqual([]);
  });

  it('lifts the AppArmor restriction with sudo', () => {
    const calls: string[][] = [];
    ensureUserNamespaces({
      logger: silentLogger(),
      read: () => '1',
      sudo: (a) => calls.push([...a]),
    });
    expect(calls).toEqual([['sysctl', '-w', 'kernel.apparmor_restrict_unprivileged_userns=0']]);
  });

  it('stops with a message that says how when it cannot', () => {
    expect(() =>
      ensureUserNamespaces({
        logger: silentLogger(),
        read: () => '1',
        sudo: () => {
          throw new Error('sudo: a password is required');
        },
      }),
    ).toThrow(/sudo sysctl -w kernel\.apparmor_restrict_unprivileged_userns=0/);
  });
});
