/**
 * #57 item 11: a real fix that adds a release note (a changeset, a news fragment) was refused by
 * `base-harness` because the note sits in a dot folder. No test run reads one: it is prose, and
 * the fix is proposed; what a test imports there, or a tool's configuration, stays harness.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { classifyPath, harnessNamed, splitChange } from '../../checks/change-split.ts';
import {
  editCall,
  judgedAttempts,
  PYTEST,
  pythonProject,
  writeCall,
} from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('release notes are prose, whatever their folder', () => {
  it.each([
    '.changeset/brave-dogs-sing.md',
    'packages/a/.changeset/fix-add.md',
    'changes/123.bugfix',
    'changes/+orphan.feature.md',
    'CHANGES/8421.bugfix.rst',
    'news/9001.feature',
    'newsfragments/123.removal',
    'src/pkg/newsfragments/77.doc.rst',
    'changelog.d/20240101_120000_fix_add.md',
    '.changes/unreleased/Fixed-20240101-120000.yaml',
    'CHANGELOG-unreleased.md',
    'packages/a/CHANGELOG.md',
    'RELEASE_NOTES.rst',
    'HISTORY',
  ])('%s', (file) => {
    expect(classifyPath(file)).toBe('docs');
  });

  it.each([
    // code and a tool's configuration in a notes folder, a note a tool's dot folder holds
    '.changeset/x.js',
    '.changeset/config.json',
    '.changeset/.hidden.md',
    '.github/changes/123.bugfix',
    'changelog.d/conf.py',
    'newsfragments/template.jinja',
    // a product's own folder of that name below the root, a product's data named like a changelog
    'src/changes/util.txt',
    'src/news/headline.txt',
  ])('%s is not a note', (file) => {
    expect(classifyPath(file)).not.toBe('docs');
  });

  it("a note the base's harness names (a test reads it) is harness", () => {
    const files = ['package.json', '.changeset/notes.md', 'test.js'];
    const named = harnessNamed(
      files,
      (file) =>
        file === 'package.json'
          ? JSON.stringify({ scripts: { test: 'node .changeset/notes.md' } })
          : undefined,
      ['npm test'],
    );
    expect(classifyPath('.changeset/notes.md', named)).toBe('harness');
  });

  it('a change that adds a changeset beside the fix judges the fix alone', () => {
    const diff = [
      'diff --git a/calc.py b/calc.py\n--- a/calc.py\n+++ b/calc.py\n@@ -1,2 +1,2 @@\n def add(a, b):\n-    return a - b\n+    return a + b\n',
      'diff --git a/.changeset/fix-add.md b/.changeset/fix-add.md\nnew file mode 100644\n--- /dev/null\n+++ b/.changeset/fix-add.md\n@@ -0,0 +1,1 @@\n+Fix add\n',
    ].join('');
    const split = splitChange(diff, new Set());
    expect(split.paths).toEqual({
      source: ['calc.py'],
      test: [],
      docs: ['.changeset/fix-add.md'],
      harness: [],
    });
  });
});

describe('a real fix with a release note is proposed (real pipeline, real pytest)', () => {
  const temp = makeTempDir('regreen-notes-');
  afterAll(() => temp.cleanup());
  const attempt = judgedAttempts(temp.dir);

  it('a changeset and a towncrier fragment beside the fix', async () => {
    const result = await attempt(
      pythonProject,
      [
        editCall('calc.py', 'return a - b', 'return a + b'),
        writeCall('.changeset/fix-add.md', '---\n"calc": patch\n---\n\n`add` adds again.\n'),
        writeCall('changes/42.bugfix', '`add` adds again.\n'),
      ],
      PYTEST,
    );
    expect(result.failed, JSON.stringify(result.outcome.checks)).toEqual([]);
    expect(result.outcome.status).toBe('proposed');
    expect(result.detail('base-harness')).toMatch(/2 prose file\(s\) not run/);
  }, 300_000);

  it('code in a notes folder (a .changeset/x.js a test could import) is still harness', async () => {
    const result = await attempt(
      pythonProject,
      [
        editCall('calc.py', 'return a - b', 'return a + b'),
        writeCall('.changeset/x.js', 'module.exports = 1;\n'),
      ],
      PYTEST,
    );
    expect(result.outcome.status).toBe('diagnosis');
    expect(result.failed).toContain('base-harness');
    expect(result.detail('base-harness')).toContain('.changeset/x.js');
  }, 300_000);
});
