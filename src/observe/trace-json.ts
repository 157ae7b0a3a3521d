import { modelTotals, parseEvents, traceSteps } from './trace-read.ts';

type Json = Record<string, unknown>;

const EDIT_TOOLS = ['edit', 'write', 'apply_patch'];

/**
 * `regreen trace show --json`: what the readable summary says, as data (the
 * stages, the model's turns and spend, the tools used, failed edits, test
 * runs, the outcome the job recorded), and every step (bounded) after it.
 */
export const traceJson = (file: string, text: string): Json => {
  const { events, malformed } = parseEvents(text);
  const own = events.filter((event) => event.worker === undefined);
  const stages = own
    .filter((event) => event.type === 'stage' && event.phase === 'end')
    .map((event) => ({
      stage: event.stage,
      durationMs: event.durationMs,
      outcome: event.outcome,
      ...(event.status === undefined ? {} : { status: event.status }),
    }));
  const budget = events.find((event) => event.type === 'note' && event.message === 'budget')
    ?.data as Json | undefined;
  const turns = events.filter((event) => event.type === 'model').length;
  const { cost, ...tokens } = modelTotals(events);
  const tools = events.filter((event) => event.type === 'tool');
  const counts = new Map<string, { name: string; calls: number; failed: number }>();
  for (const tool of tools) {
    const name = String(tool.name);
    const entry = counts.get(name) ?? { name, calls: 0, failed: 0 };
    entry.calls += 1;
    if (tool.isError === true) entry.failed += 1;
    counts.set(name, entry);
  }
  const outcome = [...events]
    .reverse()
    .find((event) => event.type === 'note' && event.message === 'outcome')?.data;
  return {
    trace: file,
    ...(outcome === undefined ? {} : { outcome }),
    stages,
    ...(turns > 0 || budget
      ? { model: budget?.model ?? null, turns, spend: { ...tokens, costUsd: cost } }
      : {}),
    tools: [...counts.values()],
    failedEdits: tools
      .filter((tool) => EDIT_TOOLS.includes(String(tool.name)) && tool.isError === true)
      .map((tool) => ({ tool: tool.name, error: String(tool.output).split('\n')[0] ?? '' })),
    testRuns: tools
      .filter((tool) => tool.name === 'run_tests')
      .map((tool) => String(tool.output).split(' ')[0] ?? '?'),
    steps: traceSteps(text),
    malformed,
  };
};
