import type { Command } from 'commander';
import { showTrace } from '../observe/trace-read.ts';
import type { CliContext } from './context.ts';

/** `regreen trace`. */
export const registerTrace = (program: Command, { setExit }: CliContext): void => {
  program
    .command('trace')
    .description("a job's trace")
    .command('show <file>')
    .description('a readable summary: stages, turns, tools used, failed edits, test runs, spend')
    .action((file: string) => {
      process.stdout.write(`${showTrace(file)}\n`);
      setExit(0);
    });
};
