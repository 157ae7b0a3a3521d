import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { silentLogger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { debugFamily } from '../../tools/debug/index.ts';
import { resultText, type ToolResult } from '../../tools/types.ts';
import { realSandbox, toolContext } from '../support/tool-context.ts';
import { makeTempDir } from '../support/tmp.ts';

const BUGGY = `def average(values):
    total = 0
    for value in values:
        total += value

    return total / (len(values) + 1)


if __name__ == "__main__":
    result = average([2, 4, 6])
    print("average", result)
`;

const LOOP = `n = 0
while True:
    n += 1
`;

const GO_MAIN = `package main

import "fmt"

func sum(values []int) int {
	total := 0
	for _, v := range values {
		total += v
	}
	return total
}

func main() {
	fmt.Println("sum", sum([]int{1, 2, 3}))
}
`;

const C_MAIN = `#include <stdio.h>

int square(int x) {
    int result = x * x;
    return result;
}

int main(void) {
    printf("square %d\\n", square(7));
    return 0;
}
`;

/** No process of this test's workspace is left running. */
const leftovers = (marker: string): string =>
  spawnSync('pgrep', ['-af', marker], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter((line) => line.trim() && !line.includes('pgrep'))
    .join('\n');

describe('debug: a DAP client on real adapters in the sandbox', () => {
  const temp = makeTempDir('regreen-debug-');
  const workspace = path.join(temp.dir, 'ws');
  let sandbox: Sandbox;
  let family: ReturnType<typeof debugFamily>;
  let debug: (input: Record<string, unknown>) => Promise<ToolResult>;
  const text = (r: ToolResult): string => resultText(r);
  const file = (name: string): string => path.join(workspace, name);

  beforeAll(async () => {
    mkdirSync(workspace, { recursive: true });
    writeFileSync(file('pyproject.toml'), '[project]\nname = "demo"\nversion = "0.1"\n');
    writeFileSync(file('buggy.py'), BUGGY);
    writeFileSync(file('loop.py'), LOOP);
    writeFileSync(file('crash.py'), 'def boom():\n    raise ValueError("kaboom")\n\nboom()\n');
    execFileSync('/usr/bin/python3', ['-m', 'venv', '--system-site-packages', file('.venv')]);
    sandbox = await realSandbox(temp.dir, workspace);
    const ctx = toolContext(workspace, sandbox);
    family = debugFamily({
      workspace,
      sandbox,
      logger: silentLogger(),
      path: process.env.PATH,
      node: process.execPath,
      requestTimeoutMs: 4000,
      hints: [{ file: 'buggy.py', line: 6, test: 'test_average' }],
    });
    const registry = new ToolRegistry(family.tools);
    debug = (input) =>
      registry.call('debug', input, ctx, new AbortController().signal, { levels: TOOL_LEVELS });
  });
  // A failed test must not leave its session to the next one.
  afterEach(async () => {
    await debug({ op: 'terminate' });
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [] });
  });
  afterAll(async () => {
    await family?.dispose();
    await sandbox?.dispose();
    temp.cleanup();
  });

  it('says which adapters are usable, and the description points at the failing line', async () => {
    const adapters = text(await debug({ op: 'adapters' }));
    expect(adapters).toMatch(/debugpy: available/);
    expect(adapters).toMatch(/dart: unavailable — dart is not on PATH/);
    expect(family.tools[0]?.description).toMatch(/buggy\.py:6 \(test_average\)/);
  });

  it('python: break in the function, stack, scopes, variables, evaluate, step, continue to exit', async () => {
    const set = await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [6] });
    expect(text(set)).toMatch(/apply at launch/);
    const launched = await debug({ op: 'launch', program: file('buggy.py') });
    expect(launched.isError, text(launched)).toBe(false);
    expect(text(launched)).toMatch(/buggy\.py:6 verified/);
    expect(text(launched)).toMatch(/stopped at .*buggy\.py:6 in average \(breakpoint\)/);
    const stack = text(await debug({ op: 'stack' }));
    expect(stack).toMatch(/^#(\d+) average at .*buggy\.py:6$/m);
    expect(stack).toMatch(/<module> at .*buggy\.py:10/);
    const frame = Number(/^#(\d+) average/m.exec(stack)?.[1]);
    const scopes = text(await debug({ op: 'scopes', frame_id: frame }));
    const locals = Number(/Locals: reference (\d+)/.exec(scopes)?.[1]);
    expect(locals).toBeGreaterThan(0);
    const variables = text(await debug({ op: 'variables', reference: locals }));
    expect(variables).toMatch(/^total \(int\) = 12$/m);
    expect(variables).toMatch(/^values \(list\) = \[2, 4, 6\] \[reference \d+\]$/m);
    expect(text(await debug({ op: 'evaluate', expression: 'len(values) + 1' }))).toBe('4 (int)');
    const stepped = await debug({ op: 'step_over' });
    expect(text(stepped)).toMatch(/stopped at .*buggy\.py:1[01] in <module> \(step\)/);
    const second = await debug({ op: 'launch', program: file('buggy.py') });
    expect(second.isError).toBe(true);
    expect(text(second)).toMatch(/already running/);
    const done = await debug({ op: 'continue' });
    expect(text(done)).toMatch(/exited with code 0/);
    expect(text(await debug({ op: 'output' }))).toMatch(/average 3\.0/);
    await debug({ op: 'terminate' });
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [] });
  }, 60_000);

  it('reports a breakpoint on a line with no code as the adapter does', async () => {
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [5] });
    const launched = text(await debug({ op: 'launch', program: file('buggy.py') }));
    expect(launched).toMatch(/buggy\.py:5 (unverified|verified \(moved to line \d+\))/);
    await debug({ op: 'terminate' });
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [] });
  }, 60_000);

  it('pauses an infinite loop; refuses ops that need a stopped program while it runs', async () => {
    const launched = await debug({ op: 'launch', program: file('loop.py'), wait_seconds: 1 });
    expect(text(launched)).toMatch(/running/);
    const stack = await debug({ op: 'stack' });
    expect(stack.isError).toBe(true);
    expect(text(stack)).toMatch(/the program is running: pause it first/);
    const paused = await debug({ op: 'pause' });
    expect(text(paused)).toMatch(/stopped at .*loop\.py:[23] in <module> \(pause\)/);
    expect(text(await debug({ op: 'evaluate', expression: 'n > 0' }))).toMatch(/^True/);
    expect(text(await debug({ op: 'terminate' }))).toMatch(/session ended/);
  }, 60_000);

  it('a crashing debuggee exits with its error in the output', async () => {
    const launched = text(await debug({ op: 'launch', program: file('crash.py') }));
    expect(launched).toMatch(/exited with code 1|stopped at .*crash\.py:2/);
    if (/stopped/.test(launched)) await debug({ op: 'continue' });
    expect(text(await debug({ op: 'output' }))).toMatch(/ValueError: kaboom/);
    await debug({ op: 'terminate' });
  }, 60_000);

  it('an adapter that stops answering is torn down with a clear error', async () => {
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [6] });
    await debug({ op: 'launch', program: file('buggy.py') });
    const hung = await debug({ op: 'evaluate', expression: '__import__("time").sleep(30)' });
    expect(hung.isError).toBe(true);
    expect(text(hung)).toMatch(/did not answer evaluate within 4 s: the session was torn down/);
    expect(text(await debug({ op: 'status' }))).toMatch(
      /no session \(the last one ended: the debug adapter did not answer/,
    );
    await debug({ op: 'breakpoints', file: file('buggy.py'), lines: [] });
    expect(leftovers(file('buggy.py'))).toBe('');
  }, 60_000);

  it('refuses a program that does not exist, or outside the workspace', async () => {
    expect(text(await debug({ op: 'launch', program: file('nope.py') }))).toMatch(
      /launch failed: the program does not exist/,
    );
    expect((await debug({ op: 'launch', program: '/etc/passwd' })).isError).toBe(true);
    expect(text(await debug({ op: 'launch', program: file('pyproject.toml') }))).toMatch(
      /no debug adapter handles pyproject\.toml/,
    );
  });

  it('ends a session at its TTL, and nothing is left running after dispose', async () => {
    const short = debugFamily({
      workspace,
      sandbox,
      logger: silentLogger(),
      path: process.env.PATH,
      node: process.execPath,
      ttlMs: 1500,
    });
    const registry = new ToolRegistry(short.tools);
    const call = (input: Record<string, unknown>) =>
      registry.call('debug', input, toolContext(workspace, sandbox), new AbortController().signal, {
        levels: TOOL_LEVELS,
      });
    await call({ op: 'launch', program: file('loop.py'), wait_seconds: 0.5 });
    await new Promise((r) => setTimeout(r, 2500));
    expect(text(await call({ op: 'status' }))).toMatch(
      /passed its 0-minute limit|passed its \d+-minute limit/,
    );
    await call({ op: 'launch', program: file('loop.py'), wait_seconds: 0.5 });
    await short.dispose();
    await new Promise((r) => setTimeout(r, 500));
    expect(leftovers(file('loop.py'))).toBe('');
  }, 60_000);

  // ptrace-based debuggers in the bubblewrap sandbox: one PID namespace, regreen's own seccomp filter.
  it('go through delve and c through lldb, in the sandbox', async () => {
    mkdirSync(path.join(workspace, 'go'), { recursive: true });
    mkdirSync(path.join(workspace, 'c'), { recursive: true });
    writeFileSync(file('go/go.mod'), 'module example.com/demo\n\ngo 1.19\n');
    writeFileSync(file('go/main.go'), GO_MAIN);
    writeFileSync(file('c/CMakeLists.txt'), 'project(demo C)\nadd_executable(demo main.c)\n');
    writeFileSync(file('c/main.c'), C_MAIN);
    execFileSync('gcc', ['-g', '-O0', '-o', file('c/demo'), file('c/main.c')]);
    const call = async (input: Record<string, unknown>) => text(await debug(input));
    try {
      expect(await call({ op: 'adapters' })).toMatch(/delve: available[\s\S]*lldb: available/);
      await call({ op: 'breakpoints', file: file('go/main.go'), lines: [10] });
      expect(await call({ op: 'launch', program: file('go'), wait_seconds: 90 })).toMatch(
        /stopped at .*main\.go:10 in main\.sum \(breakpoint\)/,
      );
      expect(await call({ op: 'evaluate', expression: 'total' })).toMatch(/^6 \(int\)/);
      expect(await call({ op: 'continue' })).toMatch(/exited/);
      expect(await call({ op: 'output' })).toMatch(/sum 6/);
      await call({ op: 'terminate' });
      await call({ op: 'breakpoints', file: file('go/main.go'), lines: [] });
      await call({ op: 'breakpoints', file: file('c/main.c'), lines: [5] });
      expect(await call({ op: 'launch', program: file('c/demo') })).toMatch(
        /stopped at .*main\.c:5 in square/,
      );
      expect(await call({ op: 'evaluate', expression: 'result' })).toMatch(/^49/);
      expect(await call({ op: 'continue' })).toMatch(/exited with code 0/);
      expect(await call({ op: 'output' })).toMatch(/square 49/);
    } finally {
      await call({ op: 'breakpoints', file: file('c/main.c'), lines: [] });
    }
  }, 180_000);
});
