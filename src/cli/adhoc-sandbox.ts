import { Option, type Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { sandboxOption, type CliContext, dataDirOption } from './context.ts';
import { lstatSync, mkdirSync, mkdtempSync, statSync } from 'node:fs';
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
  const dataDir = options.dataDir ?? defaultDataDir(options.env);
  mkdirSync(path.join(dataDir, 'adhoc'), { recursive: true });
  const privateDir = mkdtempSync(path.join(dataDir, 'adhoc', 'run-'));
  const policy = buildSandboxPolicy({
    workspace: root,
    privateDir,
    home: homeOf(options.env),
    dataDir,
    registryHosts: options.withRegistries ? await registryHostsOf(options.env) : [],
    baseEnv: options.env,
  });
  const sandbox = await sandboxFactory(options.kind, options.logger)(policy);
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
