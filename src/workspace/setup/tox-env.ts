/**
 * A tox environment as tox would make it, read from tox.ini, setup.cfg's
 * `[tox:tox]` or pyproject's `[tool.tox]` (its `legacy_tox_ini` text, or
 * tox 4's own tables): the env's section over `[testenv]`, its `deps`
 * (`-r` files, `{[section]key}` references followed), `extras`,
 * `dependency_groups`, `skip_install`/`package`, `setenv`, `changedir`,
 * `commands_pre` and `commands` with `{posargs}` and tox's own
 * substitutions, and factor-conditional lines (`py311: x`) kept for the env
 * whose name carries the factors. Hostile text: bounded, one pass per line,
 * nothing of it made a pattern.
 */
import { parseIni, type IniSections } from './ini-sections.ts';
import { shellWords } from '../../util/shell-words.ts';
import { expandBraces, requirementFile, type RunnerCommand, type RunnerEnv } from './runner-env.ts';
import { toxTomlEnv } from './tox-toml.ts';

export interface ToxSources {
  readonly toxIni: string | undefined;
  readonly setupCfg: string | undefined;
  readonly pyproject: Record<string, unknown>;
}

/** A factor-conditional line: `py311: x`, `py311,py312: x`, `!pypy-lint: x`. Linear: one class per part. */
const CONDITIONAL = /^(!?[\w.{}]+(?:[-,]!?[\w.{}]+)*):\s+(\S.*)$/;

/** Whether a condition (`py311,!pypy-trio`) holds for an env's factors. */
const holds = (condition: string, factors: ReadonlySet<string>): boolean =>
  expandBraces(condition)
    .flatMap((text) => text.split(','))
    .some((alternative) =>
      alternative
        .split('-')
        .every((factor) =>
          factor.startsWith('!') ? !factors.has(factor.slice(1)) : factors.has(factor),
        ),
    );

/** A value's lines for the env: conditions decided, `{[section]key}` lines followed. */
const envLines = (
  lines: readonly string[],
  factors: ReadonlySet<string>,
  lookup: (section: string, key: string) => readonly string[],
  depth = 0,
): string[] =>
  lines.flatMap((line) => {
    const conditional = CONDITIONAL.exec(line);
    const text = conditional ? (holds(conditional[1] ?? '', factors) ? conditional[2] : '') : line;
    if (!text) return [];
    // A whole line that is a reference stands for the lines it names.
    if (text.startsWith('{[') && text.endsWith('}') && text.indexOf('}') === text.length - 1) {
      const close = text.indexOf(']');
      if (close === -1 || depth >= 4) return [];
      return envLines(
        lookup(text.slice(2, close), text.slice(close + 1, -1)),
        factors,
        lookup,
        depth + 1,
      );
    }
    return [text];
  });

/** tox's substitutions in one word; `undefined` for one regreen cannot make here. */
const substitute = (word: string, env: string): string | undefined => {
  let out = '';
  let i = 0;
  while (i < word.length) {
    const open = word.indexOf('{', i);
    if (open === -1) return out + word.slice(i);
    const close = word.indexOf('}', open);
    if (close === -1) return undefined;
    out += word.slice(i, open);
    const inner = word.slice(open + 1, close);
    const colon = inner.indexOf(':');
    const [name, fallback] =
      colon === -1 ? [inner, undefined] : [inner.slice(0, colon), inner.slice(colon + 1)];
    const known: Record<string, string> = {
      toxinidir: '.',
      tox_root: '.',
      toxworkdir: '.tox',
      envpython: 'python',
      basepython: 'python',
      envbindir: '.venv/bin',
      env_bin_dir: '.venv/bin',
      envdir: '.venv',
      env_dir: '.venv',
      envname: env,
      env_name: env,
      '/': '/',
      ':': ':',
    };
    if (name in known) out += known[name];
    else if (name === 'env' && fallback !== undefined) {
      // `{env:NAME:default}`: the host's variables are not the sandbox's; the default stands.
      const second = fallback.indexOf(':');
      out += second === -1 ? '' : fallback.slice(second + 1);
    } else return undefined;
    i = close + 1;
  }
  return out;
};

/** The words of a command line with `{posargs}` (or its default) in place and tox's substitutions made. */
const commandWords = (
  line: string,
  env: string,
  posargs: readonly string[] | undefined,
): RunnerCommand | undefined => {
  const ignoreExit = line.startsWith('- ') || line.startsWith('-\t');
  const words = shellWords(ignoreExit ? line.slice(2) : line);
  if (!words) return undefined;
  const out: string[] = [];
  for (const word of words) {
    if (word === '{posargs}' || word.startsWith('{posargs:')) {
      const fallback = word === '{posargs}' ? [] : (shellWords(word.slice(9, -1)) ?? []);
      out.push(...(posargs ?? fallback));
      continue;
    }
    const made = substitute(word, env);
    if (made === undefined) return undefined;
    out.push(made);
  }
  return { words: out, ignoreExit };
};

/** A list value's entries: split at commas and blanks outside braces (`py3{11,12}, lint`). */
const listOf = (lines: readonly string[]): string[] => {
  const entries: string[] = [];
  for (const line of lines) {
    let depth = 0;
    let current = '';
    for (const char of line) {
      if (char === '{') depth += 1;
      else if (char === '}') depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === ',' || char === ' ' || char === '\t')) {
        if (current !== '') entries.push(current);
        current = '';
      } else current += char;
    }
    if (current !== '') entries.push(current);
  }
  return entries;
};

const truthy = (lines: readonly string[]): boolean => /^(true|1|yes)$/i.test(lines[0] ?? '');

/** The ini text tox would read, and its main section's name. */
const iniOf = (sources: ToxSources): { ini: IniSections; main: string } | undefined => {
  if (sources.toxIni) return { ini: parseIni(sources.toxIni), main: 'tox' };
  const cfg = sources.setupCfg ? parseIni(sources.setupCfg) : undefined;
  if (cfg?.has('tox:tox')) return { ini: cfg, main: 'tox:tox' };
  const tox = sources.pyproject.tool as Record<string, unknown> | undefined;
  const legacy = (tox?.tox as Record<string, unknown> | undefined)?.legacy_tox_ini;
  if (typeof legacy === 'string') return { ini: parseIni(legacy), main: 'tox' };
  return undefined;
};

/** The envs tox runs with no `-e` (its `env_list`, braces expanded), at most 64. */
export const toxEnvNames = (sources: ToxSources): string[] => {
  const found = iniOf(sources);
  if (!found) {
    const tox = (sources.pyproject.tool as Record<string, unknown> | undefined)?.tox;
    const list = (tox as Record<string, unknown> | undefined)?.env_list;
    return Array.isArray(list)
      ? list.filter((e): e is string => typeof e === 'string').slice(0, 64)
      : [];
  }
  const main = found.ini.get(found.main);
  return listOf(main?.get('envlist') ?? main?.get('env_list') ?? [])
    .flatMap((entry) => expandBraces(entry))
    .slice(0, 64);
};

/** Whether the project configures tox at all. */
export const hasTox = (sources: ToxSources): boolean =>
  iniOf(sources) !== undefined ||
  toxTomlEnv(sources.pyproject, 'py', undefined, () => []) !== undefined;

/**
 * The env `name` (else the first of `env_list`, else `py`) as tox makes it, `posargs` the words
 * after the command's `--`; `groups` reads a PEP 735 dependency group. Undefined: no tox config.
 */
export const toxEnv = (
  sources: ToxSources,
  name: string | undefined,
  posargs: readonly string[] | undefined,
  groups: (group: string) => string[],
): RunnerEnv | undefined => {
  const found = iniOf(sources);
  if (!found) return toxTomlEnv(sources.pyproject, name, posargs, groups);
  const { ini } = found;
  const env = name ?? toxEnvNames(sources)[0] ?? 'py';
  const own = [...ini.keys()].find(
    (section) =>
      section.startsWith('testenv:') &&
      expandBraces(section.slice(8)).some((n) => n.trim() === env),
  );
  const lookup = (section: string, key: string): readonly string[] =>
    ini.get(section)?.get(key.toLowerCase()) ?? [];
  const factors = new Set(env.split('-'));
  const value = (key: string): string[] =>
    envLines((own ? ini.get(own)?.get(key) : undefined) ?? lookup('testenv', key), factors, lookup);
  const notes: string[] = [];
  const packages: string[] = [];
  const files: string[] = [];
  for (const dep of value('deps')) {
    const file = requirementFile(dep);
    const made = substitute(file ?? dep, env);
    if (made === undefined) notes.push(`a dep regreen cannot read: ${dep.slice(0, 80)}`);
    else if (file) files.push(made.replace(/^\.\//, ''));
    else if (dep.startsWith('-') || dep.startsWith('.'))
      notes.push(`a dep left out: ${dep.slice(0, 80)}`);
    else packages.push(made);
  }
  packages.push(...listOf(value('dependency_groups')).flatMap(groups));
  const skip = truthy(value('skip_install')) || (value('package')[0] ?? '') === 'skip';
  const commandLines = [...value('commands_pre'), ...value('commands')];
  const commands: RunnerCommand[] = [];
  for (const line of commandLines) {
    const command = commandWords(line, env, posargs);
    if (command) commands.push(command);
    else notes.push(`a command regreen cannot read: ${line.slice(0, 80)}`);
  }
  const setenv = value('setenv').flatMap((line): [string, string][] => {
    const equals = line.indexOf('=');
    const made = equals === -1 ? undefined : substitute(line.slice(equals + 1).trim(), env);
    return equals === -1 || made === undefined ? [] : [[line.slice(0, equals).trim(), made]];
  });
  const changedir = value('changedir')[0];
  return {
    runner: 'tox',
    env,
    packages,
    files,
    extras: listOf(value('extras')),
    installProject: !skip,
    commands:
      commandLines.length > 0 && commands.length === commandLines.length ? commands : undefined,
    setenv,
    changedir: changedir === undefined ? undefined : substitute(changedir, env),
    notes,
  };
};
