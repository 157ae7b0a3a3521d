import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { judgedChange, warmJudging } from '../../src/job/stages/judged-change.ts';
import type { Prepared } from '../../src/job/stages/prepare.ts';
import { makeTempDir } from '../support/tmp.ts';

/** What judging reads of a prepared job: its workspace, base, commands and config. */
const preparedFor = (workspace: string, baseSha: string, failingCommand: string): Prepared =>
  ({
    workspace,
    baseSha,
    failingCommand,
    testCommand: failingCommand,
    setupCommand: undefined,
    config: { unprotected: [], protected: [], product: [] },
  }) as unknown as Prepared;

describe('the judged part of a change, with the base read once per job', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  it('a file the job’s command runs is harness; for a job whose command runs another, the same file is product', () => {
    const repo = makeRepo(path.join(temp.dir, 'repo'), {
      'check.js': 'process.exit(require("./lib.js")() === 2 ? 0 : 1);\n',
      'lib.js': 'module.exports = () => 1;\n',
      'other.js': 'process.exit(0);\n',
    });
    const base = gitIn(repo, 'rev-parse', 'HEAD').trim();
    writeFileSync(path.join(repo, 'check.js'), 'process.exit(0);\n');
    const diff = gitIn(repo, 'diff', base, '--', 'check.js');
    const runsCheck = preparedFor(repo, base, 'node check.js');
    // Read ahead (while a failing command runs), then judged: the base's harness names check.js.
    warmJudging(runsCheck);
    expect(judgedChange(runsCheck, diff, [], undefined).paths.harness).toEqual(['check.js']);
    // Same workspace and base, another command: what was read for the first job is not its answer.
    const runsOther = preparedFor(repo, base, 'node other.js');
    expect(judgedChange(runsOther, diff, [], undefined).paths.source).toEqual(['check.js']);
    expect(judgedChange(runsCheck, diff, [], undefined).paths.harness).toEqual(['check.js']);
  });
});
