import { describe, expect, it } from 'vitest';
import { stageStatus } from '../../src/observe/stage-status.ts';
import { toolInputView } from '../../src/observe/tool-input.ts';

const WORKSPACE = '/data/jobs/20260101T000000-abc/workspace';

/** What a person reads: the view's HTML without its tags. */
const text = (html: string): string =>
  html
    .replace(/<[^>]+>/g, '')
    .replaceAll('&quot;', '"')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

describe('toolInputView: a call as readable arguments', () => {
  it.each([
    ['read', { path: `${WORKSPACE}/src/a.ts`, from: 10, to: 40 }, 'path=src/a.ts lines 10–40'],
    ['read', { path: `${WORKSPACE}/src/a.ts`, from: 5 }, 'path=src/a.ts from line 5'],
    ['read', { path: '/etc/hosts' }, 'path=/etc/hosts'],
    ['list', { path: WORKSPACE }, 'path=.'],
    ['run_tests', {}, 'all tests'],
    ['run_tests', { filter: 'range' }, 'filter=range'],
    ['search', { pattern: 'i < n', glob: '*.js' }, 'pattern=i < n glob=*.js'],
    ['bash', { command: 'npm test -- --run' }, '$ npm test -- --run'],
    ['write', { path: `${WORKSPACE}/a.txt`, content: 'one\ntwo\n' }, 'path=a.txt 2 lines'],
    [
      'lsp',
      { action: 'hover', line: 3, ok: true, files: ['a.ts', 'b.ts'] },
      'action=hover line=3 ok=true files=a.ts, b.ts',
    ],
  ])('%s %j', (name, input, line) => {
    const view = toolInputView(name, input, WORKSPACE);
    expect(text(view.line)).toBe(line);
    expect(view.line + view.blocks).not.toMatch(/\{&quot;|&quot;\w+&quot;:/);
  });

  it('shows an edit as a diff of its lines', () => {
    const view = toolInputView(
      'edit',
      { path: `${WORKSPACE}/src/r.js`, old: 'i < n - 1', new: 'i < n' },
      WORKSPACE,
    );
    expect(text(view.line)).toBe('path=src/r.js');
    expect(view.blocks).toBe(
      '<pre class="diff"><span class="del">-i &lt; n - 1</span><span class="add">+i &lt; n</span></pre>',
    );
  });

  it('shows a patch coloured and a long one folded', () => {
    const patch = `--- a/x\n+++ b/x\n@@ -1,20 +1,20 @@\n${'-a\n+b\n'.repeat(20)}`;
    const view = toolInputView('apply_patch', { patch });
    expect(view.blocks).toMatch(
      /^<details class="arg-block"><summary><span class="key">patch<\/span> <small>\(43 lines\)<\/small><\/summary><pre class="diff">/,
    );
    expect(view.blocks).toContain('<span class="add">+b</span>');
  });

  it('any tool: short values on the line unquoted, multi-line ones as blocks, structures as lists', () => {
    const view = toolInputView('ask_user', {
      question: 'Should range(n) stop "before" n?',
      context: 'line one\nline two',
      options: [{ label: 'Stop before n' }, { label: 'Include n', description: 'as before' }],
    });
    expect(text(view.line)).toBe('question=Should range(n) stop "before" n?');
    expect(view.blocks).toContain(
      '<div class="arg-block"><span class="key">context</span> <small>(2 lines)</small><pre>line one\nline two</pre></div>',
    );
    expect(view.blocks).toContain(
      '<li><span class="key">label</span>: Include n</li><li><span class="key">description</span>: as before</li>',
    );
  });

  it('escapes what the model wrote and long commands go to a block', () => {
    const view = toolInputView('run', { command: `echo "<script>" && ${'x'.repeat(120)}` });
    expect(view.line).toBe('');
    expect(view.blocks).toContain(
      '<pre class="command">$ echo &quot;&lt;script&gt;&quot; &amp;&amp; xxx',
    );
    expect(toolInputView('eval', 'print(1)').blocks).toBe('');
    expect(text(toolInputView('eval', 'print(1)').line)).toBe('input=print(1)');
    // A name the model made up is a tool like any other, even one an object inherits.
    expect(text(toolInputView('constructor', { path: 'a' }).line)).toBe('path=a');
    expect(text(toolInputView('__proto__', { toString: 'x' }).line)).toBe('toString=x');
  });
});

describe('stageStatus', () => {
  it.each([
    ['reproduce', 'failed (exit 1), fingerprint 4f15a4ff5020', 'pass', 'reproduced'],
    ['reproduce', 'passed: not reproduced', 'warn', 'not reproduced'],
    ['checks', '14/14 passed', 'pass', undefined],
    ['checks', '13/14 passed', 'fail', undefined],
    ['checks', 'no change to check', 'skip', undefined],
    ['agent', 'done', 'pass', undefined],
    ['agent', 'budget: the turn limit', 'warn', undefined],
    ['agent', 'skipped: a recipe fixed it', 'skip', undefined],
    ['prepare', 'error: the sandbox did not start', 'fail', undefined],
    ['propose', 'refused: protected files', 'fail', undefined],
    ['intake', 'http://127.0.0.1/acme/range.git', 'pass', undefined],
  ])('%s: %s', (stage, outcome, status, verdict) => {
    expect(stageStatus(stage, outcome)).toEqual({ status, ...(verdict ? { verdict } : {}) });
  });
});
