/**
 * The build a judged command makes before it runs its tests, as a command of
 * its own: `cargo test` builds every test binary and then runs them one by
 * one from `target/`; Maven and Gradle compile the tests into class folders
 * and then start a JVM that loads them as they are first used. Between the
 * two, the code under test runs, as the sandbox's uid, beside files it can
 * write: a test binary not yet run, a test class not yet loaded. Run first
 * (`cargo test --no-run …`, `mvn … -DskipTests`, `gradle … -x test
 * testClasses`, the command's own arguments kept), the build is done before
 * any code under test runs, and what it made can be held still
 * (`hold-build.ts`) while the command itself runs: its build then finds
 * everything up to date. A clean in the command (`mvn clean test`, `cargo
 * clean && …`) ran in the build first; the judged run goes on without it, as
 * a held output cannot be deleted.
 *
 * Read from the command's own words: each `cargo test`, `mvn`/`mvnw` and
 * `gradle`/`gradlew` it runs (after `cd`s and variable assignments, in
 * `&&`/`;`/`|` lists), the `cd`s kept. A build reached only through a script
 * (`make test`) is not seen: nothing is held for it.
 */

export type BuildKind = 'cargo' | 'maven' | 'gradle';

export interface BuildFirst {
  /** The command that builds what the judged commands run, and runs none of it. */
  readonly command: string;
  /** The build tools it ran: what `hold-build.ts` holds the outputs of. */
  readonly kinds: ReadonlySet<BuildKind>;
  /** A judged command as it runs after the build: without the cleans the build began with. */
  readonly judged: (command: string) => string;
}

/** A shell word as written (quotes kept), or a list operator, and where it is in the command. */
interface Word {
  readonly text: string;
  readonly operator: boolean;
  readonly start: number;
  readonly end: number;
}

/** The command's words and list operators (`&&`, `||`, `;`, `|`, `&`, a line break), quotes respected. */
const wordsOf = (command: string): Word[] => {
  const words: Word[] = [];
  let current = '';
  let start = 0;
  const flush = (end: number): void => {
    if (current !== '') words.push({ text: current, operator: false, start, end });
    current = '';
  };
  for (let at = 0; at < command.length; at += 1) {
    const char = command[at] ?? '';
    if (current === '') start = at;
    if (char === "'" || char === '"') {
      const end = command.indexOf(char, at + 1);
      const stop = end === -1 ? command.length : end + 1;
      current += command.slice(at, stop);
      at = stop - 1;
    } else if (char === '\\' && at + 1 < command.length) {
      current += command.slice(at, at + 2);
      at += 1;
    } else if (char === ' ' || char === '\t') flush(at);
    else if (char === '\n' || char === ';' || char === '&' || char === '|') {
      // `2>&1` is a redirection, not a list operator.
      if (char === '&' && (current.endsWith('>') || command[at + 1] === '>')) {
        current += char;
        continue;
      }
      flush(at);
      const doubled = (char === '&' || char === '|') && command[at + 1] === char;
      const text = doubled ? char + char : char;
      words.push({ text, operator: true, start: at, end: at + text.length });
      if (doubled) at += 1;
    } else current += char;
  }
  flush(command.length);
  return words;
};

/** The simple commands of a list, each its words. */
const simpleCommands = (command: string): Word[][] => {
  const commands: Word[][] = [[]];
  for (const word of wordsOf(command))
    if (word.operator) commands.push([]);
    else commands.at(-1)?.push(word);
  return commands.filter((words) => words.length > 0);
};

const ASSIGNMENT = /^[A-Za-z_]\w*=/;
const REDIRECTION = /^\d*[<>]/;
const toolName = (word: string): string => word.slice(word.lastIndexOf('/') + 1);

/** The build of one simple command, its kind, or undefined when it runs none of these tools. */
const buildOf = (words: readonly string[]): { words: string[]; kind: BuildKind } | undefined => {
  const start = words.findIndex((word) => !ASSIGNMENT.test(word));
  if (start === -1) return undefined;
  const prefix = words.slice(0, start);
  const tool = words[start] ?? '';
  const args = words.slice(start + 1).filter((word) => !REDIRECTION.test(word));
  const name = toolName(tool);
  if (name === 'cargo') {
    // `cargo [+toolchain] [global flags] test ARGS [-- test binary args]`.
    const sub = args.findIndex((word) => !word.startsWith('-') && !word.startsWith('+'));
    if (sub === -1 || !['test', 't'].includes(args[sub] ?? '')) return undefined;
    const end = args.indexOf('--');
    const own = end === -1 ? args : args.slice(0, end);
    return {
      words: [...prefix, tool, ...own.slice(0, sub + 1), '--no-run', ...own.slice(sub + 1)],
      kind: 'cargo',
    };
  }
  if (name === 'mvn' || name === 'mvnw')
    return { words: [...prefix, tool, ...args, '-DskipTests'], kind: 'maven' };
  // `-x test` alone would drop what only the test task needs (the test classes): ask for them.
  if (name === 'gradle' || name === 'gradlew')
    return { words: [...prefix, tool, ...args, '-x', 'test', 'testClasses'], kind: 'gradle' };
  return undefined;
};

/** A clean of a build tool's: Maven's `clean` phase or goal, Gradle's `clean` task of any project. */
const CLEAN = /^(?:clean|clean:clean|(?::[\w.-]+)*:clean)$/;

/**
 * Where a simple command cleans what the build first made and holds: the
 * words to cut (`mvn clean test`, `gradle clean test`), or the whole
 * command (`cargo clean`). A held output cannot be deleted; the build first
 * began with the clean, so the judged run goes on from its output.
 */
const cleansOf = (words: readonly Word[]): { start: number; end: number; whole: boolean }[] => {
  const start = words.findIndex((word) => !ASSIGNMENT.test(word.text));
  const name = toolName(words[start]?.text ?? '');
  const args = words.slice(start + 1);
  if (name === 'cargo') {
    const sub = args.find((word) => !word.text.startsWith('-') && !word.text.startsWith('+'));
    const first = words[0];
    const last = words.at(-1);
    return sub?.text === 'clean' && first && last
      ? [{ start: first.start, end: last.end, whole: true }]
      : [];
  }
  if (!['mvn', 'mvnw', 'gradle', 'gradlew'].includes(name)) return [];
  return args
    .filter((word) => CLEAN.test(word.text))
    .map((word) => ({ start: word.start, end: word.end, whole: false }));
};

/** The command with its cleans cut (a whole command becomes `true`), all else as written. */
const withoutCleans = (command: string): string => {
  const cuts = simpleCommands(command).flatMap(cleansOf);
  let out = command;
  for (const cut of cuts.reverse())
    out = `${out.slice(0, cut.start)}${cut.whole ? 'true' : ''}${out.slice(cut.end)}`;
  return out;
};

/**
 * The build the judged commands make first, or undefined when they run none
 * of the tools whose tests run from files the code under test could write.
 */
export const buildFirst = (commands: readonly string[]): BuildFirst | undefined => {
  const kinds = new Set<BuildKind>();
  const groups: string[] = [];
  for (const command of new Set(commands)) {
    const steps: string[] = [];
    let builds = false;
    for (const words of simpleCommands(command).map((list) => list.map((word) => word.text))) {
      if (words[0] === 'cd') {
        steps.push(words.join(' '));
        continue;
      }
      const build = buildOf(words);
      if (build === undefined) continue;
      kinds.add(build.kind);
      builds = true;
      steps.push(build.words.join(' '));
    }
    // Each judged command starts from the tree's top: its own subshell, its own `cd`s.
    if (builds) groups.push(`( ${steps.join(' && ')} )`);
  }
  return groups.length === 0
    ? undefined
    : { command: groups.join(' && '), kinds, judged: withoutCleans };
};
