import { CommanderError } from 'commander';
import { EXIT, exitCodeOfError } from '../cli/output.ts';
import { buildProgram } from '../cli/program.ts';
import { RegreenError, isRegreenError } from '../errors.ts';
import { createLogger } from '../logger.ts';

/** The terminal front door. Returns the process exit code. */
export const main = async (argv: readonly string[], env = process.env): Promise<number> => {
  const logger = createLogger({ level: env.REGREEN_LOG_LEVEL ?? 'warn' });
  let exitCode: number = EXIT.usage;
  const program = buildProgram(env, logger, (code) => {
    exitCode = code;
  });
  try {
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
