import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { kernelFamily } from '../../tools/kernels/index.ts';
import { rewriteIPython } from '../../tools/kernels/rewrite.ts';
import { coreTools } from '../../tools/index.ts';
import { resultText, type Tool, type ToolResult } from '../../tools/types.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';
import { makeTempDir } from '../support/tmp.ts';

/** Debian's packages (pandas, matplotlib) are for /usr/bin/python3: the project's venv sees them. */
const SYSTEM_PYTHON = '/usr/bin/python3';

/** A wheel built by hand: the smallest installable package. */
const writeWheel = (dir: string): string => {
  const file = path.join(dir, 'regreen_demo-0.1-py3-none-any.whl');
  execFileSync(SYSTEM_PYTHON, [
    '-c',
    `import zipfile
z = zipfile.ZipFile(${JSON.stringify(file)}, 'w')
z.writestr('regreen_demo/__init__.py', 'ANSWER = 42\\n')
z.writestr('regreen_demo-0.1.dist-info/METADATA', 'Metadata-Version: 2.1\\nName: regreen-demo\\nVersion: 0.1\\n')
z.writestr('regreen_demo-0.1.dist-info/WHEEL', 'Wheel-Version: 1.0\\nGenerator: hand\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n')
z.writestr('regreen_demo-0.1.dist-info/RECORD', '')
z.close()`,
  ]);
  return file;
};

describe('eval: persistent kernels in the sandbox', () => {
  const temp = makeTempDir();
  const workspace = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;
  let call: (input: Record<string, unknown>) => Promise<ToolResult>;
  let family: ReturnType<typeof kernelFamily>;
  let bridgeDelayMs = 0;

  beforeAll(async () => {
    mkdirSync(path.join(workspace, 'data'), { recursive: true });
    writeFileSync(path.join(workspace, 'data', 'prices.csv'), 'item,price\napple,3\npear,5\n');
    writeFileSync(path.join(workspace, 'notes.txt'), 'hello from the workspace\n');
    writeFileSync(
      path.join(workspace, 'package.json'),
      JSON.stringify({ name: 'ws', type: 'commonjs' }),
    );
    writeFileSync(path.join(workspace, 'lib.js'), 'module.exports = { twice: (n) => n * 2 };\n');
    execFileSync(SYSTEM_PYTHON, [
      '-m',
      'venv',
      '--system-site-packages',
      path.join(workspace, '.venv'),
    ]);
    writeWheel(workspace);
    sandbox = await realSandbox(temp.dir, workspace);
    const ctx = toolContext(workspace, sandbox);
    const filter = { levels: TOOL_LEVELS, disabled: ['write'] };
    const registry: { current?: ToolRegistry } = {};
    family = kernelFamily({
      workspace,
      sandbox,
      node: process.execPath,
      logger: silentLogger(),
      cellBudgetMs: 4000,
      bridge: async (name, input, signal) => {
        if (bridgeDelayMs > 0) await new Promise((r) => setTimeout(r, bridgeDelayMs));
        return registry.current?.call(name, input, ctx, signal, filter) as Promise<ToolResult>;
      },
    });
    registry.current = new ToolRegistry([...coreTools(), ...family.tools] as Tool[]);
    call = (input) =>
      (registry.current as ToolRegistry).call(
        'eval',
        { description: 'a cell run by the eval test suite', ...input },
        ctx,
        new AbortController().signal,
        filter,
      );
  });
  afterAll(async () => {
    await family?.dispose();
    await sandbox?.dispose();
    temp.cleanup();
  });

  const text = (result: ToolResult): string => resultText(result);

  describe('python', () => {
    it('keeps state across cells and echoes the last expression', async () => {
      const first = await call({ code: 'x = 40\nprint("set")' });
      expect(first.isError, text(first)).toBe(false);
      expect(text(first)).toBe('set');
      const second = await call({ code: 'x + 2' });
      expect(text(second)).toBe('42');
      expect(text(await call({ code: 'import sys\nsys.executable' }))).toMatch(
        /\.venv\/bin\/python/,
      );
    });

    it('requires a 5 to 10 word description', async () => {
      const result = await call({ code: '1', description: 'too short' });
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/5 to 10 words/);
    });

    it('renders a DataFrame as a table and a figure as a PNG image block', async () => {
      const frame = await call({
        code: 'import pandas as pd\ndf = pd.read_csv("data/prices.csv")\ndf',
      });
      expect(frame.isError, text(frame)).toBe(false);
      expect(text(frame)).toMatch(/item\s+price\n0\s+apple\s+3\n1\s+pear\s+5/);
      const figure = await call({
        code: 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3], [1, 4, 9])\nplt.title("squares")',
      });
      expect(figure.isError, text(figure)).toBe(false);
      const image = figure.content.find((block) => block.type === 'image');
      expect(image?.type).toBe('image');
      if (image?.type !== 'image') return;
      expect(image.source.media_type).toBe('image/png');
      const png = Buffer.from(image.source.data, 'base64');
      expect(png.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
      expect(png.length).toBeGreaterThan(1000);
      const shown = await call({ code: 'display({"a": 1}, [1, 2])' });
      expect(text(shown)).toBe("{'a': 1}\n[1, 2]");
    });

    it('rewrites the IPython idioms: !cmd, %%bash, %cd, %timeit, %%timeit, %pip', async () => {
      expect(text(await call({ code: '!echo shell says hi' }))).toBe('shell says hi');
      expect(text(await call({ code: '%%bash\nfor i in 1 2; do echo "n=$i"; done' }))).toBe(
        'n=1\nn=2',
      );
      expect(text(await call({ code: '%cd data\nimport os\nos.listdir(".")' }))).toMatch(
        /\/data\n\['prices.csv'\]/,
      );
      await call({ code: '%cd ..' });
      expect(text(await call({ code: '%timeit sum(range(100))' }))).toMatch(
        /per loop \(best of 5 runs, \d+ loops each\)/,
      );
      expect(text(await call({ code: '%%timeit\ny = [i * i for i in range(50)]' }))).toMatch(
        /per loop/,
      );
      const missing = await call({ code: 'import regreen_demo' });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toMatch(/ModuleNotFoundError/);
      const pip = await call({
        code: '%pip install --no-index --no-deps ./regreen_demo-0.1-py3-none-any.whl',
      });
      expect(text(pip)).toMatch(/Successfully installed regreen-demo/);
      expect(text(await call({ code: 'import regreen_demo\nregreen_demo.ANSWER' }))).toBe('42');
      const unknown = await call({ code: '%matplotlib inline' });
      expect(unknown.isError).toBe(true);
      expect(text(unknown)).toMatch(/%matplotlib is not supported/);
    });

    it('reaches the job tools through the bridge, with their guards', async () => {
      const read = await call({
        code: `content = tool("read", {"path": ${JSON.stringify(path.join(workspace, 'notes.txt'))}})\nprint(content)`,
      });
      expect(read.isError, text(read)).toBe(false);
      expect(text(read)).toMatch(/1\s+hello from the workspace/);
      const edited = await call({
        code: `tool("edit", {"path": ${JSON.stringify(path.join(workspace, 'notes.txt'))}, "old": "hello", "new": "goodbye"})`,
      });
      expect(edited.isError, text(edited)).toBe(false);
      expect(readFileSync(path.join(workspace, 'notes.txt'), 'utf8')).toBe(
        'goodbye from the workspace\n',
      );
      const outside = await call({
        code: 'try:\n    tool("read", {"path": "/etc/passwd"})\nexcept ToolError as e:\n    print("refused:", e)',
      });
      expect(text(outside)).toMatch(/^refused: .*outside the workspace/);
      // `write` is withheld from this job: a cell cannot reach it either.
      const hidden = await call({
        code: `tool("write", {"path": ${JSON.stringify(path.join(workspace, 'x.txt'))}, "content": "x"})`,
      });
      expect(hidden.isError).toBe(true);
      expect(text(hidden)).toMatch(/ToolError: unknown tool "write"/);
      expect(existsSync(path.join(workspace, 'x.txt'))).toBe(false);
      const nested = await call({ code: 'tool("eval", {"code": "1"})' });
      expect(text(nested)).toMatch(/cannot be called from inside a cell/);
    });

    it('suspends the idle budget while a bridged call is pending', async () => {
      bridgeDelayMs = 6000; // longer than the 4 s budget
      try {
        const result = await call({
          code: `len(tool("read", {"path": ${JSON.stringify(path.join(workspace, 'notes.txt'))}}))`,
        });
        expect(result.isError, text(result)).toBe(false);
      } finally {
        bridgeDelayMs = 0;
      }
    }, 20_000);

    it('reports a syntax error and keeps the state', async () => {
      await call({ code: 'kept = "still here"' });
      const bad = await call({ code: 'def broken(:\n  pass' });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/SyntaxError/);
      expect(text(await call({ code: 'kept' }))).toBe("'still here'");
    });

    it('interrupts an infinite loop at the idle budget and keeps the state', async () => {
      const loop = await call({ code: 'while True:\n    pass' });
      expect(loop.isError).toBe(true);
      expect(text(loop)).toMatch(/interrupted/);
      expect(text(await call({ code: 'kept' }))).toBe("'still here'");
    }, 20_000);

    it('bounds 100 MB of output', async () => {
      const result = await call({ code: 'print("x" * 100_000_000)' });
      expect(result.isError, text(result).slice(0, 200)).toBe(false);
      expect(text(result).length).toBeLessThan(50_000);
      expect(text(result)).toMatch(/characters cut/);
    }, 30_000);

    it("a cell that writes an endless line on the driver's protocol pipe stops its kernel, not regreen", async () => {
      // Past the bound the host holds nothing more: it stops the kernel (the attack took the
      // host to 700 MB and a crash with readline).
      const before = process.memoryUsage().rss;
      const flooded = await call({
        code: 'import __main__, os\nfd = __main__.PROTO.fileno()\nfor _ in range(12):\n    os.write(fd, b"x" * (8 << 20))\n"wrote"',
      });
      expect(flooded.isError).toBe(true);
      expect(text(flooded)).toMatch(
        /stopped: it wrote a line of over \d+ MiB on its protocol pipe/,
      );
      expect(process.memoryUsage().rss - before).toBeLessThan(400 * 1024 * 1024);
      const fresh = await call({ code: '1 + 1' });
      expect(text(fresh)).toBe('2');
    }, 60_000);

    it('says the state was lost when the kernel dies, and starts fresh next time', async () => {
      const died = await call({ code: 'import os\nos._exit(3)' });
      expect(died.isError).toBe(true);
      expect(text(died)).toMatch(/exit code 3.*state was lost/s);
      const fresh = await call({ code: '"kept" in globals()' });
      expect(text(fresh)).toBe('False');
      const reset = await call({ code: 'after_reset = 1', reset: true });
      expect(reset.isError).toBe(false);
    });
  });

  describe('javascript', () => {
    const js = (code: string) => call({ code, language: 'javascript' });

    it('keeps state, echoes, awaits at top level, requires from the workspace', async () => {
      expect((await js('const base = 20; base')).isError).toBe(false);
      expect(text(await js('const base = 21; base * 2'))).toBe('42');
      expect(text(await js('const { twice } = require("./lib.js"); twice(base)'))).toBe('42');
      expect(
        text(
          await js(
            'const waited = await new Promise((r) => setTimeout(() => r(7), 50)); waited * 6',
          ),
        ),
      ).toBe('42');
      expect(text(await js('waited'))).toBe('7');
      expect(text(await js('const fs = await import("node:fs"); typeof fs.readFileSync'))).toBe(
        "'function'",
      );
      expect(text(await js('console.log("printed"); display({ a: 1 })'))).toBe('printed\n{ a: 1 }');
    });

    it('bridges tool calls and refuses paths outside the workspace', async () => {
      const read = await js(
        `const t = await tool("read", { path: ${JSON.stringify(path.join(workspace, 'notes.txt'))} }); t`,
      );
      expect(text(read)).toMatch(/goodbye from the workspace/);
      const refused = await js(
        'try { await tool("read", { path: "/etc/passwd" }) } catch (e) { console.log(e.name, e.message) }',
      );
      expect(text(refused)).toMatch(/^ToolError .*outside the workspace/);
    });

    it('reports syntax errors and interrupts an infinite loop, keeping the state', async () => {
      const bad = await js('const = 1');
      expect(bad.isError).toBe(true);
      expect(text(bad)).toMatch(/SyntaxError/);
      const loop = await js('for (;;) {}');
      expect(loop.isError).toBe(true);
      expect(text(loop)).toMatch(/interrupted/);
      expect(text(await js('base'))).toBe('21');
      const hang = await js('await new Promise(() => {})');
      expect(hang.isError).toBe(true);
      expect(text(hang)).toMatch(/interrupted/);
      expect(text(await js('base + 1'))).toBe('22');
    }, 30_000);
  });

  it('rewrites IPython idioms to plain Python', () => {
    expect(rewriteIPython('  !ls -la\nx = 1')).toBe('  __regreen_sh("ls -la")\nx = 1');
    expect(rewriteIPython('%%timeit import math\nmath.sqrt(2)')).toBe(
      '__regreen_timeit("math.sqrt(2)", "import math")',
    );
    expect(rewriteIPython('%timeit -n 10 -r 2 f()')).toBe('__regreen_timeit("f()")');
  });
});
