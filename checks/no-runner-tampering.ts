import {
  GO,
  isCommentLine,
  literalsOf,
  joinedLiterals,
  PATTERNS,
  PY,
  RS,
  RUNNER_MODULES,
  type Pattern,
} from './runner-tampering-rules.ts';
import { DETECTION_PATTERNS } from './run-detection-rules.ts';
import { addedTestBuild } from './rust-test-build.ts';
import { shadowedTestNames } from './shadowed-names.ts';
import { testModuleImports } from './test-imports.ts';
import type { Check } from './types.ts';
import { anyOf, pattern } from '../src/util/pattern.ts';

/**
 * Product code runs inside the test process: the judging run's construction
 * (the base's tests and harness, a report written where only the runner
 * knows) cannot stop code that rewrites the runner from within. This check
 * is the second line, and a list by nature (`runner-tampering-rules.ts`): it
 * refuses product source whose added lines reach into a test runner
 * (pytest's internals, `sys.modules`, an assertion module however it is
 * loaded, node:test, any module only the tests load — `test-imports.ts` —, a
 * name the base's tests invoke newly bound by the product — `shadowed-names.ts` —,
 * a Go library or `init` that exits, Rust library code
 * that exits, start-up sections), print a runner's own result lines (whole
 * or from pieces), or detect the test run to behave otherwise under it (a
 * runner's variables, the test binary's name, Rust's `cfg(test)` outside a
 * test module). Each refusal quotes the line it saw. What it does not name
 * stays a reviewer's matter — the pull request shows every line.
 */
/**
 * The names a Python file binds to a runner's module or to what it imports from one
 * (`import unittest as u`, `from unittest import TestCase as _T`): rebinding an attribute through
 * any of them is rebinding the runner's, whatever the spelling.
 */
const runnerAliases = (text: string): string[] => {
  const names: string[] = [];
  const imports = pattern(
    'gm',
  )`^\s*import\s+${RUNNER_MODULES}(?:\.\w+)*\s+as\s+(\w+)|^\s*from\s+${RUNNER_MODULES}(?:\.\w+)*\s+import\s+\(?([^)#;\n]+)`;
  for (const match of text.matchAll(imports)) {
    if (match[1]) names.push(match[1]);
    for (const item of (match[2] ?? '').split(',')) {
      const name = /(?<!\w)(\w+)\s*$/.exec(item.trim())?.[1];
      if (name) names.push(name);
    }
  }
  return [...new Set(names)];
};

/** The names a Python file binds to the `sys` module (`import sys as s`). */
const sysAliases = (text: string): string[] =>
  [
    ...new Set(
      [
        ...text.matchAll(/^[^\S\n\r\u2028\u2029]*import\s+(?:[\w.]+\s*,\s*)*sys\s+as\s+(\w+)/gm),
      ].map((m) => m[1] ?? ''),
    ),
  ].filter(Boolean);

/** The names a Go file imports `os`, `syscall` or `x/sys/unix` under (`xos "os"`). */
const goExitAliases = (text: string): string[] =>
  [
    ...new Set(
      [
        ...text.matchAll(
          /^[^\S\n\r\u2028\u2029]*(?:import\s+)?(\w+)\s+"(os|syscall|golang\.org\/x\/sys\/unix)"/gm,
        ),
      ].map((m) => m[1] ?? ''),
    ),
  ].filter((name) => name !== '' && name !== '_');

/** Added lines that reach a runner or the process's end through a name the file bound. */
const aliasTampering = (
  file: string,
  added: readonly string[],
  text: string,
): { line: string; why: string } | undefined => {
  if (PY.test(file)) {
    const aliases = runnerAliases(text);
    if (aliases.length > 0) {
      const through = pattern()`\b(${anyOf(aliases)})(\.\w+)+\s*=(?!=)|\bsetattr\s*\(\s*(${anyOf(aliases)})\b`;
      const line = added.find((entry) => through.test(entry));
      if (line !== undefined)
        return { line, why: "rebinds a runner's attribute through a name it imported" };
    }
    const sys = sysAliases(text);
    if (sys.length > 0) {
      const through = pattern()`\b(${anyOf(sys)})\s*\.\s*(modules|meta_path|path_hooks|path_importer_cache|__dict__)\b`;
      const line = added.find((entry) => through.test(entry));
      if (line !== undefined)
        return { line, why: 'reaches into loaded modules through a name it gave sys' };
    }
  }
  if (GO.test(file) && !/^package\s+main\b/m.test(text)) {
    const aliases = goExitAliases(text);
    if (aliases.length > 0) {
      const through = pattern()`\b(${anyOf(aliases)})\s*\.\s*(Exit|Args)\b`;
      const line = added.find((entry) => through.test(entry));
      if (line !== undefined)
        return { line, why: 'exits or reads the command line from a library, under another name' };
    }
  }
  return undefined;
};

/** A Python line that is one string literal alone: a docstring, which names and runs nothing. */
const DOCSTRING =
  /^\s*[rRuUbB]?(?:"""(?:(?!""").)*"""|'''(?:(?!''').)*'''|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')\s*$/;

/** The first added line a pattern refuses: comments are read only by the rules about comments. */
const refusedLine = (
  pattern: Pattern,
  file: string,
  added: readonly string[],
): string | undefined =>
  added.find((line) => {
    if (pattern.comments) return pattern.lines.test(line);
    if (isCommentLine(file, line)) return false;
    if (pattern.literals && PY.test(file) && DOCSTRING.test(line)) return false;
    return pattern.literals
      ? literalsOf(file, line).some((literal) => pattern.lines.test(literal))
      : pattern.lines.test(line) || pattern.lines.test(joinedLiterals(file, line));
  });

const quotedLine = (line: string): string => JSON.stringify(line.trim().slice(0, 120));

export const noRunnerTampering: Check = (ctx) => {
  const source = new Set(ctx.split.paths.source);
  const found = ctx.diff.files.flatMap((file) => {
    if (!source.has(file.path)) return [];
    const text = ctx.newContent(file.path) ?? file.added.join('\n');
    const alias = aliasTampering(file.path, file.added, text);
    const byAlias = alias ? [`${file.path} ${alias.why}: ${quotedLine(alias.line)}`] : [];
    const testBuild = RS.test(file.path)
      ? addedTestBuild(ctx.baseContent(file.oldPath ?? file.path), ctx.newContent(file.path)).map(
          (seen) => `${file.path} behaves otherwise in the test build: ${seen.slice(0, 200)}`,
        )
      : [];
    return [
      ...byAlias,
      ...testBuild,
      ...[...PATTERNS, ...DETECTION_PATTERNS].flatMap((pattern) => {
        if (!pattern.files.test(file.path)) return [];
        if (pattern.notPath?.test(file.path)) return [];
        if (pattern.with && !file.added.some((added) => pattern.with?.test(added))) return [];
        if (pattern.notIn?.test(ctx.newContent(file.path) ?? '')) return [];
        const line = refusedLine(pattern, file.path, file.added);
        return line === undefined ? [] : [`${file.path} ${pattern.why}: ${quotedLine(line)}`];
      }),
    ];
  });
  found.push(...testModuleImports(ctx), ...shadowedTestNames(ctx));
  return found.length === 0
    ? {
        name: 'no-runner-tampering',
        ok: true,
        detail:
          'no product line reaches into a test runner, prints its results or detects the test run',
      }
    : {
        name: 'no-runner-tampering',
        ok: false,
        detail: `product code that reaches into the test run: ${found.slice(0, 8).join('; ')}`,
      };
};
