import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Sandbox, SandboxProcess } from '../../src/workspace/sandbox/sandbox.ts';
import type { AdapterSpec } from './adapters.ts';
import { DapClient } from './dap-client.ts';
import { framedGuard } from '../../src/util/protocol-limits.ts';

export type SessionState = 'running' | 'stopped' | 'exited';

export interface StopInfo {
  readonly threadId: number | undefined;
  readonly reason: string;
  readonly description?: string;
}

/** What a breakpoint became once the adapter saw it. */
export interface BreakpointReport {
  readonly file: string;
  readonly requested: number;
  readonly verified: boolean;
  readonly line?: number;
  readonly message?: string;
}

const OUTPUT_LIMIT = 64 * 1024;

/**
 * One debug session: an adapter process in the job's sandbox, its DAP
 * client, and what the debuggee is doing (running, stopped where, exited
 * with what), plus its output, bounded.
 */
export class DebugSession {
  state: SessionState = 'running';
  stop: StopInfo | undefined;
  exitCode: number | undefined;
  /** Increments on every stop, continue and exit: waiters compare against it. */
  private generation = 0;
  private readonly changed = new Set<() => void>();
  private out = '';
  private outCut = 0;
  endedWhy: string | undefined;

  private constructor(
    readonly spec: AdapterSpec,
    readonly program: string,
    private readonly process: SandboxProcess,
    readonly client: DapClient,
  ) {
    client.events.on('stopped', (event: DebugProtocol.StoppedEvent) => {
      this.state = 'stopped';
      this.stop = {
        threadId: event.body.threadId,
        reason: event.body.reason,
        ...(event.body.description ? { description: event.body.description } : {}),
      };
      this.bump();
    });
    client.events.on('continued', () => {
      this.state = 'running';
      this.stop = undefined;
      this.bump();
    });
    client.events.on('exited', (event: DebugProtocol.ExitedEvent) => {
      this.exitCode = event.body.exitCode;
    });
    client.events.on('terminated', () => this.end('the program ended'));
    client.events.on('output', (event: DebugProtocol.OutputEvent) => {
      const category = event.body.category ?? 'console';
      if (category === 'telemetry' || category === 'important') return;
      if (category === 'console' && this.spec.name === 'debugpy') return;
      this.append(event.body.output);
    });
    client.events.on('closed', (why: string) => this.end(why));
    void process.exited.then(() => this.end('the debug adapter exited'));
  }

  private bump(): void {
    this.generation += 1;
    for (const wake of [...this.changed]) wake();
  }

  private end(why: string): void {
    if (this.state === 'exited') return;
    this.state = 'exited';
    this.stop = undefined;
    this.endedWhy ??= why;
    this.bump();
  }

  appendOutput(text: string): void {
    this.append(text);
  }

  /**
   * Once the program has ended, what it printed last may still be on its way
   * through the adapter's own output (delve writes the debuggee's to stderr):
   * wait a moment for the adapter to finish, never long.
   */
  async settled(): Promise<void> {
    if (this.state !== 'exited') return;
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 1000))]);
  }

  private append(text: string): void {
    this.out += text;
    if (this.out.length > OUTPUT_LIMIT) {
      this.outCut += this.out.length - OUTPUT_LIMIT;
      this.out = this.out.slice(-OUTPUT_LIMIT);
    }
  }

  output(): string {
    return this.outCut > 0 ? `[… ${this.outCut} earlier characters cut]\n${this.out}` : this.out;
  }

  /** Waits until the state changes after `since`, or `ms` pass; returns whether it changed. */
  waitForChange(since: number, ms: number): Promise<boolean> {
    if (this.generation !== since) return Promise.resolve(true);
    return new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        this.changed.delete(wake);
        resolve(true);
      };
      const timer = setTimeout(() => {
        this.changed.delete(wake);
        resolve(false);
      }, ms);
      this.changed.add(wake);
    });
  }

  get mark(): number {
    return this.generation;
  }

  /** Waits for the next stop or the end, at most `ms`; says which happened. */
  async settle(since: number, ms: number): Promise<string> {
    const deadline = Date.now() + ms;
    while (this.generation === since || this.state === 'running') {
      const left = deadline - Date.now();
      if (
        left <= 0 ||
        !(await this.waitForChange(this.generation === since ? since : this.generation, left))
      )
        break;
      if (this.state !== 'running') break;
    }
    return this.describe();
  }

  /** "stopped at file:line in fn (reason)", "exited with code N", or "running". */
  async describe(): Promise<string> {
    if (this.state === 'exited')
      return `the program exited${this.exitCode !== undefined ? ` with code ${this.exitCode}` : ''} (${this.endedWhy ?? 'ended'})`;
    if (this.state === 'running') return 'the program is running (pause it to inspect it)';
    const reason = `${this.stop?.reason ?? 'stopped'}${this.stop?.description && this.stop.description !== this.stop.reason ? `: ${this.stop.description}` : ''}`;
    try {
      const frames = await this.client.request<DebugProtocol.StackTraceResponse>('stackTrace', {
        threadId: await this.threadId(),
        startFrame: 0,
        levels: 1,
      });
      const top = frames.body.stackFrames[0];
      return top
        ? `stopped at ${top.source?.path ?? top.source?.name ?? '?'}:${top.line} in ${top.name} (${reason}); thread ${await this.threadId()}, frame ${top.id}`
        : `stopped (${reason})`;
    } catch {
      return `stopped (${reason})`;
    }
  }

  /** The thread the op is about: the one given, the one that stopped, else the first. */
  async threadId(given?: number): Promise<number> {
    if (given !== undefined) return given;
    if (this.stop?.threadId !== undefined) return this.stop.threadId;
    const threads = await this.client.request<DebugProtocol.ThreadsResponse>('threads');
    const first = threads.body.threads[0];
    if (!first) throw new Error('the program has no threads');
    return first.id;
  }

  static async start(options: {
    spec: AdapterSpec;
    argv: readonly string[];
    sandbox: Sandbox;
    workspace: string;
    /** The program's project root (where its root marker is): the adapter's and the program's cwd. */
    root: string;
    program: string;
    args: readonly string[];
    breakpoints: ReadonlyMap<string, readonly number[]>;
    requestTimeoutMs: number;
    launchTimeoutMs: number;
  }): Promise<{ session: DebugSession; breakpoints: BreakpointReport[] }> {
    if (!existsSync(options.program))
      throw new Error(`the program does not exist: ${options.program}`);
    const process = await options.sandbox.spawn({
      argv: options.argv,
      cwd: options.root,
      ...(options.spec.env ? { env: options.spec.env } : {}),
    });
    let stderr = '';
    // The adapter's output is the debuggee's to write too: no message past the bound is held.
    const guarded = process.stdout.pipe(
      framedGuard((why) => {
        client.close(`the debug adapter was stopped: ${why}`);
        process.kill();
      }),
    );
    const client = new DapClient(guarded, process.stdin, options.requestTimeoutMs);
    const session = new DebugSession(options.spec, options.program, process, client);
    process.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      stderr = (stderr + text).slice(-2000);
      if (options.spec.outputOnStderr) session.appendOutput(text);
    });
    try {
      const initialized = new Promise<void>((resolve) =>
        client.events.once('initialized', () => resolve()),
      );
      const capabilities = await client.request<DebugProtocol.InitializeResponse>('initialize', {
        clientID: 'regreen',
        clientName: 'regreen',
        adapterID: options.spec.adapterId,
        pathFormat: 'path',
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsRunInTerminalRequest: false,
        supportsVariableType: true,
      });
      const launched = client.request(
        'launch',
        options.spec.launchArguments(options.program, options.args, options.root),
        options.launchTimeoutMs,
      );
      // Some adapters answer launch only after configurationDone; a failed launch ends the wait.
      await Promise.race([initialized, launched.then(() => initialized)]);
      const reports: BreakpointReport[] = [];
      for (const [file, lines] of options.breakpoints) {
        reports.push(...(await setBreakpoints(client, file, lines)));
      }
      if (capabilities.body?.supportsConfigurationDoneRequest !== false)
        await client.request('configurationDone');
      await launched;
      return { session, breakpoints: reports };
    } catch (error) {
      await session.dispose();
      const detail = stderr.trim()
        ? ` (adapter: ${stderr.trim().split('\n').slice(-14).join(' | ')})`
        : '';
      throw new Error(`${error instanceof Error ? error.message : String(error)}${detail}`, {
        cause: error,
      });
    }
  }

  async dispose(): Promise<void> {
    if (!this.client.closed) {
      await this.client
        .request('disconnect', { terminateDebuggee: true }, 3000)
        .catch(() => undefined);
      this.client.close('the session was ended');
    }
    this.end(this.endedWhy ?? 'the session was ended');
    this.process.kill();
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 3000))]);
  }
}

/** Sets the breakpoints of one file (an empty list clears them) and reports what the adapter made of them. */
export const setBreakpoints = async (
  client: DapClient,
  file: string,
  lines: readonly number[],
): Promise<BreakpointReport[]> => {
  const response = await client.request<DebugProtocol.SetBreakpointsResponse>('setBreakpoints', {
    source: { path: file, name: path.basename(file) },
    breakpoints: lines.map((line) => ({ line })),
    lines,
  });
  return lines.map((requested, i) => {
    const bp = response.body.breakpoints[i];
    return {
      file,
      requested,
      verified: bp?.verified ?? false,
      ...(bp?.line !== undefined ? { line: bp.line } : {}),
      ...(bp?.message ? { message: bp.message } : {}),
    };
  });
};
