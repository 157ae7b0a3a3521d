import { describe, expect, it } from 'vitest';
import { createWorkflowLog, type WorkflowLogOptions } from '../../src/github/workflow-log.ts';
import { runnerCommands } from './runner-commands.ts';

/** A workflow log that writes into a string, with tokens from a list when given. */
const capture = (tokens?: string[]) => {
  let text = '';
  const options: WorkflowLogOptions = {
    write: (chunk) => {
      text += chunk;
    },
    ...(tokens ? { token: () => tokens.shift() ?? 'ffffffffffffffff' } : {}),
  };
  return { log: createWorkflowLog(options), text: () => text };
};

/** Lines a hostile repository could print: each a workflow command if the runner acted on it. */
const HOSTILE = [
  '::set-output name=x::y',
  '::add-mask::hunter2',
  '   ::error file=a.js::planted',
  '##[set-output name=pr-url;]https://evil.example',
  'FAIL ##[add-mask]z',
  'ok\r::add-mask::after-a-carriage-return',
  '::stop-commands::mine',
  '::endgroup::',
];

describe('the workflow log', () => {
  it('a group per stage from the progress events, the stage lines inside, the outcome last', () => {
    const { log, text } = capture();
    log.progress({ kind: 'start', stage: 'intake' });
    log.progress({ kind: 'stage', stage: 'intake', outcome: 'log of job 7', durationMs: 120 });
    log.progress({ kind: 'start', stage: 'reproduce' });
    log.progress({ kind: 'output', line: 'npm test' });
    log.progress({ kind: 'output', line: 'npm test' });
    log.progress({ kind: 'output', line: '# fail 1' });
    log.progress({
      kind: 'stage',
      stage: 'reproduce',
      outcome: 'failed (exit 1)',
      durationMs: 2500,
    });
    log.progress({ kind: 'start', stage: 'agent' });
    log.progress({ kind: 'stage', stage: 'budget', outcome: 'model: 30 turns', durationMs: 0 });
    log.progress({ kind: 'turn', turn: 1, spentUsd: 0.01, budgetUsd: 2 });
    log.progress({
      kind: 'turn',
      turn: 2,
      tool: 'read_file',
      input: 'src/range.js',
      spentUsd: 0.02,
      budgetUsd: 2,
    });
    log.progress({ kind: 'stage', stage: 'agent', outcome: 'done', durationMs: 9000 });
    log.close();

    const commands = runnerCommands(text()).filter(
      (c) => c.name === 'group' || c.name === 'endgroup',
    );
    expect(commands.map((c) => `${c.name} ${c.data}`.trim())).toEqual([
      'group regreen: intake',
      'endgroup',
      'group regreen: reproduce',
      'endgroup',
      'group regreen: agent',
      'endgroup',
    ]);
    const lines = text().split('\n');
    const inside = (stage: string): string[] => {
      const start = lines.indexOf(`::group::regreen: ${stage}`);
      return lines.slice(start + 1, lines.indexOf('::endgroup::', start));
    };
    expect(inside('reproduce')).toContain('  npm test');
    expect(inside('reproduce').filter((l) => l === '  npm test')).toHaveLength(1);
    expect(inside('reproduce')).toContain('  # fail 1');
    expect(inside('reproduce').some((l) => /reproduce .*2\.5s {2}failed \(exit 1\)/.test(l))).toBe(
      true,
    );
    // The budget line has no group of its own; only tool calls are lines.
    expect(inside('agent').some((l) => l.includes('budget') && l.includes('model: 30 turns'))).toBe(
      true,
    );
    expect(inside('agent').some((l) => l.includes('turn 2: read_file src/range.js'))).toBe(true);
    expect(inside('agent').some((l) => l.includes('turn 1'))).toBe(false);
    // Every command is regreen's own, and commands are on again at the end.
    expect(new Set(runnerCommands(text()).map((c) => c.name))).toEqual(
      new Set(['group', 'endgroup', 'stop-commands', 'resume']),
    );
    expect(runnerCommands(text()).at(-1)?.name).toBe('endgroup');
  });

  it('no line from the repository acts as a workflow command, wherever it is printed', () => {
    const { log, text } = capture();
    log.print('[regreen] warn: before any stage');
    log.progress({ kind: 'start', stage: 'reproduce' });
    for (const line of HOSTILE) log.progress({ kind: 'output', line });
    log.progress({ kind: 'stage', stage: 'reproduce', outcome: HOSTILE.join(' '), durationMs: 1 });
    log.progress({ kind: 'start', stage: 'agent' });
    for (const input of HOSTILE)
      log.progress({ kind: 'turn', turn: 1, tool: 'run_tests', input, spentUsd: 0, budgetUsd: 1 });
    log.progress({ kind: 'stage', stage: 'agent', outcome: 'error: ##[add-mask]q', durationMs: 1 });
    log.print(HOSTILE.join('\n'));
    log.annotate('warning', `regreen found no fix: ${HOSTILE.join('\n')}`);
    log.close();

    const acted = runnerCommands(text());
    expect(
      acted.map((c) => c.name).filter((name) => !['stop-commands', 'resume'].includes(name)),
    ).toEqual(['group', 'endgroup', 'group', 'endgroup', 'warning']);
    // Each hostile line is in the log (inside a stop-commands block), not dropped.
    for (const line of [
      '::set-output name=x::y',
      '::add-mask::hunter2',
      '##[set-output name=pr-url;]',
    ])
      expect(text()).toContain(line);
    // The annotation is one line: its newlines escaped, nothing after it acts.
    const warning = acted.find((c) => c.name === 'warning');
    expect(warning?.line).not.toContain('\n');
    expect(warning?.data).toContain('::add-mask::hunter2');
  });

  it('a line that names the running token gets a block with a fresh one', () => {
    const { log, text } = capture(['aaaa1111aaaa1111', 'bbbb2222bbbb2222', 'cccc3333cccc3333']);
    log.print('first');
    log.print('::AAAA1111AAAA1111::');
    log.print('::add-mask::hunter2');
    log.print('cccc3333cccc3333 ::bbbb2222bbbb2222::');
    log.print('::set-output name=x::y');
    log.close();

    expect(runnerCommands(text()).map((c) => c.name)).toEqual([
      'stop-commands',
      'resume',
      'stop-commands',
      'resume',
      'stop-commands',
      'resume',
    ]);
    expect(text()).toContain('::stop-commands::ffffffffffffffff');
  });

  it('a token the runner refuses, or one the line names, is never used', () => {
    const { log, text } = capture(['', 'deadbeefdeadbeef', '0123456789abcdef']);
    log.print('::deadbeefdeadbeef:: ::add-mask::x');
    log.close();
    expect(text().split('\n')[0]).toBe('::stop-commands::0123456789abcdef');
    expect(runnerCommands(text()).map((c) => c.name)).toEqual(['stop-commands', 'resume']);
  });
});
