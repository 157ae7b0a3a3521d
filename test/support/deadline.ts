/**
 * Calls one exported function of regreen's sources in a child process and
 * kills it past a deadline: a test of a parse that could hang the event loop
 * must fail when it regresses, never hold the suite (a test's own timeout
 * cannot interrupt a synchronous loop in the process that runs it).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Within {
  /** What the function returned (through JSON), when it ended in time. */
  readonly value?: unknown;
  /** The signal that ended the child: SIGKILL when it ran past the deadline. */
  readonly signal: string | null;
  readonly stderr: string;
}

/** `name` exported by `file` (relative to the repository), called with `args`, within `deadlineMs`. */
export const callWithin = (
  file: string,
  name: string,
  args: readonly unknown[],
  deadlineMs: number,
): Promise<Within> => {
  const url = pathToFileURL(path.join(ROOT, file)).href;
  const code = [
    `import { readFileSync } from 'node:fs';`,
    `const args = JSON.parse(readFileSync(0, 'utf8'));`,
    `const mod = await import(${JSON.stringify(url)});`,
    `const value = await mod[${JSON.stringify(name)}](...args);`,
    `process.stdout.write(JSON.stringify(value ?? null));`,
  ].join('\n');
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', code],
      { cwd: ROOT, timeout: deadlineMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({
          ...(error ? {} : { value: JSON.parse(stdout) as unknown }),
          signal: error?.signal ?? null,
          stderr,
        }),
    );
    child.stdin?.end(JSON.stringify(args));
  });
};
