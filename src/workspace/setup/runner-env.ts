/**
 * The environment a Python task runner (tox, hatch, pdm, nox) makes for its
 * command, read from the project's hostile text: what it installs (its deps,
 * requirement files, extras, dependency groups, the project or not), the
 * variables and folder its commands run with, and the commands themselves.
 * regreen reproduces that environment in the project's `.venv` and runs the
 * commands there, rather than the runner: a runner builds its environments
 * from the network, which the sandbox's runs do not have, and would not pass
 * the runs' report settings on to the tests.
 */
import { shellWord } from '../../util/text.ts';

export interface RunnerEnv {
  readonly runner: 'tox' | 'hatch' | 'pdm' | 'nox';
  /** The runner's name for the environment (`py311`, `default`, `hatch-test`). */
  readonly env: string;
  /** Requirement specifiers the environment installs. */
  readonly packages: readonly string[];
  /** Requirement files it installs from (`-r requirements-test.txt`). */
  readonly files: readonly string[];
  /** The project's extras it installs with the project. */
  readonly extras: readonly string[];
  /** Whether it installs the project itself. */
  readonly installProject: boolean;
  /** Its commands, each as words, in order (undefined: none the runner was asked for). */
  readonly commands: readonly RunnerCommand[] | undefined;
  /** Variables its commands see. */
  readonly setenv: readonly (readonly [string, string])[];
  /** The folder its commands run in, relative to the project. */
  readonly changedir: string | undefined;
  /** What was left out, said in the trace (a line regreen could not read, a substitution). */
  readonly notes: readonly string[];
}

export interface RunnerCommand {
  readonly words: readonly string[];
  /** tox's leading `-`: the command's exit does not count. */
  readonly ignoreExit: boolean;
}

/** A variable's name as a shell may set it. */
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

/** The environment's commands as one shell line, with its variables and folder. */
export const runnerShellCommand = (env: RunnerEnv): string | undefined => {
  if (!env.commands || env.commands.length === 0) return undefined;
  const exports = env.setenv
    .filter(([name]) => VARIABLE.test(name))
    .map(([name, value]) => `export ${name}=${shellWord(value)}`);
  const into = env.changedir && env.changedir !== '.' ? [`cd ${shellWord(env.changedir)}`] : [];
  const commands = env.commands.map((command) => {
    const line = command.words.map((word) => shellWord(word)).join(' ');
    return command.ignoreExit ? `{ ${line} || true; }` : line;
  });
  return [...exports, ...into, ...commands].join(' && ');
};

/** What the set-up line says of the environment. */
export const describeRunnerEnv = (env: RunnerEnv): string => {
  const parts = [
    env.files.length > 0 ? `requirements ${env.files.join(', ')}` : undefined,
    env.packages.length > 0 ? `${env.packages.length} dep(s)` : undefined,
    env.installProject
      ? `the project${env.extras.length > 0 ? ` with extras [${env.extras.join(',')}]` : ''}`
      : 'not the project',
  ].filter(Boolean);
  return `${env.runner} env ${env.env} reproduced in .venv (${parts.join('; ')})`;
};

/** The posargs of a runner's command line: the words after its `--`. */
export const afterDoubleDash = (words: readonly string[]): string[] | undefined => {
  const at = words.indexOf('--');
  return at === -1 ? undefined : words.slice(at + 1);
};

/** `{a,b}c` → `ac`, `bc` (one level, each group; at most `limit` names). */
export const expandBraces = (text: string, limit = 64): string[] => {
  let names = [''];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('{', i);
    if (open === -1) {
      names = names.map((name) => name + text.slice(i));
      break;
    }
    const close = text.indexOf('}', open);
    if (close === -1) {
      names = names.map((name) => name + text.slice(i));
      break;
    }
    const prefix = text.slice(i, open);
    const choices = text.slice(open + 1, close).split(',');
    names = names.flatMap((name) => choices.map((choice) => name + prefix + choice.trim()));
    if (names.length > limit) return names.slice(0, limit);
    i = close + 1;
  }
  return names;
};

/** The file of a `-r file` / `--requirement=file` dep line (undefined: another kind of line). */
export const requirementFile = (dep: string): string | undefined => {
  const option = dep.startsWith('--requirement')
    ? '--requirement'
    : dep.startsWith('-r')
      ? '-r'
      : '';
  if (option === '') return undefined;
  let rest = dep.slice(option.length).trimStart();
  if (rest.startsWith('=')) rest = rest.slice(1).trimStart();
  return rest !== '' && !/\s/.test(rest) ? rest.replace(/^\.\//, '') : undefined;
};
