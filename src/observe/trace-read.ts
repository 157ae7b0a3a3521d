import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { readNamedFile } from '../util/read-file.ts';
import type { StageStatus } from './trace.ts';

const Event = z.looseObject({ ts: z.string().optional(), type: z.string() });
const Usage = z
  .object({
    inputTokens: z.number(),
    outputTokens: z.number(),
    cacheReadTokens: z.number(),
    cacheWriteTokens: z.number(),
  })
  .partial();

type Json = Record<string, unknown>;

/** A field as text: strings as they are, anything else as JSON. */
const str = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

export const parseEvents = (text: string): { events: Json[]; malformed: number } => {
  const events: Json[] = [];
  let malformed = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const parsed = Event.safeParse(JSON.parse(line));
      if (parsed.success) events.push(parsed.data);
      else malformed += 1;
    } catch {
      malformed += 1;
    }
  }
  return { events, malformed };
};

const EDIT_TOOLS = ['edit', 'write', 'apply_patch'];

/** Counts of a trace for metrics: tool calls, test runs, failed edits. */
export const traceCounts = (
  text: string,
): { toolCalls: number; testRuns: number; failedEdits: number } => {
  const tools = parseEvents(text).events.filter((event) => event.type === 'tool');
  return {
    toolCalls: tools.length,
    testRuns: tools.filter((tool) => tool.name === 'run_tests').length,
    failedEdits: tools.filter(
      (tool) => EDIT_TOOLS.includes(String(tool.name)) && tool.isError === true,
    ).length,
  };
};

/** What the model calls of a trace used, summed: tokens of each kind and dollars. */
export const modelTotals = (
  events: readonly Json[],
): {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  cost: number;
} => {
  const totals = {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cost: 0,
  };
  for (const model of events.filter((event) => event.type === 'model')) {
    const usage = Usage.safeParse(model.usage);
    if (usage.success) {
      totals.inputTokens += usage.data.inputTokens ?? 0;
      totals.outputTokens += usage.data.outputTokens ?? 0;
      totals.cacheReadTokens += usage.data.cacheReadTokens ?? 0;
      totals.cacheWriteTokens += usage.data.cacheWriteTokens ?? 0;
    }
    totals.cost += Number(model.costUsd ?? 0);
  }
  return totals;
};

/** A readable summary of a job's trace: stages, turns, tools, failed edits, test runs, spend. */
export const summariseTrace = (text: string): string => {
  const { events, malformed } = parseEvents(text);
  const out: string[] = [];
  const stages = events.filter((event) => event.type === 'stage' && event.phase === 'end');
  if (stages.length > 0) {
    out.push('stages:');
    for (const stage of stages)
      out.push(
        `  ${String(stage.stage).padEnd(10)} ${(Number(stage.durationMs) / 1000).toFixed(1).padStart(6)}s  ${String(stage.outcome)}`,
      );
  }
  const models = events.filter((event) => event.type === 'model');
  const totals = modelTotals(events);
  const budget = events.find((event) => event.type === 'note' && event.message === 'budget')
    ?.data as Json | undefined;
  if (models.length > 0 || budget) {
    const billedInput = totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens;
    const share = billedInput > 0 ? Math.round((100 * totals.cacheReadTokens) / billedInput) : 0;
    out.push(`model: ${str(budget?.model ?? 'unknown')}, ${models.length} turn(s)`);
    out.push(
      `spend: ${billedInput} input tokens (${share}% read from cache, ${totals.cacheWriteTokens} written), ${totals.outputTokens} output tokens, $${totals.cost.toFixed(4)}`,
    );
  }
  const tools = events.filter((event) => event.type === 'tool');
  if (tools.length > 0) {
    const counts = new Map<string, { calls: number; errors: number }>();
    for (const tool of tools) {
      const entry = counts.get(String(tool.name)) ?? { calls: 0, errors: 0 };
      entry.calls += 1;
      if (tool.isError === true) entry.errors += 1;
      counts.set(String(tool.name), entry);
    }
    out.push(
      `tools: ${[...counts].map(([name, c]) => `${name} ×${c.calls}${c.errors > 0 ? ` (${c.errors} failed)` : ''}`).join(', ')}`,
    );
    const failedEdits = tools.filter(
      (tool) => EDIT_TOOLS.includes(String(tool.name)) && tool.isError === true,
    );
    for (const edit of failedEdits)
      out.push(`  failed ${String(edit.name)}: ${String(edit.output).split('\n')[0] ?? ''}`);
    const testRuns = tools
      .filter((tool) => tool.name === 'run_tests')
      .map((tool) => String(tool.output).split(' ')[0] ?? '?');
    if (testRuns.length > 0) out.push(`test runs: ${testRuns.join(' → ')}`);
  }
  for (const note of events.filter(
    (event) =>
      event.type === 'note' && ['context cleared', 'loop warning'].includes(String(event.message)),
  )) {
    out.push(`${String(note.message)}: ${JSON.stringify(note.data)}`);
  }
  const outcome = [...events]
    .reverse()
    .find((event) => event.type === 'note' && event.message === 'outcome')?.data as
    Json | undefined;
  if (outcome)
    out.push(
      `outcome: ${str(outcome.status)}${outcome.reason ? ` — ${str(outcome.reason)}` : ''}${outcome.branch ? ` (${str(outcome.branch)})` : ''}`,
    );
  if (malformed > 0) out.push(`(${malformed} malformed line(s) skipped)`);
  return out.length > 0 ? out.join('\n') : 'empty trace';
};

const clip = (text: string, max: number): string => {
  const flat = text.replaceAll('\r', '');
  return flat.length > max ? `${flat.slice(0, max)} […${flat.length - max} more]` : flat;
};

/** A tool call's input, bounded: strings clipped, at most a few levels and items deep. */
const bounded = (value: unknown, max: number, depth = 0): unknown => {
  if (typeof value === 'string') return clip(value, max);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= 3) return clip(JSON.stringify(value) ?? '', 200);
  if (Array.isArray(value)) return value.slice(0, 50).map((item) => bounded(item, max, depth + 1));
  return Object.fromEntries(
    Object.entries(value)
      .slice(0, 50)
      .map(([key, item]) => [key, bounded(item, max, depth + 1)]),
  );
};

/** One tool call of a turn, as the report pages show it. */
export interface TraceCall {
  readonly name: string;
  /** Its arguments as the model gave them (bounded): the pages show them as readable arguments. */
  readonly input: unknown;
  readonly output: string;
  readonly isError: boolean;
  readonly durationMs: number;
}

/** The steps of a trace, structured: stages, model turns with their tool calls, notes. */
export type TraceStep = { readonly worker?: string } & (
  | {
      readonly kind: 'stage';
      readonly stage: string;
      readonly durationMs: number;
      readonly outcome: string;
      /** The verdict the stage recorded (traces before it was recorded have none). */
      readonly status?: StageStatus;
      readonly verdict?: string;
    }
  | {
      readonly kind: 'turn';
      readonly turn: number;
      readonly stopReason: string;
      readonly costUsd: number;
      readonly text: string;
      readonly calls: TraceCall[];
    }
  | { readonly kind: 'note'; readonly message: string; readonly data: string }
);

const STATUSES: readonly StageStatus[] = ['pass', 'fail', 'warn', 'info', 'skip'];

/** A stage end's recorded verdict, when it has a known one. */
const recordedVerdict = (event: Json): { status?: StageStatus; verdict?: string } => {
  const status = STATUSES.find((known) => known === event.status);
  if (!status) return {};
  return typeof event.verdict === 'string' ? { status, verdict: event.verdict } : { status };
};

/** The trace as steps: each tool call joins the turn (of the same agent) that asked for it. */
export const traceSteps = (text: string): TraceStep[] => {
  const steps: TraceStep[] = [];
  const openTurn = new Map<string, Extract<TraceStep, { kind: 'turn' }>>();
  for (const event of parseEvents(text).events) {
    const worker = event.worker === undefined ? undefined : str(event.worker);
    const who = worker ? { worker } : {};
    if (event.type === 'stage' && event.phase === 'end')
      steps.push({
        ...who,
        kind: 'stage',
        stage: str(event.stage),
        durationMs: Number(event.durationMs ?? 0),
        outcome: str(event.outcome),
        ...recordedVerdict(event),
      });
    else if (event.type === 'model') {
      const turn = {
        ...who,
        kind: 'turn' as const,
        turn: Number(event.turn ?? 0),
        stopReason: str(event.stopReason),
        costUsd: Number(event.costUsd ?? 0),
        text: event.text === undefined ? '' : clip(str(event.text), 4000),
        calls: [] as TraceCall[],
      };
      steps.push(turn);
      openTurn.set(worker ?? '', turn);
    } else if (event.type === 'tool') {
      const edit = EDIT_TOOLS.includes(String(event.name));
      const call: TraceCall = {
        name: str(event.name),
        input: bounded(event.input, edit ? 8000 : 2000),
        output: clip(str(event.output), 4000),
        isError: event.isError === true,
        durationMs: Number(event.durationMs ?? 0),
      };
      const turn = openTurn.get(worker ?? '');
      if (turn) turn.calls.push(call);
      else
        steps.push({
          ...who,
          kind: 'turn',
          turn: 0,
          stopReason: '',
          costUsd: 0,
          text: '',
          calls: [call],
        });
    } else if (event.type === 'note' && event.message !== 'budget')
      steps.push({
        ...who,
        kind: 'note',
        message: str(event.message),
        data: event.data === undefined ? '' : clip(str(event.data), 2000),
      });
  }
  return steps;
};

/** A trace file's summary and steps; empty when it cannot be read. */
export const trajectoryOfTrace = (
  text: string | undefined,
): { summary: string; steps: TraceStep[] } => {
  if (!text) return { summary: '', steps: [] };
  const steps = traceSteps(text);
  // Text that holds no trace event (a trajectory stored already rendered) is shown as it is.
  return steps.length > 0 ? { summary: summariseTrace(text), steps } : { summary: text, steps };
};

/** The last event of a type in a trace. */
const lastOf = (text: string | undefined, type: string): Json | undefined =>
  text
    ? parseEvents(text)
        .events.filter((event) => event.type === type)
        .at(-1)
    : undefined;

/**
 * The workspace of the job that wrote a trace: where the trace says it was
 * (on the job's volume, say), else beside the trace in the job's folder.
 */
export const workspaceOfTrace = (
  tracePath: string | null | undefined,
  text?: string,
): string | undefined => {
  const recorded = lastOf(text, 'workspace')?.path;
  if (typeof recorded === 'string') return recorded;
  return tracePath ? path.join(path.dirname(tracePath), 'workspace') : undefined;
};

/** The change the job's checks judged, when its trace recorded one. */
export const changeOfTrace = (
  text: string | undefined,
): { readonly diff: string; readonly truncated: boolean } | undefined => {
  const event = lastOf(text, 'change');
  return typeof event?.diff === 'string'
    ? { diff: event.diff, truncated: event.truncated === true }
    : undefined;
};

export const readTrace = (file: string | undefined): string | undefined => {
  if (!file) return undefined;
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** `regreen trace show FILE`. */
export const showTrace = (file: string): string => {
  const text = readNamedFile(file, 'the trace');
  return summariseTrace(text);
};
