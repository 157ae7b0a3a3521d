import { RegreenError } from '../../errors.ts';
import { failureFingerprint, triageLog } from '../../intake/actions-log.ts';
import { normaliseErrorLines } from '../../intake/failure-report.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import { CHECKED_OUTPUT_BYTES } from '../../workspace/sandbox/sandbox.ts';
import type { JobContext } from '../context.ts';
import type { CheckedRun } from '../../../checks/types.ts';
import { countedRun } from './counted-run.ts';
import type { Prepared } from './prepare.ts';
import { excludeSetupArtifacts } from './setup-exclusions.ts';
import { runnerNeverRan, type NeverRan } from './runner-never-ran.ts';

export type Reproduced =
  | {
      readonly failed: true;
      readonly prepared: Prepared;
      /** The command that failed: the setup step, or the failing command. */
      readonly command: string;
      readonly setupFailed: boolean;
      readonly result: CheckedRun;
      readonly fingerprint: string;
      readonly branch: string;
      /** The full test command on the base. */
      readonly testsBefore: CheckedRun;
      /** The command passes: the job works on a person's request (a review comment), not a failure. */
      readonly passing?: boolean;
      /** The command failed before its runner ran: the environment's outcome, never the failure to fix. */
      readonly neverRan?: NeverRan;
    }
  | {
      readonly failed: false;
      readonly prepared: Prepared;
      readonly command: string;
      readonly result: CommandResult;
    };

const ERROR_LINE = /(error|fail|assert|expected|exception|panic|✖|×|✕|not ok|\[warn\])/i;

/** The error lines of an output that identify the failure (not its noise). */
export const errorLines = (output: string): string[] => {
  const lines = normaliseErrorLines(output);
  const errors = lines.filter((line) => ERROR_LINE.test(line));
  return (errors.length > 0 ? errors : lines.slice(-30)).slice(0, 60);
};

/**
 * The fingerprint of the failure a run printed, as `regreen triage` would
 * give CI's log of it (the workspace's own path left out, as CI's is).
 */
export const outputFingerprint = (output: string, command: string, workspace: string): string => {
  const text = output.split(`${workspace}/`).join('');
  return failureFingerprint(triageLog(text).failures, command, errorLines(text).join('\n'));
};

/** A shell exits 127 when the command does not exist. */
const COMMAND_NOT_FOUND = 127;

/** Runs the failing command on the base. Green means flaky or environmental. */
export const reproduce = async (job: JobContext, prepared: Prepared): Promise<Reproduced> => {
  const { sandbox, workspace, config } = prepared;
  const timeoutMs = config.timeouts.command_seconds * 1000;
  // The workflow's jobs ran every step, all green, while the failure was searched for.
  if (prepared.passed)
    return { failed: false, prepared, command: prepared.failingCommand, result: prepared.passed };
  const setupFailed = prepared.setupResult !== undefined && prepared.setupResult.exitCode !== 0;
  const command = setupFailed ? (prepared.setupCommand ?? '') : prepared.failingCommand;
  const result =
    setupFailed && prepared.setupResult
      ? prepared.setupResult
      : await countedRun(sandbox, {
          command,
          cwd: workspace,
          network: 'off',
          timeoutMs,
          signal: job.signal,
          maxOutputBytes: CHECKED_OUTPUT_BYTES,
        });
  if (result.exitCode === COMMAND_NOT_FOUND) {
    throw new RegreenError(
      'command-not-found',
      `command not found in the sandbox: \`${command}\` (exit 127): ${result.output.trim().split('\n').at(-1) ?? ''}`,
    );
  }
  const request = prepared.intake.report.task;
  if (result.exitCode === 0 && !request) return { failed: false, prepared, command, result };
  const id =
    prepared.intake.report.fingerprint ?? outputFingerprint(result.output, command, workspace);
  // The proposal's branch is made when proposing: the workspace keeps the name CI had.
  const branch = `regreen/${id}`;
  // Held to what a pass is held to: a failure counts only once its runner proved it ran.
  const neverRan = setupFailed || request ? undefined : runnerNeverRan(result);
  const testsBefore =
    setupFailed || neverRan || prepared.testCommand === prepared.failingCommand
      ? result
      : await countedRun(sandbox, {
          command: prepared.testCommand,
          cwd: workspace,
          network: 'off',
          timeoutMs,
          signal: job.signal,
          maxOutputBytes: CHECKED_OUTPUT_BYTES,
        });
  // What the runs on the base wrote that git does not ignore (a coverage file, a runner's cache)
  // is theirs, not the change's: it stays out of every diff, as the set-up's files do.
  await excludeSetupArtifacts(workspace);
  return {
    failed: true,
    prepared,
    command,
    setupFailed,
    result,
    fingerprint: id,
    branch,
    testsBefore,
    ...(result.exitCode === 0 ? { passing: true } : {}),
    ...(neverRan ? { neverRan } : {}),
  };
};
