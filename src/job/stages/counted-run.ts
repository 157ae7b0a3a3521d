import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { CheckedRun } from '../../../checks/types.ts';
import { settingsOf } from '../../config/env.ts';
import { readFileInsideUpTo, removeFileInside } from '../../workspace/repo/confined-fs.ts';
import type { Sandbox, SandboxRunRequest } from '../../workspace/sandbox/sandbox.ts';
import { privateFolders } from '../../workspace/sandbox/shared.ts';
import { removeTree } from '../../util/discard.ts';
import { quote } from '../../util/text.ts';
import { TEST_REPORT_VARIABLE } from '../../workspace/setup/gradle.ts';

/** The most of a runner's report that is read. */
const MAX_REPORT_BYTES = 64 * 1024 * 1024;

const joined = (...parts: readonly (string | undefined)[]): string =>
  parts.filter((part) => part !== undefined && part !== '').join(' ');

/**
 * Runs a command the checks count, so that its runner proves it ran: pytest
 * is told through `PYTEST_ADDOPTS` to write its JUnit report to a file of
 * this one run in the sandbox's private tmp (outside the workspace, its name
 * unknown until now, so no file of the change or the base can be there
 * already), Gradle's test listener to write the same to it (an init script of
 * the sandbox's home, `setup/gradle.ts`), and go test through `GOFLAGS` to
 * name every test (`-v`) and to run every one (`-count=1`: go test replays
 * a result from its cache, which the code under test can write, whenever it
 * finds one for the same binary and inputs; a product change can cache a
 * pass for a package a later `go test` of the same command runs), with a
 * build cache (`GOCACHE`) of this run's, which no earlier run wrote and
 * which is removed after it. The command is not rewritten here (only `build-first.ts` cuts a clean its build began with). The host
 * makes nothing there (the tmp is the sandbox's: a folder made and chowned
 * by path could be swapped for a link); the report is read back through the confined reader from the tmp
 * itself (no link followed, regular files only, capped) and unlinked the same
 * way.
 */
export const countedRun = async (
  sandbox: Sandbox,
  request: SandboxRunRequest,
): Promise<CheckedRun> => {
  const { tmp } = privateFolders(sandbox.policy);
  const junit = path.join(tmp, `regreen-report-${randomBytes(8).toString('hex')}.xml`);
  const goCache = path.join(tmp, `regreen-gocache-${randomBytes(8).toString('hex')}`);
  const declared = request.env ?? {};
  try {
    const result = await sandbox.run({
      ...request,
      env: {
        ...declared,
        PYTEST_ADDOPTS: joined(declared.PYTEST_ADDOPTS, quote(`--junit-xml=${junit}`)),
        // Every test runs (no result replayed from a cache), from a build cache of this run alone.
        GOFLAGS: joined(
          settingsOf(sandbox.policy.baseEnv).goFlags,
          declared.GOFLAGS,
          '-v',
          '-count=1',
        ),
        GOCACHE: goCache,
        [TEST_REPORT_VARIABLE]: junit,
      },
    });
    let xml: string | undefined;
    try {
      xml = readFileInsideUpTo(tmp, junit, MAX_REPORT_BYTES)?.toString('utf8');
    } catch {
      // No report, or not a regular file of the runner's: nothing proven by a report.
      xml = undefined;
    }
    // pytest names the report regreen asked for (`generated xml file: …`): a person reading the
    // output in the PR text or a diagnosis never asked for it.
    const output = result.output
      .split('\n')
      .filter((line) => !line.includes(junit))
      .join('\n');
    return { ...result, output, proof: { junit: xml, goVerbose: true } };
  } finally {
    // The run's build cache goes with it, before the next command (rm walks it, following no link).
    try {
      removeTree(goCache);
    } catch {
      // Left to the sandbox's tmp, which goes with the job: no later run is given it.
    }
    try {
      removeFileInside(tmp, junit);
    } catch {
      // Never written, or not a file the runner wrote: nothing of the host's to remove.
    }
  }
};
