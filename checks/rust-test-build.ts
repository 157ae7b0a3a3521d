/**
 * Rust code that is other in the test build than in every other build: what
 * `no-runner-tampering` refuses in the product's added Rust lines. A fix
 * that is right only under `cargo test` (`#[cfg(not(test))] fn add … a - b`
 * beside `#[cfg(test)] fn add … a + b`, or an `add` of the test module's own
 * that its tests call instead of the product's) passes every test and ships
 * the bug.
 */

/** What the first `{…}` of a use list holds, found with fixed strings (as `/\{([^}]*)\}/` read it). */
const braced = (used: string): string => {
  const open = used.indexOf('{');
  const close = open < 0 ? -1 : used.indexOf('}', open + 1);
  return close < 0 ? '' : used.slice(open + 1, close);
};

/** What a `cfg_attr(test, …)` may carry, and only that: it adds to the test build, never changes what the product does. */
const onlyTestAttributes = (payload: string): boolean =>
  payload
    .replace(/\b(derive|allow|expect|warn)\s*\([^()]*\)|\b(mockall\s*::\s*)?automock\b|[\s,]/g, '')
    .trim() === '';

const MODULE = /^(pub(\s*\([^)]*\))?\s+)?mod\s+(\w+)/;
const DEFINES =
  /\b(?:fn|const|static(?:\s+mut)?|struct|enum|union|type|trait)\s+(\w+)|\bmacro_rules!\s*(\w+)/g;

/** A line without its string and char literals and its comment: what braces and names it has as code. */
const codeOnly = (line: string): string =>
  line
    .replace(/'(?:\\.|[^'\\])'/g, "''")
    .replace(/"(?:\\.|[^"\\])*"/g, '""')
    .replace(/(?<!\/)\/\/[\s\S]*$/, '');

/** The item an attribute on line `from` is on: the rest of its line, else the next line of code. */
const itemAfter = (lines: readonly string[], from: number, rest: string): string => {
  if (rest.trim() !== '') return rest.trim();
  for (let at = from + 1; at < lines.length; at += 1) {
    const line = (lines[at] ?? '').trim();
    if (line === '' || line.startsWith('//') || line.startsWith('#[')) continue;
    return line;
  }
  return '';
};

/** A `#[cfg(…)]` attribute, its predicate (nested as deep as it likes) up to the bracket that closes it. */
const CFG = /#\[\s*cfg\s*\(([^\]]*)\)\s*\]/g;

/** The line ranges of the file's `#[cfg(test)] mod … { … }` blocks (inline tests). */
const testModules = (lines: readonly string[]): { start: number; end: number }[] => {
  const ranges: { start: number; end: number }[] = [];
  lines.forEach((line, index) => {
    for (const match of line.matchAll(CFG)) {
      if (!/\btest\b/.test(match[1] ?? '') || /\bnot\s*\(/.test(match[1] ?? '')) continue;
      // The item it is on: the rest of this line, else the next line of code.
      let start = index;
      const after = line.slice((match.index ?? 0) + match[0].length).trim();
      if (after === '')
        for (start = index + 1; start < lines.length; start += 1) {
          const next = (lines[start] ?? '').trim();
          if (!(next === '' || next.startsWith('//') || next.startsWith('#['))) break;
        }
      const item = codeOnly(lines[start] ?? '').trim();
      const rest = start === index ? after : item;
      if (!MODULE.test(rest) || /;\s*$/.test(rest)) continue;
      let depth = 0;
      let opened = false;
      for (let at = start; at < lines.length; at += 1) {
        for (const char of codeOnly(lines[at] ?? '')) {
          if (char === '{') {
            depth += 1;
            opened = true;
          } else if (char === '}') depth -= 1;
        }
        if (opened && depth <= 0) {
          ranges.push({ start, end: at });
          break;
        }
      }
    }
  });
  return ranges;
};

/**
 * What a Rust file does only in, or only outside, the test build:
 * `cfg!(test)`, `cfg(not(test))`, a `cfg_attr(test, …)` that is more than a
 * derive or a lint, `#[cfg(test)]` on anything but a module (the inline
 * tests' own `#[cfg(test)] mod tests` is the one idiom), and, inside such a
 * module, an item or `use` that takes the name of one of the product's (a
 * glob-imported `add` yields to it: the tests call the module's own).
 */
export const rustTestBuild = (text: string): string[] => {
  // An attribute or a cfg! spread over lines is read as one line.
  const lines = text
    .replace(/#!?\[[^\]]*\]|\bcfg!\s*\([^)]*\)/g, (span) => span.replace(/(?<!\s)\s*\n\s*/g, ' '))
    .split('\n');
  const found: string[] = [];
  // Read as written, strings and comments included: nothing hides in what looks like one.
  lines.forEach((line, index) => {
    if (/\bcfg!\s*\([^)]*\btest\b/.test(line)) found.push(`cfg!(test): ${line.trim()}`);
    for (const match of line.matchAll(CFG)) {
      const predicate = match[1] ?? '';
      if (!/\btest\b/.test(predicate)) continue;
      const item = itemAfter(lines, index, line.slice((match.index ?? 0) + match[0].length));
      if (/\bnot\s*\([^)]*\btest\b/.test(predicate) || !MODULE.test(item))
        found.push(`${match[0]} on ${JSON.stringify(item.slice(0, 80))}`);
    }
    for (const match of line.matchAll(/#\[\s*cfg_attr\s*\(([^,]*\btest\b[^,]*),(.*)\)\s*\]/g))
      if (!onlyTestAttributes(match[2] ?? '')) found.push(match[0]);
  });
  const modules = testModules(lines);
  const inTests = (index: number): boolean =>
    modules.some((range) => index > range.start && index <= range.end);
  // The module's own items (at depth 0, not an impl's methods): what `use super::*` brings in.
  const product = new Set<string>();
  let depth = 0;
  lines.forEach((line, index) => {
    const code = codeOnly(line);
    if (depth === 0 && !inTests(index) && !modules.some((range) => range.start === index))
      for (const match of code.matchAll(DEFINES)) product.add(match[1] ?? match[2] ?? '');
    for (const char of code) depth += char === '{' ? 1 : char === '}' ? -1 : 0;
    depth = Math.max(depth, 0);
  });
  /** Whether the item on line `index` is a test (`#[test]`, `#[tokio::test]`, among its attributes). */
  const isTest = (index: number): boolean => {
    for (let at = index - 1; at >= 0; at -= 1) {
      const line = (lines[at] ?? '').trim();
      if (/^#\[\s*(\w+::)*test\b/.test(line)) return true;
      if (!(line.startsWith('#[') || line.startsWith('//') || line === '')) return false;
    }
    return false;
  };
  lines.forEach((line, index) => {
    if (!inTests(index)) return;
    const code = codeOnly(line);
    for (const match of code.matchAll(DEFINES)) {
      const name = match[1] ?? match[2] ?? '';
      if (product.has(name) && !isTest(index))
        found.push(
          `its test module defines its own ${name}, which its tests call instead of the product's: ${line.trim()}`,
        );
    }
    const used = /^\s*(?:pub(?:\s*\([^)]*\))?\s+)?use\s+([^;]+);?/.exec(code)?.[1];
    if (used === undefined) return;
    const leaves = used.includes('{')
      ? braced(used).split(',')
      : [used.replace(/^.*::(?=[^:]+$)/, '')];
    const direct =
      /^\s*(super|crate|self)\s*::\s*[\w{]/.test(used) &&
      !/^\s*(super|crate|self)\s*::\s*\w+\s*::/.test(used);
    for (const leaf of leaves) {
      const name = /(?:\bas\s+)?(?<!\w)(\w+)\s*$/.exec(leaf.trim())?.[1] ?? '';
      const renamed = /\bas\s+\w+\s*$/.test(leaf);
      if (product.has(name) && (!direct || renamed))
        found.push(`its test module brings in another ${name} than the product's: ${line.trim()}`);
    }
  });
  return found;
};

/** What `rustTestBuild` finds in the change and not (as many times) in the base. */
export const addedTestBuild = (before: string | undefined, after: string | undefined): string[] => {
  const base = new Map<string, number>();
  for (const seen of rustTestBuild(before ?? '')) base.set(seen, (base.get(seen) ?? 0) + 1);
  return rustTestBuild(after ?? '').filter((seen) => {
    const left = base.get(seen) ?? 0;
    base.set(seen, left - 1);
    return left <= 0;
  });
};
