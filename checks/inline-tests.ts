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

const TRIPLE = /[rRuUbBfF]{0,2}("""|''')/g;
const HEADER = /^(?:async\s+def|def|class)\s+\w+/;
const ENDS_HEADER = /:\s*(#.*)?$/;

/** The lines of one doctest example each: its `>>>` line, its continuations and the output it expects. */
const examplesIn = (lines: readonly string[]): string[] => {
  const examples: string[][] = [];
  let current: string[] | undefined;
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed.startsWith('>>>')) examples.push((current = [trimmed]));
    else if (current && trimmed !== '' && !/^[rRbBuU]*("""|''')$/.test(trimmed))
      current.push(trimmed);
    else current = undefined;
  }
  return examples.map((example) => example.join('\n'));
};

/**
 * Python's doctest examples where doctest finds them: in the docstring of the
 * module, a class, or a function or method doctest reaches, each keyed by
 * where it is (the chain of `class`/`def` lines down to its docstring's
 * owner). An example anywhere else (a string assigned to a name, a comment,
 * the docstring of a function inside a function) is not run, so it is no
 * test: a base example must stay, whole, in the same docstring. Strings are
 * followed across lines, so a `def` and a docstring written inside one are
 * neither.
 */
const pythonDocExamples = (text: string): string[] => {
  const lines = text.split('\n');
  const units: string[] = [];
  const owners: { indent: number; header: string }[] = [];
  let pending: string | undefined = '<module>';
  let header = false;
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    const code = line.trim();
    if (code === '' || code.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    if (header) {
      // A header over several lines ends at its colon; its docstring may follow.
      if (ENDS_HEADER.test(code)) header = false;
      continue;
    }
    while (owners.length > 0 && (owners.at(-1)?.indent ?? 0) >= indent) owners.pop();
    const triples = [...line.matchAll(TRIPLE)];
    const defines = HEADER.exec(code);
    if (defines && triples.length === 0) {
      // Doctest reaches a class's methods and nested classes, never a function's inner functions.
      const reached = owners.every((owner) => owner.header.startsWith('class'));
      owners.push({ indent, header: defines[0] });
      pending = reached ? owners.map((owner) => owner.header).join(' > ') : undefined;
      header = !ENDS_HEADER.test(code);
      continue;
    }
    if (triples.length === 0) {
      pending = undefined;
      continue;
    }
    const isDocstring = pending !== undefined && triples[0]?.index === indent;
    // A string opened and not closed on this line runs on to the line that closes it.
    const quote = triples[0]?.[1] ?? '"""';
    let end = at;
    if (triples.filter((match) => match[1] === quote).length % 2 === 1) {
      end = at + 1;
      while (end < lines.length && !(lines[end] ?? '').includes(quote)) end += 1;
    }
    if (isDocstring)
      for (const example of examplesIn(lines.slice(at, end + 1)))
        units.push(`${pending}\u0000${example}`);
    pending = undefined;
    at = end;
  }
  return units;
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

/**
 * A change rewrote (or removed) a test the file held inline at the base. In
 * Python, each doctest example is compared whole and where doctest runs it
 * (`pythonDocExamples`): its lines kept in a string nothing runs are no test.
 */
export const editsInlineTests = (
  file: string,
  before: string | undefined,
  after: string | undefined,
): boolean =>
  /\.pyi?$/.test(file)
    ? !isSubsequence(pythonDocExamples(before ?? ''), pythonDocExamples(after ?? ''))
    : !isSubsequence(inlineTestLines(file, before), inlineTestLines(file, after));
