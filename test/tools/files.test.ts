import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { resultText, type ToolContext } from '../../tools/types.ts';
import { makeTempDir } from '../support/tmp.ts';
import { callTool, realSandbox, toolContext } from '../support/tool-context.ts';

describe('file tools', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  const outside = path.join(temp.dir, 'outside');
  let sandbox: Sandbox;
  let ctx: ToolContext;
  const call = async (name: string, input: unknown) => {
    const result = await callTool(ctx, name, input);
    return { ...result, text: resultText(result) };
  };

  beforeAll(async () => {
    mkdirSync(path.join(ws, 'src'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(outside, 'secret.txt'), 'TOP SECRET\n');
    writeFileSync(
      path.join(ws, 'src', 'a.ts'),
      Array.from({ length: 300 }, (_, i) => `line ${i + 1}`).join('\n') + '\n',
    );
    writeFileSync(path.join(ws, 'src', 'dup.ts'), 'x = 1;\nx = 1;\n');
    writeFileSync(
      path.join(ws, 'image.png'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]),
    );
    writeFileSync(path.join(ws, 'latin1.txt'), Buffer.from('caf\xe9\n', 'latin1'));
    symlinkSync(outside, path.join(ws, 'escape'));
    execFileSync('git', ['init', '-q'], { cwd: ws });
    // 50 MB of text, read by range without loading it whole.
    const big = openSync(path.join(ws, 'big.log'), 'w');
    const block =
      Array.from({ length: 10_000 }, (_, i) => `log entry ${i} ${'x'.repeat(40)}`).join('\n') +
      '\n';
    for (let written = 0; written < 50 * 1024 * 1024; written += block.length)
      writeSync(big, block);
    closeSync(big);
    sandbox = await realSandbox(temp.dir, ws);
    ctx = toolContext(ws, sandbox);
  });

  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  describe('read', () => {
    it('shows numbered lines of the default range and the total', async () => {
      const result = await call('read', { path: path.join(ws, 'src', 'a.ts') });
      expect(result.isError).toBe(false);
      expect(result.text).toMatch(/^ {2}1\tline 1$/m);
      expect(result.text).toMatch(/^200\tline 200$/m);
      expect(result.text).not.toContain('line 201');
      expect(result.text).toMatch(/\[300 lines in total\]$/);
    });

    it('reads a range', async () => {
      const result = await call('read', { path: path.join(ws, 'src', 'a.ts'), from: 250, to: 252 });
      expect(result.text).toBe('250\tline 250\n251\tline 251\n252\tline 252\n[300 lines in total]');
    });

    it('reads a 50 MB file by range', async () => {
      const result = await call('read', {
        path: path.join(ws, 'big.log'),
        from: 500_001,
        to: 500_002,
      });
      expect(result.isError).toBe(false);
      expect(result.text).toContain('log entry 1');
      expect(result.text).toMatch(/\[\d{6,} lines in total\]/);
    });

    it.each([
      ['a relative path', 'src/a.ts', /must be absolute/],
      ['a path through a symlink out', '$WS/escape/secret.txt', /symlink/],
      ['a .. escape', '$WS/../outside/secret.txt', /outside the workspace/],
      ['a binary file', '$WS/image.png', /binary file/],
      ['non-UTF-8 text', '$WS/latin1.txt', /not valid UTF-8/],
      ['a missing file', '$WS/nope.ts', /file not found/],
      ['a directory', '$WS/src', /is a directory/],
    ])('refuses %s with a clear error', async (_label, candidate, message) => {
      const result = await call('read', { path: candidate.replace('$WS', ws) });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(message);
      expect(result.text).not.toContain('TOP SECRET');
    });

    it('refuses a range past the end and an oversize range', async () => {
      expect((await call('read', { path: path.join(ws, 'src', 'a.ts'), from: 400 })).text).toMatch(
        /past the end: the file has 300 lines/,
      );
      expect(
        (await call('read', { path: path.join(ws, 'src', 'a.ts'), from: 1, to: 5000 })).text,
      ).toMatch(/range too large/);
    });

    it('reports a schema error for a wrong input', async () => {
      const result = await call('read', { file: 'x' });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/invalid input for read: path/);
    });
  });

  it("an edit at the same size within the same second runs as the new code (Python's bytecode cache keys on size and whole seconds)", async () => {
    // Seen in CI: the agent's correct fix of `a - b` to `a + b` ran as the old code, because the
    // reproduction had just cached calc.py's bytecode in the same second.
    const dir = path.join(ws, 'py');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'calc.py'), 'def add(a, b):\n    return a - b\n');
    const run = (): string =>
      execFileSync('python3', ['-c', 'import calc; print(calc.add(2, 2))'], {
        cwd: dir,
        encoding: 'utf8',
        // Python's default: the bytecode is cached (some machines switch it off).
        env: Object.fromEntries(
          Object.entries(process.env).filter(([name]) => name !== 'PYTHONDONTWRITEBYTECODE'),
        ),
      }).trim();
    // Early in a second, so the run that caches the bytecode and the edit share it.
    while (Date.now() % 1000 > 200) await new Promise((resolve) => setTimeout(resolve, 20));
    const file = path.join(dir, 'calc.py');
    const stamp = new Date(Math.floor(Date.now() / 1000) * 1000 + 1);
    utimesSync(file, stamp, stamp);
    expect(run()).toBe('0');
    const edit = await call('edit', { path: file, old: 'a - b', new: 'a + b' });
    expect(edit.isError, edit.text).toBe(false);
    expect(run()).toBe('4');
  });

  it('list shows folders and symlinks', async () => {
    const result = await call('list', { path: ws });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('src/');
    expect(result.text).toContain('escape -> (symlink)');
  });

  it('search finds matches with relative paths and a count', async () => {
    const result = await call('search', { pattern: 'line 29\\d', glob: '*.ts' });
    expect(result.isError).toBe(false);
    expect(result.text).toContain('src/a.ts:290:line 290');
    expect(result.text).toMatch(/\[10 matches\]/);
    const none = await call('search', { pattern: 'TOP SECRET' });
    expect(none.text).toMatch(/no matches/);
    const bad = await call('search', { pattern: '(' });
    expect(bad.isError).toBe(true);
  });

  describe('write and edit', () => {
    it('writes a new file in new folders', async () => {
      const file = path.join(ws, 'gen', 'deep', 'new.ts');
      const result = await call('write', { path: file, content: 'export const a = 1;\n' });
      expect(result.isError).toBe(false);
      expect(readFileSync(file, 'utf8')).toBe('export const a = 1;\n');
    });

    it('never writes through a symlink out or into .git', async () => {
      const out = await call('write', { path: path.join(ws, 'escape', 'pwned.txt'), content: 'x' });
      expect(out.isError).toBe(true);
      expect(existsSync(path.join(outside, 'pwned.txt'))).toBe(false);
      const gitWrite = await call('write', { path: path.join(ws, '.git', 'config'), content: 'x' });
      expect(gitWrite.isError).toBe(true);
      expect(gitWrite.text).toMatch(/inside a \.git folder/);
    });

    it('edits one unique fragment', async () => {
      const file = path.join(ws, 'src', 'edit-me.ts');
      writeFileSync(file, 'const a = 1;\nconst b = 2;\n');
      const result = await call('edit', { path: file, old: 'const b = 2;', new: 'const b = 3;' });
      expect(result.isError).toBe(false);
      expect(result.text).toContain('line 2');
      expect(readFileSync(file, 'utf8')).toBe('const a = 1;\nconst b = 3;\n');
    });

    it('refuses a missing or repeated fragment and changes nothing', async () => {
      const file = path.join(ws, 'src', 'dup.ts');
      const missing = await call('edit', { path: file, old: 'y = 2;', new: 'z' });
      expect(missing.text).toMatch(/not found: read the file and copy the exact text/);
      const repeated = await call('edit', { path: file, old: 'x = 1;', new: 'z' });
      expect(repeated.text).toMatch(/appears 2 times: include more context/);
      expect(readFileSync(file, 'utf8')).toBe('x = 1;\nx = 1;\n');
    });

    it('refuses to edit binary and non-UTF-8 files', async () => {
      expect(
        (await call('edit', { path: path.join(ws, 'image.png'), old: 'P', new: 'Q' })).text,
      ).toMatch(/binary/);
      expect(
        (await call('edit', { path: path.join(ws, 'latin1.txt'), old: 'caf', new: 'x' })).text,
      ).toMatch(/UTF-8/);
      expect(readFileSync(path.join(ws, 'latin1.txt'))).toEqual(Buffer.from('caf\xe9\n', 'latin1'));
    });
  });

  describe('apply_patch', () => {
    const patchFile = path.join(ws, 'p', 'one.txt');
    beforeAll(() => {
      mkdirSync(path.dirname(patchFile), { recursive: true });
      writeFileSync(patchFile, 'alpha\nbeta\ngamma\n');
      writeFileSync(path.join(ws, 'p', 'gone.txt'), 'bye\n');
    });

    it('applies modified, new and deleted files together', async () => {
      const patch = [
        'diff --git a/p/one.txt b/p/one.txt',
        '--- a/p/one.txt',
        '+++ b/p/one.txt',
        '@@ -1,3 +1,3 @@',
        ' alpha',
        '-beta',
        '+BETA',
        ' gamma',
        'diff --git a/p/new.txt b/p/new.txt',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/p/new.txt',
        '@@ -0,0 +1 @@',
        '+hello',
        'diff --git a/p/gone.txt b/p/gone.txt',
        'deleted file mode 100644',
        '--- a/p/gone.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-bye',
        '',
      ].join('\n');
      const result = await call('apply_patch', { patch });
      expect(result.isError).toBe(false);
      expect(readFileSync(patchFile, 'utf8')).toBe('alpha\nBETA\ngamma\n');
      expect(readFileSync(path.join(ws, 'p', 'new.txt'), 'utf8')).toBe('hello\n');
      expect(existsSync(path.join(ws, 'p', 'gone.txt'))).toBe(false);
    });

    it('applies all hunks or none', async () => {
      const before = readFileSync(patchFile, 'utf8');
      const patch = [
        '--- a/p/one.txt',
        '+++ b/p/one.txt',
        '@@ -1,2 +1,2 @@',
        '-alpha',
        '+ALPHA',
        ' BETA',
        '@@ -3,1 +3,1 @@',
        '-no such line',
        '+delta',
        '',
      ].join('\n');
      const result = await call('apply_patch', { patch });
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(/nothing was changed/);
      expect(readFileSync(patchFile, 'utf8')).toBe(before);
    });

    it('rejects paths that escape the workspace', async () => {
      const patch =
        '--- a/escape/secret.txt\n+++ b/escape/secret.txt\n@@ -1 +1 @@\n-TOP SECRET\n+owned\n';
      const result = await call('apply_patch', { patch });
      expect(result.isError).toBe(true);
      expect(readFileSync(path.join(outside, 'secret.txt'), 'utf8')).toBe('TOP SECRET\n');
    });
  });
});
