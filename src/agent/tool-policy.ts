import type { ToolLevel } from '../config/repo-config.ts';
import type { ToolFilter, ToolGate } from './tool-registry.ts';

/**
 * What any agent of a job may call — the main agent, each worker, code in a
 * kernel through the tool bridge — decided in one place: the levels and
 * disabled tools of the config, the phase (plan mode sees only `read`), and
 * the gate in front of every exec-level tool (a maintainer's approval). Every
 * registry call takes its filter from here, so a worker spawned during the
 * plan phase, or a cell calling tools, can never hold more than the agent
 * that started it.
 */
export class ToolPolicy {
  private phase: readonly ToolLevel[] | undefined;

  constructor(private readonly base: ToolFilter) {}

  /** The filter of the job's main agent now. */
  current(): ToolFilter {
    return this.phase === undefined
      ? this.base
      : { ...this.base, levels: this.base.levels.filter((level) => this.phase?.includes(level)) };
  }

  /** Narrows every surface to `levels` until `leave` (the plan phase). */
  enter(levels: readonly ToolLevel[]): void {
    this.phase = levels;
  }

  leave(): void {
    this.phase = undefined;
  }

  /** A worker's filter, fixed when it is spawned: at most the current one; read-only when asked. */
  forWorker(readOnly: boolean): ToolFilter {
    const now = this.current();
    return readOnly ? { ...now, levels: now.levels.filter((level) => level === 'read') } : now;
  }

  get gate(): ToolGate | undefined {
    return this.base.gate;
  }
}
