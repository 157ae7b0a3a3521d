import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { silentLogger } from '../../src/logger.ts';
import { openJobVolume, type JobVolume } from '../../src/workspace/sandbox/job-volume.ts';
import type { CommandLimits, Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { sandboxFactory } from '../../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../../src/workspace/sandbox/policy.ts';

/** A secret a test plants; an attack "held" when it never shows up where the attacker can see it. */
export const CANARY = 'REGREEN-CANARY-7f3a9c';

export const plant = (file: string, content = CANARY): string => {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
};

/** A real sandbox with a job's policy over `workspace`, a fake home and data dir under `root`. */
export const attackSandbox = (options: {
  root: string;
  workspace: string;
  env?: Record<string, string | undefined>;
  registryHosts?: string[];
  limits?: CommandLimits;
  privateName?: string;
  /** The sandbox's tmp and home (a job's volume holds them); else under the fake data dir. */
  privateDir?: string;
}): Promise<Sandbox> => {
  const dataDir = path.join(options.root, 'data');
  mkdirSync(options.workspace, { recursive: true });
  return sandboxFactory(
    'bubblewrap',
    silentLogger(),
  )(
    buildSandboxPolicy({
      workspace: options.workspace,
      privateDir:
        options.privateDir ?? path.join(dataDir, 'jobs', options.privateName ?? 'j', 'private'),
      home: path.join(options.root, 'home'),
      dataDir,
      registryHosts: options.registryHosts ?? [],
      baseEnv: { PATH: process.env.PATH, ...options.env },
      ...(options.limits ? { limits: options.limits } : {}),
    }),
  );
};

export const inSandbox = (
  sandbox: Sandbox,
  command: string,
  options: { network?: 'off' | 'setup'; timeoutMs?: number } = {},
) =>
  sandbox.run({
    command,
    cwd: sandbox.policy.workspace,
    network: options.network ?? 'off',
    timeoutMs: options.timeoutMs ?? 60_000,
  });

/** This process's mount table: per mount, /proc/self/mountinfo's fields (4: where, 5: its options). */
export const mountTable = (): string[][] =>
  readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' '));

/**
 * A job volume of `sizeMb` under `root` and a real sandbox whose workspace,
 * tmp and home are on it, as a job's are; `dispose` ends both.
 */
export const volumeSandbox = async (options: {
  root: string;
  sizeMb: number;
  limits: CommandLimits;
}): Promise<{ volume: JobVolume; sandbox: Sandbox; dispose: () => Promise<void> }> => {
  const answer = await openJobVolume({
    dir: path.join(options.root, 'job'),
    sizeMb: options.sizeMb,
  });
  if ('unavailable' in answer) throw new Error(answer.unavailable);
  const { volume } = answer;
  const sandbox = await attackSandbox({
    root: options.root,
    workspace: path.join(volume.root, 'workspace'),
    privateDir: path.join(volume.root, 'job-private'),
    limits: options.limits,
  });
  return {
    volume,
    sandbox,
    dispose: async () => {
      await sandbox.dispose();
      await volume.dispose();
    },
  };
};

/**
 * A test that is not an attack (a baseline, an honest case, a clean-up):
 * its name carries this tag, and `bench:security` counts it apart.
 */
export const CASE = '[case]';

/** The marker a read attack's command prints last: the command ran to its end. */
const RAN = 'REGREEN-ATTACK-RAN';

/**
 * A read attack that proves itself. The same command is first pointed at a
 * copy of the canary the sandbox may read (or run with it in a variable it
 * may see): it must print it, or the attack could never have shown a leak.
 * Then pointed at the target: it must run to its end and print no canary.
 * The proof is logged to `REGREEN_ATTACK_PROOFS` when set (`bench:security`).
 */
export const readAttack = async (
  sandbox: Sandbox,
  read: (file: string) => string,
  target: string,
  options: { network?: 'off' | 'setup'; env?: Record<string, string> } = {},
): Promise<string> => {
  const control = plant(
    path.join(sandbox.policy.workspace, `.attack-control-${randomBytes(4).toString('hex')}`),
  );
  try {
    const run = (file: string, env?: Record<string, string>) =>
      sandbox.run({
        command: `${read(file)}; echo ${RAN}`,
        cwd: sandbox.policy.workspace,
        network: options.network ?? 'off',
        timeoutMs: 60_000,
        ...(env ? { env } : {}),
      });
    const proof = await run(control, options.env);
    expect(
      proof.output,
      'the command cannot print the canary even where it may: it proves nothing',
    ).toContain(CANARY);
    const result = await run(target);
    expect(result.output, 'the attack did not run to its end').toContain(RAN);
    expect(result.output).not.toContain(CANARY);
    const log = process.env.REGREEN_ATTACK_PROOFS;
    if (log)
      appendFileSync(
        log,
        `${JSON.stringify({ test: expect.getState().currentTestName, ran: true, couldPrint: true })}\n`,
      );
    return result.output;
  } finally {
    rmSync(control, { force: true });
  }
};
