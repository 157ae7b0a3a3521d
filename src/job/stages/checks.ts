import { writeFileSync } from 'node:fs';
import { discardDir } from '../../util/discard.ts';
import path from 'node:path';
import { DiffParseError, parseDiff, type ParsedDiff } from '../../../checks/diff.ts';
import { runChecks } from '../../../checks/index.ts';
import type { CheckResult } from '../../../checks/types.ts';
import { RegreenError, describeError } from '../../errors.ts';
import { readTextInside } from '../../workspace/confined-fs.ts';
import { checksDiff, hostGitSync, workspaceDiff } from '../../workspace/git.ts';
import type { CommandResult } from '../../workspace/run-process.ts';
import { CHECKED_OUTPUT_BYTES } from '../../workspace/sandbox.ts';
import type { JobContext } from '../context.ts';
import { cloneForJob, excludeSetupArtifacts, openSandbox, runSetup } from './prepare.ts';
import { handOnSetupCaches } from './setup-caches.ts';
import type { RecipesResult } from './recipes.ts';
import type { Reproduced } from './reproduce.ts';

type Failed = Extract<Reproduced, { failed: true }>;

export interface ChecksResult {
  readonly diff: ParsedDiff;
  readonly results: readonly CheckResult[];
  readonly ok: boolean;
  /** The fresh run of the failing command (its tail goes into the PR text). */
  readonly fresh: CommandResult | undefined;
}

/** The diff applied to a clean clone of the base, in a sandbox of its own. */
const freshRun = async (
  job: JobContext,
  failed: Failed,
  diffText: string,
): Promise<{ failing: CommandResult; tests: CommandResult }> => {
  const { prepared } = failed;
  const dest = path.join(job.dir, 'fresh');
  // The fresh clone is only evidence: it goes with the job (the workspace and the trace stay).
  job.disposables.add(() => discardDir(dest));
  await cloneForJob(job, prepared.intake.source, prepared.baseSha, dest);
  const patchFile = path.join(job.dir, 'proposed.diff');
  writeFileSync(patchFile, diffText);
  try {
    hostGitSync(['apply', '--binary', '--whitespace=nowarn', '--', patchFile], { cwd: dest });
  } catch (error) {
    throw new RegreenError(
      'internal',
      `the proposed diff does not apply to a clean clone: ${describeError(error)}`,
      { cause: error },
    );
  }
  const sandbox = await openSandbox(job, dest, 'fresh');
  handOnSetupCaches(job, sandbox);
  const { config } = prepared;
  const timeoutMs = config.timeouts.command_seconds * 1000;
  // The whole output: the checks count what ran and name what failed, not only the tail.
  const run = (command: string, network: 'off' | 'setup', limit: number) =>
    sandbox.run({
      command,
      cwd: dest,
      network,
      timeoutMs: limit,
      signal: job.signal,
      maxOutputBytes: CHECKED_OUTPUT_BYTES,
    });
  let setup: CommandResult | undefined;
  if (prepared.setupCommand) {
    const command = prepared.setupCommand;
    setup = await runSetup(job, dest, command, () =>
      run(command, 'setup', config.timeouts.setup_seconds * 1000),
    );
    await excludeSetupArtifacts(dest);
  }
  if (setup && setup.exitCode !== 0) return { failing: setup, tests: setup };
  const failing =
    failed.setupFailed && setup ? setup : await run(prepared.failingCommand, 'off', timeoutMs);
  const tests =
    prepared.testCommand === prepared.failingCommand && !failed.setupFailed
      ? failing
      : await run(prepared.testCommand, 'off', timeoutMs);
  return { failing, tests };
};

const baseFiles = (workspace: string, baseSha: string): string[] =>
  hostGitSync(['ls-tree', '-r', '--name-only', '-z', baseSha], { cwd: workspace })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);

const baseContent =
  (workspace: string, baseSha: string) =>
  (file: string): string | undefined => {
    try {
      return hostGitSync(['show', `${baseSha}:${file}`], { cwd: workspace }).toString('utf8');
    } catch {
      return undefined;
    }
  };

const newContent =
  (workspace: string) =>
  (file: string): string | undefined =>
    readTextInside(workspace, path.join(workspace, file));

/**
 * The change as the checks read it: the text diff (see `checksDiff`), with
 * each file git would call binary marked so. A diff the parser cannot read is
 * a failed check, never an empty pass.
 */
export const readChange = async (
  workspace: string,
  baseSha: string,
): Promise<{ diff: ParsedDiff; unreadable?: string }> => {
  const applied = await workspaceDiff(workspace, baseSha);
  const empty: ParsedDiff = { text: applied, files: [], changedLines: 0 };
  try {
    const binary = new Set(
      parseDiff(applied)
        .files.filter((file) => file.binary)
        .map((file) => file.path),
    );
    const read = parseDiff(await checksDiff(workspace, baseSha));
    return {
      diff: {
        ...read,
        text: applied,
        files: read.files.map((file) => ({ ...file, binary: binary.has(file.path) })),
      },
    };
  } catch (error) {
    if (!(error instanceof DiffParseError)) throw error;
    return { diff: empty, unreadable: error.message };
  }
};

/** Every check, by code, on the proposed diff. */
export const runChecksStage = async (
  job: JobContext,
  failed: Failed,
  recipes: RecipesResult,
): Promise<ChecksResult> => {
  const { prepared } = failed;
  const { diff, unreadable } = await readChange(prepared.workspace, prepared.baseSha);
  if (unreadable !== undefined)
    return {
      diff,
      results: [
        { name: 'readable-diff', ok: false, detail: `the change cannot be read: ${unreadable}` },
      ],
      ok: false,
      fresh: undefined,
    };
  if (diff.files.length === 0) return { diff, results: [], ok: false, fresh: undefined };
  const fresh = await freshRun(job, failed, diff.text);
  const results = runChecks({
    diff,
    baseFiles: baseFiles(prepared.workspace, prepared.baseSha),
    baseContent: baseContent(prepared.workspace, prepared.baseSha),
    newContent: newContent(prepared.workspace),
    failingCommand: failed.command,
    testCommand: prepared.testCommand,
    failingBefore: failed.result,
    freshFailing: fresh.failing,
    testsBefore: failed.testsBefore,
    testsAfter: fresh.tests,
    protectedGlobs: prepared.config.protected,
    allowedProtected: recipes.allowedProtected,
    unprotectedGlobs: prepared.config.unprotected,
    limits: {
      maxFiles: prepared.config.diff_limits.max_files,
      maxLines: prepared.config.diff_limits.max_lines,
    },
  });
  return { diff, results, ok: results.every((result) => result.ok), fresh: fresh.failing };
};
