import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { parseEvents } from './trace-read.ts';

type Json = Record<string, unknown>;

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** The events of a piece of a trace; a line cut by the window is not JSON and is skipped. */
const eventsOf = (text: string): Json[] => parseEvents(text).events;

/** What `regreen jobs list` shows of a job: where it ran, how it ended, how long it took. */
export interface TraceGlance {
  readonly target?: string;
  readonly status?: string;
  readonly branch?: string;
  readonly durationMs?: number;
  /** What the job's model cost, in USD (0 when no model ran or it cost nothing). */
  readonly costUsd?: number;
}

/** The first and last bytes of a file (a trace may be large; a glance needs its ends). */
const endsOf = (file: string, bytes: number): { head: string; tail: string } => {
  const fd = openSync(file, 'r');
  try {
    const size = fstatSync(fd).size;
    const read = (at: number, length: number): string => {
      const buffer = Buffer.alloc(Math.max(0, length));
      const got = readSync(fd, buffer, 0, buffer.length, at);
      return buffer.subarray(0, got).toString('utf8');
    };
    const head = read(0, Math.min(size, bytes));
    const tail = size > bytes ? read(size - bytes, bytes) : head;
    return { head, tail };
  } catch {
    return { head: '', tail: '' };
  } finally {
    closeSync(fd);
  }
};

/** A glance at a trace from its ends: the intake's target, the outcome note, the time between. */
export const glanceAtTrace = (file: string): TraceGlance => {
  let ends: { head: string; tail: string };
  try {
    ends = endsOf(file, 64 * 1024);
  } catch {
    return {};
  }
  // A line cut by the window is not JSON: it is skipped.
  const head = eventsOf(ends.head);
  const tail = eventsOf(ends.tail);
  const intake = head.find((e) => e.type === 'stage' && e.stage === 'intake' && e.phase === 'end');
  const outcome = [...tail].reverse().find((e) => e.type === 'note' && e.message === 'outcome');
  const data = (outcome?.data ?? {}) as Json;
  const cost = ((data.spend ?? {}) as Json).costUsd;
  const first = Date.parse(str(head[0]?.ts));
  const last = Date.parse(str(tail.at(-1)?.ts));
  return {
    ...(typeof intake?.outcome === 'string' ? { target: intake.outcome } : {}),
    ...(typeof data.status === 'string' ? { status: data.status } : {}),
    ...(typeof data.branch === 'string' ? { branch: data.branch } : {}),
    ...(Number.isFinite(first) && Number.isFinite(last) ? { durationMs: last - first } : {}),
    ...(typeof cost === 'number' && Number.isFinite(cost) && cost >= 0 ? { costUsd: cost } : {}),
  };
};
