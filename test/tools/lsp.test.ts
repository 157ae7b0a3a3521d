import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { coreTools } from '../../tools/index.ts';
import { lspFamily } from '../../tools/lsp/index.ts';
import { resultText } from '../../tools/types.ts';
import { makeTempDir } from '../support/tmp.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';

/** Every process below a pid (the sandbox and the server inside it), from ps. */
const descendants = (root: number): number[] => {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((row) => row.trim().split(/\s+/).map(Number));
  const found = [root];
  for (let i = 0; i < found.length; i += 1)
    for (const [pid, ppid] of rows) if (ppid === found[i] && pid !== undefined) found.push(pid);
  return found;
};

describe('lsp on real language servers', () => {
  const temp = makeTempDir();
  const ws = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;
  let family: ReturnType<typeof lspFamily>;
  let registry: ToolRegistry;
  const file = (name: string, content: string): string => {
    const full = path.join(ws, name);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  const call = async (name: string, input: unknown) => {
    const result = await registry.call(
      name,
      input,
      toolContext(ws, sandbox),
      new AbortController().signal,
      { levels: TOOL_LEVELS },
    );
    return { ...result, text: resultText(result) };
  };

  beforeAll(async () => {
    mkdirSync(ws, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: ws });
    file(
      'tsconfig.json',
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          noEmit: true,
        },
        include: ['src'],
      }),
    );
    file(
      'src/shapes.ts',
      'export interface Shape {\n  area(): number;\n}\n\nexport class Square implements Shape {\n  constructor(private readonly side: number) {}\n  area(): number {\n    return this.side * this.side;\n  }\n}\n\nexport function totalArea(shapes: Shape[]): number {\n  return shapes.reduce((sum, shape) => sum + shape.area(), 0);\n}\n',
    );
    file(
      'src/main.ts',
      "import { Square, totalArea } from './shapes.js';\n\nexport const total = totalArea([new Square(2), new Square(3)]);\n",
    );
    file(
      'src/report.ts',
      "import { totalArea } from './shapes.js';\n\nexport const report = (n: number): string => `total ${totalArea([])} ${n}`;\n",
    );
    file('py/pyproject.toml', '[project]\nname = "demo"\n');
    file(
      'py/calc.py',
      'def add(a: int, b: int) -> int:\n    return a + b\n\n\nresult = add(1, 2)\n',
    );
    sandbox = await realSandbox(temp.dir, ws);
    family = lspFamily({
      workspace: ws,
      sandbox,
      logger: toolContext(ws, sandbox).logger,
      path: process.env.PATH,
      node: process.execPath,
    });
    registry = new ToolRegistry([...family.wrapWrites(coreTools()), ...family.tools]);
  });
  afterAll(async () => {
    await family.dispose();
    await sandbox.dispose();
    temp.cleanup();
  });

  it('definition, type_definition, implementation, references and hover', async () => {
    const main = path.join(ws, 'src/main.ts');
    const definition = await call('lsp', {
      action: 'definition',
      file: path.join(ws, 'src/shapes.ts'),
      line: 13,
      symbol: 'area',
    });
    expect(definition.text, definition.text).toContain('src/shapes.ts:2: area(): number;');
    const references = await call('lsp', {
      action: 'references',
      file: path.join(ws, 'src/shapes.ts'),
      line: 12,
      symbol: 'totalArea',
    });
    expect(references.text).toMatch(/\[\d+ location\(s\)\]/);
    expect(references.text, references.text).toContain('src/report.ts:3:');
    const hover = await call('lsp', { action: 'hover', file: main, line: 3, symbol: 'totalArea' });
    expect(hover.text).toContain('totalArea(shapes: Shape[]): number');
    const implementation = await call('lsp', {
      action: 'implementation',
      file: path.join(ws, 'src/shapes.ts'),
      line: 1,
      symbol: 'Shape',
    });
    expect(implementation.text).toContain('src/shapes.ts:5: export class Square implements Shape');
    const typeDefinition = await call('lsp', {
      action: 'type_definition',
      file: main,
      line: 3,
      symbol: 'total',
    });
    expect(typeDefinition.isError).toBe(false);
  });

  it('symbols of a file and of the workspace', async () => {
    const outline = await call('lsp', { action: 'symbols', file: path.join(ws, 'src/shapes.ts') });
    expect(outline.text).toContain('Square');
    expect(outline.text).toContain('area');
    const search = await call('lsp', { action: 'symbols', query: 'totalArea' });
    expect(search.text).toContain('totalArea');
  });

  it('positions are line + symbol: a missing or absent symbol shows the line', async () => {
    const main = path.join(ws, 'src/main.ts');
    expect((await call('lsp', { action: 'definition', file: main, line: 3 })).text).toMatch(
      /give symbol: .* which reads: export const total/,
    );
    expect(
      (await call('lsp', { action: 'definition', file: main, line: 3, symbol: 'nope' })).text,
    ).toMatch(/"nope" is not on line 3, which reads: export const total/);
    expect(
      (await call('lsp', { action: 'hover', file: main, line: 99, symbol: 'x' })).text,
    ).toMatch(/line 99 is past the end: the file has 4 lines/);
    expect(
      (await call('lsp', { action: 'hover', file: '/etc/passwd', line: 1, symbol: 'root' }))
        .isError,
    ).toBe(true);
  });

  it('a write that introduces one error reports exactly it; the same error moved down reports nothing new', async () => {
    const target = file('src/broken.ts', 'export const ok = 1;\n');
    const first = await call('edit', {
      path: target,
      old: 'export const ok = 1;',
      new: 'export const ok = 1;\nexport const bad: number = "text";',
    });
    expect(first.isError).toBe(false);
    expect(first.text).toMatch(
      /This write introduced 1 new diagnostic\(s\):\nsrc\/broken\.ts:2: error 2322: Type 'string' is not assignable to type 'number'\./,
    );
    const moved = await call('edit', {
      path: target,
      old: 'export const ok = 1;\n',
      new: 'export const ok = 1;\n\n\n\n\n',
    });
    expect(moved.text).not.toMatch(/new diagnostic/);
    const elsewhere = await call('write', { path: path.join(ws, 'README.md'), content: '# hi\n' });
    expect(elsewhere.text).toBe('wrote README.md (2 lines)');
  });

  it('code actions offer the missing import', async () => {
    const target = file('src/needs-import.ts', 'export const s = new Square(1);\n');
    const actions = await call('lsp', {
      action: 'code_actions',
      file: target,
      line: 1,
      symbol: 'Square',
    });
    expect(actions.text).toMatch(/Add import from "\.\/shapes(\.js)?"/);
  });

  it('renames across three files through the write path', async () => {
    const result = await call('lsp_rename', {
      file: path.join(ws, 'src/shapes.ts'),
      line: 12,
      symbol: 'totalArea',
      new_name: 'sumOfAreas',
    });
    expect(result.isError, result.text).toBe(false);
    expect(result.text).toMatch(/renamed totalArea to sumOfAreas: \d+ edit\(s\) in 3 file\(s\)/);
    for (const name of ['src/shapes.ts', 'src/main.ts', 'src/report.ts'])
      expect(readFileSync(path.join(ws, name), 'utf8')).toContain('sumOfAreas');
  });

  it('pyright serves the Python project', async () => {
    const calc = path.join(ws, 'py/calc.py');
    const hover = await call('lsp', { action: 'hover', file: calc, line: 5, symbol: 'add' });
    expect(hover.text).toMatch(/def add\(\s*a: int,\s*b: int\s*\) -> int/);
    const written = await call('edit', {
      path: calc,
      old: 'result = add(1, 2)',
      new: 'result = add(1, "2")',
    });
    expect(written.text).toMatch(/new diagnostic\(s\):\npy\/calc\.py:5: error/);
  });

  it('project diagnostics run the checker in the sandbox', async () => {
    const result = await call('lsp', { action: 'diagnostics', file: '*' });
    expect(result.text).toMatch(/typescript \(exit \d+\): \d+ problem line\(s\)/);
    expect(result.text).toContain('TS2322');
  });

  it('status says which servers run and why one cannot: no binary, no root marker', async () => {
    const status = await call('lsp', { action: 'status' });
    expect(status.text).toMatch(/typescript: running for \./);
    expect(status.text).toMatch(/rust: unavailable — rust: no root marker \(Cargo\.toml\)/);
    file('go.mod', 'module demo\n');
    const noPath = lspFamily({
      workspace: ws,
      sandbox,
      logger: toolContext(ws, sandbox).logger,
      path: '',
      node: process.execPath,
    });
    const bare = await noPath.tools[0]?.run(
      { action: 'status' },
      toolContext(ws, sandbox),
      new AbortController().signal,
    );
    expect(resultText(bare ?? { content: [], isError: true })).toMatch(
      /go: unavailable — go: root \. found, but gopls is not on PATH/,
    );
    await noPath.dispose();
  });

  it('a server that floods diagnostics is capped', async () => {
    const flood = file(
      'src/flood.ts',
      Array.from({ length: 500 }, (_, i) => `export const v${i}: number = 'x';`).join('\n'),
    );
    const result = await call('lsp', { action: 'diagnostics', file: flood });
    expect(result.text).toMatch(/\[200 diagnostic\(s\)\]$/);
  });

  it('a server that hangs times out and is restarted', async () => {
    const hung = lspFamily({
      workspace: ws,
      sandbox,
      logger: toolContext(ws, sandbox).logger,
      path: process.env.PATH,
      node: process.execPath,
      requestTimeoutMs: 3000,
    });
    const hungRegistry = new ToolRegistry(hung.tools);
    const ask = async () =>
      resultText(
        await hungRegistry.call(
          'lsp',
          { action: 'hover', file: path.join(ws, 'src/main.ts'), line: 3, symbol: 'total' },
          toolContext(ws, sandbox),
          new AbortController().signal,
          { levels: TOOL_LEVELS },
        ),
      );
    expect(await ask()).toContain('total');
    const started = await hung.supervisor.serverFor(path.join(ws, 'src/main.ts'));
    if ('reason' in started || started.server.pid === undefined) throw new Error('no server');
    // Freeze only this family's server (and its sandbox): requests now get no answer.
    const frozen = descendants(started.server.pid);
    const signal = (name: NodeJS.Signals): void => {
      for (const pid of frozen) {
        try {
          process.kill(pid, name);
        } catch {
          // gone already
        }
      }
    };
    signal('SIGSTOP');
    try {
      expect(await ask()).toMatch(/did not answer .* it was restarted: try again/);
    } finally {
      signal('SIGCONT');
    }
    expect(await ask()).toContain('total');
    await hung.dispose();
  });

  it('a server that exits at once (a launcher without its binary) ends the wait and says why', async () => {
    // rustup's proxy when the rust-analyzer component is not installed: on PATH, and exits at once.
    const launcher = file(
      'rs/bin/rust-analyzer',
      "#!/bin/sh\necho \"error: Unknown binary 'rust-analyzer' in official toolchain 'stable'\" >&2\nexit 1\n",
    );
    chmodSync(launcher, 0o755);
    file('rs/Cargo.toml', '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n');
    const lib = file('rs/src/lib.rs', 'pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n');
    // Requests wait far longer than this test may: only the server's exit can end them in time.
    const rust = lspFamily({
      workspace: ws,
      sandbox,
      logger: toolContext(ws, sandbox).logger,
      path: `${path.dirname(launcher)}:${process.env.PATH ?? ''}`,
      node: process.execPath,
      requestTimeoutMs: 600_000,
    });
    const rustRegistry = new ToolRegistry([...rust.wrapWrites(coreTools()), ...rust.tools]);
    const rustCall = async (name: string, input: unknown) =>
      resultText(
        await rustRegistry.call(
          name,
          input,
          toolContext(ws, sandbox),
          new AbortController().signal,
          {
            levels: TOOL_LEVELS,
          },
        ),
      );
    // The write is made and answered; no diagnostics could be had.
    expect(await rustCall('edit', { path: lib, old: 'a - b', new: 'a + b' })).not.toMatch(
      /diagnostic/,
    );
    expect(readFileSync(lib, 'utf8')).toContain('a + b');
    const diagnostics = await rustCall('lsp', { action: 'diagnostics', file: lib });
    expect(diagnostics).toMatch(
      /the rust server failed to start: the rust server exited \(exit 1\): error: Unknown binary 'rust-analyzer'/,
    );
    await rust.dispose();
  }, 60_000);

  it('a crashed server is restarted once and the result says so', async () => {
    await call('lsp', {
      action: 'hover',
      file: path.join(ws, 'src/shapes.ts'),
      line: 5,
      symbol: 'Square',
    });
    const running = await family.supervisor.serverFor(path.join(ws, 'src/shapes.ts'));
    if ('reason' in running || running.server.pid === undefined) throw new Error('no server');
    // Kill only this test's server: its sandbox's process group.
    process.kill(-running.server.pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const hover = await call('lsp', {
      action: 'hover',
      file: path.join(ws, 'src/main.ts'),
      line: 3,
      symbol: 'sumOfAreas',
    });
    expect(hover.text).toMatch(/server had crashed and was restarted/);
    expect(hover.text).toContain('sumOfAreas');
  });
});
