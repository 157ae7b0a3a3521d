import path from 'node:path';
import type { Logger } from '../../src/logger.ts';
import { resolveInsideWorkspace } from '../../src/workspace/repo/paths.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { whichIn } from '../../src/util/which.ts';
import { defineTool, fail, ok, type ToolFamily, type ToolResult } from '../types.ts';
import { adapterSpecs, routeAdapter } from './adapters.ts';
import { DapTimeoutError } from './dap-client.ts';
import { DebugInput } from './input.ts';
import { SESSION_OPS } from './ops.ts';
import { DebugSession, setBreakpoints, type BreakpointReport } from './session.ts';

export const SESSION_TTL_MS = 30 * 60_000;
/** A location the failure report names: the tool's description points the model at it. */
export interface DebugHint {
  readonly file: string;
  readonly line: number;
  readonly test?: string;
}

/**
 * The debug family for one job: the `debug` tool driving one DAP session at a
 * time (hard 30-minute TTL), adapters started in the job's sandbox, and
 * everything torn down when the job ends.
 */
export const debugFamily = (options: {
  workspace: string;
  sandbox: Sandbox;
  logger: Logger;
  path: string | undefined;
  node: string;
  hints?: readonly DebugHint[];
  requestTimeoutMs?: number;
  ttlMs?: number;
  defaultWaitMs?: number;
}): ToolFamily => {
  const specs = adapterSpecs(whichIn(options.path), options.path, options.node);
  const breakpoints = new Map<string, number[]>();
  const ttlMs = options.ttlMs ?? SESSION_TTL_MS;
  const waitMs = options.defaultWaitMs ?? 15_000;
  let session: DebugSession | undefined;
  let ttl: NodeJS.Timeout | undefined;
  let endedWhy: string | undefined;

  const teardown = async (why: string): Promise<void> => {
    if (ttl) clearTimeout(ttl);
    ttl = undefined;
    const current = session;
    session = undefined;
    endedWhy = why;
    await current?.dispose();
  };

  const live = (): DebugSession | undefined =>
    session && session.state !== 'exited' ? session : undefined;

  const pathIn = (
    value: string | undefined,
    what: string,
  ): { ok: true; path: string } | { ok: false; why: string } => {
    if (!value) return { ok: false, why: `${what} is required` };
    const resolved = resolveInsideWorkspace(options.workspace, value);
    return resolved.ok
      ? { ok: true, path: resolved.path }
      : { ok: false, why: `${what}: ${resolved.error}` };
  };

  const reportBreakpoints = (reports: readonly BreakpointReport[]): string =>
    reports
      .map((r) =>
        r.verified
          ? `${path.relative(options.workspace, r.file)}:${r.requested} verified${r.line !== undefined && r.line !== r.requested ? ` (moved to line ${r.line})` : ''}`
          : `${path.relative(options.workspace, r.file)}:${r.requested} unverified${r.message ? `: ${r.message}` : ' (the adapter found no code there yet)'}`,
      )
      .join('\n');

  const run = async (input: DebugInput, signal: AbortSignal): Promise<ToolResult> => {
    switch (input.op) {
      case 'adapters': {
        const lines = await Promise.all(
          specs.map(async (spec) => {
            const command = await spec.command(options.workspace, options.sandbox);
            const state =
              'missing' in command
                ? `unavailable — ${command.missing}`
                : `available${command.note ? ` (${command.note})` : ''}`;
            return `${spec.name}: ${state} (root markers: ${spec.rootMarkers.join(', ')})`;
          }),
        );
        return ok(lines.join('\n'));
      }
      case 'status': {
        const s = live();
        const pending = [...breakpoints].map(
          ([f, l]) => `${path.relative(options.workspace, f)}: ${l.join(', ')}`,
        );
        return ok(
          [
            s
              ? `session: ${s.spec.name} on ${path.relative(options.workspace, s.program)} — ${await s.describe()}`
              : `no session${endedWhy ? ` (the last one ended: ${endedWhy})` : ''}`,
            pending.length > 0 ? `breakpoints:\n${pending.join('\n')}` : 'no breakpoints',
          ].join('\n'),
        );
      }
      case 'breakpoints': {
        const file = pathIn(input.file, 'file');
        if (!file.ok) return fail(file.why);
        const lines = input.lines ?? [];
        if (lines.length === 0) breakpoints.delete(file.path);
        else breakpoints.set(file.path, [...new Set(lines)]);
        const s = live();
        if (!s)
          return ok(
            lines.length === 0
              ? 'cleared (no session yet)'
              : `set ${lines.length} breakpoint(s); they apply at launch`,
          );
        return ok(
          lines.length === 0
            ? 'cleared'
            : reportBreakpoints(await setBreakpoints(s.client, file.path, lines)),
        );
      }
      case 'launch':
      case 'attach': {
        if (live())
          return fail('a debug session is already running: terminate it before launching another');
        if (input.op === 'attach')
          return fail(
            'attach needs a program already listening under a debugger in the same sandbox; regreen runs every command in a sandbox of its own, so launch the program with op launch instead',
          );
        const program = pathIn(input.program, 'program');
        if (!program.ok) return fail(program.why);
        const route = await routeAdapter(
          specs,
          options.workspace,
          options.sandbox,
          program.path,
          input.adapter,
        );
        if (!route.ok) return fail(route.reason);
        try {
          const started = await DebugSession.start({
            spec: route.spec,
            argv: route.argv,
            sandbox: options.sandbox,
            workspace: options.workspace,
            root: route.root,
            program: program.path,
            args: input.args,
            breakpoints,
            requestTimeoutMs: options.requestTimeoutMs ?? 15_000,
            launchTimeoutMs: 120_000,
          });
          session = started.session;
          endedWhy = undefined;
          ttl = setTimeout(
            () =>
              void teardown(`the session passed its ${Math.round(ttlMs / 60_000)}-minute limit`),
            ttlMs,
          );
          ttl.unref();
          const where = await started.session.settle(
            -1,
            (input.wait_seconds ?? waitMs / 1000) * 1000,
          );
          return ok(
            [
              `launched ${path.relative(options.workspace, program.path)} under ${route.spec.name}`,
              started.breakpoints.length > 0
                ? reportBreakpoints(started.breakpoints)
                : 'no breakpoints set',
              where,
            ].join('\n'),
          );
        } catch (error) {
          return fail(`launch failed: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      case 'terminate': {
        if (!session) return ok('no session to end');
        const output = session.output();
        await teardown('terminated');
        return ok(`session ended${output ? `; its output:\n${output}` : ''}`);
      }
      default:
        break;
    }
    const s = session;
    if (!s)
      return fail(
        `no debug session${endedWhy ? ` (the last one ended: ${endedWhy})` : ''}: launch one first`,
      );
    if (input.op === 'output') {
      await s.settled();
      return ok(s.output() || '(no output yet)');
    }
    if (s.state === 'exited') {
      return fail(`${await s.describe()}; output:\n${s.output() || '(none)'}`);
    }
    signal.throwIfAborted();
    const op = SESSION_OPS[input.op];
    return op ? op(s, input, waitMs) : fail(`unknown op ${String(input.op)}`);
  };

  const hintText =
    options.hints && options.hints.length > 0
      ? ` The failure report names ${options.hints
          .slice(0, 3)
          .map((h) => `${h.file}:${h.line}${h.test ? ` (${h.test})` : ''}`)
          .join(', ')}: you can set a breakpoint there and launch the test file.`
      : '';

  const debugTool = defineTool({
    name: 'debug',
    level: 'exec',
    exclusive: true,
    description: `Drive a real debugger (Debug Adapter Protocol) inside the sandbox: debugpy for Python, delve for Go, lldb for native executables, dart. Set breakpoints (op breakpoints, file + lines, before or after launch), launch a program (op launch, program + args: it runs to the first breakpoint), then inspect: stack (30 frames), scopes (frame_id), variables (reference; 50 children, values cut at 400 chars), evaluate (expression in a frame), threads, output. continue / step_over / step_in / step_out return when the program stops again, exits, or wait_seconds pass, saying which and where. pause stops a running program (an infinite loop). One session at a time, ended by terminate or after 30 minutes; op adapters says which debuggers are usable here.${hintText}`,
    schema: DebugInput,
    run: async (input, _ctx, signal) => {
      try {
        return await run(input, signal);
      } catch (error) {
        if (error instanceof DapTimeoutError) {
          await teardown(error.message);
          return fail(
            `${error.message}: the session was torn down (adapter and program killed); launch again`,
          );
        }
        return fail(
          `${input.op} failed: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
    },
  });

  return { tools: [debugTool], dispose: () => teardown('the job ended') };
};
