import { describe, expect, it } from 'vitest';
import { createLive } from '../../src/cli/live.ts';

/** The live line's text as last drawn: what follows the last redraw sequence, colours off. */
const lastDrawn = (written: readonly string[]): string =>
  (written.join('').split('\r\u001b[2K').at(-1) ?? '').trim();

describe('the live line in the agent stage', () => {
  const live = (tty: boolean) => {
    const written: string[] = [];
    let now = 0;
    const handle = createLive({
      write: (text) => written.push(text),
      tty,
      columns: () => 200,
      color: false,
      verbosity: 'normal',
      now: () => (now += 1000),
    });
    handle.progress({ kind: 'start', stage: 'agent' });
    return { written, handle };
  };

  it('a set-up running in the background never takes the place of the turn, tool and spend', () => {
    const { written, handle } = live(true);
    handle.progress({ kind: 'calling', turn: 1, spentUsd: 0.05, budgetUsd: 2 });
    handle.progress({ kind: 'output', line: 'added 412 packages in 9s', background: true });
    expect(lastDrawn(written)).toMatch(/turn 1: thinking · \$0\.05 of \$2\.00$/);
    // The agent's own test run still shows its output after its step.
    handle.progress({ kind: 'calling', turn: 2, tool: 'run_tests', spentUsd: 0.1, budgetUsd: 2 });
    handle.progress({ kind: 'output', line: 'TAP version 13' });
    handle.progress({ kind: 'output', line: 'npm warn deprecated', background: true });
    expect(lastDrawn(written)).toMatch(/turn 2: run_tests · \$0\.10 of \$2\.00 · TAP version 13$/);
  });

  it('a first use’s download says so, beside the step, at a terminal and once in a log', () => {
    const { written, handle } = live(true);
    handle.progress({
      kind: 'calling',
      turn: 3,
      tool: 'lsp_definition',
      spentUsd: 0.1,
      budgetUsd: 2,
    });
    handle.progress({ kind: 'fetching', what: 'typescript-language-server@4.3.3' });
    expect(lastDrawn(written)).toMatch(
      /turn 3: lsp_definition · \$0\.10 of \$2\.00 · fetching typescript-language-server@4\.3\.3 \(first use; kept for later jobs\)$/,
    );
    const log = live(false);
    log.handle.progress({ kind: 'fetching', what: 'pyright@1.1.400' });
    expect(log.written.join('')).toContain(
      '[regreen]   fetching pyright@1.1.400 (first use; kept for later jobs)\n',
    );
  });

  it('at a terminal: the tool being called while it runs; while the model thinks, the last result', () => {
    const { written, handle } = live(true);
    handle.progress({
      kind: 'calling',
      turn: 2,
      tool: 'edit',
      input: 'src/a.js',
      spentUsd: 0.1,
      budgetUsd: 2,
    });
    expect(lastDrawn(written)).toMatch(/turn 2: edit src\/a\.js · \$0\.10 of \$2\.00$/);
    handle.progress({
      kind: 'turn',
      turn: 2,
      tool: 'run_tests',
      input: '{} → PASS',
      spentUsd: 0.1,
      budgetUsd: 2,
    });
    handle.progress({ kind: 'calling', turn: 3, spentUsd: 0.1, budgetUsd: 2 });
    expect(lastDrawn(written)).toMatch(
      /turn 3: thinking · \$0\.10 of \$2\.00 · last: run_tests \{\} → PASS$/,
    );
    // A test run's output follows the step, which stays in front.
    handle.progress({
      kind: 'calling',
      turn: 4,
      tool: 'run_tests',
      input: '',
      spentUsd: 0.2,
      budgetUsd: 2,
    });
    handle.progress({ kind: 'output', line: 'TAP version 13' });
    expect(lastDrawn(written)).toMatch(/turn 4: run_tests · \$0\.20 of \$2\.00 · TAP version 13$/);
    handle.progress({ kind: 'calling', turn: 3, spentUsd: 0.1, budgetUsd: 2 });
    // The model's answer itself changes nothing: the tool it calls is told next.
    handle.progress({ kind: 'turn', turn: 3, spentUsd: 0.2, budgetUsd: 2 });
    expect(lastDrawn(written)).toMatch(/turn 3: thinking/);
    handle.stop();
  });

  it('in a log: one line per tool call once it has run, nothing as steps begin', () => {
    const { written, handle } = live(false);
    handle.progress({
      kind: 'calling',
      turn: 1,
      tool: 'read',
      input: 'src/a.js',
      spentUsd: 0,
      budgetUsd: 2,
    });
    handle.progress({ kind: 'calling', turn: 2, spentUsd: 0, budgetUsd: 2 });
    expect(written.join('')).toBe('');
    handle.progress({
      kind: 'turn',
      turn: 1,
      tool: 'read',
      input: 'src/a.js',
      spentUsd: 0,
      budgetUsd: 2,
    });
    expect(written.join('')).toBe('[regreen]   turn 1: read src/a.js · $0.00 of $2.00\n');
    handle.stop();
  });

  it('in a log: a long run says now and then that it still runs, with the step and its last line', () => {
    const written: string[] = [];
    let now = 0;
    const handle = createLive({
      write: (text) => written.push(text),
      tty: false,
      columns: () => 200,
      color: false,
      verbosity: 'normal',
      now: () => now,
      heartbeatMs: 30_000,
    });
    handle.progress({ kind: 'start', stage: 'agent' });
    handle.progress({
      kind: 'calling',
      turn: 4,
      tool: 'run_tests',
      input: '',
      spentUsd: 0.2,
      budgetUsd: 2,
    });
    for (const [at, text] of [
      [10_000, 'Compiling serde v1.0.200'],
      [29_000, 'Compiling syn v2.0.60'],
      [31_000, 'Compiling tokio v1.37.0'],
      [50_000, 'Compiling hyper v1.3.1'],
      [62_000, 'Running unittests src/lib.rs'],
    ] as const) {
      now = at;
      handle.progress({ kind: 'output', line: text });
    }
    expect(written.join('').trimEnd().split('\n')).toEqual([
      '[regreen] agent still running, 31.0s: turn 4: run_tests · $0.20 of $2.00 · Compiling tokio v1.37.0',
      '[regreen] agent still running, 62.0s: turn 4: run_tests · $0.20 of $2.00 · Running unittests src/lib.rs',
    ]);
    handle.stop();
  });
});
