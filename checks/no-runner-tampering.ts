import type { Check } from './types.ts';

/**
 * Product code runs inside the test process: the judging run's construction
 * (the base's tests and harness, a report written where only the runner
 * knows) cannot stop code that rewrites the runner from within. This check
 * is the second line, and a list by nature: it refuses product source whose
 * added lines reach into a test runner (pytest's internals, `sys.modules`, an
 * assertion module, node:test, Go's `init` that exits, Rust's start-up
 * sections) or print a runner's own result lines. What it does not name
 * stays a reviewer's matter — the pull request shows every line.
 */
interface Pattern {
  readonly files: RegExp;
  readonly lines: RegExp;
  readonly why: string;
  /** Only when the file's added lines also hold this. */
  readonly with?: RegExp;
  /** Not when the file, as changed, holds this (a Go `package main` may exit). */
  readonly notIn?: RegExp;
}

const PY = /\.pyi?$/;
const GO = /\.go$/;
const RS = /\.rs$/;
const JS = /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts|vue|svelte)$/;
const ANY = /./;

const PATTERNS: readonly Pattern[] = [
  { files: PY, lines: /\b_pytest\b/, why: "reaches into pytest's internals" },
  { files: PY, lines: /\bsys\.modules\s*\[/, why: 'reaches into loaded modules' },
  {
    files: PY,
    lines: /\b(pytest|unittest|doctest)\s*\.\s*(skip|xfail|exit|fail|main)\s*\(/,
    why: 'steers the test runner',
  },
  {
    files: PY,
    lines: /\b(pytest|unittest|doctest|builtins|_pytest)(\.\w+)+\s*=(?!=)/,
    why: "rebinds a runner's or the builtins' attribute",
  },
  {
    files: PY,
    lines: /\bsetattr\s*\(\s*(pytest|unittest|doctest|builtins|_pytest)\b/,
    why: "rebinds a runner's or the builtins' attribute",
  },
  { files: PY, lines: /\bos\._exit\s*\(|\bos\.exec\w*\s*\(/, why: 'ends or replaces the process' },
  {
    files: PY,
    lines: /\b(__import__|import_module)\s*\(\s*['"](pytest|_pytest|unittest|doctest|builtins)\b/,
    why: 'loads a runner module by name',
  },
  {
    files: PY,
    lines:
      /\b__code__\b|\bsys\.(setprofile|settrace|_getframe)\b|\bgc\.(get_objects|get_referrers)\b|\binspect\.stack\s*\(/,
    why: "reaches into other code's frames or functions",
  },
  {
    files: PY,
    lines: /\batexit\b|PYTEST_ADDOPTS/,
    why: 'acts when the test process ends, or on its report',
  },
  {
    files: JS,
    lines: /(from\s+|require\s*\(\s*|import\s*\(\s*)['"](node:)?(assert(\/strict)?|test)['"]/,
    why: 'loads the assertion or test module into product code',
  },
  {
    files: JS,
    lines:
      /\bprocess\.(on|once|prependListener)\s*\(\s*['"](exit|beforeExit)['"]|\bprocess\.(reallyExit|binding)\b/,
    why: 'hooks or bypasses the process exit',
  },
  {
    files: JS,
    lines: /\bmodule\.constructor\b|\._load\s*\(|\brequire\.cache\b|\bcreateRequire\b/,
    why: "loads modules behind the runner's back",
  },
  {
    files: GO,
    lines: /\bos\.Exit\s*\(|\bsyscall\.Exit\s*\(/,
    with: /^\s*func\s+init\s*\(/,
    why: 'exits from an init function, before any test runs',
  },
  { files: GO, lines: /^\s*func\s+TestMain\s*\(/, why: 'takes over the test binary' },
  {
    files: GO,
    lines: /\bos\.Exit\s*\(|\bsyscall\.Exit\s*\(/,
    notIn: /^package\s+main\b/m,
    why: 'exits from a library package',
  },
  {
    files: /\.(go|c|h|cc|cpp)$/,
    lines: /__attribute__\s*\(\(\s*constructor|\.init_array/,
    why: 'runs before main',
  },
  { files: RS, lines: /link_section|init_array|#\[used\]|\bctor\b/, why: 'runs before main' },
  {
    files: ANY,
    lines:
      /--- (PASS|FAIL|SKIP):|=== RUN|test result: (ok|FAILED)\.|\b\d+ passed\b|^\s*['"`]?ok \d+ - |# pass \d+/,
    why: "prints a test runner's result lines",
  },
];

const RUNNER_MODULES = '(?:pytest|_pytest|unittest|doctest|builtins)';

/**
 * The names a Python file binds to a runner's module or to what it imports from one
 * (`import unittest as u`, `from unittest import TestCase as _T`): rebinding an attribute through
 * any of them is rebinding the runner's, whatever the spelling.
 */
const runnerAliases = (text: string): string[] => {
  const names: string[] = [];
  const imports = new RegExp(
    `^\\s*import\\s+${RUNNER_MODULES}(?:\\.\\w+)*\\s+as\\s+(\\w+)|^\\s*from\\s+${RUNNER_MODULES}(?:\\.\\w+)*\\s+import\\s+\\(?([^)#;\\n]+)`,
    'gm',
  );
  for (const match of text.matchAll(imports)) {
    if (match[1]) names.push(match[1]);
    for (const item of (match[2] ?? '').split(',')) {
      const name = /(\w+)\s*$/.exec(item.trim())?.[1];
      if (name) names.push(name);
    }
  }
  return [...new Set(names)];
};

/** Added lines of a Python file that rebind an attribute through a runner alias. */
const aliasTampering = (added: readonly string[], text: string): string | undefined => {
  const aliases = runnerAliases(text);
  if (aliases.length === 0) return undefined;
  const through = new RegExp(
    `\\b(${aliases.join('|')})(\\.\\w+)+\\s*=(?!=)|\\bsetattr\\s*\\(\\s*(${aliases.join('|')})\\b`,
  );
  return added.find((line) => through.test(line));
};

export const noRunnerTampering: Check = (ctx) => {
  const source = new Set(ctx.split.paths.source);
  const found = ctx.diff.files.flatMap((file) => {
    if (!source.has(file.path)) return [];
    const alias = PY.test(file.path)
      ? aliasTampering(file.added, ctx.newContent(file.path) ?? file.added.join('\n'))
      : undefined;
    const byAlias =
      alias === undefined
        ? []
        : [
            `${file.path} rebinds a runner's attribute through a name it imported: ${JSON.stringify(alias.trim().slice(0, 120))}`,
          ];
    return [
      ...byAlias,
      ...PATTERNS.flatMap((pattern) => {
        if (!pattern.files.test(file.path)) return [];
        if (pattern.with && !file.added.some((added) => pattern.with?.test(added))) return [];
        if (pattern.notIn?.test(ctx.newContent(file.path) ?? '')) return [];
        const line = file.added.find((added) => pattern.lines.test(added));
        return line === undefined
          ? []
          : [`${file.path} ${pattern.why}: ${JSON.stringify(line.trim().slice(0, 120))}`];
      }),
    ];
  });
  return found.length === 0
    ? {
        name: 'no-runner-tampering',
        ok: true,
        detail: 'no product line reaches into a test runner or prints its results',
      }
    : {
        name: 'no-runner-tampering',
        ok: false,
        detail: `product code that reaches into the test run: ${found.slice(0, 8).join('; ')}`,
      };
};
