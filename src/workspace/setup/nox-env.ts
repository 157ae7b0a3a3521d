/**
 * A nox session read statically from noxfile.py, never run on the host: the
 * function a `@nox.session` decorator names (its `name=` when a literal),
 * its `session.install(...)` calls (requirement files, packages, the project
 * with its extras) and `session.run(...)` calls (string literals, and
 * `*session.posargs`). An argument of any other kind is not guessed at: an
 * install's is left out and said, a run's leaves the commands unread. One
 * pass over a bounded text; nothing of it becomes a pattern.
 */
import { requirementFile, type RunnerCommand, type RunnerEnv } from './runner-env.ts';

const MAX_TEXT = 256 * 1024;

/** A Python string literal at `text[at]` (plain, raw or bytes prefix; not an f-string): its value and end. */
const stringAt = (text: string, at: number): { value: string; end: number } | undefined => {
  let i = at;
  let raw = false;
  while (i < text.length && 'rRbBuU'.includes(text.charAt(i)) && i - at < 2) {
    if (text.charAt(i) === 'r' || text.charAt(i) === 'R') raw = true;
    i += 1;
  }
  const quote = text.charAt(i);
  if (quote !== '"' && quote !== "'") return undefined;
  let value = '';
  for (let j = i + 1; j < text.length; j += 1) {
    const char = text.charAt(j);
    if (char === '\\' && !raw && j + 1 < text.length) {
      j += 1;
      value += text.charAt(j);
    } else if (char === quote) return { value, end: j + 1 };
    else if (char === '\n') return undefined;
    else value += char;
  }
  return undefined;
};

/** The top-level arguments of a call whose `(` is at `open`, as source text without comments. */
const callArguments = (text: string, open: number): string[] | undefined => {
  const args: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = open; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (char === '"' || char === "'") {
      const found = stringAt(text, i);
      if (!found) return undefined;
      current += text.slice(i, found.end);
      i = found.end - 1;
      continue;
    }
    if (char === '#') {
      const newline = text.indexOf('\n', i);
      i = newline === -1 ? text.length : newline;
      continue;
    }
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
    if (depth === 0) {
      args.push(current);
      return args.map((arg) => arg.trim()).filter((arg) => arg !== '');
    }
    if (char === ',' && depth === 1) {
      args.push(current);
      current = '';
    } else if (i > open) current += char;
  }
  return undefined;
};

/** An argument as a literal string (undefined: any other expression). */
const literal = (arg: string): string | undefined => {
  const found = stringAt(arg, 0);
  return found && found.end === arg.length ? found.value : undefined;
};

const indentOf = (line: string): number => line.length - line.trimStart().length;

/** The body of the session function `name` (its decorator's `name=`, else the function's name). */
const sessionBody = (text: string, name: string): string | undefined => {
  const lines = text.slice(0, MAX_TEXT).split('\n');
  let decorated: string | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (trimmed.startsWith('@nox.session') || trimmed.startsWith('@session')) {
      const at = trimmed.indexOf('name=');
      decorated = at === -1 ? '' : (stringAt(trimmed, at + 5)?.value ?? '');
      continue;
    }
    if (decorated === undefined || !trimmed.startsWith('def ')) continue;
    const fn = trimmed.slice(4, trimmed.indexOf('(') === -1 ? undefined : trimmed.indexOf('('));
    const session = decorated || fn.trim();
    decorated = undefined;
    if (session !== name) continue;
    const indent = indentOf(line);
    const body: string[] = [];
    for (let j = i + 1; j < lines.length; j += 1) {
      const next = lines[j] ?? '';
      if (next.trim() !== '' && indentOf(next) <= indent) break;
      body.push(next);
    }
    return body.join('\n');
  }
  return undefined;
};

/** Every `session.<method>(…)` call of a body, in order, with its arguments. */
const calls = (body: string, method: string): string[][] => {
  const found: string[][] = [];
  const needle = `session.${method}(`;
  // At most 200 calls read: an unclosed one reads to the end of the body.
  let read = 0;
  for (
    let at = body.indexOf(needle);
    at !== -1 && read < 200;
    at = body.indexOf(needle, at + 1), read += 1
  ) {
    const parsed = callArguments(body, at + needle.length - 1);
    if (parsed) found.push(parsed);
  }
  return found;
};

/** `nox -s name`: the session as the noxfile writes it (a parametrised `tests-3.11` is `tests`'s). */
export const noxEnv = (
  noxfile: string,
  session: string,
  posargs: readonly string[] | undefined,
): RunnerEnv | undefined => {
  const body =
    sessionBody(noxfile, session) ?? sessionBody(noxfile, session.replace(/-[\d.]+$/, ''));
  if (body === undefined) return undefined;
  const notes: string[] = [];
  const packages: string[] = [];
  const files: string[] = [];
  const extras: string[] = [];
  let installProject = false;
  for (const args of calls(body, 'install')) {
    const words = args.filter((arg) => !arg.includes('='));
    for (let i = 0; i < words.length; i += 1) {
      const word = literal(words[i] ?? '');
      if (word === undefined) {
        notes.push(`an install argument regreen cannot read: ${(words[i] ?? '').slice(0, 60)}`);
        continue;
      }
      const next = literal(words[i + 1] ?? '');
      const file = word === '-r' ? next : requirementFile(word);
      if (word === '-r' || word === '-c' || word === '-e') i += word === '-e' ? 0 : 1;
      if (file !== undefined) files.push(file);
      else if (word === '.' || word.startsWith('.[')) {
        installProject = true;
        if (word.startsWith('.[')) extras.push(...word.slice(2, -1).split(','));
      } else if (!word.startsWith('-')) packages.push(word);
    }
  }
  const commands: RunnerCommand[] = [];
  let readable = true;
  for (const args of calls(body, 'run')) {
    const words: string[] = [];
    for (const arg of args.filter((entry) => !/^\w+\s*=/.test(entry))) {
      const word = literal(arg);
      if (word !== undefined) words.push(word);
      else if (arg === '*session.posargs') words.push(...(posargs ?? []));
      else readable = false;
    }
    if (words.length > 0) commands.push({ words, ignoreExit: false });
  }
  if (!readable) notes.push('a session.run argument regreen cannot read');
  return {
    runner: 'nox',
    env: session,
    packages,
    files,
    extras: extras.map((extra) => extra.trim()).filter(Boolean),
    installProject,
    commands: readable && commands.length > 0 ? commands : undefined,
    setenv: [],
    changedir: undefined,
    notes,
  };
};
