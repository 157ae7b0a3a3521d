import { Command, CommanderError } from 'commander';
import { registerSandbox } from '../cli/adhoc-sandbox.ts';
import type { CliContext } from '../cli/context.ts';
import { registerDoctor } from '../cli/doctor-command.ts';
import { registerEval } from '../cli/eval-command.ts';
import { registerFix } from '../cli/fix-command.ts';
import { EXIT } from '../cli/output.ts';
import { openTerminal, reportEscaped } from '../cli/terminal.ts';
import { registerTools } from '../cli/tools-command.ts';
import { registerTrace } from '../cli/trace-command.ts';
import { registerTriage } from '../cli/triage-command.ts';
import type { Live, Verbosity } from '../cli/live.ts';
import { registerAction } from './action.ts';
import { registerServe } from './app.ts';
import { registerWorker } from './worker.ts';
import { RegreenError } from '../errors.ts';

/** The commands of `regreen`, one module each; each action reports its exit code through `setExit`. */
export const buildProgram = (context: CliContext): Command => {
  const program = new Command('regreen')
    .description('Turns red builds green.')
    .option('--quiet', 'no progress on stderr, only the outcome')
    .option('--verbose', "more: every stage as it starts, commands' output lines, debug logs")
    .option('--log-format <format>', 'text (readable lines) or json (one record per line)', 'text')
    .exitOverride()
    .showHelpAfterError();
  for (const register of [
    registerFix,
    registerServe,
    registerWorker,
    registerEval,
    registerAction,
    registerTriage,
    registerTrace,
    registerTools,
    registerSandbox,
    registerDoctor,
  ])
    register(program, context);
  return program;
};

/** The terminal front door. Returns the process exit code. */
export const main = async (argv: readonly string[], env = process.env): Promise<number> => {
  let exitCode: number = EXIT.usage;
  let live: Live | undefined;
  try {
    const output = outputFlags(argv);
    const terminal = openTerminal(env, output);
    live = terminal.live;
    const logger = terminal.logger;
    const program = buildProgram({
      env,
      logger,
      live,
      setExit: (code) => {
        exitCode = code;
      },
    });
    await program.parseAsync(output.rest);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT.usage;
    return reportEscaped(error, live);
  } finally {
    live?.stop();
  }
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
