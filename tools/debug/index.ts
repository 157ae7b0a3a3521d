import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { z } from 'zod';
import type { Logger } from '../../src/logger.ts';
import { resolveInsideWorkspace } from '../../src/workspace/paths.ts';
import type { Sandbox } from '../../src/workspace/sandbox.ts';
import { whichIn } from '../../src/util/which.ts';
import { defineTool, fail, ok, type Tool, type ToolResult } from '../types.ts';
import { adapterSpecs, routeAdapter } from './adapters.ts';
import { DapTimeoutError } from './dap-client.ts';
import { DebugSession, setBreakpoints, type BreakpointReport } from './session.ts';

const OPS = [
  'adapters',
  'status',
  'breakpoints',
  'launch',
  'attach',
  'continue',
  'pause',
  'step_over',
  'step_in',
  'step_out',
  'threads',
  'stack',
  'scopes',
  'variables',
  'evaluate',
  'output',
  'terminate',
] as const;

const DebugInput = z.object({
  op: z.enum(OPS),
  file: z.string().optional().describe('breakpoints: the absolute path of the source file'),
  lines: z
    .array(z.number().int().positive())
    .optional()
    .describe('breakpoints: line numbers; [] clears the file'),
  program: z
    .string()
    .optional()
    .describe('launch: absolute path of the script, Go package folder or executable'),
  args: z.array(z.string()).default([]).describe("launch: the program's arguments"),
  adapter: z
    .enum(['debugpy', 'delve', 'lldb', 'dart'])
    .optional()
    .describe('launch/attach: force an adapter'),
  port: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('attach: the port of a program already under a debugger'),
  thread_id: z.number().int().optional(),
  frame_id: z.number().int().optional().describe('scopes/evaluate: a frame id from stack'),
  reference: z
    .number()
    .int()
    .optional()
    .describe('variables: a variablesReference from scopes or variables'),
  expression: z.string().optional().describe('evaluate: an expression in the frame'),
  wait_seconds: z
    .number()
    .positive()
    .max(120)
    .optional()
    .describe('continue/step: how long to wait for the next stop'),
});
type DebugInput = z.infer<typeof DebugInput>;

export const SESSION_TTL_MS = 30 * 60_000;
const MAX_FRAMES = 30;
const MAX_CHILDREN = 50;
const MAX_VALUE = 400;

const cut = (value: string, max = MAX_VALUE): string =>
  value.length > max ? `${value.slice(0, max)}… [${value.length - max} chars cut]` : value;

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
}): { tools: Tool[]; dispose: () => Promise<void> } => {
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

  const needStopped = (s: DebugSession): string | undefined =>
    s.state === 'stopped'
      ? undefined
      : s.state === 'running'
        ? 'the program is running: pause it first, or wait for a breakpoint'
        : 'the program has exited';

  const step = async (s: DebugSession, command: string, input: DebugInput): Promise<ToolResult> => {
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    const since = s.mark;
    await s.client.request(command, { threadId: await s.threadId(input.thread_id) });
    const wait = (input.wait_seconds ?? waitMs / 1000) * 1000;
    const where = await s.settle(since, wait);
    return ok(s.state === 'running' ? `still running after ${wait / 1000} s: ${where}` : where);
  };

  const run = async (input: DebugInput, signal: AbortSignal): Promise<ToolResult> => {
    switch (input.op) {
      case 'adapters': {
        const lines = await Promise.all(
          specs.map(async (spec) => {
            const command = await spec.command(options.workspace, options.sandbox);
            return `${spec.name}: ${'missing' in command ? `unavailable — ${command.missing}` : 'available'} (root markers: ${spec.rootMarkers.join(', ')})`;
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
    switch (input.op) {
      case 'continue':
        return step(s, 'continue', input);
      case 'step_over':
        return step(s, 'next', input);
      case 'step_in':
        return step(s, 'stepIn', input);
      case 'step_out':
        return step(s, 'stepOut', input);
      case 'pause': {
        if (s.state === 'stopped') return ok(`already stopped: ${await s.describe()}`);
        const since = s.mark;
        await s.client.request('pause', { threadId: await s.threadId(input.thread_id) });
        return ok(await s.settle(since, 10_000));
      }
      case 'threads': {
        const threads = await s.client.request<DebugProtocol.ThreadsResponse>('threads');
        return ok(
          threads.body.threads.map((t) => `${t.id}: ${t.name}`).join('\n') || '(no threads)',
        );
      }
      case 'stack': {
        const blocked = needStopped(s);
        if (blocked) return fail(blocked);
        const response = await s.client.request<DebugProtocol.StackTraceResponse>('stackTrace', {
          threadId: await s.threadId(input.thread_id),
          startFrame: 0,
          levels: MAX_FRAMES,
        });
        const frames = response.body.stackFrames.slice(0, MAX_FRAMES);
        const total = response.body.totalFrames;
        return ok(
          [
            ...frames.map(
              (f) => `#${f.id} ${f.name} at ${f.source?.path ?? f.source?.name ?? '?'}:${f.line}`,
            ),
            ...(total !== undefined && total > frames.length
              ? [`[${total - frames.length} more frames]`]
              : []),
          ].join('\n'),
        );
      }
      case 'scopes': {
        const blocked = needStopped(s);
        if (blocked) return fail(blocked);
        if (input.frame_id === undefined) return fail('frame_id is required (from stack)');
        const response = await s.client.request<DebugProtocol.ScopesResponse>('scopes', {
          frameId: input.frame_id,
        });
        return ok(
          response.body.scopes
            .map(
              (scope) =>
                `${scope.name}: reference ${scope.variablesReference}${scope.expensive ? ' (expensive)' : ''}`,
            )
            .join('\n'),
        );
      }
      case 'variables': {
        const blocked = needStopped(s);
        if (blocked) return fail(blocked);
        if (input.reference === undefined)
          return fail('reference is required (from scopes or variables)');
        const response = await s.client.request<DebugProtocol.VariablesResponse>('variables', {
          variablesReference: input.reference,
          count: MAX_CHILDREN + 1,
        });
        const all = response.body.variables.filter(
          (v) => !/^(special variables|function variables)$/.test(v.name),
        );
        const shown = all.slice(0, MAX_CHILDREN);
        return ok(
          [
            ...shown.map(
              (v) =>
                `${v.name}${v.type ? ` (${v.type})` : ''} = ${cut(v.value)}${v.variablesReference > 0 ? ` [reference ${v.variablesReference}]` : ''}`,
            ),
            ...(all.length > MAX_CHILDREN
              ? [`[more than ${MAX_CHILDREN} children; showing ${MAX_CHILDREN}]`]
              : []),
          ].join('\n') || '(no variables)',
        );
      }
      case 'evaluate': {
        if (!input.expression) return fail('expression is required');
        const blocked = needStopped(s);
        if (blocked) return fail(blocked);
        let frameId = input.frame_id;
        if (frameId === undefined) {
          const top = await s.client.request<DebugProtocol.StackTraceResponse>('stackTrace', {
            threadId: await s.threadId(input.thread_id),
            startFrame: 0,
            levels: 1,
          });
          frameId = top.body.stackFrames[0]?.id;
        }
        const response = await s.client.request<DebugProtocol.EvaluateResponse>('evaluate', {
          expression: input.expression,
          ...(frameId !== undefined ? { frameId } : {}),
          context: 'repl',
        });
        return ok(
          `${cut(response.body.result)}${response.body.type ? ` (${response.body.type})` : ''}${response.body.variablesReference > 0 ? ` [reference ${response.body.variablesReference}]` : ''}`,
        );
      }
      default:
        return fail(`unknown op ${String(input.op)}`);
    }
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
