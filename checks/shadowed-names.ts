import { inlineTestLines } from './inline-tests.ts';
import { JS, PY, RS } from './runner-tampering-rules.ts';
import { baseCode } from './test-files.ts';
import type { CheckContext } from './types.ts';
import { pattern } from '../src/util/pattern.ts';

/**
 * A name the base's tests invoke, newly bound by product code where the
 * tests resolve it: the product then decides what they assert. Rust: a
 * `macro_rules! assert_eq` (or a `use … as assert_eq`) above the inline
 * tests shadows the prelude's in textual scope, and `use super::*` or a
 * `#[macro_export]` carries it into them. Python: a top-level `def len` of a
 * module the tests star-import shadows the builtin. JavaScript: a global
 * (`globalThis.expect = …`) a test calls by its bare name.
 */

/** The standard library's macros: a test invoking one means the standard one. */
const STD_MACROS = new Set(
  'assert assert_eq assert_ne debug_assert debug_assert_eq debug_assert_ne panic unreachable todo unimplemented matches vec format format_args print println eprint eprintln write writeln dbg concat stringify include include_str include_bytes env option_env cfg line column file module_path compile_error'.split(
    ' ',
  ),
);

/** Python builtins a test calls or names in its assertions. */
const PY_BUILTINS = new Set(
  'abs all any bool callable dict enumerate filter float format frozenset getattr hasattr hash id int isinstance issubclass iter len list map max min next object print range repr reversed round set sorted str sum tuple type zip Exception BaseException ValueError TypeError KeyError IndexError AttributeError RuntimeError ZeroDivisionError AssertionError ArithmeticError LookupError OverflowError NotImplementedError StopIteration'.split(
    ' ',
  ),
);

const count = (names: readonly string[]): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return counts;
};

/** Each macro name a Rust text defines or binds: `macro_rules! x`, `macro x`, a `use` of `x` or `as x`. */
const rustMacroBindings = (text: string): string[] => {
  const names = [
    ...text.matchAll(/\bmacro_rules!\s*(\w+)|^[^\S\n\r\u2028\u2029]*(?:pub\S*\s+)?macro\s+(\w+)/gm),
  ].map((m) => m[1] ?? m[2] ?? '');
  for (const use of text.matchAll(/\buse\s([^;]+);/g))
    for (const piece of (use[1] ?? '').split(/[{},]/)) {
      const name = /\bas\s+(\w+)\s*$/.exec(piece)?.[1] ?? /(?:^|::)\s*(\w+)\s*$/.exec(piece)?.[1];
      if (name && name !== 'self' && name !== '_') names.push(name);
    }
  return names.filter(Boolean);
};

/** Each top-level name a Python text binds (`def x`, `class x`, `x =`, an import of or as `x`). */
const pythonBindings = (text: string): string[] => {
  const names: string[] = [];
  for (const m of text.matchAll(
    /^(?:async\s+def|def|class)\s+(\w+)|^(\w+)\s*(?::[^=\n]*)?=(?!=)|^(?:from\s+\S+\s+)?import\s+\(?([^#\n)]+)/gm,
  )) {
    if (m[1] ?? m[2]) names.push((m[1] ?? m[2]) as string);
    for (const item of (m[3] ?? '').split(','))
      names.push(
        /(?<!\w)(\w+)\s*$/.exec(item.trim())?.[1] ?? /^(\w+)/.exec(item.trim())?.[1] ?? '',
      );
  }
  return names.filter(Boolean);
};

const OBJECT_WORDS =
  /^(Object|assign|defineProperty|defineProperties|globalThis|global|window|self|value|get|set|writable|configurable|enumerable|true|false)$/;

/** Each global a JavaScript line assigns (`globalThis.x =`, `global['x'] =`, `Object.assign(globalThis, { x })`). */
const jsGlobalBindings = (line: string): string[] => {
  const names = [
    ...line.matchAll(
      /\b(?:globalThis|global|window|self)\s*(?:\.\s*(\w+)|\[\s*['"`](\w+)['"`]\s*\])\s*(?:=(?!=)|\|\|=|\?\?=)/g,
    ),
  ].map((m) => m[1] ?? m[2] ?? '');
  if (
    /\bObject\s*\.\s*(assign|defineProperty|defineProperties)\s*\(\s*(globalThis|global|window|self)\b/.test(
      line,
    )
  )
    names.push(...(line.match(/\w+/g) ?? []).filter((word) => !OBJECT_WORDS.test(word)));
  return names.filter(Boolean);
};

/** The names a change newly binds in one product file (more bindings of a name than the base had). */
const newlyBound = (bindings: (text: string) => string[], before: string, after: string) => {
  const had = count(bindings(before));
  return [...count(bindings(after))]
    .filter(([name, n]) => n > (had.get(name) ?? 0))
    .map(([name]) => name);
};

/** Python module names a product file is imported as (`pkg/calc.py` → calc, `pkg/__init__.py` → pkg). */
const moduleName = (file: string): string =>
  (/(?:^|\/)(\w+)\/__init__\.py$/.exec(file)?.[1] ?? /(?<!\w)(\w+)\.py$/.exec(file)?.[1]) || file;

/** The macros the base's Rust tests invoke, and those the base defines or imports (read once). */
const rustTestMacros = (ctx: CheckContext) => {
  const invokedNames = new Set<string>();
  const known = new Set<string>();
  for (const base of baseCode(ctx.baseFiles, ctx.baseContent, RS)) {
    const testing =
      base.test || /(^|\/)(tests?|benches|examples)(\/|\.rs$)/.test(base.file)
        ? base.text
        : inlineTestLines(base.file, base.text).join('\n');
    for (const m of testing.matchAll(/\b(\w+)\s*!\s*[([{]/g)) invokedNames.add(m[1] ?? '');
    for (const name of rustMacroBindings(base.text)) known.add(name);
    if (/#\[macro_use\]\s*extern\s+crate/.test(base.text)) known.add('#macro_use');
  }
  return { invokedNames, known };
};

export const shadowedTestNames = (ctx: CheckContext): string[] => {
  const source = new Set(ctx.split.paths.source);
  const found: string[] = [];
  let rust: ReturnType<typeof rustTestMacros> | undefined;
  for (const file of ctx.diff.files) {
    if (!source.has(file.path) || file.status === 'deleted') continue;
    const before = ctx.baseContent(file.oldPath ?? file.path) ?? '';
    const after = ctx.newContent(file.path) ?? file.added.join('\n');
    const refuse = (name: string, how: string): void => {
      found.push(`${file.path} newly binds ${name}, which the base's tests invoke (${how})`);
    };
    if (RS.test(file.path)) {
      const fresh = newlyBound(rustMacroBindings, before, after);
      if (fresh.length === 0) continue;
      rust ??= rustTestMacros(ctx);
      const { invokedNames, known } = rust;
      for (const name of fresh.filter((n) => invokedNames.has(n)))
        // A macro the base defines nowhere is the missing one a failing test calls for.
        if (STD_MACROS.has(name) || known.has(name) || known.has('#macro_use'))
          refuse(`${name}!`, 'a macro of that name shadows theirs in the tests');
    } else if (PY.test(file.path)) {
      const fresh = newlyBound(pythonBindings, before, after).filter((n) => PY_BUILTINS.has(n));
      if (fresh.length === 0) continue;
      const star = pattern('m')`^\s*from\s+(?:[\w.]*\.)?${moduleName(file.path)}\s+import\s+\*`;
      for (const base of baseCode(ctx.baseFiles, ctx.baseContent, PY))
        if (base.test && star.test(base.text))
          for (const name of fresh.filter((n) => pattern()`(?<![\w.])${n}\b`.test(base.text)))
            refuse(name, `a builtin, and ${base.file} star-imports the module`);
    } else if (JS.test(file.path)) {
      const fresh = [...new Set(file.added.flatMap(jsGlobalBindings))];
      if (fresh.length === 0) continue;
      for (const base of baseCode(ctx.baseFiles, ctx.baseContent, JS))
        if (base.test)
          for (const name of fresh.filter((n) =>
            pattern()`(?<![\w.$])${n}\s*[.(\`]`.test(base.text),
          ))
            refuse(name, `a global, and ${base.file} calls it by its bare name`);
    }
  }
  return [...new Set(found)];
};
