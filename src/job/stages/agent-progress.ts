import path from 'node:path';
import type { Ledger } from '../../agent/ledger.ts';
import type { Budget } from '../../config/operator-bounds.ts';
import type { Trace } from '../../observe/trace.ts';
import type { JobContext } from '../context.ts';

/**
 * An input as one short line: the path or command it names (a path relative
 * to the workspace, its end kept when cut: the file is what a person looks
 * for), else its JSON, cut.
 */
export const shortInput = (input: unknown, workspace: string): string => {
  const record = (input ?? {}) as Record<string, unknown>;
  const named = ['path', 'file', 'command', 'filter', 'pattern', 'op', 'brief', 'question'].find(
    (key) => typeof record[key] === 'string',
  );
  const text = (named ? String(record[named]) : (JSON.stringify(input) ?? '')).replaceAll(
    `${workspace}/`,
    '',
  );
  if (text.length <= 60) return text;
  return named === 'path' || named === 'file' ? `…${text.slice(-59)}` : `${text.slice(0, 59)}…`;
};

/**
 * The job's trace, also heard by the front door: each model turn and each
 * tool call with a short input, and what has been spent of the budget.
 */
export const liveTrace = (job: JobContext, ledger: Ledger, budget: Budget): Trace => {
  const progress = job.deps.progress;
  if (!progress) return job.trace;
  let turn = 0;
  const workspace = path.join(job.scratch, 'workspace');
  return {
    path: job.trace.path,
    emit: (event) => {
      job.trace.emit(event);
      if (event.worker !== undefined) return;
      if (event.type === 'model') turn = event.turn;
      if (event.type !== 'model' && event.type !== 'tool') return;
      progress({
        kind: 'turn',
        turn,
        ...(event.type === 'tool'
          ? {
              tool: event.name,
              input: `${shortInput(event.input, workspace)}${event.name === 'run_tests' ? ` → ${event.output.split('\n')[0]?.split(' ')[0] ?? ''}` : ''}`,
            }
          : {}),
        spentUsd: ledger.spend().costUsd,
        budgetUsd: budget.maxCostUsd,
      });
    },
  };
};

/**
 * What the agent is doing as each step begins, for the live line: the model
 * asked for turn N ("thinking"), or a tool called with its short input.
 */
export const liveSteps = (
  job: JobContext,
  ledger: Ledger,
  budget: Budget,
): ((step: { turn: number; tool?: { name: string; input: unknown } }) => void) | undefined => {
  const progress = job.deps.progress;
  if (!progress) return undefined;
  const workspace = path.join(job.scratch, 'workspace');
  return (step) =>
    progress({
      kind: 'calling',
      turn: step.turn,
      ...(step.tool ? { tool: step.tool.name, input: shortInput(step.tool.input, workspace) } : {}),
      spentUsd: ledger.spend().costUsd,
      budgetUsd: budget.maxCostUsd,
    });
};
