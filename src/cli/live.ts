/**
 * What a person at a terminal sees while a job runs. On a terminal: one live
 * line redrawn in place every second (the running stage, its elapsed time,
 * and the last line of the command's output or the agent's turn, tool and
 * spend), with a permanent line for each stage that ends. Not on a terminal
 * (CI logs): plain appended lines. Log records go through the same writer,
 * so a warning never tears the live line.
 */
import type { ProgressEvent, Progress } from '../job/deps.ts';
import { printable } from '../util/text.ts';

export type Verbosity = 'quiet' | 'normal' | 'verbose';

export interface LiveOptions {
  readonly write: (text: string) => void;
  /** A terminal: redraw in place. */
  readonly tty: boolean;
  /** Terminal width (for cutting the live line). */
  readonly columns: () => number;
  readonly color: boolean;
  readonly verbosity: Verbosity;
  readonly now: () => number;
  /** How often the live line is redrawn (ms). */
  readonly tickMs?: number;
  /** Not on a terminal: how long a stage runs between two "still running" lines (ms; 30 s). */
  readonly heartbeatMs?: number;
}

export interface Live {
  readonly progress: Progress;
  /** A line that stays (a log record, a notice): the live line is cleared and redrawn under it. */
  readonly print: (line: string) => void;
  /** No live line until the returned function is called (a question at the prompt). */
  readonly hold: () => () => void;
  readonly stop: () => void;
}

/** regreen's own prefix, at the start of a line a command printed. */
const OWN_PREFIX = /^\[regreen\]\s*/;

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const money = (usd: number): string => `$${usd < 10 ? usd.toFixed(2) : usd.toFixed(0)}`;

export const createLive = (options: LiveOptions): Live => {
  const paint = (code: string, text: string): string =>
    options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  let stage: { name: string; started: number } | undefined;
  let detail = '';
  /** The agent's last tool call with its result (a test run's verdict), shown while the model thinks. */
  let lastCall = '';
  /** What the agent is doing (its turn, the tool running, the spend): a command's output line follows it. */
  let agentStep = '';
  let drawn = false;
  let lastDraw = 0;
  let held = 0;
  let timer: NodeJS.Timeout | undefined;
  /** Not on a terminal: when the running stage last said it still runs (or began). */
  let lastBeat = 0;
  const heartbeatMs = options.heartbeatMs ?? 30_000;
  /** In a CI log, a long stage (a build in `run_tests`) says now and then that it runs, with its last line. */
  const heartbeat = (): void => {
    if (options.tty || options.verbosity !== 'normal' || !stage) return;
    const now = options.now();
    if (now - lastBeat < heartbeatMs) return;
    lastBeat = now;
    line(
      `[regreen] ${stage.name} still running, ${seconds(now - stage.started)}${detail ? `: ${detail}` : ''}`,
    );
  };

  const clear = (): void => {
    if (drawn) options.write('\r\u001b[2K');
    drawn = false;
  };
  const draw = (): void => {
    if (!options.tty || options.verbosity === 'quiet' || !stage || held > 0) return;
    const head = `[regreen] ${stage.name} ${seconds(options.now() - stage.started)}`;
    const room = Math.max(10, options.columns() - head.length - 3);
    const tail = detail.length > room ? `${detail.slice(0, room - 1)}…` : detail;
    options.write(`\r\u001b[2K${paint('36', head)}${tail ? `  ${paint('2', tail)}` : ''}`);
    drawn = true;
    lastDraw = options.now();
  };
  const line = (text: string): void => {
    clear();
    options.write(`${text}\n`);
    draw();
  };

  const outcomeColor = (outcome: string): string =>
    /^(?:error|fail|refused|cancel)/i.test(outcome) ? '31' : '32';

  const progress: Progress = (event: ProgressEvent) => {
    switch (event.kind) {
      case 'start':
        stage = { name: printable(event.stage), started: options.now() };
        detail = '';
        lastCall = '';
        agentStep = '';
        if (options.tty) {
          draw();
          if (!timer) {
            timer = setInterval(draw, options.tickMs ?? 1000);
            timer.unref();
          }
        } else {
          lastBeat = stage.started;
          if (options.verbosity === 'verbose') line(`[regreen] ${stage.name} …`);
          else if (!timer) {
            timer = setInterval(heartbeat, heartbeatMs);
            timer.unref();
          }
        }
        return;
      case 'stage': {
        const name = printable(event.stage);
        const outcome = printable(event.outcome);
        if (stage?.name === name) stage = undefined;
        if (options.verbosity === 'quiet') return;
        line(
          `[regreen] ${name.padEnd(9)} ${seconds(event.durationMs).padStart(7)}  ${paint(outcomeColor(outcome), outcome)}`,
        );
        return;
      }
      case 'output': {
        // A line of regreen's own in the command's output (a replayed step's `[regreen] step: …`)
        // shows without its prefix: the live line has one already.
        const text = printable(event.line).replace(OWN_PREFIX, '');
        if (!options.tty && options.verbosity === 'verbose') line(`  ${text}`);
        // A set-up running beside the agent (a fresh tree made ahead) never hides its turn, tool and spend.
        if (event.background && agentStep) return;
        // In the agent stage the step stays in front: a test run's output does not hide the tool.
        detail = agentStep ? `${agentStep} · ${text}` : text;
        // A new line shows at once (at most five redraws a second), not only on the next tick.
        const now = options.now();
        if (options.tty && now - lastDraw >= 200) draw();
        heartbeat();
        return;
      }
      case 'fetching': {
        // A first use's download takes a while: said beside what the agent is doing, and once in a log.
        const fetching = `fetching ${printable(event.what)} (first use; kept for later jobs)`;
        detail = agentStep ? `${agentStep} · ${fetching}` : fetching;
        if (!options.tty && options.verbosity !== 'quiet') line(`[regreen]   ${fetching}`);
        else if (options.tty) draw();
        return;
      }
      case 'calling': {
        // As a step begins: the model asked (with the last tool's result, a test's verdict), or a tool called.
        const spend = `${money(event.spentUsd)} of ${money(event.budgetUsd)}`;
        agentStep = event.tool
          ? `turn ${event.turn}: ${printable(`${event.tool}${event.input ? ` ${event.input}` : ''}`)} · ${spend}`
          : `turn ${event.turn}: thinking · ${spend}${lastCall ? ` · last: ${lastCall}` : ''}`;
        detail = agentStep;
        const now = options.now();
        if (options.tty && now - lastDraw >= 200) draw();
        return;
      }
      case 'turn': {
        // The model's answer: the tools it calls come next, each as it begins.
        if (!event.tool) return;
        lastCall = printable(`${event.tool}${event.input ? ` ${event.input}` : ''}`);
        detail = `turn ${event.turn}: ${lastCall} · ${money(event.spentUsd)} of ${money(event.budgetUsd)}`;
        // In a CI log, one line per tool call (not per model answer).
        if (!options.tty && options.verbosity !== 'quiet') line(`[regreen]   ${detail}`);
        return;
      }
    }
  };

  return {
    progress,
    print: line,
    hold: () => {
      held += 1;
      clear();
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held -= 1;
        draw();
      };
    },
    stop: () => {
      if (timer) clearInterval(timer);
      timer = undefined;
      clear();
    },
  };
};

/** A pino destination that writes each record as one readable line through the live writer. */
export const readableLogs = (
  print: (line: string) => void,
  color: boolean,
): { write: (chunk: string) => void } => {
  const LEVELS: Record<number, [string, string]> = {
    10: ['trace', '2'],
    20: ['debug', '2'],
    30: ['info', '36'],
    40: ['warn', '33'],
    50: ['error', '31'],
    60: ['fatal', '31'],
  };
  return {
    write: (chunk: string) => {
      for (const raw of chunk.split('\n')) {
        if (!raw.trim()) continue;
        let record: Record<string, unknown>;
        try {
          record = JSON.parse(raw) as Record<string, unknown>;
        } catch {
          print(printable(raw));
          continue;
        }
        const [name, code] = LEVELS[Number(record.level)] ?? ['log', '0'];
        const msg = record.msg;
        const rest = Object.fromEntries(
          Object.entries(record).filter(
            ([key]) => key !== 'level' && key !== 'time' && key !== 'msg',
          ),
        );
        const fields = Object.entries(rest)
          .map(
            ([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`,
          )
          .join(' ');
        const label = color ? `\u001b[${code}m${name}\u001b[0m` : name;
        print(
          `[regreen] ${label}: ${printable(`${typeof msg === 'string' ? msg : ''}${fields ? ` (${fields})` : ''}`)}`,
        );
      }
    },
  };
};
