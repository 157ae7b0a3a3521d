import type { DebugProtocol } from '@vscode/debugprotocol';
import { fail, ok, type ToolResult } from '../types.ts';
import type { DebugInput } from './input.ts';
import type { DebugSession } from './session.ts';

const MAX_FRAMES = 30;
const MAX_CHILDREN = 50;
const MAX_VALUE = 400;

const cut = (value: string, max = MAX_VALUE): string =>
  value.length > max ? `${value.slice(0, max)}… [${value.length - max} chars cut]` : value;

/** Why an op that needs a stopped program cannot run now, if it cannot. */
export const needStopped = (s: DebugSession): string | undefined =>
  s.state === 'stopped'
    ? undefined
    : s.state === 'running'
      ? 'the program is running: pause it first, or wait for a breakpoint'
      : 'the program has exited';

/** Resumes with a DAP command and waits for the next stop, exit or the wait. */
const step =
  (command: string) =>
  async (s: DebugSession, input: DebugInput, waitMs: number): Promise<ToolResult> => {
    const blocked = needStopped(s);
    if (blocked) return fail(blocked);
    const since = s.mark;
    await s.client.request(command, { threadId: await s.threadId(input.thread_id) });
    const wait = (input.wait_seconds ?? waitMs / 1000) * 1000;
    const where = await s.settle(since, wait);
    return ok(s.state === 'running' ? `still running after ${wait / 1000} s: ${where}` : where);
  };

type SessionOp = (s: DebugSession, input: DebugInput, waitMs: number) => Promise<ToolResult>;

/** The ops on a live session, one entry each. */
export const SESSION_OPS: Partial<Record<DebugInput['op'], SessionOp>> = {
  continue: step('continue'),
  step_over: step('next'),
  step_in: step('stepIn'),
  step_out: step('stepOut'),
  pause: async (s, input) => {
    if (s.state === 'stopped') return ok(`already stopped: ${await s.describe()}`);
    const since = s.mark;
    await s.client.request('pause', { threadId: await s.threadId(input.thread_id) });
    return ok(await s.settle(since, 10_000));
  },
  threads: async (s) => {
    const threads = await s.client.request<DebugProtocol.ThreadsResponse>('threads');
    return ok(threads.body.threads.map((t) => `${t.id}: ${t.name}`).join('\n') || '(no threads)');
  },
  stack: async (s, input) => {
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
  },
  scopes: async (s, input) => {
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
  },
  variables: async (s, input) => {
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
  },
  evaluate: async (s, input) => {
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
  },
};
