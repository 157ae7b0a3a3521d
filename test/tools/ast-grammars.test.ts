/**
 * Grammars on first use: the first search that needs a grammar fetches it
 * (and those of the workspace's other languages) from an npm registry on
 * loopback and loads them all at once, since ast-grep registers grammars once
 * per process (this file runs in a process of its own). A grammar needed only
 * later is fetched for the next process, and the search says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockClosure } from '../../scripts/provided-tools.mjs';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { silentLogger } from '../../src/logger.ts';
import { providedTools, type Pins } from '../../src/workspace/setup/provided-tools.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { astTools } from '../../tools/ast/index.ts';
import { DYNAMIC } from '../../tools/ast/languages.ts';
import { resultText } from '../../tools/types.ts';
import { startNpmRegistry, type NpmRegistry } from '../support/npm-registry.ts';
import { makeTempDir } from '../support/tmp.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const lock = JSON.parse(readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, unknown>;
};

it("the table knows each grammar's extensions and `$` stand-in before it loads: the package's own", () => {
  const require = createRequire(import.meta.url);
  for (const language of DYNAMIC) {
    const pkg = require(language.pkg) as { extensions: string[]; expandoChar?: string };
    expect([...language.extensions].sort(), language.id).toEqual([...pkg.extensions].sort());
    expect(language.expando, language.id).toBe(pkg.expandoChar ?? '$');
  }
});

describe('ast grammars fetched on first use', () => {
  const temp = makeTempDir('regreen-grammars-');
  const ws = path.join(temp.dir, 'ws');
  let npm: NpmRegistry;
  let registry: ToolRegistry;
  const call = async (input: unknown) => {
    const ctx = {
      workspace: ws,
      sandbox: {} as Sandbox,
      logger: silentLogger(),
      testCommand: 'true',
      commandTimeoutMs: 1000,
    };
    const result = await registry.call('ast_grep', input, ctx, new AbortController().signal, {
      levels: TOOL_LEVELS,
    });
    return { ...result, text: resultText(result) };
  };

  beforeAll(async () => {
    npm = await startNpmRegistry([
      'ast-grep-lang-json-0.0.6.tgz',
      'ast-grep-lang-yaml-0.0.6.tgz',
      'ast-grep-setup-lang-0.0.6.tgz',
    ]);
    mkdirSync(ws, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    writeFileSync(path.join(ws, 'settings.json'), '{ "retries": 3, "name": "demo" }\n');
    writeFileSync(path.join(ws, 'main.ts'), 'const retries = 3;\n');
    const pins: Pins = new Map(
      ['@ast-grep/lang-json', '@ast-grep/lang-yaml'].map(
        (name) => [name, lockClosure(lock.packages, name)] as const,
      ),
    );
    // None of regreen's own copies: what a search needs comes from the registry.
    const provided = providedTools({
      toolsDir: path.join(temp.dir, 'tools'),
      env: {
        ...(process.env as Record<string, string>),
        npm_config_registry: npm.url,
        npm_config_cache: path.join(temp.dir, 'npm-cache'),
      },
      pins,
      own: () => [],
    });
    registry = new ToolRegistry(astTools(provided));
  });
  afterAll(async () => {
    await npm.close();
    temp.cleanup();
  });

  it('a built-in language needs no grammar: nothing is fetched', async () => {
    const result = await call({ pattern: 'const $N = 3', path: path.join(ws, 'main.ts') });
    expect(result.text).toContain('main.ts:1:1: const retries = 3;');
    expect(npm.asked).toEqual([]);
  });

  it('the first search that needs a grammar fetches it, loads it and searches', async () => {
    const result = await call({
      pattern: '"demo"',
      path: path.join(ws, 'settings.json'),
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toContain('settings.json:1:25: "demo"');
    expect(npm.asked).toContain('@ast-grep/lang-json');
  }, 120_000);

  it('a grammar first needed after the others loaded is fetched for the next process, and the search says so', async () => {
    const late = await call({ pattern: 'retries: $V', language: 'yaml' });
    expect(late.isError).toBe(true);
    expect(late.text).toMatch(
      /the yaml grammar was fetched after this process had loaded its grammars.*next start/,
    );
    expect(npm.asked).toContain('@ast-grep/lang-yaml');
    const unpinned = await call({ pattern: 'x := $V', language: 'go' });
    expect(unpinned.text).toMatch(
      /no go grammar: @ast-grep\/lang-go is not installed with regreen/,
    );
  }, 120_000);
});
