/**
 * Tests a source file holds inline: Rust's `#[cfg(test)]`
 * modules and `#[test]` items, the code blocks of doc comments (`///`,
 * `//!`: Rust's doctests), and Python's doctest examples with the output
 * they expect. A product file that holds them is judged with its own tests
 * (the judging run applies the file whole), so a change that rewrites them
 * rewrote the failure's definition: `no-weakened-tests` refuses it. Adding
 * tests stays allowed: each of the base's tests must still be there whole,
 * where it runs from, in its order, with new ones only between them.
 */

import { editsDoctests } from './python-doctests.ts';

const RUST_TEST_ATTRIBUTE = /^\s*#\[(cfg\(test\)|test|tokio::test|rstest|test_case\b[^\]]*)\]/;

/** The lines from an attribute to the end of the item it marks (its braces matched). */
const itemEnd = (lines: readonly string[], from: number): number => {
  let depth = 0;
  let opened = false;
  for (let at = from; at < lines.length; at += 1) {
    // Strings and chars hold no braces that count (approximately: escapes aside).
    const code = (lines[at] ?? '').replace(
      /"(\\.|[^"\\])*"|'(\\.|[^'\\])'|(?<!\/)\/\/[\s\S]*$/g,
      '',
    );
    for (const char of code) {
      if (char === '{') {
        depth += 1;
        opened = true;
      } else if (char === '}') depth -= 1;
    }
    if (opened && depth <= 0) return at;
    if (!opened && /;\s*$/.test(code)) return at;
  }
  return lines.length - 1;
};

const blankOut = (text: string): string => text.replace(/[^\n]/g, ' ');

/**
 * A Rust file's code as its structure reads: what block comments (they
 * nest) and string and char literals hold (raw strings too) blanked, their
 * line breaks kept, so each line is still the same line. Line comments stay
 * (doc comments are read from them).
 */
const rustCode = (text: string): string => {
  let out = '';
  let at = 0;
  let depth = 0;
  while (at < text.length) {
    const char = text[at] ?? '';
    if (depth > 0 || text.startsWith('/*', at)) {
      const opens = text.startsWith('/*', at);
      const closes = !opens && text.startsWith('*/', at);
      if (opens || closes) {
        depth += opens ? 1 : -1;
        out += '  ';
        at += 2;
      } else {
        out += char === '\n' ? '\n' : ' ';
        at += 1;
      }
      continue;
    }
    if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      out += text.slice(at, stop);
      at = stop;
      continue;
    }
    const before = text[at - 1] ?? '';
    const raw =
      (char === 'r' || char === 'b') && !/\w/.test(before)
        ? /^b?r(#*)"/.exec(text.slice(at, at + 260))
        : null;
    if (raw) {
      const close = `"${raw[1] ?? ''}`;
      const end = text.indexOf(close, at + raw[0].length);
      const stop = end < 0 ? text.length : end + close.length;
      out += raw[0] + blankOut(text.slice(at + raw[0].length, stop - close.length)) + close;
      at = stop;
      continue;
    }
    if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      out += `"${blankOut(text.slice(at + 1, end))}"`;
      at = end + 1;
      continue;
    }
    const literal =
      char === "'" ? /^'(\\u\{[0-9a-fA-F]+\}|\\.|[^'\\\n])'/.exec(text.slice(at, at + 12)) : null;
    if (literal) {
      out += `'${blankOut(literal[0].slice(1, -1))}'`;
      at += literal[0].length;
      continue;
    }
    out += char;
    at += 1;
  }
  return out;
};

/** How a line of `rustCode` moves the brace depth. */
const braces = (line: string): number => {
  let moved = 0;
  for (const char of line.replace(/(?<!\/)\/\/[\s\S]*$/, ''))
    if (char === '{') moved += 1;
    else if (char === '}') moved -= 1;
  return moved;
};

/**
 * A Rust file's inline tests as units compared whole, each keyed by the
 * modules it is in with their attributes: a doc comment's code block with its
 * fence (a ```` ```text ````, `ignore` or `no_run` block does not run as the
 * plain one does), and a test item with the attributes above it. A
 * `#[cfg(any())]` put over a test module compiles it out, and changes the key
 * of every test in it; what is in a block comment is none.
 */
export const rustTestUnits = (text: string): string[] => {
  // The structure is read from the code; a test's text is its own lines, literals and all.
  const lines = rustCode(text).split('\n');
  const written = text.split('\n');
  const units: string[] = [];
  const modules: { depth: number; key: string }[] = [];
  let depth = 0;
  let fence: string[] | undefined;
  let attributes: string[] = [];
  const where = (): string => modules.map((module) => module.key).join(' > ');
  const endFence = (): void => {
    if (fence) units.push(`${where()}\u0000${fence.join('\n')}`);
    fence = undefined;
  };
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    const trimmed = line.trim();
    const doc = /^\s*\/\/[/!]\s?(.*)$/.exec(line);
    if (doc) {
      const content = (doc[1] ?? '').trim();
      if (/^```/.test(content)) {
        if (fence) endFence();
        else fence = [content];
      } else if (fence && content !== '') fence.push(content);
      continue;
    }
    endFence();
    if (trimmed === '' || trimmed.startsWith('//')) continue;
    if (trimmed.startsWith('#[') && !RUST_TEST_ATTRIBUTE.test(trimmed)) {
      attributes.push((written[at] ?? '').trim());
      continue;
    }
    const module = /^(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*\{/.exec(trimmed);
    if (module) {
      modules.push({ depth, key: [...attributes, `mod ${module[1] ?? ''}`].join(' ') });
      attributes = [];
      depth += braces(line);
      continue;
    }
    if (RUST_TEST_ATTRIBUTE.test(trimmed)) {
      // `#[cfg(test)]` over a module is the module's; over anything else, like `#[test]`, an item.
      let next = at + 1;
      while (next < lines.length && /^\s*(#\[|$)/.test(lines[next] ?? '')) next += 1;
      if (/^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+\w+\s*\{/.test(lines[next] ?? '')) {
        attributes.push((written[at] ?? '').trim());
        continue;
      }
      const end = itemEnd(lines, at);
      const item = written
        .slice(at, end + 1)
        .map((inner) => inner.trim())
        .filter(Boolean);
      units.push(`${where()}\u0000${[...attributes, ...item].join('\n')}`);
      attributes = [];
      at = end;
      continue;
    }
    // An inner attribute (`#![cfg(any())]`) is its module's: part of where its tests are.
    const scope = modules.at(-1);
    if (trimmed.startsWith('#![') && scope) {
      scope.key = `${scope.key} ${(written[at] ?? '').trim()}`;
      continue;
    }
    // Any other block a line opens (a macro's call, a function) is somewhere else too; an
    // attribute written after code on the line is the next item's.
    const moved = braces(line);
    if (moved > 0) modules.push({ depth, key: (written[at] ?? '').trim() });
    attributes = /#\[[^\]]*\]\s*$/.test(trimmed) ? [(written[at] ?? '').trim()] : [];
    depth += moved;
    while (modules.length > 0 && depth <= (modules.at(-1)?.depth ?? 0)) modules.pop();
  }
  endFence();
  return units;
};

/**
 * The lines of a Rust file's inline tests (`rustTestUnits`, where each is left
 * aside): what the base's tests invoke is read from them. None for any other
 * language.
 */
export const inlineTestLines = (file: string, text: string | undefined): string[] =>
  text === undefined || !/\.rs$/.test(file)
    ? []
    : rustTestUnits(text).flatMap((unit) => unit.slice(unit.indexOf('\u0000') + 1).split('\n'));

/** Every line of `before` is in `after`, in order (lines may only have been added between them). */
const isSubsequence = (before: readonly string[], after: readonly string[]): boolean => {
  let at = 0;
  for (const line of after) if (at < before.length && line === before[at]) at += 1;
  return at === before.length;
};

/**
 * A change rewrote (or removed) a test the file held inline at the base:
 * each one is compared whole and where it runs from (`pythonDocExamples`,
 * `rustTestUnits`), so its lines kept where nothing runs them are no test.
 * Tests added beside them stay allowed.
 */
export const editsInlineTests = (
  file: string,
  before: string | undefined,
  after: string | undefined,
): boolean =>
  /\.pyi?$/.test(file)
    ? editsDoctests(before ?? '', after ?? '')
    : /\.rs$/.test(file)
      ? !isSubsequence(rustTestUnits(before ?? ''), rustTestUnits(after ?? ''))
      : false;
