import path from 'node:path';
import { boundedLines } from '../../src/util/protocol-limits.ts';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../src/logger.ts';
import { projectPython } from '../../src/workspace/setup/interpreters.ts';
import type { Sandbox, SandboxProcess } from '../../src/workspace/sandbox/sandbox.ts';
import type { ToolResult } from '../types.ts';

export type KernelLanguage = 'python' | 'javascript';

const DRIVERS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'drivers');

/** One output of a cell: text, or an image (base64). */
export type CellOutput =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly mime: string; readonly data: string };

export type CellResult =
  | {
      readonly kind: 'done';
      readonly ok: boolean;
      readonly outputs: readonly CellOutput[];
      readonly stdout: string;
      readonly stderr: string;
      readonly error: string | null;
    }
  /** The idle budget passed; the interrupt worked and the kernel's state is kept. */
  | {
      readonly kind: 'interrupted';
      readonly stdout: string;
      readonly stderr: string;
      readonly error: string | null;
    }
  /** The kernel is gone (it died, or did not answer the interrupt and was killed): state lost. */
  | { readonly kind: 'lost'; readonly why: string };

/** Calls the job's tool registry for a cell (every guard applied there). */
export type Bridge = (name: string, input: unknown, signal: AbortSignal) => Promise<ToolResult>;

interface DriverMessage {
  type: string;
  id?: number;
  name?: string;
  input?: unknown;
  ok?: boolean;
  outputs?: CellOutput[];
  stdout?: string;
  stderr?: string;
  error?: string | null;
  interrupted?: boolean;
}

/** How long an interrupted kernel has to answer before it is killed. */
const INTERRUPT_GRACE_MS = 3000;
/** How long a kernel has to start. */
const START_TIMEOUT_MS = 30_000;

/**
 * A persistent interpreter in the job's sandbox, driven over its pipes with
 * line-delimited JSON. A cell's idle budget runs while the kernel works and
 * is suspended while a bridged tool call is pending; past it the kernel is
 * interrupted (state kept), and killed when the interrupt is not answered
 * (state lost).
 */
export class Kernel {
  private process: SandboxProcess | undefined;
  private readonly waiters = new Map<number, (message: DriverMessage) => void>();
  private nextId = 0;
  private deadWhy: string | undefined;
  private onDeath: ((why: string) => void) | undefined;
  private stderrTail = '';
  readonly language: KernelLanguage;

  constructor(
    private readonly options: {
      language: KernelLanguage;
      workspace: string;
      sandbox: Sandbox;
      node: string;
      logger: Logger;
      bridge: Bridge;
    },
  ) {
    this.language = options.language;
  }

  get alive(): boolean {
    return this.process !== undefined && this.deadWhy === undefined;
  }

  async start(): Promise<void> {
    const { workspace, sandbox, node } = this.options;
    const argv =
      this.options.language === 'python'
        ? [projectPython(workspace), '-u', path.join(DRIVERS, 'python_driver.py')]
        : [node, path.join(DRIVERS, 'js_driver.mjs')];
    const acorn = import.meta.resolve('acorn');
    const proc = await sandbox.spawn({
      argv,
      cwd: workspace,
      env: {
        MPLBACKEND: 'Agg',
        PYTHONUNBUFFERED: '1',
        PYTHONDONTWRITEBYTECODE: '1',
        PYTHONIOENCODING: 'utf-8',
        REGREEN_ACORN: acorn,
      },
    });
    this.process = proc;
    proc.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-4000);
    });
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the ${this.language} kernel did not start in time`)),
        START_TIMEOUT_MS,
      );
      this.waiters.set(-1, () => {
        clearTimeout(timer);
        resolve();
      });
      this.onDeath = (why) => {
        clearTimeout(timer);
        reject(new Error(why));
      };
    });
    // What the driver writes is the cell's code's to write too: no line is held past the bound.
    boundedLines(
      proc.stdout,
      (line) => this.receive(line),
      (why) => {
        this.deadWhy = `the ${this.language} kernel was stopped: ${why} on its protocol pipe; its state is lost`;
        proc.kill();
      },
    );
    void proc.exited.then((code) => {
      const why = `the ${this.language} kernel exited (${code === null ? 'killed by a signal' : `exit code ${code}`})${this.stderrTail.trim() ? `: ${this.stderrTail.trim().split('\n').slice(-3).join(' | ')}` : ''}`;
      this.deadWhy ??= why;
      this.onDeath?.(this.deadWhy);
      for (const waiter of this.waiters.values()) waiter({ type: 'dead' });
      this.waiters.clear();
    });
    await ready;
  }

  private receive(line: string): void {
    let message: DriverMessage;
    try {
      message = JSON.parse(line) as DriverMessage;
    } catch {
      this.options.logger.warn(
        { line: line.slice(0, 200) },
        'kernel wrote a line that is not JSON',
      );
      return;
    }
    if (message.type === 'ready') {
      this.waiters.get(-1)?.(message);
      this.waiters.delete(-1);
      return;
    }
    if (message.type === 'tool_call' || message.type === 'result') {
      this.waiters.get(0)?.(message);
    }
  }

  private write(message: Record<string, unknown>): void {
    this.process?.stdin.write(`${JSON.stringify(message)}\n`);
  }

  /** Runs a cell; answers the kernel's bridged tool calls; enforces the idle budget. */
  async execute(code: string, budgetMs: number, signal: AbortSignal): Promise<CellResult> {
    if (!this.alive) return { kind: 'lost', why: this.deadWhy ?? 'the kernel is not running' };
    this.nextId += 1;
    const id = this.nextId;
    return new Promise<CellResult>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      let interrupted = false;
      const finish = (result: CellResult): void => {
        if (settled) return;
        settled = true;
        if (timer) clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.waiters.delete(0);
        resolve(result);
      };
      const kill = (why: string): void => {
        this.deadWhy = why;
        this.process?.kill();
        finish({ kind: 'lost', why });
      };
      const arm = (ms: number): void => {
        timer = setTimeout(() => {
          if (!interrupted) {
            // Past the idle budget: interrupt (SIGINT in the kernel), keep the state if it answers.
            interrupted = true;
            this.write({ type: 'interrupt' });
            arm(INTERRUPT_GRACE_MS);
          } else {
            kill(
              `the cell ran past its idle budget and the kernel did not answer the interrupt: it was killed and its state lost`,
            );
          }
        }, ms);
      };
      const onAbort = (): void => kill('the job was cancelled');
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.set(0, (message) => {
        if (message.type === 'dead') {
          finish({
            kind: 'lost',
            why: `${this.deadWhy ?? 'the kernel died'}; its state was lost and the next call starts a fresh kernel`,
          });
          return;
        }
        if (message.type === 'tool_call') {
          // The budget is suspended while the bridged call runs.
          if (timer) clearTimeout(timer);
          void this.options
            .bridge(message.name ?? '', message.input ?? {}, signal)
            .then((result) => {
              if (settled) return;
              this.write({ type: 'tool_result', id: message.id, result });
              arm(interrupted ? INTERRUPT_GRACE_MS : budgetMs);
            });
          return;
        }
        if (message.type === 'result' && message.id === id) {
          const common = {
            stdout: message.stdout ?? '',
            stderr: message.stderr ?? '',
            error: message.error ?? null,
          };
          finish(
            message.interrupted === true || (interrupted && !message.ok)
              ? { kind: 'interrupted', ...common }
              : {
                  kind: 'done',
                  ok: message.ok === true,
                  outputs: message.outputs ?? [],
                  ...common,
                },
          );
        }
      });
      this.write({ type: 'execute', id, code, timeout_ms: budgetMs });
      arm(budgetMs);
    });
  }

  async dispose(): Promise<void> {
    if (!this.process) return;
    this.deadWhy ??= 'disposed';
    this.process.stdin.end();
    this.process.kill();
    await Promise.race([this.process.exited, new Promise((r) => setTimeout(r, 2000))]);
  }
}
