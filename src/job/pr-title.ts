import type { ParsedDiff } from '../../checks/diff.ts';

/** A title a reviewer can tell apart from the next one: bounded, on one line. */
const MAX_TITLE = 100;
const MAX_NAME = 60;

/** A name from a run's output or a diff, as a title can hold it: one line, no backticks, bounded. */
const named = (text: string): string => {
  const line = (text.split('\n')[0] ?? '').replaceAll('`', "'").trim();
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
};

const listed = (names: readonly string[], budget: number): string => {
  const shown: string[] = [];
  for (const name of names) {
    const next = [...shown, `\`${name}\``];
    const rest = names.length - next.length;
    const text = `${next.join(', ')}${rest > 0 ? ` and ${rest} more` : ''}`;
    if (shown.length > 0 && text.length > budget) break;
    shown.push(`\`${name}\``);
  }
  const rest = names.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  if (shown.length === 1) return shown[0] ?? '';
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
};

/** The hunk headers' functions (git names the enclosing one after `@@ … @@`), in order, once each. */
const changedFunctions = (diffText: string): string[] => {
  const found: string[] = [];
  for (const line of diffText.split('\n')) {
    if (!line.startsWith('@@ ')) continue;
    const close = line.indexOf(' @@', 3);
    if (close === -1) continue;
    // The context line, bounded before it is read; the first name called or defined in it.
    const context = line.slice(close + 3, close + 3 + 200);
    const name = /(?<![\w$])([A-Za-z_$][\w$]*)\s*(?:=\s*(?:async\s*)?(?:function\s*)?)?\(/.exec(
      context,
    )?.[1];
    if (name && !found.includes(name)) found.push(name);
  }
  return found;
};

/**
 * The pull request's title names what was fixed: the failing tests the run
 * named, else the function and file the change touches, else the command.
 */
export const fixTitle = (options: {
  readonly command: string;
  readonly fixedBy: string;
  readonly tests: readonly string[];
  readonly diff: ParsedDiff;
}): string => {
  const by = options.fixedBy === 'agent' ? '' : ` (${options.fixedBy})`;
  const tests = [...new Set(options.tests.map(named).filter(Boolean))];
  if (tests.length > 0) {
    const head = 'fix: make ';
    const tail = ` pass${by}`;
    return `${head}${listed(tests, MAX_TITLE - head.length - tail.length)}${tail}`;
  }
  const files = options.diff.files.map((file) => named(file.path));
  const functions = changedFunctions(options.diff.text).map((name) => `${named(name)}()`);
  if (files.length > 0) {
    const where = files.length === 1 ? `\`${files[0] ?? ''}\`` : listed(files, 50);
    const what = functions.length > 0 ? `${listed(functions, 40)} in ` : '';
    return `fix: ${what}${where}${by}`.slice(0, MAX_TITLE);
  }
  return `fix: make \`${named(options.command)}\` pass${by}`;
};
