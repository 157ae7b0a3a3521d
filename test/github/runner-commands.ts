/**
 * The workflow commands the GitHub runner acts on in a step's log, read the
 * way actions/runner reads them (src/Runner.Worker/ActionCommandManager.cs,
 * src/Runner.Common/ActionCommand.cs): each line, as .NET's ReadLine splits
 * them (\n, \r\n, \r); the `::name props::data` form when the line starts with
 * `::` after its leading white space; else the old `##[name props]data` form
 * anywhere in the line; only registered commands count; between
 * `::stop-commands::TOKEN` and `::TOKEN::` (compared without case) nothing else
 * does.
 */
const REGISTERED = [
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
  'stop-commands',
];

export interface RunnerCommand {
  /** The command's name, or `resume` for the end of a stop-commands block. */
  readonly name: string;
  readonly data: string;
  /** The raw line. */
  readonly line: string;
}

const parse = (line: string, registered: Set<string>): { name: string; data: string } | null => {
  const v2 = line.trimStart();
  if (v2.startsWith('::')) {
    const end = v2.indexOf('::', 2);
    if (end >= 0) {
      const info = v2.slice(2, end);
      const name = (info.split(' ')[0] ?? '').toLowerCase();
      if (registered.has(name)) return { name, data: v2.slice(end + 2) };
    }
  }
  const prefix = line.indexOf('##[');
  if (prefix < 0) return null;
  const close = line.indexOf(']', prefix);
  if (close < 0) return null;
  const name = (line.slice(prefix + 3, close).split(' ')[0] ?? '').toLowerCase();
  return registered.has(name) ? { name, data: line.slice(close + 1) } : null;
};

export const runnerCommands = (log: string): RunnerCommand[] => {
  const registered = new Set(REGISTERED);
  const acted: RunnerCommand[] = [];
  let token: string | undefined;
  for (const line of log.split(/\r\n|\r|\n/)) {
    const command = parse(line, registered);
    if (!command) continue;
    if (token !== undefined) {
      if (command.name !== token) continue;
      registered.delete(token);
      token = undefined;
      acted.push({ name: 'resume', data: '', line });
      continue;
    }
    if (command.name === 'stop-commands') {
      token = command.data.toLowerCase();
      registered.add(token);
    }
    acted.push({ ...command, line });
  }
  return acted;
};
