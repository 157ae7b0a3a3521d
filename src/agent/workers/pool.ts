import type { Ledger } from '../ledger.ts';
import { runAgentLoop, type AgentResult } from '../loop.ts';
import type { ToolPolicy } from '../tool-policy.ts';
import { ToolRegistry, type ToolFilter } from '../tool-registry.ts';
import { workerTrace, type Trace } from '../../observe/trace.ts';
import type { Logger } from '../../logger.ts';
import type { Message, Model } from '../../model/types.ts';
import type { Clock } from '../../util/clock.ts';
import { FileViews } from '../../../tools/files/file-views.ts';
import type { Tool, ToolContext } from '../../../tools/types.ts';

export type Tier = 'fast' | 'good';
export type WorkerState = 'running' | 'done' | 'budget' | 'loop' | 'failed' | 'killed';

export interface WorkerInfo {
  readonly id: string;
  readonly label: string;
  readonly tier: Tier;
  readonly readOnly: boolean;
  readonly state: WorkerState;
  readonly elapsedMs: number;
  readonly lastResult: string;
}

interface Worker {
  readonly id: string;
  readonly label: string;
  readonly tier: Tier;
  readonly readOnly: boolean;
  /** What this worker may call, fixed at spawn by the job's policy. */
  readonly filter: ToolFilter;
  readonly model: Model;
  readonly registry: ToolRegistry;
  readonly ctx: ToolContext;
  brief: string;
  state: WorkerState;
  started: number;
  finished: number | undefined;
  lastResult: string;
  history: readonly Message[];
  controller: AbortController;
  run: Promise<void>;
}

const filterAllowsWrites = (filter: ToolFilter): boolean =>
  filter.levels.some((level) => level !== 'read');

export interface PoolOptions {
  readonly maxLive: number;
  /** The model of a tier for a worker (undefined: that tier is not configured). */
  readonly model: (tier: Tier, label: string) => Model | undefined;
  /** A fresh set of tools for one worker (its own staged edits); never the vibe_* tools. */
  readonly tools: () => Promise<Tool[]>;
  /** The context every worker shares (workspace, sandbox, job-wide locks); each gets its own file views. */
  readonly ctx: ToolContext;
  /** The job's one policy: a worker gets at most what the agent that spawns it has. */
  readonly policy: ToolPolicy;
  readonly system: string;
  /** The job's one ledger: workers spend from it. */
  readonly ledger: Ledger;
  readonly trace: Trace;
  readonly logger: Logger;
  readonly clock: Clock;
  /** The job's signal: when it aborts, every worker stops. */
  readonly signal: AbortSignal;
}

const resultOf = (result: AgentResult): { state: WorkerState; text: string } => {
  switch (result.status) {
    case 'done':
      return { state: 'done', text: result.finalText };
    case 'budget':
    case 'loop':
      return { state: result.status, text: result.reason };
    case 'error':
      return { state: result.code === 'cancelled' ? 'killed' : 'failed', text: result.reason };
    case 'suspended':
      // Workers have no ask_user; a suspension here is a failure of the worker.
      return { state: 'failed', text: result.reason };
  }
};

/**
 * Background workers of one job: sub-agents running the same loop with their
 * own transcripts in the same workspace, spending from the job's ledger.
 */
export class WorkerPool {
  private readonly workers = new Map<string, Worker>();
  private next = 1;

  constructor(private readonly options: PoolOptions) {}

  get live(): number {
    return [...this.workers.values()].filter((worker) => worker.state === 'running').length;
  }

  async spawn(request: {
    brief: string;
    label: string;
    tier: Tier;
    readOnly: boolean;
  }): Promise<{ id: string } | { error: string }> {
    if (this.live >= this.options.maxLive) {
      return {
        error: `${this.live} workers are running, the most this job allows: vibe_wait for one or vibe_kill one first`,
      };
    }
    const model = this.options.model(request.tier, request.label);
    if (!model) return { error: `no model is configured for tier "${request.tier}"` };
    const id = `w${this.next}`;
    this.next += 1;
    const tools = await this.options.tools();
    const filter = this.options.policy.forWorker(request.readOnly);
    const worker: Worker = {
      id,
      label: request.label,
      tier: request.tier,
      readOnly: request.readOnly || !filterAllowsWrites(filter),
      filter,
      model,
      registry: new ToolRegistry(tools.filter((tool) => !tool.name.startsWith('vibe_'))),
      ctx: { ...this.options.ctx, views: new FileViews(this.options.ctx.workspace) },
      brief: request.brief,
      state: 'running',
      started: this.options.clock.now(),
      finished: undefined,
      lastResult: '',
      history: [],
      controller: new AbortController(),
      run: Promise.resolve(),
    };
    this.workers.set(id, worker);
    this.start(worker, request.brief, []);
    return { id };
  }

  private start(worker: Worker, task: string, history: readonly Message[]): void {
    worker.state = 'running';
    worker.controller = new AbortController();
    worker.started = this.options.clock.now();
    worker.finished = undefined;
    const signal = AbortSignal.any([worker.controller.signal, this.options.signal]);
    const filter = worker.filter;
    const trace = workerTrace(this.options.trace, worker.id);
    trace.emit({
      type: 'note',
      message: 'worker started',
      data: {
        label: worker.label,
        tier: worker.tier,
        readOnly: worker.readOnly,
        model: worker.model.id,
        task,
      },
    });
    worker.run = runAgentLoop({
      model: worker.model,
      registry: worker.registry,
      filter,
      ctx: worker.ctx,
      system: `${this.options.system}\n\nYou are a background worker (${worker.label}, tier ${worker.tier}) of the job's main agent. Do what your brief asks, nothing more, and end your turn with a short report of what you did and found.`,
      task,
      history,
      ledger: this.options.ledger,
      trace,
      logger: this.options.logger.child({ worker: worker.id }),
      signal,
    }).then(
      (result) => {
        const { state, text } = resultOf(result);
        worker.state = worker.controller.signal.aborted ? 'killed' : state;
        worker.lastResult = text;
        worker.history = result.messages;
        worker.finished = this.options.clock.now();
      },
      (error: unknown) => {
        worker.state = 'failed';
        worker.lastResult = error instanceof Error ? error.message : String(error);
        worker.finished = this.options.clock.now();
      },
    );
  }

  /** Appends to a finished worker's brief and runs it again, continuing its conversation. */
  send(id: string, message: string): { ok: true } | { error: string } {
    const worker = this.workers.get(id);
    if (!worker) return { error: this.unknown(id) };
    if (worker.state === 'running')
      return {
        error: `${id} is still running: vibe_wait for it or vibe_kill it before sending more`,
      };
    worker.brief = `${worker.brief}\n\n${message}`;
    const last = worker.history.at(-1);
    // A conversation cut mid-turn cannot be continued: start again from the whole brief.
    const continues =
      last?.role === 'assistant' && !last.content.some((block) => block.type === 'tool_use');
    this.start(worker, continues ? message : worker.brief, continues ? worker.history : []);
    return { ok: true };
  }

  async wait(
    id: string,
    timeoutMs: number,
    signal: AbortSignal,
  ): Promise<{ finished: boolean; info: WorkerInfo } | { error: string }> {
    const worker = this.workers.get(id);
    if (!worker) return { error: this.unknown(id) };
    let timer: NodeJS.Timeout | undefined;
    const finished = await Promise.race([
      worker.run.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
        signal.addEventListener('abort', () => resolve(false), { once: true });
      }),
    ]);
    clearTimeout(timer);
    return { finished, info: this.info(worker) };
  }

  /** Stops a worker: its in-flight tool call is cancelled through its signal. */
  async kill(id: string): Promise<{ info: WorkerInfo } | { error: string }> {
    const worker = this.workers.get(id);
    if (!worker) return { error: this.unknown(id) };
    worker.controller.abort();
    await worker.run;
    return { info: this.info(worker) };
  }

  list(): WorkerInfo[] {
    return [...this.workers.values()].map((worker) => this.info(worker));
  }

  /** Ends every worker (the job is over). */
  async dispose(): Promise<void> {
    for (const worker of this.workers.values()) worker.controller.abort();
    await Promise.all([...this.workers.values()].map((worker) => worker.run));
  }

  private info(worker: Worker): WorkerInfo {
    return {
      id: worker.id,
      label: worker.label,
      tier: worker.tier,
      readOnly: worker.readOnly,
      state: worker.state,
      elapsedMs: (worker.finished ?? this.options.clock.now()) - worker.started,
      lastResult: worker.lastResult,
    };
  }

  private unknown(id: string): string {
    const ids = [...this.workers.keys()];
    return `no worker "${id}"${ids.length > 0 ? `: workers are ${ids.join(', ')}` : ': none was spawned'}`;
  }
}
