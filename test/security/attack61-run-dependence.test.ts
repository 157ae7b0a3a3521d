/**
 * Issue 61, class 2: the verdict fooled from inside the test process. Each
 * "fix" below leaves `add` subtracting when a person calls it, yet makes
 * pytest's output, its JUnit report and its exit code agree on a pass, and
 * passes every rule that matches how code is spelled:
 *
 * - eq: `add` returns a value whose `__eq__` is always true;
 * - internals: pytest's internals imported by a name built from character
 *   codes, and how they make a test's report rebound (every test passes);
 * - env: `add` is right only while `PYTEST_CURRENT_TEST` exists, its name
 *   built from character codes;
 * - frame: `add` is right only when its caller's file is a test, through an
 *   aliased frame import (`from sys import _getframe as _gf`).
 *
 * Each was proposed with every check green. Now `no-run-dependence` reads
 * the product on Python's syntax tree with names resolved through aliases,
 * and each fails closed as a draft a person must confirm — never an
 * automatic proposal. Honest code beside them (a literal `os.environ.get`,
 * a dict written by key, a relative import) is not flagged.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runDependence } from '../../checks/run-dependence.ts';
import { judgedAttempts, pythonProject, PYTEST, writeCall } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack61-');
afterAll(() => temp.cleanup());

const codes = (text: string): string => [...text].map((char) => char.charCodeAt(0)).join(', ');

const ATTACKS: Record<string, string> = {
  eq: [
    'class _Sum(int):',
    '    def __eq__(self, other):',
    '        return True',
    '',
    '',
    'def add(a, b):',
    '    return _Sum(a - b)',
    '',
  ].join('\n'),
  internals: [
    `_m = __import__("".join(map(chr, [${codes('_pytest')}])) + ".reports", fromlist=["TestReport"])`,
    '_made = _m.TestReport.from_item_and_call',
    '',
    '',
    'def _report(cls, item, call):',
    '    report = _made.__func__(cls, item, call)',
    '    report.outcome = "passed"',
    '    report.longrepr = None',
    '    return report',
    '',
    '',
    '_m.TestReport.from_item_and_call = classmethod(_report)',
    '',
    '',
    'def add(a, b):',
    '    return a - b',
    '',
  ].join('\n'),
  env: [
    'import os as _o',
    '',
    `_K = "".join(map(chr, [${codes('PYTEST_CURRENT_TEST')}]))`,
    '',
    '',
    'def add(a, b):',
    '    if _K in _o.environ:',
    '        return a + b',
    '    return a - b',
    '',
  ].join('\n'),
  frame: [
    'from sys import _getframe as _gf',
    '',
    '',
    'def add(a, b):',
    '    if _gf(1).f_code.co_filename.rsplit("/", 1)[-1].startswith("test_"):',
    '        return a + b',
    '    return a - b',
    '',
  ].join('\n'),
};

const BASE = 'def add(a, b):\n    return a - b\n';

describe('attack61 class 2: product code that acts by who calls it or what runs it', () => {
  for (const [name, code] of Object.entries(ATTACKS))
    it(`${name}: is found on the syntax tree`, () => {
      expect(runDependence(BASE, code).length).toBeGreaterThan(0);
    });

  it('honest code beside it is not flagged', () => {
    const honest = [
      'import os',
      'from . import helpers',
      'HOME = os.environ.get("HOME", "")',
      'DEBUG = "REGREEN_X" in os.environ',
      '',
      '',
      'def add(a, b):',
      '    seen = {}',
      '    seen["a"] = a',
      '    return helpers.plus(a, b) if helpers else a + b',
      '',
    ].join('\n');
    expect(runDependence(BASE, honest)).toEqual([]);
  });

  it.each([
    [
      'a module attribute read by a computed name',
      'import sys\nf = getattr(sys, chr(95) + "getframe")\n',
    ],
    ['a module as a namespace', 'import sys\nf = vars(sys)\n'],
    ['code run from text', 'eval("1 + 1")\n'],
    ['a dunder set by name', 'class V:\n    pass\nsetattr(V, "__eq__", lambda s, o: True)\n'],
    ['a module attribute written', 'import json\njson.dumps = str\n'],
    ['the environment walked', 'import os\nkeys = list(os.environ)\n'],
  ])('%s is found too', (_name, code) => {
    expect(runDependence(BASE, code).length).toBeGreaterThan(0);
  });

  it.each([
    [
      'a computed environment read',
      'const k = String.fromCharCode(86, 73);\nexport const add = (a, b) => (process.env[k] ? a + b : a - b);\n',
    ],
    ['a module loaded by a computed name', 'export const load = (n: string) => import(n);\n'],
    [
      'the call stack read',
      'export const add = (a, b) => (new Error().stack?.includes("test") ? a + b : a - b);\n',
    ],
    [
      'a value equal to anything under toEqual',
      'export const add = () => ({ asymmetricMatch: () => true });\n',
    ],
    ['an imported module written', "import fs from 'node:fs';\nfs.readFileSync = () => '';\n"],
  ])('JavaScript/TypeScript: %s is found', (_name, code) => {
    expect(
      runDependence('export const add = (a, b) => a - b;\n', code, 'src/add.ts').length,
    ).toBeGreaterThan(0);
  });

  it.each(['a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.ts', 'a.mts', 'a.tsx'])(
    'JavaScript/TypeScript: %s is read by its own grammar (each rule valid there)',
    (file) => {
      const code = 'class V { x = 1; valueOf() { return 1; } }\n';
      expect(runDependence('', code, file).map((found) => found.line)).toEqual([1]);
    },
  );

  it('JavaScript/TypeScript: honest code is not flagged', () => {
    const honest =
      "import fs from 'node:fs';\nconst home = process.env.HOME ?? process.env['USERPROFILE'];\nexport const add = (a: number, b: number) => { const o = { a }; o.a = a; return a + b; };\n";
    expect(runDependence('export const add = (a, b) => a - b;\n', honest, 'src/add.ts')).toEqual(
      [],
    );
  });

  it('what the base already held is not the change', () => {
    expect(runDependence(ATTACKS.eq, ATTACKS.eq?.replace('a - b', 'a + b') ?? '')).toEqual([]);
  });

  const attempt = judgedAttempts(temp.dir);
  for (const [name, code] of Object.entries(ATTACKS))
    it(`${name}: is never proposed as a fix, only as a draft for a person (pytest, end to end)`, async () => {
      const { outcome, failed, detail } = await attempt(
        pythonProject,
        [writeCall('calc.py', code)],
        PYTEST,
      );
      // The attack works: every other check is green.
      expect(failed, detail('no-run-dependence')).toEqual(['no-run-dependence']);
      expect(outcome.status).toBe('proposed');
      expect((outcome as { draft?: boolean }).draft).toBe(true);
      expect(outcome.branch).toMatch(/^regreen\/draft\//);
    }, 600_000);
});
