/**
 * The Action's workflow log. The runner reads every line a step prints as a
 * possible workflow command (`::add-mask::…`, `::set-output …::…`, and the old
 * `##[…]` form anywhere in a line), on stdout and stderr alike. Most of what
 * regreen prints comes from the repository it works on: test output, error
 * messages, the agent's tool calls, titles and reasons. So one writer owns the
 * log, and it has one rule: regreen's own commands (a group per stage, its
 * end, an annotation) are written with commands on; every other line is
 * written inside a `::stop-commands::<token>` block (GitHub's documented
 * switch), the token fresh and random for each block and never one the line
 * names, so nothing printed can end the block and act as a command.
 *
 * Stages come from the job's own progress events, the ones the CLI's live
 * line reads: `start` opens the stage's group, its `stage` event prints the
 * outcome and closes it; output and tool calls go inside.
 */
import { randomBytes } from 'node:crypto';
import type { Progress, ProgressEvent } from '../job/deps.ts';
import { printable } from '../util/text.ts';

/** A command's message, escaped the way the runner unescapes it (toolkit's `escapeData`). */
export const escapeCommandData = (text: string): string =>
  text.replaceAll('%', '%25').replaceAll('\r', '%0D').replaceAll('\n', '%0A');

/** A command's property value (toolkit's `escapeProperty`). */
export const escapeCommandProperty = (text: string): string =>
  escapeCommandData(text).replaceAll(':', '%3A').replaceAll(',', '%2C');

export type AnnotationLevel = 'notice' | 'warning' | 'error';

export interface WorkflowLog {
  /** The job's progress: a group per stage, its lines inside. */
  readonly progress: Progress;
  /** Lines of text (a log record, the outcome): printed with workflow commands stopped. */
  readonly print: (text: string) => void;
  /** An annotation on the run, its message on one line and escaped. */
  readonly annotate: (level: AnnotationLevel, message: string) => void;
  /** Closes a group left open and turns workflow commands back on. */
  readonly close: () => void;
}

export interface WorkflowLogOptions {
  /** Where the log goes: one stream (the runner reads stdout and stderr apart, so their order is lost between them). */
  readonly write: (text: string) => void;
  /** A fresh stop-commands token (default: 16 random bytes in hex). */
  readonly token?: () => string;
}

const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)}s`;
const money = (usd: number): string => `$${usd < 10 ? usd.toFixed(2) : usd.toFixed(0)}`;
const cut = (text: string, max: number): string =>
  text.length > max ? `${text.slice(0, max - 1)}…` : text;

export const createWorkflowLog = (options: WorkflowLogOptions): WorkflowLog => {
  const newToken = options.token ?? (() => randomBytes(16).toString('hex'));
  const write = (line: string): void => options.write(`${line}\n`);
  /** The token of the open stop-commands block, when commands are stopped. */
  let stopped: string | undefined;
  let group: string | undefined;
  let lastOutput = '';

  const resume = (): void => {
    if (stopped === undefined) return;
    write(`::${stopped}::`);
    stopped = undefined;
  };
  /** One of regreen's own commands: written with commands on. */
  const command = (name: string, data = '', properties = ''): void => {
    resume();
    write(`::${name}${properties ? ` ${properties}` : ''}::${escapeCommandData(data)}`);
  };
  /** One line of text: inside a stop-commands block whose token the line does not name. */
  const text = (line: string): void => {
    const folded = line.toLowerCase();
    // The runner compares the token without case. A line cannot know a random token; still.
    if (stopped !== undefined && folded.includes(stopped.toLowerCase())) resume();
    if (stopped === undefined) {
      let token = newToken();
      while (!token || folded.includes(token.toLowerCase())) token = newToken();
      write(`::stop-commands::${token}`);
      stopped = token;
    }
    write(line);
  };
  const print = (value: string): void => {
    for (const line of value.split('\n')) text(printable(line));
  };
  const endGroup = (): void => {
    if (group === undefined) return;
    command('endgroup');
    group = undefined;
  };

  const progress: Progress = (event: ProgressEvent) => {
    switch (event.kind) {
      case 'start':
        endGroup();
        group = event.stage;
        lastOutput = '';
        command('group', `regreen: ${printable(event.stage)}`);
        return;
      case 'stage': {
        const name = printable(event.stage);
        const outcome = printable(event.outcome);
        // A stage of its own ends its group; a line such as the agent's budget stays inside the open one.
        print(`[regreen] ${name.padEnd(9)} ${seconds(event.durationMs).padStart(7)}  ${outcome}`);
        if (group === event.stage) endGroup();
        return;
      }
      case 'output': {
        const line = printable(event.line);
        if (!line || line === lastOutput) return;
        lastOutput = line;
        print(`  ${line}`);
        return;
      }
      case 'turn':
        // One line per tool call, as in the CLI's log (not per model answer).
        if (!event.tool) return;
        print(
          `[regreen]   turn ${event.turn}: ${cut(printable(`${event.tool}${event.input ? ` ${event.input}` : ''}`), 160)} · ${money(event.spentUsd)} of ${money(event.budgetUsd)}`,
        );
        return;
    }
  };

  return {
    progress,
    print,
    annotate: (level, message) =>
      command(level, cut(printable(message), 500), `title=${escapeCommandProperty('regreen')}`),
    close: () => {
      endGroup();
      resume();
    },
  };
};
