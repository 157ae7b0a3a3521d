import type { Command } from 'commander';
import { SUMMARIES } from './summaries.ts';
import { existsSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { defaultDataDir } from '../config/env.ts';
import { traceJson } from '../observe/trace-json.ts';
import { showTrace } from '../observe/trace-read.ts';
import { RegreenError } from '../errors.ts';
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
    .option(
      '--html',
      "the job's page as `regreen serve` shows it (outcome, PR text, change, trajectory), to open locally",
    )
    .option('-o, --output <file>', 'with --html: write the page to this file, not stdout')
    .action(
      async (
        job: string | undefined,
        opts: { dataDir?: string; json?: boolean; html?: boolean; output?: string },
      ) => {
        if (opts.json && opts.html)
          throw new RegreenError('usage', '--json and --html: choose one');
        if (opts.output !== undefined && !opts.html)
          throw new RegreenError('usage', '--output writes the --html page: add --html');
        const named = job !== undefined && (job.includes('/') || existsSync(job));
        // A job's folder reads the trace in it.
        const file =
          named && existsSync(job) && statSync(job).isDirectory()
            ? path.join(job, 'trace.jsonl')
            : named
              ? job
              : jobTracePath(opts.dataDir ?? defaultDataDir(env), job);
        if (opts.html) {
          // The page's renderer (markdown, diffs, the trajectory) loads only when a page is made.
          const { tracePageHtml } = await import('../observe/trace-page.ts');
          const page = tracePageHtml(file, readNamedFile(file, 'the trace'));
          if (opts.output === undefined) process.stdout.write(page);
          else {
            try {
              writeFileSync(opts.output, page);
            } catch (error) {
              throw new RegreenError(
                'usage',
                `--output ${opts.output}: cannot write it (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
              );
            }
            process.stdout.write(`wrote ${opts.output}: open it in a browser\n`);
          }
          setExit(0);
          return;
        }
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(traceJson(file, readNamedFile(file, 'the trace')), null, 2)}\n`
            : `trace: ${file}\n${showTrace(file)}\n`,
        );
        setExit(0);
      },
    );
};
