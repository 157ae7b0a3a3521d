/**
 * Tests a source file holds inline, line by line: Rust's `#[cfg(test)]`
 * modules and `#[test]` items, the code blocks of doc comments (`///`,
 * `//!`: Rust's doctests), and Python's doctest examples with the output
 * they expect. A product file that holds them is judged with its own tests
 * (the judging run applies the file whole), so a change that rewrites them
 * rewrote the failure's definition: `no-weakened-tests` refuses it. Adding
 * tests stays allowed: each of the base's tests must still be there whole,
 * where it runs from, in its order, with new ones only between them.
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

/** Rust's block comments (they nest) as blank text, their line breaks kept: what is in one never runs. */
const withoutBlockComments = (text: string): string => {
  let out = '';
  let depth = 0;
  for (let at = 0; at < text.length; at += 1) {
    if (text.startsWith('/*', at)) {
      depth += 1;
      at += 1;
    } else if (depth > 0 && text.startsWith('*/', at)) {
      depth -= 1;
      at += 1;
    } else if (depth === 0 || text[at] === '\n') out += text[at] ?? '';
  }
  return out;
};

/** How a line moves the brace depth (strings, chars and line comments aside, approximately). */
const braces = (line: string): number => {
  let moved = 0;
  for (const char of line.replace(/"(\\.|[^"\\])*"|'(\\.|[^'\\])'|\/\/.*$/g, ''))
    if (char === '{') moved += 1;
    else if (char === '}') moved -= 1;
  return moved;
};

const rustTestLines = (text: string): string[] => {
  const lines = withoutBlockComments(text).split('\n');
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

/**
 * A Rust file's inline tests as units compared whole, each keyed by the
 * modules it is in with their attributes: a doc comment's code block with its
 * fence (a ```` ```text ````, `ignore` or `no_run` block does not run as the
 * plain one does), and a test item with the attributes above it. A
 * `#[cfg(any())]` put over a test module compiles it out, and changes the key
 * of every test in it; what is in a block comment is none.
 */
const rustTestUnits = (text: string): string[] => {
  const lines = withoutBlockComments(text).split('\n');
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
      attributes.push(trimmed);
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
        attributes.push(trimmed);
        continue;
      }
      const end = itemEnd(lines, at);
      const item = lines
        .slice(at, end + 1)
        .map((inner) => inner.trim())
        .filter(Boolean);
      units.push(`${where()}\u0000${[...attributes, ...item].join('\n')}`);
      attributes = [];
      at = end;
      continue;
    }
    attributes = [];
    depth += braces(line);
    while (modules.length > 0 && depth <= (modules.at(-1)?.depth ?? 0)) modules.pop();
  }
  endFence();
  return units;
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
const DEFINES = /^(?:async\s+def|def|class)\s+\w+/;
/** A compound statement's header: what is defined under it is somewhere else than at its level. */
const COMPOUND =
  /^(?:if|elif|else|try|except|finally|with|async\s+with|for|async\s+for|while|match|case)\b/;

/**
 * A line's code as a header reads it: strings of one line and a comment
 * removed, and how far it opens brackets (`depth`).
 */
const headerCode = (line: string, depth: number): { code: string; depth: number } => {
  const code = line
    .replace(/'(\\.|[^'\\])*'|"(\\.|[^"\\])*"/g, "''")
    .replace(/#.*$/, '')
    .trim();
  for (const char of code)
    if ('([{'.includes(char)) depth += 1;
    else if (')]}'.includes(char)) depth -= 1;
  return { code, depth };
};

/** The lines of one doctest example each: its `>>>` line, its continuations and the output it expects. */
const examplesIn = (lines: readonly string[], raw: boolean): string[] => {
  // In a string that is not raw, a backslash at a line's end joins the next line onto it.
  const joined: string[] = [];
  for (const line of lines) {
    const previous = joined.at(-1);
    if (!raw && previous !== undefined && /(^|[^\\])(\\\\)*\\$/.test(previous))
      joined[joined.length - 1] = `${previous.slice(0, -1)}${line}`;
    else joined.push(line);
  }
  const examples: string[][] = [];
  let current: string[] | undefined;
  for (const line of joined) {
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
 * where it is (the chain of decorators, `class`/`def` and compound statement
 * lines down to its docstring's owner; a name defined again keeps only its
 * last definition's). An example anywhere else (a string assigned to a name,
 * a comment, the docstring of a function inside a function) is not run, so it
 * is no test: a base example must stay, whole, in the same docstring. Strings
 * are followed across lines, so a `def` and a docstring written inside one
 * are neither. A file that sets `__doc__` more often than its base did says
 * its examples some other way: none of the base's is taken as kept.
 */
const pythonDocExamples = (text: string): Map<string, string[]> => {
  const lines = text.split('\n');
  const byOwner = new Map<string, string[]>();
  const owners: { indent: number; header: string }[] = [];
  let pending: string | undefined = '<module>';
  let decorators: string[] = [];
  let header: { depth: number; inString: string | undefined } | undefined;
  for (let at = 0; at < lines.length; at += 1) {
    const line = lines[at] ?? '';
    const trimmed = line.trim();
    if (header) {
      // A header over several lines ends at its colon, outside brackets and strings.
      if (header.inString) {
        if (line.includes(header.inString)) header.inString = undefined;
        continue;
      }
      const triples = [...line.matchAll(TRIPLE)];
      if (triples.length % 2 === 1) header.inString = triples[0]?.[1];
      const read = headerCode(line.replace(/("""|''')[\s\S]*$/, ''), header.depth);
      header.depth = read.depth;
      if (!header.inString && read.depth <= 0 && read.code.endsWith(':')) header = undefined;
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    while (owners.length > 0 && (owners.at(-1)?.indent ?? 0) >= indent) owners.pop();
    const triples = [...line.matchAll(TRIPLE)];
    if (trimmed.startsWith('@') && triples.length === 0) {
      decorators.push(trimmed);
      continue;
    }
    const defines = DEFINES.exec(trimmed);
    const compound = COMPOUND.exec(trimmed);
    if ((defines || compound) && triples.length === 0) {
      // Doctest reaches a class's methods and nested classes, never a function's inner functions.
      const reached = owners.every((owner) => owner.header.startsWith('class'));
      owners.push({ indent, header: [...decorators, (defines ?? compound)?.[0] ?? ''].join(' ') });
      decorators = [];
      const key = owners.map((owner) => owner.header).join(' > ');
      pending = defines && reached ? key : undefined;
      // A name defined again: doctest reads the last definition's docstring only.
      if (pending !== undefined) byOwner.delete(pending);
      const read = headerCode(trimmed, 0);
      header =
        read.depth > 0 || !read.code.endsWith(':')
          ? { depth: read.depth, inString: undefined }
          : undefined;
      continue;
    }
    decorators = [];
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
    if (pending !== undefined && isDocstring) {
      const raw = /^[bBuU]?[rR]/.test(trimmed);
      byOwner.set(pending, [
        ...(byOwner.get(pending) ?? []),
        ...examplesIn(lines.slice(at, end + 1), raw),
      ]);
    }
    pending = undefined;
    at = end;
  }
  return byOwner;
};

/** Each doctest example with where it is, in the file's order (see `pythonDocExamples`). */
const pythonDocUnits = (text: string): string[] =>
  [...pythonDocExamples(text)].flatMap(([owner, examples]) =>
    examples.map((example) => `${owner}\u0000${example}`),
  );

const docAssignments = (text: string): number => text.match(/__doc__/g)?.length ?? 0;

/** Whether a change rewrote (or removed) a doctest example the base held (see `pythonDocExamples`). */
const editsDoctests = (before: string, after: string): boolean => {
  const kept = pythonDocUnits(before);
  if (kept.length === 0) return false;
  return (
    docAssignments(after) > docAssignments(before) || !isSubsequence(kept, pythonDocUnits(after))
  );
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
