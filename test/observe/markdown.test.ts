import { describe, expect, it } from 'vitest';
import { checksTable, prText } from '../../src/job/pr-text.ts';
import { parseDiff } from '../../checks/diff.ts';
import { EMOJI_PATTERN } from '../../src/observe/icons.ts';
import { markdownHtml } from '../../src/observe/markdown.ts';

/** Every tag the renderer may write, and the attributes each may carry. */
const ALLOWED: Readonly<Record<string, RegExp>> = {
  a: /^ href="https?:\/\/[^"\s]*" rel="nofollow noopener noreferrer"$/,
  ol: /^(?: start="\d+")?$/,
  th: /^(?: style="text-align:(?:left|right|center)")?$/,
  td: /^(?: style="text-align:(?:left|right|center)")?$/,
  div: /^ class="markdown"$/,
  table: /^ class="md"$/,
  pre: /^(?: class="diff")?$/,
  span: /^ class="(?:add|del|hunk|file)"$/,
  svg: /^ class="icon" viewBox="0 0 16 16" role="img" aria-label="[\w+ ]+"$/,
  circle: /^ cx="8" cy="8" r="7.5" fill="#[0-9a-f]{6}"\/$/,
  path: /^ d="[\w .-]+" stroke="#fff" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" fill="none"\/$/,
};
const PLAIN = new Set(
  'p h1 h2 h3 h4 h5 h6 ul li strong em del code br hr blockquote details summary thead tbody tr'.split(
    ' ',
  ),
);

/** The tags of the output that are not on the list: none, whatever the input. */
const foreignTags = (html: string): string[] =>
  [...html.matchAll(/<\/?([a-z0-9]+)([^>]*)>/g)]
    .filter(([tag, name = '', attrs = '']) => {
      if (tag.startsWith('</')) return attrs !== '' || !(PLAIN.has(name) || name in ALLOWED);
      return PLAIN.has(name) ? attrs !== '' : !(ALLOWED[name]?.test(attrs) ?? false);
    })
    .map(([tag]) => tag);

/** The text a reader sees (tags dropped, entities decoded), outside the icons. */
const visibleText = (html: string): string =>
  html
    .replace(/<svg[\s\S]*?<\/svg>/g, '')
    .replace(/<[^>]+>/g, '')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');

describe('markdownHtml', () => {
  it.each([
    ['## Checks', '<h2>Checks</h2>'],
    [
      '# a\n\npara *em* and **strong** and ~~gone~~',
      '<p>para <em>em</em> and <strong>strong</strong> and <del>gone</del></p>',
    ],
    ['- one\n- two `x`', '<ul><li>one</li><li>two <code>x</code></li></ul>'],
    ['3. three\n4. four', '<ol start="3"><li>three</li><li>four</li></ol>'],
    ['- a\n  - nested', '<ul><li>a\n<ul><li>nested</li></ul></li></ul>'],
    ['**Next steps**\n- run it', '<p><strong>Next steps</strong></p>\n<ul><li>run it</li></ul>'],
    ['line one\nline two', '<p>line one<br>\nline two</p>'],
    ['> quoted', '<blockquote><p>quoted</p></blockquote>'],
    ['```js\nconst a = 1 < 2;\n```', '<pre><code>const a = 1 &lt; 2;</code></pre>'],
    ['``` a `b` ```', '<p><code>a `b`</code></p>'],
    ['`` `tick` ``', '<p><code>`tick`</code></p>'],
    [
      '[docs](https://example.com/a?b=1&c=2)',
      '<a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer">docs</a>',
    ],
    [
      'see https://example.com/x.',
      '<a href="https://example.com/x" rel="nofollow noopener noreferrer">https://example.com/x</a>.',
    ],
    ['snake_case_name and 2*3*4', '<p>snake_case_name and 2<em>3</em>4</p>'],
    [
      '| a | b |\n|:--|--:|\n| 1 \\| 2 | 3 |',
      '<th style="text-align:left">a</th><th style="text-align:right">b</th></tr></thead><tbody><tr><td style="text-align:left">1 | 2</td>',
    ],
    [
      '<details><summary>What failed</summary>\n\nbody\n\n</details>',
      '<details><summary>What failed</summary>\n<p>body</p>\n</details>',
    ],
    ['a\n<!-- regreen:pr fingerprint=abc -->\nb', '<p>a</p>\n<p>b</p>'],
    ['---', '<hr>'],
    ['### Done ###', '<h3>Done</h3>'],
    ['# C#', '<h1>C#</h1>'],
    ['#hashtag', '<p>#hashtag</p>'],
    ['~~~diff\n+a\n```\n~~~', '<span class="add">+a</span>```'],
    ['``` a`b\nc', '<p>``` a`b<br>\nc</p>'],
    ['<!-- never closed\nstill shown', '<p>&lt;!-- never closed<br>\nstill shown</p>'],
  ])('%j', (input, expected) => {
    expect(markdownHtml(input)).toContain(expected);
  });

  it('colours a diff fence as the pages colour a diff', () => {
    const html = markdownHtml(
      '```diff\n--- a/x.js\n+++ b/x.js\n@@ -1,2 +1,2 @@\n--- a comment\n+b\n c\n```',
    );
    expect(html).toContain('<span class="file">+++ b/x.js</span>');
    // Inside the hunk a removed `-- a comment` line is a removal, not a file header.
    expect(html).toContain('<span class="del">--- a comment</span><span class="add">+b</span> c');
  });

  it("renders regreen's own pull request text: a table, lists, icons for its emoji", () => {
    const { body } = prText({
      command: 'npm test',
      fixedBy: 'agent',
      plan: '1. read `src/range.js`\n2. fix the **bound**',
      summary: 'The loop stopped at `n - 1`.',
      diff: parseDiff(
        'diff --git a/src/range.js b/src/range.js\n--- a/src/range.js\n+++ b/src/range.js\n@@ -1 +1 @@\n-a\n+b\n',
      ),
      checks: [
        { name: 'failing-command-passes', ok: true, detail: 'exit 0' },
        { name: 'no-regression', ok: false, detail: 'a | b' },
      ],
      testOutput: '✔ range yields 0 to n-1\n✖ sum',
      fingerprint: 'abc123',
      sandboxKind: 'bubblewrap',
      questions: [],
    });
    const html = markdownHtml(body, { headingOffset: 1 });
    expect(html).toMatch(/<h3>Checks<\/h3>\n<table class="md">/);
    expect(html).toContain('<li><code>src/range.js</code> (modified, +1 −1)</li>');
    expect(html).toContain(
      '<td><svg class="icon" viewBox="0 0 16 16" role="img" aria-label="pass">',
    );
    expect(html).toContain('aria-label="fail"');
    expect(visibleText(html)).not.toMatch(EMOJI_PATTERN);
    expect(visibleText(html)).not.toMatch(/\*\*|^#+ |\|---/m);
    expect(foreignTags(html)).toEqual([]);
    expect(markdownHtml(checksTable([]))).toContain('<tbody></tbody>');
  });

  it.each([
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['<img src=x onerror="alert(1)">', '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'],
    ['[click](javascript:alert(1))', '<p>click</p>'],
    ['[click](JaVaScRiPt:alert(1)) [d](data:text/html,x) [r](/relative)', '<p>click d r</p>'],
    ['<javascript:alert(1)>', '<p>&lt;javascript:alert(1)&gt;</p>'],
    [
      '[a "quoted" <b>](https://e.com/"><script>)',
      '<a href="https://e.com/%22%3E%3Cscript%3E" rel="nofollow noopener noreferrer">a &quot;quoted&quot; &lt;b&gt;</a>',
    ],
    [
      '[a "quoted"](https://e.com/x"y)',
      '<a href="https://e.com/x%22y" rel="nofollow noopener noreferrer">a &quot;quoted&quot;</a>',
    ],
    [
      '[x](https://a.com" onmouseover="alert(1))',
      '[x](<a href="https://a.com/" rel="nofollow noopener noreferrer">https://a.com</a>&quot; onmouseover=&quot;alert(1))',
    ],
    [
      '```\n</code></pre><script>x</script>\n```',
      '<pre><code>&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;x&lt;/script&gt;</code></pre>',
    ],
    ['`a` `` b ` c `` ```d', '<code>a</code> <code>b ` c</code> ```d'],
    ['| <b> | x |\n|---|---|\n| [y](javascript:1) | z |', '<th>&lt;b&gt;</th>'],
    [
      '<details><summary><img src=x onerror=alert(1)></summary>',
      '<summary>&lt;img src=x onerror=alert(1)&gt;</summary>',
    ],
    ['</details> stray', '<p>&lt;/details&gt; stray</p>'],
  ])('hostile input %j stays text', (input, expected) => {
    const html = markdownHtml(input);
    expect(html).toContain(expected);
    expect(foreignTags(html)).toEqual([]);
    expect(html).not.toMatch(/<(?:script|img|iframe|style)\b/i);
  });

  it('no input, however built from the syntax, makes a tag or attribute off the list', () => {
    const pieces = [
      '*',
      '**',
      '_',
      '~~',
      '`',
      '```',
      '[',
      ']',
      '(',
      ')',
      '<',
      '>',
      '"',
      "'",
      '\\',
      '|',
      '\n',
      '\n\n',
      '# ',
      '- ',
      '1. ',
      '> ',
      '    ',
      'https://e.com/',
      'javascript:',
      '<script>',
      '&amp;',
      'x',
      ' ',
      '✅',
      '⚠️',
    ];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 400; round += 1) {
      const input = Array.from({ length: 40 }, () => pieces[next(pieces.length)]).join('');
      const html = markdownHtml(input);
      expect(foreignTags(html), input).toEqual([]);
      expect(visibleText(html), input).not.toMatch(EMOJI_PATTERN);
    }
  });

  it('shows nesting deeper than it renders as text', () => {
    const html = markdownHtml(`${'> '.repeat(40)}deep`);
    expect(html.match(/<blockquote>/g)).toHaveLength(8);
    expect(html).toContain('deep');
  });
});
