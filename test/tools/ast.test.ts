import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { astTools } from '../../tools/ast/index.ts';
import { coreTools } from '../../tools/index.ts';
import { resultText, type ToolContext } from '../../tools/types.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('ast_grep, ast_edit and resolve', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let registry: ToolRegistry;
  const ctx = (): ToolContext => ({
    workspace: ws,
    sandbox: {} as Sandbox,
    logger: silentLogger(),
    testCommand: 'true',
    commandTimeoutMs: 1000,
  });
  const call = async (name: string, input: unknown) => {
    const result = await registry.call(name, input, ctx(), new AbortController().signal, {
      levels: TOOL_LEVELS,
    });
    return { ...result, text: resultText(result) };
  };
  const file = (name: string, content: string): string => {
    const full = path.join(ws, name);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };

  beforeAll(() => {
    mkdirSync(ws, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws }); // workspaces are clones: .gitignore applies
    file('.gitignore', 'dist/\n');
    file(
      'src/guard.ts',
      [
        'if (conn != null) conn.dispose();',
        'if (conn != null) other.dispose();',
        'const s = "if (conn != null) conn.dispose();";',
        '// if (conn != null) conn.dispose();',
        'log("a", 1, 2, 3);',
        'log("b");',
        'class Store {',
        '  save(item) {',
        '    return this.db.put(item);',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    file('dist/bundle.ts', 'if (conn != null) conn.dispose();\n');
    file(
      'py/guard.py',
      'if conn is not None:\n    conn.close()\nif conn is not None:\n    other.close()\n',
    );
    file(
      'lib/guard.dart',
      'void f() {\n  if (conn != null) conn.dispose();\n  if (conn != null) other.dispose();\n}\n',
    );
    registry = new ToolRegistry([...coreTools(), ...astTools()]);
  });
  afterAll(temp.cleanup);

  it.each([
    [
      'TypeScript',
      'if ($X != null) $X.dispose()',
      'src/guard.ts',
      undefined,
      'src/guard.ts:1:1: if (conn != null) conn.dispose();',
    ],
    [
      'Python',
      'if $X is not None:\n    $X.close()',
      'py/guard.py',
      undefined,
      'py/guard.py:1:1: if conn is not None:',
    ],
    [
      'Dart',
      'if ($X != null) $X.dispose();',
      'lib/guard.dart',
      undefined,
      'lib/guard.dart:2:3: if (conn != null) conn.dispose();',
    ],
  ])(
    '%s: a repeated metavariable matches the guard that disposes what it checked, not the other',
    async (_lang, pattern, where, language, expected) => {
      const result = await call('ast_grep', {
        pattern,
        path: path.join(ws, where),
        ...(language ? { language } : {}),
      });
      expect(result.isError, result.text).toBe(false);
      expect(result.text).toContain(expected);
      expect(result.text).toContain('$X = conn');
      expect(result.text).toMatch(/\[1 matches in 1 file\(s\)\]/);
    },
  );

  it('never matches inside strings or comments, and respects .gitignore in a folder search', async () => {
    const result = await call('ast_grep', {
      pattern: 'if ($X != null) $X.dispose()',
      language: 'typescript',
    });
    expect(result.text).toMatch(/\[1 matches in 1 file\(s\)\]/);
    expect(result.text).not.toContain('dist/bundle.ts');
  });

  it('a folder search reads no link out of the workspace and sees every edit between searches', async () => {
    const outside = path.join(temp.dir, 'outside');
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.ts'), 'if (key != null) key.dispose();\n');
    symlinkSync(outside, path.join(ws, 'linked'));
    symlinkSync(path.join(outside, 'secret.ts'), path.join(ws, 'src', 'linked-file.ts'));
    const search = () =>
      call('ast_grep', { pattern: 'if ($X != null) $X.dispose()', language: 'typescript' });
    try {
      const first = await search();
      expect(first.text).toMatch(/\[1 matches in 1 file\(s\)\]/);
      expect(first.text).not.toMatch(/key|secret|linked/);
      // The same text parsed once is reused; a changed file is parsed again, whatever wrote it.
      const added = file('src/later.ts', 'if (conn != null) conn.dispose();\n');
      expect((await search()).text).toMatch(/\[2 matches in 2 file\(s\)\]/);
      writeFileSync(added, 'if (conn == null) conn.dispose();\n');
      expect((await search()).text).toMatch(/\[1 matches in 1 file\(s\)\]/);
      // A file that became a link out is not read again from the cache or through the link.
      rmSync(added);
      symlinkSync(path.join(outside, 'secret.ts'), added);
      const last = await search();
      expect(last.text).toMatch(/\[1 matches in 1 file\(s\)\]/);
      expect(last.text).not.toMatch(/key/);
    } finally {
      for (const link of ['linked', 'src/linked-file.ts', 'src/later.ts'])
        rmSync(path.join(ws, link), { force: true });
    }
  });

  it('captures $$$ runs of siblings', async () => {
    const result = await call('ast_grep', {
      pattern: 'log($FIRST, $$$REST)',
      path: path.join(ws, 'src/guard.ts'),
    });
    expect(result.text).toContain('$FIRST = "a" ; $REST = 1, 2, 3');
    expect(result.text).toMatch(/\[1 matches/);
    const all = await call('ast_grep', {
      pattern: 'log($$$ARGS)',
      path: path.join(ws, 'src/guard.ts'),
    });
    expect(all.text).toContain('$ARGS = "a", 1, 2, 3');
    expect(all.text).toContain('$ARGS = "b"');
  });

  it('finds a class member through the parse ladder', async () => {
    const result = await call('ast_grep', {
      pattern: 'save($ITEM) { $$$BODY }',
      path: path.join(ws, 'src/guard.ts'),
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('src/guard.ts:8:3: save(item) {');
    expect(result.text).toContain('pattern parsed as a class member');
  });

  it('says a pattern is unparseable instead of finding nothing', async () => {
    const result = await call('ast_grep', {
      pattern: 'if ( ( ( {',
      path: path.join(ws, 'src/guard.ts'),
    });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /unparseable in typescript \(tried: as written, class member, statement/,
    );
  });

  it('asks for a language on a folder and rejects an unknown one', async () => {
    expect((await call('ast_grep', { pattern: 'x' })).text).toMatch(/give language/);
    expect((await call('ast_grep', { pattern: 'x', language: 'cobol' })).text).toMatch(
      /unknown language "cobol"/,
    );
  });

  it('stages a rewrite, shows the diff, and writes only on accept', async () => {
    const target = path.join(ws, 'src/guard.ts');
    const before = readFileSync(target, 'utf8');
    const staged = await call('ast_edit', {
      pattern: 'log($FIRST, $$$REST)',
      rewrite: 'logger.info($FIRST, [$$$REST])',
      path: target,
    });
    expect(staged.isError, staged.text).toBe(false);
    expect(staged.text).toMatch(/^\(proposed\) 1 replacements in 1 file\(s\).*edit_id "edit_\d+"/);
    expect(staged.text).toContain('+logger.info("a", [1, 2, 3]);');
    expect(readFileSync(target, 'utf8')).toBe(before);
    const id = /edit_id "(edit_\d+)"/.exec(staged.text)?.[1] ?? '';
    const accepted = await call('resolve', { edit_id: id, action: 'accept' });
    expect(accepted.isError, accepted.text).toBe(false);
    expect(readFileSync(target, 'utf8')).toContain('logger.info("a", [1, 2, 3]);');
    expect((await call('resolve', { edit_id: id, action: 'accept' })).text).toMatch(
      /no staged edit/,
    );
  });

  it('discard drops a staged edit', async () => {
    const target = file('src/d.ts', 'foo(1);\n');
    const staged = await call('ast_edit', { pattern: 'foo($A)', rewrite: 'bar($A)', path: target });
    const id = /edit_id "(edit_\d+)"/.exec(staged.text)?.[1] ?? '';
    expect((await call('resolve', { edit_id: id, action: 'discard' })).text).toMatch(/discarded/);
    expect(readFileSync(target, 'utf8')).toBe('foo(1);\n');
  });

  it('rejects the whole edit when edit changed one of the staged files', async () => {
    const a = file('cas/a.ts', 'oldName(1);\n');
    const b = file('cas/b.ts', 'oldName(2);\n');
    const staged = await call('ast_edit', {
      pattern: 'oldName($A)',
      rewrite: 'newName($A)',
      path: path.join(ws, 'cas'),
      language: 'typescript',
    });
    expect(staged.text).toMatch(/2 replacements in 2 file/);
    await call('edit', { path: b, old: 'oldName(2)', new: 'oldName(3)' });
    const id = /edit_id "(edit_\d+)"/.exec(staged.text)?.[1] ?? '';
    const result = await call('resolve', { edit_id: id, action: 'accept' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(
      /cas\/b\.ts changed since the edit was staged; nothing was written/,
    );
    expect(readFileSync(a, 'utf8')).toBe('oldName(1);\n');
  });

  it('restores the files already written when a write fails', async () => {
    const a = file('ro/a.ts', 'before(1);\n');
    const b = file('ro/b.ts', 'before(2);\n');
    const staged = await call('ast_edit', {
      pattern: 'before($A)',
      rewrite: 'after($A)',
      path: path.join(ws, 'ro'),
      language: 'typescript',
    });
    chmodSync(b, 0o444);
    const id = /edit_id "(edit_\d+)"/.exec(staged.text)?.[1] ?? '';
    const result = await call('resolve', { edit_id: id, action: 'accept' });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/could not write ro\/b\.ts \(EACCES\); restored ro\/a\.ts/);
    expect(readFileSync(a, 'utf8')).toBe('before(1);\n');
    expect(readFileSync(b, 'utf8')).toBe('before(2);\n');
  });
});
