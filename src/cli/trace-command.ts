import type { Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir } from '../config/env.ts';
import { traceJson } from '../observe/trace-json.ts';
import { showTrace } from '../observe/trace-read.ts';
import { readNamedFile } from '../util/read-file.ts';
import { type CliContext, dataDirOption } from './context.ts';
import { jobTracePath } from './jobs-command.ts';

/** `regreen trace show [job|file]`: a job by id (or a unique start of one), a trace file, or the latest job. */
export const registerTrace = (program: Command, { env, setExit }: CliContext): void => {
  program
    .command('trace')
    .description(SUMMARIES.trace)
    .command('show [job]')
    .description(
      'a readable summary (stages, turns, tools used, failed edits, test runs, spend) of a job by id, a trace file, or the latest job',
    )
    .addOption(dataDirOption())
    .option('--json', 'print the trace as JSON: the summary as data, then every step')
    .action((job: string | undefined, opts: { dataDir?: string; json?: boolean }) => {
      const named = job !== undefined && (job.includes('/') || existsSync(job));
      // A job's folder reads the trace in it.
      const file =
        named && existsSync(job) && statSync(job).isDirectory()
          ? path.join(job, 'trace.jsonl')
          : named
            ? job
            : jobTracePath(opts.dataDir ?? defaultDataDir(env), job);
      process.stdout.write(
        opts.json
          ? `${JSON.stringify(traceJson(file, readNamedFile(file, 'the trace')), null, 2)}\n`
          : `trace: ${file}\n${showTrace(file)}\n`,
      );
      setExit(0);
    });
};
