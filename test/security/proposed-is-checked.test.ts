/**
 * What is proposed is the change the checks read: the proposal commits the
 * tree staged when the checks read the change, never the worktree as it is
 * when the proposal is made. Nothing of the sandbox runs between the checks
 * and the proposal today; were something to (a process that outlived its
 * command, a tool's server), what it wrote would ride on a checked change.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { gitIn, makeRepo } from '../../fixtures/build.ts';
import { createLocalForge } from '../../src/forge/local.ts';
import { workspaceDiffs } from '../../src/workspace/repo/staged.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('the proposal commits the tree the checks read', () => {
  const temp = makeTempDir('regreen-proposed-checked-');
  afterAll(temp.cleanup);

  it('a file written after the checks read the change is in neither the branch nor the patch', async () => {
    const target = makeRepo(path.join(temp.dir, 'target'), { 'calc.js': 'module.exports = 1;\n' });
    const base = gitIn(target, 'rev-parse', 'HEAD').trim();
    const workspace = path.join(temp.dir, 'workspace');
    gitIn(temp.dir, 'clone', '-q', target, workspace);
    writeFileSync(path.join(workspace, 'calc.js'), 'module.exports = 2;\n');
    const checked = await workspaceDiffs(workspace, base);
    expect(checked.tree).toMatch(/^[0-9a-f]{40}$/);
    // After the checks: a change of the product, and a new file.
    writeFileSync(path.join(workspace, 'calc.js'), 'module.exports = "unchecked";\n');
    writeFileSync(path.join(workspace, 'later.js'), 'process.exit(0);\n');
    const proposed = await createLocalForge({
      target,
      localRoot: target,
      dataDir: path.join(temp.dir, 'data'),
    }).propose({
      workspace,
      baseSha: base,
      tree: checked.tree ?? '',
      branch: 'regreen/checked',
      fingerprint: 'checked',
      title: 'fix',
      body: 'body',
    });
    expect(gitIn(target, 'show', 'regreen/checked:calc.js')).toBe('module.exports = 2;\n');
    expect(gitIn(target, 'ls-tree', '--name-only', 'regreen/checked').trim().split('\n')).toEqual([
      'calc.js',
    ]);
    const patch = readFileSync(proposed.patchPath ?? '', 'utf8');
    expect(patch).toContain('+module.exports = 2;');
    expect(patch).not.toContain('unchecked');
    expect(patch).not.toContain('later.js');
  });

  it('an id that is not a whole object id is refused before git sees it', async () => {
    const target = makeRepo(path.join(temp.dir, 'target2'), { 'a.txt': 'a\n' });
    const base = gitIn(target, 'rev-parse', 'HEAD').trim();
    const forge = createLocalForge({
      target,
      localRoot: target,
      dataDir: path.join(temp.dir, 'data2'),
    });
    for (const tree of ['', '--help', 'HEAD^{tree}'])
      await expect(
        forge.propose({
          workspace: target,
          baseSha: base,
          tree,
          branch: 'regreen/bad',
          fingerprint: 'bad',
          title: 'fix',
          body: 'body',
        }),
      ).rejects.toThrow(/not a tree's id/);
    expect(gitIn(target, 'branch', '--list', 'regreen/bad').trim()).toBe('');
  });
});
