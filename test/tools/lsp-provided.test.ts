/**
 * A language server regreen does not ship, fetched the first time a tool
 * needs it: pyright at the version and integrity package-lock.json pins, from
 * an npm registry on loopback into a tools folder, then started inside the
 * real sandbox (which reads the tools folder, and only reads it). A registry
 * that cannot be reached is a tool error that says what to do.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockClosure } from '../../scripts/provided-tools.mjs';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { silentLogger } from '../../src/logger.ts';
import { providedTools, type Pins } from '../../src/workspace/setup/provided-tools.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { sandboxFactory } from '../../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';
import { lspFamily } from '../../tools/lsp/index.ts';
import { resultText } from '../../tools/types.ts';
import { startNpmRegistry, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';
import { toolContext } from '../support/tool-context.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, unknown>;
};
const PINS: Pins = new Map([['pyright', lockClosure(lock.packages, 'pyright')]]);

describe('a language server fetched on first use', () => {
  const temp = makeTempDir('regreen-lsp-provided-');
  const ws = path.join(temp.dir, 'ws');
  const toolsDir = path.join(temp.dir, 'tools');
  const calc = path.join(ws, 'calc.py');
  let npm: NpmRegistry;
  let sandbox: Sandbox;
  const families: { dispose(): Promise<void> }[] = [];
  const npmEnv = (url: string): Record<string, string> => ({
    ...(process.env as Record<string, string>),
    npm_config_registry: url,
    npm_config_cache: path.join(temp.dir, 'npm-cache'),
    npm_config_fetch_retries: '0',
  });
  const lspOver = (url: string, tools: string): ToolRegistry => {
    const family = lspFamily({
      workspace: ws,
      sandbox,
      logger: silentLogger(),
      path: process.env.PATH,
      node: process.execPath,
      provided: providedTools({ toolsDir: tools, env: npmEnv(url), pins: PINS, own: () => [] }),
    });
    families.push(family);
    return new ToolRegistry(family.tools);
  };
  const call = async (registry: ToolRegistry, input: unknown) => {
    const result = await registry.call(
      'lsp',
      input,
      toolContext(ws, sandbox),
      new AbortController().signal,
      { levels: TOOL_LEVELS },
    );
    return { ...result, text: resultText(result) };
  };

  beforeAll(async () => {
    npm = await startNpmRegistry(['pyright-1.1.414.tgz']);
    mkdirSync(path.dirname(calc), { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    writeFileSync(path.join(ws, 'pyproject.toml'), '[project]\nname = "demo"\n');
    writeFileSync(
      calc,
      'def add(a: int, b: int) -> int:\n    return a + b\n\n\nresult = add(1, 2)\n',
    );
    const dataDir = path.join(temp.dir, 'data');
    mkdirSync(dataDir, { recursive: true });
    // The job's sandbox, opened before anything was fetched: the tools folder it reads is the operator's.
    sandbox = await sandboxFactory(
      'bubblewrap',
      silentLogger(),
    )(
      buildSandboxPolicy({
        workspace: ws,
        privateDir: path.join(dataDir, 'private'),
        home: path.join(temp.dir, 'home'),
        dataDir,
        registryHosts: [],
        baseEnv: { PATH: process.env.PATH, REGREEN_TOOLS_DIR: toolsDir },
      }),
    );
  });
  afterAll(async () => {
    for (const family of families) await family.dispose();
    await sandbox.dispose();
    await npm.close();
    temp.cleanup();
  });

  it('pyright is fetched at the pinned version on the first call, then serves the project in the sandbox', async () => {
    const registry = lspOver(npm.url, toolsDir);
    const status = await call(registry, { action: 'status' });
    expect(status.text).toMatch(/python: available for \. \(starts on first use\)/);
    expect(npm.asked).toEqual([]);
    const hover = await call(registry, { action: 'hover', file: calc, line: 5, symbol: 'add' });
    expect(hover.text).toMatch(/def add\(\s*a: int,\s*b: int\s*\) -> int/);
    expect(npm.asked).toContain('pyright');
    expect(existsSync(path.join(toolsDir, 'pyright@1.1.414', 'node_modules', 'pyright'))).toBe(
      true,
    );
    // The sandbox reads the tools folder and cannot write it.
    const write = await sandbox.run({
      command: `touch ${path.join(toolsDir, 'pyright@1.1.414', 'planted')}`,
      cwd: ws,
      network: 'off',
      timeoutMs: 10_000,
    });
    expect(write.exitCode).not.toBe(0);
  }, 240_000);

  it('a registry that cannot be reached is a tool error naming what to do', async () => {
    const registry = lspOver('http://127.0.0.1:9/', path.join(temp.dir, 'tools-offline'));
    const hover = await call(registry, { action: 'hover', file: calc, line: 5, symbol: 'add' });
    expect(hover.isError).toBe(true);
    expect(hover.text).toMatch(
      /regreen fetches pyright@1\.1\.414 from the npm registry the first time it is needed, and could not.*npm config get registry/,
    );
  }, 120_000);
});
