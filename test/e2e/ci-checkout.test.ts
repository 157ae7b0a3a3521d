/**
 * Tests run on the checkout CI had: the failing ref under the name CI built
 * it as (what actions/checkout leaves), in the agent's workspace and in the
 * fresh check alike. A suite that asks git for its branch — as release tools
 * and changelog generators do — sees `main`, never regreen's proposal branch
 * or a detached HEAD; the proposal branch is made when proposing.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildOffByOneFixture, gitIn } from '../../fixtures/build.ts';
import { callsScript, expectProposed, fix } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-checkout-');
afterAll(() => temp.cleanup());

const BRANCH_TEST = `import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';

test('the release is cut from main', () => {
  const branch = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], { encoding: 'utf8' }).trim();
  assert.equal(branch, 'main');
});
`;

describe('the checkout CI had', () => {
  it('a suite that reads its branch sees main in the workspace and in the fresh check', async () => {
    const repo = buildOffByOneFixture(path.join(temp.dir, 'release'));
    gitIn(repo, 'branch', '-M', 'main');
    writeFileSync(path.join(repo, 'test', 'branch.test.js'), BRANCH_TEST);
    gitIn(repo, 'add', '-A');
    gitIn(repo, 'commit', '--quiet', '-m', 'a test that reads the branch');
    expect(gitIn(repo, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('main');
    const script = callsScript(temp.dir, 'release', [
      {
        name: 'edit',
        input: { path: '$WORKSPACE/src/range.js', old: 'i < n - 1', new: 'i < n' },
      },
      { name: 'run_tests', input: {} },
    ]);
    const result = await fix(repo, script);
    expectProposed(result, repo, 'src/range.js', 'i < n;');
    expect(result.outcome.branch).toMatch(/^regreen\//);
  }, 300_000);
});
