import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { viewed } from './git-args.ts';

/** The probe's answer: available for good once it was; else why not, asked again after a while. */
let probed: { readonly why: string | undefined; readonly at: number } | undefined;
/** The probe under way: every caller meanwhile waits for this one. */
let probing: Promise<string | undefined> | undefined;
const PROBE_AGAIN_MS = 30_000;
const PROBE_TIMEOUT_MS = 15_000;

const known = (now: number): boolean =>
  probed !== undefined && (probed.why === undefined || now - probed.at < PROBE_AGAIN_MS);

/**
 * Why this host cannot run git on the view of a workspace (see `viewed`);
 * undefined when it can. The view must refuse a link on the workspace and
 * show nothing outside it: git exits 128 on both, saying why (in the C
 * locale the view runs in). A failure is asked again after a while (a host
 * too slow for the probe's time limit once is not a host without the view),
 * and the callers that need the view fail closed meanwhile. A job asks it
 * when it begins, so the probe runs beside its first commands rather than
 * before its first view.
 */
export const noFollowProbe = (now = Date.now()): Promise<string | undefined> => {
  if (known(now)) return Promise.resolve(probed?.why);
  probing ??= probeAsync().then((why) => {
    probed = { why, at: Date.now() };
    probing = undefined;
    return why;
  });
  return probing;
};

interface ProbeRun {
  readonly error?: string;
  readonly status: number | null;
  readonly stderr: string;
}

/**
 * The probe's two calls, each as one process: the view is made, and refuses
 * what it was made to refuse. Made in a folder of its own (`dir`), which the
 * caller removes.
 */
const probeCalls = (
  dir: string,
): { argv: string[]; env: Record<string, string>; expected: RegExp }[] => {
  const workspace = path.join(dir, 'workspace');
  const outside = path.join(dir, 'outside');
  mkdirSync(path.join(workspace, 'dir'), { recursive: true });
  mkdirSync(outside);
  symlinkSync('dir', path.join(workspace, 'link'));
  return [
    { args: ['-C', 'link', '--version'], expected: /too many levels of symbolic links/i },
    { args: ['-C', outside, '--version'], expected: /no such file or directory/i },
  ].map(({ args, expected }) => ({ ...viewed(workspace, args, undefined), expected }));
};

/** What was wrong with one call: undefined when git refused it as expected. */
const refusal = (run: ProbeRun, expected: RegExp): string | undefined => {
  if (run.error !== undefined) return run.error;
  if (run.status === 0) return 'passed';
  const said = run.stderr.trim().split('\n').at(-1) ?? '';
  return run.status === 128 && expected.test(said) ? undefined : `exit ${run.status}: ${said}`;
};

/** The probe's answer from what its calls said (the link's, then the outside folder's). */
const probeVerdict = (link: string | undefined, host: string | undefined): string | undefined => {
  if (link === 'passed')
    return 'a link on the bound workspace was followed (nosymfollow had no effect)';
  if (host === 'passed') return 'a folder outside the workspace was visible in its view';
  const failed = link ?? host;
  return failed === undefined
    ? undefined
    : `unshare with a chrooted nosymfollow view failed: ${failed}`;
};

const runAsync = (argv: string[], env: Record<string, string>): Promise<ProbeRun> =>
  new Promise((resolve) => {
    const child = execFile(
      'unshare',
      argv,
      { timeout: PROBE_TIMEOUT_MS, killSignal: 'SIGKILL', env, encoding: 'utf8' },
      (error, _stdout, stderr) =>
        resolve({
          status: child.exitCode,
          stderr,
          // An exit code is the view's answer; anything else (not started, killed) is the error.
          ...(error && typeof error.code !== 'number' ? { error: error.message } : {}),
        }),
    );
    child.stdin?.end();
  });

const probeAsync = async (): Promise<string | undefined> => {
  let dir: string | undefined;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), 'regreen-nofollow-'));
    const said: (string | undefined)[] = [];
    for (const call of probeCalls(dir)) {
      said.push(refusal(await runAsync(call.argv, call.env), call.expected));
      if (said.at(-1) !== undefined) break;
    }
    return probeVerdict(said[0], said[1]);
  } catch (error) {
    return `the view could not be made: ${(error as Error).message}`;
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
};
