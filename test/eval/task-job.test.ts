import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { taskReport } from '../../src/eval/run.ts';
import { loadTasks } from '../../src/eval/tasks.ts';
import { makeTempDir } from '../support/tmp.ts';

const line = (extra: Record<string, unknown>): string =>
  JSON.stringify({
    id: 'owner-name-abc',
    repo: 'https://example.invalid/owner/name',
    base_commit: 'abcdef0',
    test_command: 'python3 -m pytest tests/test_x.py',
    fail_to_pass: ['python3 -m pytest tests/test_x.py'],
    kind: 'ci',
    ...extra,
  });

const temp = makeTempDir('task-job-');
afterAll(() => temp.cleanup());
let files = 0;

const load = (...lines: string[]) => {
  files += 1;
  const file = path.join(temp.dir, `tasks-${files}.jsonl`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return loadTasks(file);
};

describe('a task names the CI job that runs its tests', () => {
  it('reads ci_job, and refuses one that is not a single line of text', () => {
    const { tasks, errors } = load(
      line({ ci_job: 'test.yml:test' }),
      line({ id: 'b', ci_job: 'a\nb' }),
      line({ id: 'c', ci_job: 7 }),
      line({ id: 'd', ci_job: '' }),
    );
    expect(tasks.map((t) => t.ci_job)).toEqual(['test.yml:test']);
    expect(errors.map((e) => [e.line, e.message.split(':')[0]])).toEqual([
      [2, 'ci_job'],
      [3, 'ci_job'],
      [4, 'ci_job'],
    ]);
  });

  it('hands the pipeline its command, or with replay job its job by name and no command', () => {
    const { tasks } = load(line({ ci_job: 'test.yml:build (3.12)' }), line({ id: 'plain' }));
    const [named, plain] = tasks;
    if (!named || !plain) throw new Error('tasks not loaded');
    expect(taskReport(named, '/r', 'command')).toEqual({
      repo: '/r',
      ref: 'regreen-eval',
      command: 'python3 -m pytest tests/test_x.py',
      trigger: 'eval',
    });
    expect(taskReport(named, '/r', 'job')).toEqual({
      repo: '/r',
      ref: 'regreen-eval',
      workflowJob: 'build (3.12)',
      trigger: 'eval',
    });
    // A task without a known job keeps its command under the job replay.
    expect(taskReport(plain, '/r', 'job').command).toBe('python3 -m pytest tests/test_x.py');
    // A name whose own text has a colon is not taken for a file.
    const colon = { ...named, ci_job: 'lint: strict' };
    expect(taskReport(colon, '/r', 'job').workflowJob).toBe('lint: strict');
  });
});
