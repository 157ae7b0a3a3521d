/**
 * The environments hatch and pdm make for a script, from pyproject's data
 * (or hatch.toml): hatch's env table over its template (`default`), its
 * `dependencies`, `extra-dependencies`, `features`, `dependency-groups`,
 * `skip-install`, `env-vars` and `scripts` (a script naming another
 * followed); `hatch test`'s env; pdm's `[tool.pdm.scripts]` with every dev
 * group and PEP 735 group it installs by default. Values are data.
 */
import { shellWords } from '../../util/shell-words.ts';
import type { RunnerCommand, RunnerEnv } from './runner-env.ts';

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const strings = (value: unknown): string[] =>
  typeof value === 'string'
    ? [value]
    : Array.isArray(value)
      ? value.filter((entry): entry is string => typeof entry === 'string')
      : [];

/** A script's lines as commands, a line naming another script followed (3 deep), `args` after the last. */
const scriptCommands = (
  scripts: Record<string, unknown>,
  lines: readonly string[],
  args: readonly string[],
  notes: string[],
  depth = 0,
): RunnerCommand[] | undefined => {
  const commands: RunnerCommand[] = [];
  for (const line of lines.slice(0, 64)) {
    const words = shellWords(line.replaceAll('{args}', ''));
    if (!words || words.length === 0 || line.includes('{') !== line.includes('{args}')) {
      notes.push(`a script line regreen cannot read: ${line.slice(0, 80)}`);
      return undefined;
    }
    const [first = '', ...rest] = words;
    const named = depth < 3 && first in scripts ? strings(scripts[first]) : undefined;
    if (named && named.length > 0) {
      const inner = scriptCommands(scripts, named, rest, notes, depth + 1);
      if (!inner) return undefined;
      commands.push(...inner);
    } else commands.push({ words, ignoreExit: false });
  }
  const last = commands.pop();
  return last ? [...commands, { ...last, words: [...last.words, ...args] }] : commands;
};

/** hatch's configuration: `[tool.hatch]` of pyproject, else hatch.toml's top level. */
const hatchConfig = (pyproject: Record<string, unknown>, hatchToml: Record<string, unknown>) => {
  const tool = asRecord(asRecord(pyproject.tool).hatch);
  return asRecord(('envs' in tool ? tool : hatchToml).envs);
};

/** Whether the project configures hatch environments. */
export const hasHatch = (pyproject: Record<string, unknown>, hatchToml: Record<string, unknown>) =>
  Object.keys(hatchConfig(pyproject, hatchToml)).length > 0 || 'hatch' in asRecord(pyproject.tool);

/**
 * `hatch run [env:]script args` (`test: undefined` is `hatch test args`): its env as hatch makes
 * it; a matrix env (`test.py3.11`) is its base table's.
 */
export const hatchEnv = (
  pyproject: Record<string, unknown>,
  hatchToml: Record<string, unknown>,
  target: { env: string; script: string | undefined; args: readonly string[] },
  groups: (group: string) => string[],
): RunnerEnv => {
  const envs = hatchConfig(pyproject, hatchToml);
  const base = target.env.split('.')[0] ?? target.env;
  const own = asRecord(envs[base]);
  const templateName =
    typeof own.template === 'string' ? own.template : base === 'default' ? base : 'default';
  const template = base === 'hatch-test' ? {} : asRecord(envs[templateName]);
  const value = (key: string): unknown => (key in own ? own[key] : template[key]);
  const notes: string[] = [];
  const testing = target.script === undefined;
  const dependencies = [
    ...('dependencies' in own || !testing ? strings(value('dependencies')) : ['pytest']),
    ...strings(own['extra-dependencies']),
  ];
  const scripts = { ...asRecord(template.scripts), ...asRecord(own.scripts) };
  const script = target.script;
  const commands =
    script === undefined
      ? [{ words: ['python', '-m', 'pytest', ...target.args], ignoreExit: false }]
      : script in scripts
        ? scriptCommands(scripts, strings(scripts[script]), target.args, notes)
        : [{ words: [script, ...target.args], ignoreExit: false }];
  return {
    runner: 'hatch',
    env: target.env,
    packages: [...dependencies, ...strings(value('dependency-groups')).flatMap(groups)],
    files: [],
    extras: strings(value('features')),
    installProject: value('skip-install') !== true,
    commands,
    setenv: Object.entries(asRecord(value('env-vars'))).flatMap(([key, text]) =>
      typeof text === 'string' && !text.includes('{') ? [[key, text] as const] : [],
    ),
    changedir: undefined,
    notes,
  };
};

/** One pdm script (a string, `cmd`, `shell` or `composite`) as commands. */
const pdmScript = (
  scripts: Record<string, unknown>,
  name: string,
  args: readonly string[],
  notes: string[],
  depth = 0,
): RunnerCommand[] | undefined => {
  const script = scripts[name];
  const table = asRecord(script);
  if (typeof script === 'string' || typeof table.cmd === 'string') {
    const words = shellWords(typeof script === 'string' ? script : (table.cmd as string));
    return words ? [{ words: [...words, ...args], ignoreExit: false }] : undefined;
  }
  if (Array.isArray(table.cmd))
    return [{ words: [...strings(table.cmd), ...args], ignoreExit: false }];
  if (typeof table.shell === 'string')
    return [{ words: ['bash', '-c', [table.shell, ...args].join(' ')], ignoreExit: false }];
  if (Array.isArray(table.composite) && depth < 3) {
    const commands: RunnerCommand[] = [];
    for (const entry of strings(table.composite)) {
      const words = shellWords(entry);
      const [first = '', ...rest] = words ?? [];
      const inner =
        first in scripts
          ? pdmScript(scripts, first, rest, notes, depth + 1)
          : words
            ? [{ words, ignoreExit: false }]
            : undefined;
      if (!inner) return undefined;
      commands.push(...inner);
    }
    return commands;
  }
  notes.push(`pdm's script "${name.slice(0, 40)}" is of a kind regreen does not run`);
  return undefined;
};

/** `pdm run script args`: every dev group and dependency group, the project, the script's commands. */
export const pdmEnv = (
  pyproject: Record<string, unknown>,
  target: { script: string; args: readonly string[] },
  groups: (group: string) => string[],
): RunnerEnv => {
  const pdm = asRecord(asRecord(pyproject.tool).pdm);
  const dev = asRecord(pdm['dev-dependencies']);
  const notes: string[] = [];
  const scripts = asRecord(pdm.scripts);
  const packages = [
    ...Object.values(dev)
      .flatMap(strings)
      .filter((spec) => !spec.startsWith('-')),
    ...Object.keys(asRecord(pyproject['dependency-groups'])).flatMap(groups),
  ];
  return {
    runner: 'pdm',
    env: 'default',
    packages,
    files: [],
    extras: [],
    installProject: pdm.distribution !== false,
    commands:
      target.script in scripts
        ? pdmScript(scripts, target.script, target.args, notes)
        : [{ words: [target.script, ...target.args], ignoreExit: false }],
    setenv: [],
    changedir: undefined,
    notes,
  };
};
