import { Command, CommanderError } from 'commander';
import { registerSandbox } from '../cli/adhoc-sandbox.ts';
import type { CliContext } from '../cli/context.ts';
import { registerEval } from '../cli/eval-command.ts';
import { registerFix } from '../cli/fix-command.ts';
import { EXIT, exitCodeOfError } from '../cli/output.ts';
import { registerTools } from '../cli/tools-command.ts';
import { registerTrace } from '../cli/trace-command.ts';
import { registerTriage } from '../cli/triage-command.ts';
import type { Env } from '../config/env.ts';
import type { Logger } from '../logger.ts';
import { registerAction } from './action.ts';
import { registerServe } from './app.ts';
import { registerWorker } from './worker.ts';
import { settingsOf } from '../config/env.ts';
import { RegreenError, isRegreenError } from '../errors.ts';
import { createLogger } from '../logger.ts';

/** The commands of `regreen`, one module each; each action reports its exit code through `setExit`. */
export const buildProgram = (
  env: Env,
  logger: Logger,
  setExit: (code: number) => void,
): Command => {
  const program = new Command('regreen')
    .description('Turns red builds green.')
    .exitOverride()
    .showHelpAfterError();
  const context: CliContext = { env, logger, setExit };
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
  ])
    register(program, context);
  return program;
};

/** The terminal front door. Returns the process exit code. */
export const main = async (argv: readonly string[], env = process.env): Promise<number> => {
  let exitCode: number = EXIT.usage;
  try {
    const logger = createLogger({ level: settingsOf(env).logLevel ?? 'warn' });
    const program = buildProgram(env, logger, (code) => {
      exitCode = code;
    });
    await program.parseAsync([...argv]);
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : EXIT.usage;
    const known = isRegreenError(error)
      ? error
      : new RegreenError('internal', String(error), { cause: error });
    process.stderr.write(`regreen: ${known.message}\n`);
    return exitCodeOfError(known.code);
  }
};
