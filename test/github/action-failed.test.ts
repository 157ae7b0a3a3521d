import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runActionLogged, type ActionLog } from '../../src/entrypoints/action.ts';
import { createWorkflowLog } from '../../src/github/workflow-log.ts';
import { silentLogger } from '../../src/logger.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-action-failed-');
afterAll(() => temp.cleanup());

describe('the Action when it cannot run', () => {
  it('sets outcome=error and writes the summary, so a later step can react', async () => {
    const output = path.join(temp.dir, 'output');
    const summary = path.join(temp.dir, 'summary');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    let written = '';
    const actionLog: ActionLog = {
      log: createWorkflowLog({ write: (text) => (written += text) }),
      logger: silentLogger(),
    };
    const code = await runActionLogged(
      { GITHUB_EVENT_NAME: 'workflow_run', GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary },
      actionLog,
    );
    expect(code).toBe(2);
    expect(readFileSync(output, 'utf8')).toMatch(/^outcome<<(regreen_[0-9a-f]+)\nerror\n\1\n$/);
    expect(readFileSync(summary, 'utf8')).toMatch(
      /regreen failed to run\n\nthe github-token input is empty: the secret it names/,
    );
    expect(written).toMatch(/::error title=regreen::regreen failed to run/);
  });
});
