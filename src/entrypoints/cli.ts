import { CommanderError } from 'commander';
import { EXIT, exitCodeOfError } from '../cli/output.ts';
import { buildProgram } from '../cli/program.ts';
import { settingsOf } from '../config/env.ts';
import { RegreenError, isRegreenError } from '../errors.ts';
import { createLogger } from '../logger.ts';

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
