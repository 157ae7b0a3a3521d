/**
 * Tests a source file holds inline, line by line: Rust's `#[cfg(test)]`
 * modules and `#[test]` items, the code blocks of doc comments (`///`,
 * `//!`: Rust's doctests), and Python's doctest examples with the output
 * they expect. A product file that holds them is judged with its own tests
 * (the judging run applies the file whole), so a change that rewrites them
 * rewrote the failure's definition: `no-weakened-tests` refuses it. Adding
 * tests stays allowed: the base's test lines must all still be there, in
 * their order, with new lines only between them.
 */

const RUST_TEST_ATTRIBUTE = /^\s*#\[(cfg\(test\)|test|tokio::test|rstest|test_case\b[^\]]*)\]/;

/** The lines from an attribute to the end of the item it marks (its braces matched). */
const itemEnd = (lines: readonly string[], from: number): number => {
  let depth = 0;
  let opened = false;
  for (let at = from; at < lines.length; at += 1) {
    // Strings and chars hold no braces that count (approximately: escapes aside).
    const code = (lines[at] ?? '').replace(/"(\\.|[^"\\])*"|'(\\.|[^'\\])'|\/\/.*$/g, '');
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

const rustTestLines = (text: string): string[] => {
  const lines = text.split('\n');
  const out: string[] = [];
  let fence = false;
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    const doc = /^\s*\/\/[/!]\s?(.*)$/.exec(line);
    if (doc) {
      if (/^```/.test((doc[1] ?? '').trim())) fence = !fence;
      else if (fence) out.push(line.trim());
      continue;
    }
    fence = false;
    if (RUST_TEST_ATTRIBUTE.test(line)) {
      const end = itemEnd(lines, at);
      for (let inner = at; inner <= end; inner += 1) out.push((lines[inner] ?? '').trim());
      at = end;
    }
  }
  return out.filter(Boolean);
};

const pythonTestLines = (text: string): string[] => {
  const out: string[] = [];
  let inExample = false;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed.startsWith('>>>')) {
      inExample = true;
      out.push(trimmed);
    } else if (inExample && trimmed !== '' && !/^[rRbBuU]*("""|''')$/.test(trimmed)) {
      // A continuation (`...`) or the output the example expects.
      out.push(trimmed);
    } else inExample = false;
  }
  return out;
};

/** The inline test lines of a source file (none for a language without inline tests). */
export const inlineTestLines = (file: string, text: string | undefined): string[] => {
  if (text === undefined) return [];
  if (/\.rs$/.test(file)) return rustTestLines(text);
  if (/\.pyi?$/.test(file)) return pythonTestLines(text);
  return [];
};

/** Every line of `before` is in `after`, in order (lines may only have been added between them). */
const isSubsequence = (before: readonly string[], after: readonly string[]): boolean => {
  let at = 0;
  for (const line of after) if (at < before.length && line === before[at]) at += 1;
  return at === before.length;
};

/** A change rewrote (or removed) a test the file held inline at the base. */
export const editsInlineTests = (
  file: string,
  before: string | undefined,
  after: string | undefined,
): boolean => !isSubsequence(inlineTestLines(file, before), inlineTestLines(file, after));
