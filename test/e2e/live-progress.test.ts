/* eslint-disable no-control-regex -- the test reads terminal escape sequences */
/**
 * What a person at a terminal sees while `regreen fix` runs: through a real
 * pseudo-terminal (util-linux `script`), a live line redrawn every second
 * from the first second to the last, with the running command's last line;
 * in a log (no terminal), plain lines only; `--quiet`, `NO_COLOR`, and log
 * records as readable lines.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createLive, readableLogs } from '../../src/cli/live.ts';
import { outputFlags } from '../../src/entrypoints/cli.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

const BIN = path.join(import.meta.dirname, '..', '..', 'bin', 'regreen.js');
const temp = makeTempDir('regreen-live-');
afterAll(() => temp.cleanup());

const SECONDS = 6;
const repo = path.join(temp.dir, 'repo');
execFileSync('git', ['init', '-q', repo]);
writeFileSync(
  path.join(repo, 't.sh'),
  `for i in $(seq 1 ${SECONDS}); do echo "step $i of ${SECONDS}"; sleep 1; done\necho "FAIL: boom"\nexit 1\n`,
);
execFileSync('git', ['add', '.'], { cwd: repo });
execFileSync(
  'git',
  ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'init'],
  { cwd: repo },
);

const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`;

/** Runs regreen under a pseudo-terminal; returns what the terminal received. */
const atTerminal = (args: readonly string[], env: Record<string, string> = {}): string => {
  const file = path.join(temp.dir, `tty-${Date.now()}.txt`);
  const command = [process.execPath, BIN, ...args].map(quote).join(' ');
  try {
    execFileSync('script', ['-qfec', command, file], {
      env: { ...process.env, ...env, COLUMNS: '120' },
      stdio: 'ignore',
      timeout: 120_000,
    });
  } catch {
    // regreen exits 1 (a diagnosis): the transcript is what matters.
  }
  return readFileSync(file, 'utf8');
};

const fixArgs = (data: string): string[] => [
  'fix',
  '--repo',
  repo,
  '--command',
  'bash t.sh',
  '--data-dir',
  path.join(temp.dir, data),
];

describe('live progress', () => {
  it('at a terminal: a live line every second of the command, with its last output line', () => {
    const screen = atTerminal(fixArgs('tty'));
    // Every redraw of the running stage: "[regreen] reproduce 2.9s  step 3 of 6".
    const plain = screen.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
    const redraws = [
      ...plain.matchAll(/\[regreen\] reproduce (\d+)\.\ds(?: {2}(.*?))?(?=\r|\n|$)/g),
    ];
    const seconds = [...new Set(redraws.map((m) => Number(m[1])))].sort((a, b) => a - b);
    // From the first second to the last, redrawn every second (a loaded machine may skip one tick).
    expect(seconds[0]).toBe(0);
    expect(seconds.at(-1)).toBeGreaterThanOrEqual(SECONDS - 1);
    expect(seconds.length).toBeGreaterThanOrEqual(SECONDS - 1);
    for (let i = 1; i < seconds.length; i += 1)
      expect(
        (seconds[i] ?? 0) - (seconds[i - 1] ?? 0),
        `after second ${seconds[i - 1]}`,
      ).toBeLessThanOrEqual(2);
    const shown = redraws.map((m) => m[2] ?? '').filter(Boolean);
    expect(shown).toContain(`step ${SECONDS} of ${SECONDS}`);
    // Redrawn in place, and a permanent line when the stage ends.
    expect(screen).toContain('\r\u001b[2K');
    expect(plain).toMatch(/\[regreen\] reproduce +\d+\.\ds {2}failed \(exit 1\)/);
    // Colours on a terminal unless NO_COLOR.
    expect(screen).toMatch(/\u001b\[3\dm/);
  }, 120_000);

  it("a replayed step's own [regreen] line shows under one prefix, not nested in the live line's (#37)", () => {
    // A workflow whose job runs a slow step before the failing one: regreen replays it as the
    // setup, and the replay prints `[regreen] step: …` before the step's own output.
    const replayed = path.join(temp.dir, 'replayed');
    execFileSync('git', ['clone', '-q', repo, replayed]);
    mkdirSync(path.join(replayed, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      path.join(replayed, '.github', 'workflows', 'ci.yml'),
      'name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - name: Prepare things\n        run: sleep 3\n      - run: bash t.sh\n',
    );
    execFileSync('git', ['add', '.'], { cwd: replayed });
    execFileSync(
      'git',
      ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'ci'],
      { cwd: replayed },
    );
    const screen = atTerminal([
      'fix',
      '--repo',
      replayed,
      '--command',
      'bash t.sh',
      '--model',
      'none',
      '--data-dir',
      path.join(temp.dir, 'replayed-data'),
    ]);
    const plain = screen.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');
    expect(plain).toMatch(/\[regreen\] prepare \d+\.\ds {2}step: Prepare things(?=\r|\n|$)/);
    const nested = plain.split(/\r|\n/).filter((line) => /\[regreen\].*\[regreen\]/.test(line));
    expect(nested).toEqual([]);
  }, 120_000);

  it("in the agent stage, where the fresh check's set-up runs meanwhile: one prefix too (#37)", () => {
    const written: string[] = [];
    let clock = 0;
    const live = createLive({
      write: (text) => written.push(text),
      tty: true,
      columns: () => 200,
      color: false,
      verbosity: 'normal',
      now: () => (clock += 1000),
    });
    live.progress({ kind: 'start', stage: 'agent' });
    live.progress({ kind: 'output', line: '[regreen] step: Install dependencies' });
    live.stop();
    const shown = written.join('');
    expect(shown).toMatch(/\[regreen\] agent \d+\.\ds {2}step: Install dependencies/);
    expect(shown).not.toMatch(/\[regreen\][^\r\n]*\[regreen\]/);
  });

  it('NO_COLOR: the live line without colours', () => {
    const screen = atTerminal(fixArgs('nocolor'), { NO_COLOR: '1' });
    expect(screen).toContain('\r\u001b[2K');
    expect(screen).not.toMatch(/\u001b\[3\dm/);
  }, 120_000);

  it('not at a terminal: plain appended lines, no redraws; --quiet: only the outcome', async () => {
    const plain = await runCli(fixArgs('plain'));
    expect(plain.stderr).not.toContain('\r');
    expect(plain.stderr).not.toContain('\u001b[');
    expect(plain.stderr).toMatch(/^\[regreen\] reproduce +\d+\.\ds {2}failed \(exit 1\)/m);
    const quiet = await runCli([...fixArgs('quiet'), '--quiet']);
    expect(quiet.stderr).not.toMatch(/\[regreen\] reproduce/);
    expect(quiet.stdout).toMatch(/diagnosis/);
  }, 120_000);

  it('log records are readable lines; JSON only when asked', () => {
    const lines: string[] = [];
    const live = createLive({
      write: () => undefined,
      tty: false,
      columns: () => 80,
      color: false,
      verbosity: 'normal',
      now: () => 0,
    });
    const logger = pino(
      { level: 'info', base: undefined },
      readableLogs((l) => lines.push(l), false),
    );
    logger.warn({ attempt: 2 }, 'sandbox failed to start the command; retrying');
    expect(lines).toEqual([
      '[regreen] warn: sandbox failed to start the command; retrying (attempt=2)',
    ]);
    live.stop();
    expect(outputFlags(['node', 'regreen', 'fix', '--log-format', 'json', '--verbose'])).toEqual({
      verbosity: 'verbose',
      logFormat: 'json',
      rest: ['node', 'regreen', 'fix'],
    });
    expect(() => outputFlags(['--log-format=xml'])).toThrow(/text or json/);
  });

  it("a repository's output cannot drive the terminal: escape and control sequences are removed", () => {
    const written: string[] = [];
    let clock = 0;
    const live = createLive({
      write: (text) => written.push(text),
      tty: true,
      columns: () => 200,
      color: false,
      verbosity: 'verbose',
      now: () => (clock += 1000),
    });
    live.progress({ kind: 'start', stage: 'reproduce' });
    // OSC 52 (write the clipboard), OSC 0 (set the title), a one-byte CSI, BEL.
    live.progress({
      kind: 'output',
      line: '\u001b]52;c;ZWNobyBvd25lZA==\u0007step\u001b]0;pwned\u001b\\ 1\u009b2J\u0007',
    });
    live.progress({
      kind: 'stage',
      stage: 'reproduce',
      outcome: 'failed\u001b]0;x\u0007 (exit 1)',
      durationMs: 1,
    });
    const lines: string[] = [];
    const logs = readableLogs((l) => lines.push(l), false);
    logs.write('{"level":40,"msg":"bad \\u001b]0;title\\u0007 name"}\n');
    live.stop();
    const shown = [...written, ...lines].join('');
    // Only regreen's own redraw sequence remains: ESC [ 2 K after a carriage return.
    expect(shown.replaceAll('\r\u001b[2K', '')).not.toMatch(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/,
    );
    expect(shown).toMatch(/\[regreen\] reproduce \d\.\ds {2}step\r/);
    expect(lines[0]).toBe('[regreen] warn: bad  name');
  });

  it('an agent turn: the tool, a short input and the spend against the budget', () => {
    const written: string[] = [];
    const live = createLive({
      write: (text) => written.push(text),
      tty: false,
      columns: () => 80,
      color: false,
      verbosity: 'normal',
      now: () => 0,
    });
    live.progress({ kind: 'start', stage: 'agent' });
    live.progress({
      kind: 'turn',
      turn: 3,
      tool: 'run_tests',
      input: 'test/cart.test.ts → FAIL',
      spentUsd: 0.12,
      budgetUsd: 2,
    });
    live.stop();
    expect(written.join('')).toContain(
      '[regreen]   turn 3: run_tests test/cart.test.ts → FAIL · $0.12 of $2.00',
    );
  });
});
