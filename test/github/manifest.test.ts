import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

describe('app.yml and action.yml', () => {
  it('the App asks for the events it handles and the least permissions, never workflows', () => {
    const manifest = parse(readFileSync(path.join(ROOT, 'app.yml'), 'utf8')) as {
      default_events: string[];
      default_permissions: Record<string, string>;
    };
    const handled = readFileSync(path.join(ROOT, 'src', 'github', 'handlers.ts'), 'utf8')
      .match(/app\.on\('([a-z_]+)\./g)
      ?.map((m) => m.slice("app.on('".length, -1));
    expect(new Set(manifest.default_events)).toEqual(new Set(handled));
    expect(manifest.default_permissions).toEqual({
      actions: 'read',
      checks: 'write',
      contents: 'write',
      pull_requests: 'write',
      issues: 'write',
      metadata: 'read',
    });
  });

  it('the Action runs its committed build and reads every input it declares, and no other', () => {
    const action = parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as {
      inputs: Record<string, unknown>;
      runs: { using: string; main: string };
    };
    // A JavaScript action: the runner hands each input over as INPUT_<NAME>.
    expect(action.runs).toEqual({ using: 'node24', main: 'action/index.mjs' });
    const read = new Set(
      [
        ...readFileSync(path.join(ROOT, 'src', 'entrypoints', 'action.ts'), 'utf8').matchAll(
          /input\('([a-z-]+)'\)/g,
        ),
      ].map((m) => m[1]),
    );
    expect(read).toEqual(new Set(Object.keys(action.inputs)));
  });

  it("the committed build carries ast-grep's native parts for both Linux runners, each built for its machine", () => {
    const modules = path.join(ROOT, 'action', 'node_modules', '@ast-grep');
    // ELF e_machine: 62 is x86-64, 183 is AArch64.
    const machineOf = (file: string): number => readFileSync(file).readUInt16LE(18);
    const napi = (arch: string) =>
      path.join(modules, `napi-linux-${arch}-gnu`, `ast-grep-napi.linux-${arch}-gnu.node`);
    expect(machineOf(napi('x64'))).toBe(62);
    expect(machineOf(napi('arm64'))).toBe(183);
    // The grammars the package ships (its dependencies); the others are fetched on first use, pinned.
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const grammars = readdirSync(modules).filter((name) => name.startsWith('lang-'));
    expect(grammars.map((name) => `@ast-grep/${name}`).sort()).toEqual(
      Object.keys(manifest.dependencies)
        .filter((name) => name.startsWith('@ast-grep/lang-'))
        .sort(),
    );
    const pinned = JSON.parse(
      readFileSync(path.join(ROOT, 'action', 'provided-tools.json'), 'utf8'),
    ) as { tools: Record<string, unknown> };
    expect(Object.keys(pinned.tools)).toEqual(
      expect.arrayContaining(['pyright', 'typescript-language-server', '@ast-grep/lang-kotlin']),
    );
    for (const grammar of grammars) {
      const prebuilds = path.join(modules, grammar, 'prebuilds');
      expect(readdirSync(prebuilds).sort(), grammar).toEqual([
        'prebuild-Linux-ARM64',
        'prebuild-Linux-X64',
      ]);
      expect(machineOf(path.join(prebuilds, 'prebuild-Linux-X64', 'parser.so'))).toBe(62);
      expect(machineOf(path.join(prebuilds, 'prebuild-Linux-ARM64', 'parser.so'))).toBe(183);
    }
  });
});
