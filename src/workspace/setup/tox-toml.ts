/**
 * tox 4's own TOML configuration (`[tool.tox]` with `env_run_base` and
 * `env.<name>` tables, or a `tox.toml` read the same way): the env's table
 * over `env_run_base`, its `deps`, `extras`, `dependency_groups`,
 * `skip_install`/`package`, `set_env`, `change_dir`, `commands_pre` and
 * `commands` (lists of words, `{ replace = "posargs", default = [...] }` in
 * place). Values are data, never code.
 */
import { requirementFile, type RunnerCommand, type RunnerEnv } from './runner-env.ts';

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

/** One command (a list of words and posargs replacements) as words. */
const wordsOf = (value: unknown, posargs: readonly string[] | undefined): string[] | undefined => {
  if (!Array.isArray(value)) return undefined;
  const words: string[] = [];
  for (const entry of value.slice(0, 256)) {
    if (typeof entry === 'string') {
      if (entry.includes('{')) return undefined;
      words.push(entry);
      continue;
    }
    const replace = asRecord(entry);
    if (replace.replace !== 'posargs') return undefined;
    words.push(...(posargs ?? strings(replace.default)));
  }
  return words;
};

/** The env `name` of `[tool.tox]`'s own tables (undefined: none there). */
export const toxTomlEnv = (
  pyproject: Record<string, unknown>,
  name: string | undefined,
  posargs: readonly string[] | undefined,
  groups: (group: string) => string[],
): RunnerEnv | undefined => {
  const tox = asRecord(asRecord(pyproject.tool).tox);
  if (!('env_run_base' in tox) && !('env' in tox)) return undefined;
  const env = name ?? strings(tox.env_list)[0] ?? 'py';
  const base = asRecord(tox.env_run_base);
  const own = asRecord(asRecord(tox.env)[env]);
  const value = (key: string): unknown => (key in own ? own[key] : base[key]);
  const notes: string[] = [];
  const packages: string[] = [];
  const files: string[] = [];
  for (const dep of strings(value('deps'))) {
    const file = requirementFile(dep);
    if (file) files.push(file.replace(/^\.\//, ''));
    else if (dep.includes('{') || dep.startsWith('-') || dep.startsWith('.'))
      notes.push(`a dep left out: ${dep.slice(0, 80)}`);
    else packages.push(dep);
  }
  packages.push(...strings(value('dependency_groups')).flatMap(groups));
  const lines = [
    ...(Array.isArray(value('commands_pre')) ? (value('commands_pre') as unknown[]) : []),
    ...(Array.isArray(value('commands')) ? (value('commands') as unknown[]) : []),
  ];
  const commands: RunnerCommand[] = [];
  for (const line of lines.slice(0, 64)) {
    const words = wordsOf(line, posargs);
    if (words) commands.push({ words, ignoreExit: false });
    else notes.push('a command regreen cannot read');
  }
  const setenv = Object.entries(asRecord(value('set_env'))).flatMap(([key, text]) =>
    typeof text === 'string' && !text.includes('{') ? [[key, text] as const] : [],
  );
  const changedir = value('change_dir');
  return {
    runner: 'tox',
    env,
    packages,
    files,
    extras: strings(value('extras')),
    installProject: value('skip_install') !== true && value('package') !== 'skip',
    commands: lines.length > 0 && commands.length === lines.length ? commands : undefined,
    setenv,
    changedir: typeof changedir === 'string' && !changedir.includes('{') ? changedir : undefined,
    notes,
  };
};
