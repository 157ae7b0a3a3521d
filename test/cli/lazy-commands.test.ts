import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-lazy-');
afterAll(() => temp.cleanup());

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'regreen.js');

/** Runs the real binary with a module hook that writes down every module it loads. */
const loadedBy = (
  args: readonly string[],
  name: string,
): Promise<{ stdout: string; urls: string[] }> => {
  const record = path.join(temp.dir, `${name}.loaded`);
  writeFileSync(record, '');
  const hooks = path.join(temp.dir, `${name}-hooks.mjs`);
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export const resolve = async (specifier, context, next) => {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(record)}, resolved.url + '\\n');
  return resolved;
};
`,
  );
  const register = path.join(temp.dir, `${name}-register.mjs`);
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', pathToFileURL(register).href, BIN, ...args],
      { maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`${error.message}\n${stderr}`));
        else resolve({ stdout, urls: readFileSync(record, 'utf8').split('\n').filter(Boolean) });
      },
    );
  });
};

const SERVER_ONLY = ['/node_modules/bullmq/', '/node_modules/ioredis/', '/node_modules/probot/'];

describe('commands load on demand', () => {
  it("regreen fix loads its own modules and none of the App's, the worker's or the queue's", async () => {
    const { stdout, urls } = await loadedBy(['fix', '--help'], 'fix');
    expect(stdout).toMatch(/Usage: regreen fix/);
    // The record is real: the command's own module and its parser were loaded through the hook.
    expect(urls.some((url) => url.endsWith('/src/cli/fix-command.ts'))).toBe(true);
    expect(urls.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    expect(urls.filter((url) => SERVER_ONLY.some((dir) => url.includes(dir)))).toEqual([]);
    expect(urls.some((url) => url.endsWith('/src/entrypoints/app.ts'))).toBe(false);
    // Its help needs the registration only: no terminal, no logger.
    expect(
      urls.filter((url) => /\/node_modules\/pino\/|\/src\/cli\/terminal\.ts$/.test(url)),
    ).toEqual([]);
  });

  it('help lists every command and loads none of them, nor the logger or the settings', async () => {
    const { stdout, urls } = await loadedBy(['--help'], 'help');
    for (const command of [
      'fix',
      'serve',
      'worker',
      'eval',
      'action',
      'triage',
      'trace',
      'tools',
      'sandbox',
      'doctor',
      'jobs',
    ])
      expect(stdout).toMatch(new RegExp(`^  ${command}\\b`, 'm'));
    expect(urls.some((url) => url.includes('/node_modules/commander/'))).toBe(true);
    for (const heavy of [
      '/src/entrypoints/app.ts',
      '/src/cli/fix-command.ts',
      '/src/cli/terminal.ts',
    ])
      expect(urls.some((url) => url.endsWith(heavy))).toBe(false);
    expect(urls.some((url) => url.includes('/node_modules/zod/'))).toBe(false);
    expect(urls.some((url) => url.includes('/node_modules/pino/'))).toBe(false);
  });

  it('help of one command loads its registration, not the job it runs', async () => {
    const { stdout, urls } = await loadedBy(['help', 'fix'], 'help-fix');
    expect(stdout).toMatch(/Usage: regreen fix/);
    expect(stdout).toMatch(/--max-cost/);
    expect(urls.some((url) => url.endsWith('/src/cli/fix-command.ts'))).toBe(true);
    expect(urls.some((url) => url.endsWith('/src/cli/fix-run.ts'))).toBe(false);
    expect(urls.some((url) => url.endsWith('/src/job/run-job.ts'))).toBe(false);
  });

  it('--version prints the package version', async () => {
    const { stdout } = await loadedBy(['--version'], 'version');
    const manifest = JSON.parse(
      readFileSync(path.join(import.meta.dirname, '..', '..', 'package.json'), 'utf8'),
    ) as { version: string };
    expect(stdout.trim()).toBe(manifest.version);
  });
});
