/**
 * `regreen doctor`: what this machine lacks for each front door, and the
 * exact command that fixes each. Read-only: it looks, it never installs.
 */
import { execFileSync } from 'node:child_process';
import { SUMMARIES } from './summaries.ts';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { exposedSecrets } from '../config/dotenv.ts';
import { defaultDataDir, defaultToolsDir, settingsOf, type Env } from '../config/env.ts';
import { whichIn, type Which } from '../util/which.ts';
import type { CliContext } from './context.ts';
import {
  hostLimitEnforcement,
  type LimitEnforcement,
} from '../workspace/sandbox/limit-enforcement.ts';
import { providedToolsFor, type ProvidedTools } from '../workspace/setup/provided-tools.ts';
import { volumeUnavailableFor } from '../workspace/sandbox/job-volume.ts';
import { DEFAULT_COMMAND_LIMITS } from '../workspace/sandbox/sandbox.ts';
import { DEBUGPY_VERSION } from '../../tools/debug/adapters.ts';
import { withoutUserinfo } from '../util/text.ts';
import { noFollowProbe } from '../workspace/repo/git.ts';

export interface Finding {
  readonly need: string;
  /** Which front doors it is for. */
  readonly for: string;
  readonly ok: boolean;
  readonly detail: string;
  /** The command that fixes it (Debian/Ubuntu). */
  readonly fix?: string;
  /** `regreen fix` cannot run without it. */
  readonly required: boolean;
}

const USERNS = [
  // Ubuntu 24.04: AppArmor forbids unprivileged user namespaces.
  [
    '/proc/sys/kernel/apparmor_restrict_unprivileged_userns',
    '0',
    'kernel.apparmor_restrict_unprivileged_userns',
  ],
  // Older Debian kernels: the switch is off.
  ['/proc/sys/kernel/unprivileged_userns_clone', '1', 'kernel.unprivileged_userns_clone'],
] as const;

export interface DoctorProbe {
  readonly which: Which;
  readonly readFile: (file: string) => string | undefined;
  /** Runs a program, true when it exits 0. */
  readonly runs: (file: string, args: readonly string[]) => boolean;
  /** What enforces the sandbox's limits here. */
  readonly limits: () => readonly LimitEnforcement[];
  /** Whether regreen runs as root here (its fixes then need no sudo). */
  readonly isRoot?: boolean;
  /** The npm packages regreen fetches on first use, and which are here. */
  readonly provided?: () => ReturnType<ProvidedTools['list']>;
  /** Why host git cannot read a workspace on a view of its own here (undefined: it can). */
  readonly gitView?: () => string | undefined;
}

/** The host as `doctor` asks it; `gitView` is the answer of the view's probe (`noFollowProbe`). */
export const hostProbe = (env: Env, gitView: string | undefined): DoctorProbe => ({
  isRoot: process.geteuid?.() === 0,
  // A job of these settings: the operator's switch and the data dir's room decide its volume too.
  limits: () =>
    hostLimitEnforcement({
      volumeUnavailable: volumeUnavailableFor({
        mode: settingsOf(env).jobVolume,
        sizeMb: settingsOf(env).maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb,
        dir: defaultDataDir(env),
      }),
    }),
  provided: () => providedToolsFor(env).list(),
  gitView: () => gitView,
  which: whichIn(settingsOf(env).path),
  readFile: (file) => {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch {
      return undefined;
    }
  },
  runs: (file, args) => {
    try {
      // Run from the home folder, never from wherever regreen was started (a repository).
      execFileSync(file, [...args], { cwd: os.homedir(), stdio: 'ignore', timeout: 15_000 });
      return true;
    } catch {
      return false;
    }
  },
});

const tool = (
  probe: DoctorProbe,
  program: string,
  need: string,
  forWhat: string,
  fix: string,
  required = false,
): Finding => {
  const found = probe.which(program);
  return {
    need,
    for: forWhat,
    ok: found !== undefined,
    detail: found ?? `${program} is not on PATH`,
    fix,
    required,
  };
};

export const diagnoseMachine = (env: Env, probe: DoctorProbe): Finding[] => {
  // As root there may be no sudo at all (most containers): the fix is the command itself.
  const sudo = probe.isRoot === true ? '' : 'sudo ';
  const APT = `${sudo}apt-get install -y`;
  const python = probe.which('python3');
  const findings: Finding[] = [
    tool(probe, 'git', 'git', 'every front door', `${APT} git`, true),
    tool(probe, 'bwrap', 'bubblewrap (the sandbox)', 'every front door', `${APT} bubblewrap`, true),
    tool(
      probe,
      'socat',
      'socat (the setup step’s registry proxy)',
      'every front door',
      `${APT} socat`,
      true,
    ),
    tool(probe, 'rg', 'ripgrep (the search tool)', 'the agent', `${APT} ripgrep`, true),
    // As root, sandboxed commands run as an unprivileged host uid: setpriv drops to it.
    tool(
      probe,
      'setpriv',
      'setpriv (util-linux: the sandbox’s unprivileged uid when regreen runs as root)',
      'every front door',
      `${APT} util-linux`,
      true,
    ),
  ];
  const gitView = probe.gitView?.();
  if (probe.gitView)
    findings.push({
      need: "host git's view of a workspace (unshare and mount of util-linux, Linux 5.10's nosymfollow)",
      for: 'every front door',
      ok: gitView === undefined,
      detail:
        gitView ?? 'host git reads a workspace chrooted into a view of it alone, no link followed',
      fix: `${APT} util-linux mount (and a kernel of 5.10 or later)`,
      required: true,
    });
  for (const [file, good, name] of USERNS) {
    const value = probe.readFile(file);
    if (value === undefined) continue;
    findings.push({
      need: `user namespaces (${name})`,
      for: 'every front door',
      ok: value === good,
      detail: `${name} = ${value}`,
      fix: `${sudo}sysctl -w ${name}=${good}`,
      required: true,
    });
  }
  findings.push(
    {
      need: 'debugpy (the Python debugger)',
      for: 'the agent (Python)',
      // Isolated (-I): the current folder — perhaps a repository — is not on the module path.
      ok:
        probe.which('python3') !== undefined &&
        probe.runs('python3', ['-I', '-c', 'import debugpy']),
      detail: python ? `${python} -I -c "import debugpy"` : 'python3 is not on PATH',
      // Debian's package serves Debian's python3 only; another python3 (pyenv's) takes pip's.
      fix:
        python === undefined || python === '/usr/bin/python3'
          ? `${APT} python3-debugpy`
          : `${python} -m pip install debugpy==${DEBUGPY_VERSION}`,
      required: false,
    },
    tool(probe, 'dlv', 'delve (the Go debugger)', 'the agent (Go)', `${APT} delve`),
    tool(probe, 'lldb', 'lldb (native code)', 'the agent (C, C++, Rust)', `${APT} lldb`),
    tool(probe, 'gopls', 'gopls (the Go language server)', 'the agent (Go)', `${APT} gopls`),
    tool(
      probe,
      'rust-analyzer',
      'rust-analyzer',
      'the agent (Rust)',
      'rustup component add rust-analyzer',
    ),
  );
  // What bounds a sandboxed command here, and what this host leaves unbound.
  for (const limit of probe.limits())
    findings.push({
      need: `sandbox limit: ${limit.limit}`,
      for: 'every front door',
      ok: limit.enforced,
      detail: limit.gap ? `${limit.by}; ${limit.gap}` : limit.by,
      ...(limit.fix ? { fix: limit.fix } : {}),
      required: false,
    });
  const provided = probe.provided?.() ?? [];
  if (provided.length > 0) {
    const here = provided.filter((p) => p.dir !== undefined);
    const named = (list: typeof provided): string =>
      list.map((p) => `${p.name} ${p.version}`).join(', ') || 'none';
    findings.push(
      tool(
        probe,
        'npm',
        'npm (fetches the language servers and grammars regreen does not ship)',
        'the agent',
        `${APT} npm`,
      ),
      {
        need: 'language servers and grammars fetched on first use',
        for: 'the agent',
        ok: true,
        detail: `here: ${named(here)}; fetched when first needed, from the registry npm uses (npm config get registry) into ${defaultToolsDir(env)}: ${named(provided.filter((p) => p.dir === undefined))}`,
        required: false,
      },
    );
  }
  const redisUrl = settingsOf(env).redisUrl;
  if (redisUrl !== undefined) {
    const cli = tool(
      probe,
      'redis-cli',
      'redis-cli (to reach REDIS_URL)',
      'regreen serve / worker',
      `${APT} redis-tools`,
    );
    findings.push(cli);
    // The server itself answers, not only the client's binary being there.
    if (cli.ok) {
      const where = withoutUserinfo(redisUrl);
      const answers = probe.runs('redis-cli', ['-u', redisUrl, 'ping']);
      findings.push({
        need: 'the Redis of REDIS_URL',
        for: 'regreen serve / worker',
        ok: answers,
        detail: answers ? `${where} answers` : `${where} does not answer a PING`,
        fix: 'start that Redis, or set REDIS_URL to one that runs (unset: jobs run in-process)',
        required: false,
      });
    }
  }
  return findings;
};

export const doctorText = (findings: readonly Finding[]): string => {
  const lines = findings.map(
    (f) =>
      `${f.ok ? 'ok     ' : f.required ? 'MISSING' : 'missing'}  ${f.need} — ${f.detail}${f.ok || !f.fix ? '' : `\n         fix: ${f.fix}`}  [${f.for}]`,
  );
  const blocking = findings.filter((f) => !f.ok && f.required);
  return [
    ...lines,
    '',
    blocking.length === 0
      ? 'regreen fix can run here.'
      : `regreen fix cannot run here until: ${blocking.map((f) => f.fix).join('; ')}`,
  ].join('\n');
};

/** A `.env` (what `regreen serve` reads) that others may read while it holds secrets. */
export const dotenvFinding = (file: string): Finding | undefined => {
  const exposed = exposedSecrets(file);
  if (!exposed) return undefined;
  return {
    need: `${file} readable by its owner only`,
    for: 'regreen serve',
    ok: false,
    detail: `it holds ${exposed.names.join(', ')} and others may read it (mode ${exposed.mode.toString(8).padStart(4, '0')})`,
    fix: `chmod 600 ${file}`,
    required: false,
  };
};

/** `regreen doctor`. */
export const registerDoctor = (program: Command, { env, setExit }: CliContext): void => {
  program
    .command('doctor')
    .description(SUMMARIES.doctor)
    .option('--json', 'print the findings as JSON')
    .option('--dotenv <file>', 'the .env regreen serve reads (its mode is checked)', '.env')
    .action(async (opts: { json?: boolean; dotenv: string }) => {
      const dotenv = dotenvFinding(path.resolve(opts.dotenv));
      const gitView = process.platform === 'linux' ? await noFollowProbe() : undefined;
      const findings = [
        ...diagnoseMachine(env, hostProbe(env, gitView)),
        ...(dotenv ? [dotenv] : []),
      ];
      process.stdout.write(
        `${opts.json ? JSON.stringify(findings, null, 2) : doctorText(findings)}\n`,
      );
      setExit(findings.some((f) => !f.ok && f.required) ? 1 : 0);
    });
};
