import { Option, type Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { sandboxOption, type CliContext, dataDirOption } from './context.ts';
import { lstatSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { resolveRepoSource } from '../workspace/repo/clone.ts';
import type { CommandResult, Sandbox, SandboxKind } from '../workspace/sandbox/sandbox.ts';
import { sandboxFactory } from '../workspace/sandbox/registry.ts';
import { quote } from '../util/text.ts';
import { buildSandboxPolicy } from '../workspace/sandbox/policy.ts';
import { defaultDataDir, homeOf, settingsOf, type Env } from '../config/env.ts';
import { giveBack, sandboxUidOf } from '../workspace/sandbox/identity.ts';
import { registryHostsOf } from '../workspace/setup/registries.ts';
import { openJobVolume, releaseOrphanVolumes } from '../workspace/sandbox/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../workspace/sandbox/sandbox.ts';

/**
 * The sandbox's tmp and home for one ad hoc run, on a volume of the disk limit's size as a job's
 * trees are (`openJobVolume`): the kernel refuses a write past it there. The workspace is the
 * person's own folder and stays where it is, watched while each command runs, not bounded by
 * the kernel: said on every run (and, with no volume here, that tmp and home are only watched too).
 */
const adhocScratch = async (
  runDir: string,
  options: { env: Env; logger: Logger; kind: SandboxKind },
): Promise<{ privateDir: string; volume: boolean; dispose: () => Promise<void> }> => {
  const settings = settingsOf(options.env);
  const sizeMb = settings.maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb;
  const mode = settings.jobVolume ?? 'auto';
  const removeRun = (): void => rmSync(runDir, { recursive: true, force: true });
  // No sandbox (`none`) bounds nothing: its private folder is left as it always was.
  if (options.kind !== 'bubblewrap')
    return { privateDir: runDir, volume: false, dispose: () => Promise.resolve() };
  if (mode !== 'off') releaseOrphanVolumes();
  const answer = await openJobVolume({ dir: runDir, sizeMb, mode });
  if ('unavailable' in answer) {
    options.logger.warn(
      `disk: the sandbox's tmp, home and --workspace are watched while the command runs, not bounded by the kernel (${answer.unavailable}); a fast write can pass REGREEN_MAX_DISK_MB (${sizeMb} MiB) before it is stopped`,
    );
    // As before: the sandbox removes its own private folder; the run's folder is that folder.
    return { privateDir: runDir, volume: false, dispose: () => Promise.resolve() };
  }
  options.logger.warn(
    `disk: the sandbox's tmp and home are on a ${answer.volume.sizeMb} MiB volume (the kernel refuses a write past it); --workspace is your own folder, watched while the command runs, not bounded by the kernel`,
  );
  const privateDir = path.join(answer.volume.root, 'private');
  mkdirSync(privateDir, { mode: 0o755 });
  return {
    privateDir,
    volume: true,
    dispose: async () => {
      try {
        await answer.volume.dispose();
      } finally {
        removeRun();
      }
    },
  };
};

/** A sandbox over a folder the user names, with exactly a job's policy (for `tools call`, `sandbox run`). */
export const adhocSandbox = async (options: {
  workspace: string;
  kind: SandboxKind;
  dataDir?: string | undefined;
  env: Env;
  logger: Logger;
  withRegistries: boolean;
}): Promise<{ sandbox: Sandbox; workspace: string }> => {
  const workspace = path.resolve(options.workspace);
  // The person's own path: asked before anything runs there, and said as a usage error.
  const folder = statSync(workspace, { throwIfNoEntry: false });
  if (!folder) throw new RegreenError('usage', `--workspace ${workspace}: no such folder`);
  if (!folder.isDirectory())
    throw new RegreenError('usage', `--workspace ${workspace}: not a folder`);
  const source = await resolveRepoSource(workspace).catch(() => undefined);
  const root = source?.localRoot ?? workspace;
  // Absolute, as a job's is: the sandbox's folders, its mounts and the volume's are named by it
  // (a relative one held `sandbox run` before its command started).
  const dataDir = path.resolve(options.dataDir ?? defaultDataDir(options.env));
  mkdirSync(path.join(dataDir, 'adhoc'), { recursive: true });
  const runDir = mkdtempSync(path.join(dataDir, 'adhoc', 'run-'));
  const scratch = await adhocScratch(runDir, options);
  const policy = buildSandboxPolicy({
    workspace: root,
    privateDir: scratch.privateDir,
    ...(scratch.volume ? { privateDirOnVolume: true } : {}),
    home: homeOf(options.env),
    dataDir,
    registryHosts: options.withRegistries ? await registryHostsOf(options.env) : [],
    baseEnv: options.env,
  });
  const made = await sandboxFactory(
    options.kind,
    options.logger,
  )(policy).catch(async (error: unknown) => {
    await scratch.dispose();
    throw error;
  });
  // The volume goes after the sandbox, and the run's folder with it.
  const sandbox: Sandbox = {
    ...made,
    dispose: async () => {
      try {
        await made.dispose();
      } finally {
        await scratch.dispose();
      }
    },
  };
  if (sandbox.kind !== 'bubblewrap' || process.geteuid?.() !== 0)
    return { sandbox, workspace: root };
  // As root, each command hands the folder's root-owned files to the sandbox's uid: the
  // person's folder is theirs again when the sandbox ends, as it was before.
  const { uid, gid } = lstatSync(root);
  const sandboxUid = sandboxUidOf(settingsOf(options.env).sandboxUid);
  return {
    sandbox: {
      ...sandbox,
      dispose: async () => {
        try {
          await sandbox.dispose();
        } finally {
          giveBack(root, sandboxUid, { uid, gid });
        }
      },
    },
    workspace: root,
  };
};

/** `regreen sandbox run`: one command exactly as a job runs it. */
export const sandboxRun = async (options: {
  workspace: string;
  /** The program and its words, each quoted for the shell (one word alone is a shell line, as typed). */
  argv: readonly string[];
  network: 'off' | 'setup';
  sandbox: SandboxKind;
  timeout: string;
  dataDir?: string | undefined;
  env: Env;
  logger: Logger;
}): Promise<CommandResult> => {
  const seconds = Number(options.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new RegreenError(
      'usage',
      `--timeout must be a positive number of seconds, not "${options.timeout}"`,
    );
  const { sandbox, workspace } = await adhocSandbox({
    ...options,
    kind: options.sandbox,
    withRegistries: options.network === 'setup',
  });
  try {
    return await sandbox.run({
      command:
        options.argv.length === 1 ? (options.argv[0] ?? '') : options.argv.map(quote).join(' '),
      cwd: workspace,
      network: options.network,
      timeoutMs: seconds * 1000,
    });
  } finally {
    await sandbox.dispose();
  }
};

/** `regreen sandbox`. */
export const registerSandbox = (program: Command, { env, logger, setExit }: CliContext): void => {
  program
    .command('sandbox')
    .description(SUMMARIES.sandbox)
    .command('run')
    .description('run a command exactly as the sandbox runs it')
    .requiredOption('--workspace <dir>', 'the folder that is writable')
    .addOption(
      new Option('--network <mode>', 'off, or setup (the registries of your npm/pip config)')
        .choices(['off', 'setup'])
        .default('off'),
    )
    .addOption(sandboxOption())
    .option('--timeout <seconds>', 'time limit', '600')
    .addOption(dataDirOption())
    .argument('<command...>', 'the command (after --)')
    .action(
      async (
        words: string[],
        opts: {
          workspace: string;
          network: 'off' | 'setup';
          sandbox: SandboxKind;
          timeout: string;
          dataDir?: string;
        },
      ) => {
        const result = await sandboxRun({ ...opts, argv: words, env, logger });
        process.stdout.write(result.output);
        if (result.timedOut) process.stderr.write(`[regreen] timed out after ${opts.timeout}s\n`);
        setExit(result.exitCode ?? 124);
      },
    );
};
