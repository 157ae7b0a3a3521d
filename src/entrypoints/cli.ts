import { Command, CommanderError } from 'commander';
import type { CliContext } from '../cli/context.ts';
import { EXIT } from '../cli/output.ts';
import { endQuietlyOnClosedPipe } from '../cli/closed-pipe.ts';
import type { Live, Verbosity } from '../cli/live.ts';
import type { Logger } from '../logger.ts';
import { RegreenError } from '../errors.ts';
import { packageVersion } from '../util/package-root.ts';
import { SUMMARIES, type CommandName } from '../cli/summaries.ts';

type Register = (program: Command, context: CliContext) => void;

/**
 * The commands of `regreen`, one module each, loaded on demand: a run loads
 * the one command it names (`regreen fix` never parses the App's, the
 * worker's or the queue's dependencies); help, `--version`, or a word that
 * names none, loads none (the list is printed from `SUMMARIES`).
 */
const COMMANDS: Readonly<Record<CommandName, () => Promise<Register>>> = {
  fix: async () => (await import('../cli/fix-command.ts')).registerFix,
  serve: async () => (await import('./app.ts')).registerServe,
  worker: async () => (await import('./worker.ts')).registerWorker,
  eval: async () => (await import('../cli/eval-command.ts')).registerEval,
  action: async () => (await import('./action.ts')).registerAction,
  triage: async () => (await import('../cli/triage-command.ts')).registerTriage,
  trace: async () => (await import('../cli/trace-command.ts')).registerTrace,
  jobs: async () => (await import('../cli/jobs-command.ts')).registerJobs,
  completion: async () => (await import('./completion.ts')).registerCompletion(loadOthers),
  tools: async () => (await import('../cli/tools-command.ts')).registerTools,
  sandbox: async () => (await import('../cli/adhoc-sandbox.ts')).registerSandbox,
  doctor: async () => (await import('../cli/doctor-command.ts')).registerDoctor,
};

/** Every command but completion, which reads their registrations. */
const loadOthers = (): Promise<Register[]> =>
  Promise.all(
    (Object.keys(COMMANDS) as CommandName[])
      .filter((name) => name !== 'completion')
      .map((name) => COMMANDS[name]()),
  );

/** The program with the command `name` registered, or every command when `name` names none. */
export const buildProgram = async (
  context: CliContext | undefined,
  name?: string,
  /** Opens the terminal before the command's action runs (not for help or a usage error). */
  open?: () => Promise<void>,
  /** The word after the command: the help a usage error points at is its subcommand's, if it names one. */
  next?: string,
): Promise<Command> => {
  const helpOf = (): string => {
    const command = program.commands.find((c) => c.name() === name);
    const subcommand = command?.commands.find((c) => c.name() === next);
    return subcommand ? `${name} ${subcommand.name()}` : `${name}`;
  };
  const program = new Command('regreen')
    .description('Turns red builds green.')
    .version(packageVersion(), '-V, --version', "regreen's version")
    .option('--quiet', 'no progress on stderr, only the outcome')
    .option('--verbose', "more: every stage as it starts, commands' output lines, debug logs")
    .option('--log-format <format>', 'text (readable lines) or json (one record per line)', 'text')
    .exitOverride()
    // One error style everywhere, on one line: `regreen: <what>. <where to look>`, not the whole help.
    .configureOutput({
      outputError: (text, write) =>
        write(
          `regreen: ${usageMessage(text)}. ${
            name !== undefined && Object.hasOwn(COMMANDS, name)
              ? `regreen ${helpOf()} --help lists its options`
              : 'regreen --help lists the commands'
          }\n`,
        ),
    })
    .addHelpText(
      'after',
      '\nExit codes: 0 proposed, 1 diagnosis, 2 usage, 3 not reproduced, 4 error, 5 waiting for an answer.\nSettings come from the environment (REGREEN_DATA_DIR, REGREEN_MODEL, ANTHROPIC_API_KEY, REGREEN_LOG_LEVEL, …): see the configuration reference in the README.',
    );
  if (context && name !== undefined && Object.hasOwn(COMMANDS, name)) {
    (await COMMANDS[name as CommandName]())(program, context);
    // Before the action: the terminal opens, and REGREEN_SANDBOX stands where a command takes
    // --sandbox and the flag was not given.
    program.hook('preAction', async (_, action) => {
      await open?.();
      const { settingsOf } = await import('../config/env.ts');
      const { sandboxKindOf } = await import('../workspace/sandbox/kinds.ts');
      const fromEnv = settingsOf(context.env).sandbox;
      if (fromEnv === undefined || action.getOptionValueSource('sandbox') !== 'default') return;
      action.setOptionValueWithSource(
        'sandbox',
        sandboxKindOf(
          fromEnv,
          (message) => process.stderr.write(`regreen: ${message}\n`),
          'REGREEN_SANDBOX',
        ),
        'env',
      );
    });
    return program;
  }
  // Only the list: naming a command (or `help <command>`) loads it and its own help.
  for (const [command, summary] of Object.entries(SUMMARIES))
    program.command(command).description(summary).helpOption(false);
  return program;
};

/** The terminal front door. Returns the process exit code. */
export const main = async (argv: readonly string[], env = process.env): Promise<number> => {
  let exitCode: number = EXIT.usage;
  let live: Live | undefined;
  endQuietlyOnClosedPipe();
  try {
    const output = outputFlags(argv);
    // `rest` is [node, script, command, ...]: the root's own options were taken out above.
    const name = output.rest[2] === 'help' ? output.rest[3] : output.rest[2];
    if (name === undefined || !Object.hasOwn(COMMANDS, name)) {
      // Help, --version or a word that names no command: commander alone, no logger, no settings.
      await (await buildProgram(undefined, name)).parseAsync(output.rest);
      return EXIT.usage;
    }
    const setExit = (code: number): void => {
      exitCode = code;
    };
    // A command's help needs its registration only: no terminal, no logger, no settings.
    // The terminal (settings, logger, live line) opens when the command's action is about to
    // run: a usage error commander finds first loads none of it.
    let terminal: { logger: Logger; live: Live } | undefined;
    const opened = (): { logger: Logger; live: Live } => {
      if (!terminal) throw new RegreenError('internal', 'the terminal is used before it opened');
      return terminal;
    };
    const context: CliContext = asksHelp(output.rest)
      ? helpContext(env, setExit)
      : {
          env,
          logger: forwarded(() => opened().logger),
          live: forwarded(() => opened().live),
          verbosity: output.verbosity,
          setExit,
        };
    const program = await buildProgram(
      context,
      name,
      async () => {
        terminal = (await import('../cli/terminal.ts')).openTerminal(env, {
          ...output,
          service: name === 'serve' || name === 'worker',
        });
        live = terminal.live;
      },
      output.rest[3],
    );
    await program.parseAsync(output.rest);
    return exitCode;
  } catch (error) {
    const json = argv.includes('--json');
    if (error instanceof CommanderError && error.exitCode === 0) return 0;
    if (error instanceof CommanderError) {
      if (json)
        (await import('../cli/terminal.ts')).writeJsonError(
          'usage',
          usageMessage(error.message),
          EXIT.usage,
        );
      return EXIT.usage;
    }
    return (await import('../cli/terminal.ts')).reportEscaped(error, live, json);
  } finally {
    live?.stop();
  }
};

/** Commander's message on one line: `unknown command 'fxi' (did you mean fix?)`. */
export const usageMessage = (text: string): string =>
  text
    .replace(/^error: /, '')
    .trim()
    .replace(/(?<![ \t\n])[ \t]*\n\s*\(Did you mean (.+?)\)$/, ' (did you mean $1)')
    .replace(/(?<![ \t\n])[ \t]*\n\s*/g, ' ');

/**
 * An object that stands for `target()`'s until it is used: a command's
 * registration takes the logger and the live line, and only its action, after
 * the terminal opened, uses them.
 */
const forwarded = <T extends object>(target: () => T): T =>
  new Proxy({} as T, {
    get: (_, property) => {
      const real = target();
      const value: unknown = Reflect.get(real, property);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(real)
        : value;
    },
  });

/** `regreen help <command>`, or `-h`/`--help` before any `--`. */
const asksHelp = (rest: readonly string[]): boolean => {
  const end = rest.indexOf('--');
  const args = end === -1 ? rest : rest.slice(0, end);
  return rest[2] === 'help' || args.includes('--help') || args.includes('-h');
};

/**
 * What a command is registered with to print its help: commander prints it and
 * stops before any action, so the logger and the live line are never used. A
 * run that reaches them anyway took `-h` as an option's value.
 */
const helpContext = (env: CliContext['env'], setExit: (code: number) => void): CliContext => {
  const unused = <T extends object>(): T =>
    forwarded<T>(() => {
      throw new RegreenError(
        'usage',
        '-h and --help ask for help: to pass them as a value, write --option=-h',
      );
    });
  return { env, logger: unused(), live: unused(), setExit };
};

/**
 * The output flags, read before the program is built (the logger needs them)
 * and accepted anywhere on the line, before or after the command.
 */
export const outputFlags = (
  argv: readonly string[],
): { verbosity: Verbosity; logFormat: 'text' | 'json'; rest: string[] } => {
  const rest: string[] = [];
  let verbosity: Verbosity = 'normal';
  let logFormat: 'text' | 'json' = 'text';
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    if (arg === '--quiet') verbosity = 'quiet';
    else if (arg === '--verbose') verbosity = 'verbose';
    else if (arg === '--log-format' || arg.startsWith('--log-format=')) {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[(i += 1)];
      if (value !== 'text' && value !== 'json')
        throw new RegreenError('usage', `--log-format must be text or json, not "${value ?? ''}"`);
      logFormat = value;
    } else rest.push(arg);
  }
  return { verbosity, logFormat, rest };
};
