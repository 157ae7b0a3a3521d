/**
 * When a command runs a Python task runner (tox, hatch, pdm, nox), or a project
 * configures tox or hatch for the command it is given: the runner's
 * environment for it, reproduced rather than the runner run (see
 * `runner-env.ts`), and the line that says so in the set-up. A command that
 * runs a make target or a package script runs the runner itself.
 */
import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { readTextInside } from '../repo/confined-fs.ts';
import { shellWords } from '../../util/shell-words.ts';
import { groupRequirements } from './python-test-deps.ts';
import { hasHatch, hatchEnv, pdmEnv } from './hatch-pdm-env.ts';
import {
  afterDoubleDash,
  describeRunnerEnv,
  runnerShellCommand,
  type RunnerEnv,
} from './runner-env.ts';
import { hasTox, toxEnv, toxEnvNames, type ToxSources } from './tox-env.ts';
import { noxEnv } from './nox-env.ts';

export interface RunnerPlan {
  readonly env: RunnerEnv;
  /** What runs instead of the runner's command (the env's commands), when the command ran the runner. */
  readonly command: string | undefined;
  /** The set-up line's account: which environment, and whether its commands or the command run. */
  readonly note: string;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const tomlOf = (text: string | undefined): Record<string, unknown> => {
  try {
    return text ? asRecord(parseToml(text)) : {};
  } catch {
    return {};
  }
};

/** A Python interpreter's name as a command's first word (`python`, `python3.11`, a venv's). */
const isPython = (word: string): boolean => {
  const name = path.posix.basename(word);
  return name === 'py' || name === 'python' || /^python3(\.\d{1,2})?$/.test(name);
};

/** The runner a command line invokes and its arguments (`python -m tox -e x` → tox, `-e x`). */
const invoked = (words: readonly string[]): { tool: string; args: string[] } | undefined => {
  const [first = '', second, third, ...rest] = words;
  if (isPython(first) && second === '-m' && third) return { tool: third, args: rest };
  return { tool: path.posix.basename(first), args: words.slice(1) };
};

/** Options of tox that take a value (the env's comes from `-e`). */
const TOX_VALUED = new Set([
  '-c',
  '--conf',
  '--root',
  '--workdir',
  '-x',
  '--override',
  '--installpkg',
  '--result-json',
  '-p',
  '--parallel',
  '--hashseed',
  '--discover',
  '--runner',
]);

/** `tox [run] -e env … -- posargs`: the env named (the first of a list) and the posargs. */
const toxTarget = (
  args: readonly string[],
): { env: string | undefined; posargs: string[] | undefined } => {
  const posargs = afterDoubleDash(args);
  const options = posargs === undefined ? args : args.slice(0, args.indexOf('--'));
  let env: string | undefined;
  for (let i = 0; i < options.length; i += 1) {
    const word = options[i] ?? '';
    if (word === '-e' || word === '--env') env = options[(i += 1)];
    else if (word.startsWith('--env=')) env = word.slice(6);
    else if (word.startsWith('-e') && !word.startsWith('--')) env = word.slice(2);
    else if (TOX_VALUED.has(word)) i += 1;
  }
  return { env: env?.split(',')[0]?.trim() || undefined, posargs };
};

/** `nox -s session … -- posargs` (`--session`, `-e`, `--sessions`): the first session named. */
const noxTarget = (
  args: readonly string[],
): { session: string; posargs: string[] | undefined } | undefined => {
  const posargs = afterDoubleDash(args);
  const options = posargs === undefined ? args : args.slice(0, args.indexOf('--'));
  for (let i = 0; i < options.length; i += 1) {
    const word = options[i] ?? '';
    if (['-s', '-e', '--session', '--sessions'].includes(word) && options[i + 1])
      return { session: options[i + 1] ?? '', posargs };
    if (word.startsWith('--session=')) return { session: word.slice(10), posargs };
  }
  return undefined;
};

/** `hatch [-e env] run [env:]script args` or `hatch test args`. */
const hatchTarget = (
  args: readonly string[],
): { env: string; script: string | undefined; args: string[] } | undefined => {
  let env = 'default';
  let i = 0;
  while (i < args.length && (args[i] ?? '').startsWith('-')) {
    if (args[i] === '-e' || args[i] === '--env') env = args[i + 1] ?? env;
    i += args[i] === '-e' || args[i] === '--env' ? 2 : 1;
  }
  const verb = args[i];
  if (verb === 'test') return { env: 'hatch-test', script: undefined, args: args.slice(i + 1) };
  if (verb !== 'run' || !args[i + 1]) return undefined;
  const named = args[i + 1] ?? '';
  const colon = named.indexOf(':');
  return colon > 0
    ? { env: named.slice(0, colon), script: named.slice(colon + 1), args: args.slice(i + 2) }
    : { env, script: named, args: args.slice(i + 2) };
};

/**
 * The tox env a command of the project's own runs in: the first of `env_list` whose commands run
 * the command's program (`pytest` for `python -m pytest -q`), else the first `py*` one, else `py`.
 */
const plainToxEnv = (
  tox: ToxSources,
  words: readonly string[],
  groups: (group: string) => string[],
): RunnerEnv | undefined => {
  const call = words.length > 0 ? invoked(words) : undefined;
  const names = toxEnvNames(tox);
  const runs = (name: string): boolean =>
    call !== undefined &&
    (toxEnv(tox, name, undefined, groups)?.commands ?? []).some((command) =>
      command.words.some((word) => path.posix.basename(word) === call.tool),
    );
  const name = names.find(runs) ?? names.find((entry) => /^py\d*(-|$)/.test(entry)) ?? 'py';
  return toxEnv(tox, name, undefined, groups);
};

/**
 * The runner's environment for `command` in the project at `workspace`: the env a tox, hatch or
 * `pdm run` command names, its commands run instead; else, when the project configures tox (or
 * hatch), the env its plain run makes, for the command as it is.
 */
export const runnerPlan = (
  workspace: string,
  command: string | undefined,
): RunnerPlan | undefined => {
  const read = (file: string): string | undefined =>
    readTextInside(workspace, path.join(workspace, file));
  const pyproject = tomlOf(read('pyproject.toml'));
  const groups = (name: string): string[] =>
    groupRequirements(asRecord(pyproject['dependency-groups']), name);
  const tox: ToxSources = { toxIni: read('tox.ini'), setupCfg: read('setup.cfg'), pyproject };
  const hatchToml = tomlOf(read('hatch.toml'));
  const words = command === undefined ? undefined : shellWords(command.trim());
  const call = words && words.length > 0 ? invoked(words) : undefined;
  let env: RunnerEnv | undefined;
  if (call?.tool === 'tox') {
    const target = toxTarget(call.args);
    env = toxEnv(tox, target.env, target.posargs, groups);
  } else if (call?.tool === 'hatch') {
    const target = hatchTarget(call.args);
    env = target ? hatchEnv(pyproject, hatchToml, target, groups) : undefined;
  } else if (call?.tool === 'nox') {
    const target = noxTarget(call.args);
    const noxfile = read('noxfile.py');
    env = target && noxfile ? noxEnv(noxfile, target.session, target.posargs) : undefined;
  } else if (call?.tool === 'pdm' && call.args[0] === 'run' && call.args[1]) {
    env = pdmEnv(pyproject, { script: call.args[1], args: call.args.slice(2) }, groups);
  }
  if (env) {
    const instead = runnerShellCommand(env);
    return {
      env,
      command: instead,
      note: instead
        ? `${describeRunnerEnv(env)}; its commands run there instead of ${call?.tool}: ${instead.slice(0, 200)}`
        : `${describeRunnerEnv(env)}; its commands could not be read (${env.notes[0] ?? 'none'}): \`${command ?? ''}\` runs as it is`,
    };
  }
  // Not the runner's command: the environment the project's runner makes for its tests.
  const plain = hasTox(tox)
    ? plainToxEnv(tox, words ?? [], groups)
    : hasHatch(pyproject, hatchToml)
      ? hatchEnv(pyproject, hatchToml, { env: 'default', script: 'true', args: [] }, groups)
      : undefined;
  if (!plain) return undefined;
  return {
    env: plain,
    command: undefined,
    note: `${describeRunnerEnv(plain)} for the command as it is`,
  };
};

/**
 * A job's commands with a task runner's invocation (`python -m tox -e py311`) replaced by what its
 * environment runs, in the `.venv` the set-up makes as the runner would: the runner itself would
 * build its environment from the network, which the runs do not have.
 */
export const withRunner = (
  workspace: string,
  commands: { failingCommand: string | undefined; testCommand: string | undefined },
  runner: RunnerPlan | undefined,
): { failingCommand: string | undefined; testCommand: string | undefined } => {
  const failingCommand = runner?.command ?? commands.failingCommand;
  const test = commands.testCommand;
  if (test === undefined) return { failingCommand, testCommand: undefined };
  if (test === commands.failingCommand) return { failingCommand, testCommand: failingCommand };
  return { failingCommand, testCommand: runnerPlan(workspace, test)?.command ?? test };
};
