/**
 * The host never reads a repository path by name (#34 class 7): a committed
 * symlink to a host file, a FIFO or a device in the places regreen's own code
 * reads on the host (the workflows, package.json, the repo config, the agents'
 * context file, tsconfig.json) is refused, not followed and never waited on.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findJob } from '../../src/intake/workflow-find.ts';
import { readRepoConfig } from '../../src/job/stages/prepare.ts';
import { readContextFile } from '../../src/workspace/repo/context-file.ts';
import { detectSetupCommand } from '../../src/workspace/setup/detect.ts';
import { readTextInside } from '../../src/workspace/repo/confined-fs.ts';
import { readFilesInside } from '../../src/workspace/repo/confined-batch.ts';
import { serverSpecs } from '../../tools/lsp/servers.ts';
import { filesNamed } from '../../src/recipes/local-bin.ts';
import { findRoot } from '../../tools/toolchain.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-host-reads-');
afterAll(() => temp.cleanup());
let n = 0;
const workspace = (): string => {
  const dir = path.join(temp.dir, `ws${(n += 1)}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};
/** A host file no repository may read: a workflow with a job that names the secret. */
const HOST_SECRET = 'HOST-CANARY-7f3a';
const hostFile = (text: string): string => {
  const file = path.join(temp.dir, `host-${(n += 1)}`);
  writeFileSync(file, text);
  return file;
};
const fifo = (file: string): void => {
  mkdirSync(path.dirname(file), { recursive: true });
  execFileSync('mkfifo', [file]);
};

describe('the host reads no repository path by name', () => {
  it('a workflow symlinked to a host file is not read: its job is unknown, its text never quoted', () => {
    const ws = workspace();
    mkdirSync(path.join(ws, '.github', 'workflows'), { recursive: true });
    const secret = hostFile(
      `on: push\njobs:\n  ${HOST_SECRET}:\n    runs-on: x\n    steps:\n      - run: echo ${HOST_SECRET}\n`,
    );
    symlinkSync(secret, path.join(ws, '.github', 'workflows', 'ci.yml'));
    let message = '';
    try {
      findJob(ws, HOST_SECRET, 'test');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toBe('');
    expect(message).not.toContain(`jobs: ${HOST_SECRET}`);
  });

  it('a workflows folder symlinked out of the workspace is not listed', () => {
    const ws = workspace();
    const outside = path.join(temp.dir, 'outside-workflows');
    mkdirSync(outside, { recursive: true });
    writeFileSync(
      path.join(outside, 'ci.yml'),
      `on: push\njobs:\n  ${HOST_SECRET}:\n    runs-on: x\n    steps:\n      - run: echo hi\n`,
    );
    mkdirSync(path.join(ws, '.github'), { recursive: true });
    symlinkSync(outside, path.join(ws, '.github', 'workflows'));
    expect(() => findJob(ws, HOST_SECRET, 'test')).toThrow(/no .github\/workflows folder/);
  });

  it('a FIFO as package.json, the repo config or the context file does not hang the host', () => {
    const ws = workspace();
    fifo(path.join(ws, 'package.json'));
    fifo(path.join(ws, '.github', 'regreen.yml'));
    fifo(path.join(ws, 'AGENTS.md'));
    fifo(path.join(ws, '.github', 'workflows', 'ci.yml'));
    expect(detectSetupCommand(ws)).toBeUndefined();
    expect(readRepoConfig(ws).protected).toEqual(readRepoConfig(workspace()).protected);
    expect(readContextFile(ws)).toBeUndefined();
    expect(() => findJob(ws, 'test', 'test')).toThrow();
  }, 10_000);

  it('a batch read (each folder opened once) refuses links at the end and on the way, FIFOs, .git and what is too big', () => {
    const ws = workspace();
    const secret = hostFile(HOST_SECRET);
    const secretDir = path.dirname(secret);
    mkdirSync(path.join(ws, 'src', 'deep'), { recursive: true });
    mkdirSync(path.join(ws, '.git'));
    writeFileSync(path.join(ws, 'src', 'deep', 'ok.ts'), 'fine');
    writeFileSync(path.join(ws, 'src', 'big.ts'), 'x'.repeat(100));
    writeFileSync(path.join(ws, '.git', 'config'), HOST_SECRET);
    symlinkSync(secret, path.join(ws, 'src', 'link.ts'));
    symlinkSync('/dev/zero', path.join(ws, 'src', 'zero.ts'));
    symlinkSync(secretDir, path.join(ws, 'linked'));
    fifo(path.join(ws, 'src', 'fifo.ts'));
    const names = [
      'src/deep/ok.ts',
      'src/link.ts',
      'src/zero.ts',
      `linked/${path.basename(secret)}`,
      'src/fifo.ts',
      '.git/config',
      'src/big.ts',
      '../outside.ts',
      'src/deep',
      'src/missing.ts',
    ];
    const read = readFilesInside(
      ws,
      names.map((name) => path.join(ws, name)),
      { maxBytes: 50, totalBytes: 1000 },
    ).bytes.map((bytes) => bytes?.toString('utf8'));
    expect(read).toEqual(['fine', ...names.slice(1).map(() => undefined)]);
  }, 10_000);

  it('a batch read holds at most its budget, however many names one big file has (hard links)', () => {
    // An attacker's finding: 1500 hard links to one 1 MiB source file had a folder-wide search
    // hold 1.5 GiB on the host at once, each name within the per-file cap.
    const ws = workspace();
    const big = path.join(ws, 'big.ts');
    writeFileSync(big, 'x'.repeat(1000));
    const names = [big];
    for (let i = 0; i < 50; i += 1) {
      const name = path.join(ws, `link-${i}.ts`);
      linkSync(big, name);
      names.push(name);
    }
    const read = readFilesInside(ws, names, { maxBytes: 1000, totalBytes: 10_500 });
    expect(read.bytes.filter((bytes) => bytes !== undefined)).toHaveLength(10);
    expect(read.overBudget).toBe(41);
  });

  it('package.json linked to /dev/zero is not read (no endless read on the host)', () => {
    const ws = workspace();
    symlinkSync('/dev/zero', path.join(ws, 'package.json'));
    expect(detectSetupCommand(ws)).toBeUndefined();
  }, 10_000);

  it('a tsconfig.json linked to a host file does not decide what the language server checks', () => {
    const ws = workspace();
    symlinkSync(hostFile('{"compilerOptions":{"checkJs": true}}'), path.join(ws, 'tsconfig.json'));
    const typescript = serverSpecs(() => undefined, process.execPath).find((spec) =>
      spec.extensions.includes('js'),
    );
    expect(typescript?.reportsDiagnostics?.(path.join(ws, 'a.js'), ws)).toBe(false);
    // The same text committed as a file of the repository does decide it.
    const own = workspace();
    writeFileSync(path.join(own, 'tsconfig.json'), '{"compilerOptions":{"checkJs": true}}');
    expect(typescript?.reportsDiagnostics?.(path.join(own, 'a.js'), own)).toBe(true);
  });

  it("a recipe's files named in the output are asked through the confined reader: a link to / is no oracle", () => {
    const ws = workspace();
    symlinkSync('/', path.join(ws, 'r'));
    writeFileSync(path.join(ws, 'own.js'), '');
    expect(filesNamed(ws, ['r/etc/passwd', 'r/nonexistent', 'own.js'])).toEqual(['own.js']);
  });

  it('no existence question about a host path through a committed link: set-up detection and roots', () => {
    const ws = workspace();
    // `tests` and the lockfile are links to host paths that exist: neither counts as the project's.
    symlinkSync('/etc', path.join(ws, 'tests'));
    symlinkSync('/etc/hostname', path.join(ws, 'package-lock.json'));
    writeFileSync(path.join(ws, 'package.json'), '{"name":"x"}');
    writeFileSync(path.join(ws, 'requirements.txt'), 'six\n');
    expect(detectSetupCommand(ws)).toBe(
      'python3 -m venv .venv && .venv/bin/python -m pip install -r requirements.txt',
    );
    const own = workspace();
    mkdirSync(path.join(own, 'tests'));
    writeFileSync(path.join(own, 'package-lock.json'), '{}');
    expect(detectSetupCommand(own)).toBe('npm ci');
    mkdirSync(path.join(ws, 'sub'));
    symlinkSync('/etc/hostname', path.join(ws, 'sub', 'go.mod'));
    expect(findRoot(ws, path.join(ws, 'sub', 'a.go'), ['go.mod'])).toBeUndefined();
    writeFileSync(path.join(own, 'go.mod'), 'module x\n');
    expect(findRoot(own, path.join(own, 'a.go'), ['go.mod'])).toBe(own);
  });

  it('a manifest over the cap is not read', () => {
    const ws = workspace();
    writeFileSync(path.join(ws, 'big.json'), 'x'.repeat(2048));
    expect(readTextInside(ws, path.join(ws, 'big.json'), 1024)).toBeUndefined();
    expect(readTextInside(ws, path.join(ws, 'big.json'), 4096)?.length).toBe(2048);
  });
});
