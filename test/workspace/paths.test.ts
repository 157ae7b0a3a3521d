import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveInsideWorkspace } from '../../src/workspace/repo/paths.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('resolveInsideWorkspace', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  const outside = path.join(temp.dir, 'outside');
  mkdirSync(path.join(ws, 'src'), { recursive: true });
  mkdirSync(outside, { recursive: true });
  writeFileSync(path.join(ws, 'src', 'a.ts'), 'a');
  writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  symlinkSync(outside, path.join(ws, 'link-out'));
  symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'secret-link'));
  symlinkSync(path.join(ws, 'src'), path.join(ws, 'link-in'));
  afterAll(temp.cleanup);

  it.each([
    ['an existing file', path.join(ws, 'src', 'a.ts')],
    ['a file that does not exist yet, in new folders', path.join(ws, 'new', 'deep', 'b.ts')],
    ['the root itself', ws],
    ['a symlink that stays inside', path.join(ws, 'link-in', 'a.ts')],
    ['a .. that stays inside', path.join(ws, 'src', '..', 'src', 'a.ts')],
  ])('accepts %s', (_label, candidate) => {
    const resolved = resolveInsideWorkspace(ws, candidate);
    expect(resolved.ok).toBe(true);
  });

  it.each([
    ['a relative path', 'src/a.ts', /must be absolute/],
    ['an empty path', '', /empty/],
    ['a .. that escapes', path.join(ws, '..', 'outside', 'secret.txt'), /outside the workspace/],
    ['an absolute path elsewhere', '/etc/passwd', /outside the workspace/],
    ['a symlinked folder that escapes', path.join(ws, 'link-out', 'secret.txt'), /symlink/],
    ['a symlinked file that escapes', path.join(ws, 'secret-link'), /symlink/],
    ['a new file under a symlink that escapes', path.join(ws, 'link-out', 'new.txt'), /symlink/],
    ['a NUL byte', `${ws}/a\0b`, /NUL/],
  ])('rejects %s', (_label, candidate, message) => {
    const resolved = resolveInsideWorkspace(ws, candidate);
    expect(resolved.ok).toBe(false);
    if (!resolved.ok) expect(resolved.error).toMatch(message);
  });

  it('tells nothing of what exists outside: a link out is refused before anything there is looked at', () => {
    // The sandbox may plant a link to any host folder; as root, resolving through it would be
    // an oracle on root's files (which names exist, where regreen runs, what it holds open).
    const present = resolveInsideWorkspace(ws, path.join(ws, 'link-out', 'secret.txt', 'x'));
    const absent = resolveInsideWorkspace(ws, path.join(ws, 'link-out', 'absent.txt', 'x'));
    symlinkSync('/proc', path.join(ws, 'proc-link'));
    const proc = resolveInsideWorkspace(ws, path.join(ws, 'proc-link', 'self', 'cwd', 'x'));
    for (const answer of [present, absent, proc]) {
      expect(answer.ok).toBe(false);
      if (answer.ok) continue;
      expect(answer.error).toMatch(
        /escapes the workspace through a symlink: (link-out|proc-link) links outside it/,
      );
      expect(answer.error).not.toContain(outside);
      expect(answer.error).not.toContain(process.cwd());
    }
    expect(present).toEqual(absent);
  });

  it('resolves a symlink inside to its real path', () => {
    const resolved = resolveInsideWorkspace(ws, path.join(ws, 'link-in', 'a.ts'));
    expect(resolved).toEqual({ ok: true, path: path.join(ws, 'src', 'a.ts') });
  });
});
