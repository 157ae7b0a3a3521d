import { describe, expect, it } from 'vitest';
import { compareReports } from '../../src/eval/compare.ts';
import type { EvalReport, TaskResult } from '../../src/eval/types.ts';

const task = (id: string, resolved: boolean): TaskResult =>
  ({ id, kind: 'ci', resolved, falseFix: false, checksFired: [] }) as unknown as TaskResult;
const report = (tasks: TaskResult[]): EvalReport => ({
  policy: 'oracle',
  tasks,
  summary: {
    total: tasks.length,
    resolved: tasks.filter((t) => t.resolved).length,
    rate: 0,
    falseFixes: 0,
    errors: 0,
    costUsd: 0,
    wallMs: 0,
  },
});

describe('eval compare', () => {
  it('a task B dropped is a regression, as one it newly fails; one B added is not', () => {
    const a = report([task('kept', true), task('dropped', true)]);
    const dropped = compareReports(
      { label: 'a', report: a },
      { label: 'b', report: report([task('kept', true)]) },
    );
    expect(dropped.counts['only in A']).toBe(1);
    expect(dropped.regressed).toBe(true);
    const added = compareReports(
      { label: 'a', report: report([task('kept', true)]) },
      { label: 'b', report: report([task('kept', true), task('new', false)]) },
    );
    expect(added.regressed).toBe(false);
  });
});
