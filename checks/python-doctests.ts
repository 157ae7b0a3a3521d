/**
 * Python's doctest examples where doctest finds them, for `editsInlineTests`
 * (inline-tests.ts): a line reading of the module, approximating CPython's.
 */
import { pattern } from '../src/util/pattern.ts';

/**
 * The triple quotes that open or close a string on a line, each at the start
 * of its prefix (`r`, `b`, `f`…), and which quote it is: those inside a
 * string of one line or a comment are none.
 */
const triplesIn = (line: string): { index: number; quote: string }[] => {
  const found: { index: number; quote: string }[] = [];
  let at = 0;
  while (at < line.length) {
    const char = line[at] ?? '';
    if (char === '#') break;
    const quote = line.startsWith('"""', at) ? '"""' : line.startsWith("'''", at) ? "'''" : '';
    if (quote) {
      const prefix = /[rRuUbBfF]{0,2}$/.exec(line.slice(Math.max(0, at - 2), at))?.[0] ?? '';
      found.push({ index: at - prefix.length, quote });
      // The rest of a string opened here is its own: its end, if on this line, is the next one.
      const end = line.indexOf(quote, at + 3);
      if (end < 0) break;
      found.push({ index: end, quote });
      at = end + 3;
      continue;
    }
    if (char === '"' || char === "'") {
      let end = at + 1;
      while (end < line.length && line[end] !== char) end += line[end] === '\\' ? 2 : 1;
      at = end + 1;
      continue;
    }
    at += 1;
  }
  return found;
};
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
    .replace(/(?<!#)#[\s\S]*$/, '')
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
      const triples = triplesIn(line);
      if (triples.length % 2 === 1) header.inString = triples[0]?.quote;
      const read = headerCode(beforeTriple(line), header.depth);
      header.depth = read.depth;
      if (!header.inString && read.depth <= 0 && read.code.endsWith(':')) header = undefined;
      continue;
    }
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const indent = line.length - line.trimStart().length;
    while (owners.length > 0 && (owners.at(-1)?.indent ?? 0) >= indent) owners.pop();
    const triples = triplesIn(line);
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
    const quote = triples[0]?.quote ?? '"""';
    let end = at;
    if (triples.length % 2 === 1) {
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

/** How often a text sets an attribute (`__doc__`), by name or by `setattr`: reading one is none. */
/** A line up to its first triple quote, found with fixed strings. */
const beforeTriple = (line: string): string => {
  const at = [line.indexOf('"""'), line.indexOf("'''")].filter((i) => i >= 0);
  return at.length > 0 ? line.slice(0, Math.min(...at)) : line;
};

const docWrites = (text: string): number =>
  text.match(/__doc__\s*(=(?!=)|:=)|\bsetattr\s*\(/g)?.length ?? 0;

/** How often a text binds `name` again at any depth (`name = …`, `del name`, `global name`). */
const rebinds = (text: string, name: string): number =>
  text.match(pattern('gm')`^\s*(?:(?:del|global)\s+${name}\b|${name}\s*(?:=(?!=)|:=|\+=))`)
    ?.length ?? 0;

/**
 * Whether a change rewrote (or removed) a doctest example the base held (see
 * `pythonDocExamples`): each docstring must still begin with the base's
 * examples, in their order (one added before would run first, and may rebind
 * what they call), and no name that holds them may be bound again.
 */
export const editsDoctests = (before: string, after: string): boolean => {
  // The strings of `__test__` are tests too: the base's mapping must be there as it was.
  const mapping = testMapping(before);
  if (mapping !== undefined && !after.includes(mapping)) return true;
  const base = pythonDocExamples(before);
  if ([...base.values()].every((examples) => examples.length === 0)) return false;
  if (docWrites(after) > docWrites(before)) return true;
  const now = pythonDocExamples(after);
  for (const [owner, examples] of base) {
    const kept = now.get(owner) ?? [];
    if (examples.some((example, at) => kept[at] !== example)) return true;
    const name = /(?<!\w)(\w+)$/.exec(owner.split(' > ').at(-1) ?? '')?.[1];
    if (name && owner !== '<module>' && rebinds(after, name) > rebinds(before, name)) return true;
  }
  return false;
};

/** A module's `__test__` mapping as written (doctest runs its strings), or undefined. */
const testMapping = (text: string): string | undefined => {
  const start = /^__test__\s*=/m.exec(text)?.index;
  if (start === undefined) return undefined;
  const open = text.indexOf('{', start);
  let depth = 0;
  for (let at = open; open >= 0 && at < text.length; at += 1) {
    if (text[at] === '{') depth += 1;
    else if (text[at] === '}' && (depth -= 1) === 0) return text.slice(start, at + 1);
  }
  return text.slice(start);
};

/** One changed expectation of an inline test: what it expected, and what it expects now. */
export interface ExpectationEdit {
  /** The test: a function's or docstring owner's name. */
  readonly test: string;
  readonly old: string;
  readonly new: string;
}

/** The expectations a change corrects in a file's inline tests, or why it is more than that. */
export type ExpectationChange =
  { readonly edits: readonly ExpectationEdit[] } | { readonly refused: string };

const isSource = (line: string): boolean => line.startsWith('>>>') || line.startsWith('...');

/**
 * A change to a file's doctests that only corrects what examples expect:
 * every base example still where doctest finds it, in its place, running the
 * same statements (its `>>>` and `...` lines, directives included), and
 * expecting some output still, without an ellipsis it did not have (under
 * ELLIPSIS `...` matches anything). Anything else — an example removed,
 * moved, rewritten, `__doc__` or `__test__` changed, its owner bound again —
 * is refused, as `editsDoctests` refuses it.
 */
export const doctestExpectations = (before: string, after: string): ExpectationChange => {
  const mapping = testMapping(before);
  if (mapping !== undefined && !after.includes(mapping))
    return { refused: 'changes the __test__ mapping' };
  if (docWrites(after) > docWrites(before)) return { refused: 'sets a __doc__' };
  const now = pythonDocExamples(after);
  const edits: ExpectationEdit[] = [];
  for (const [owner, examples] of pythonDocExamples(before)) {
    const kept = now.get(owner) ?? [];
    const name = /(?<!\w)\w+$/.exec(owner.split(' > ').at(-1) ?? '')?.[0] ?? owner;
    if (owner !== '<module>' && rebinds(after, name) > rebinds(before, name))
      return { refused: `binds ${name} again` };
    for (const [at, example] of examples.entries()) {
      const next = kept[at];
      if (next === example) continue;
      if (next === undefined) return { refused: `removes or moves an example of ${name}` };
      const [was, is] = [example, next].map((text) => text.split('\n'));
      const runs = (lines: string[] = []): string => lines.filter(isSource).join('\n');
      const expects = (lines: string[] = []): string =>
        lines.filter((line) => !isSource(line)).join('\n');
      if (runs(was) !== runs(is)) return { refused: `changes what an example of ${name} runs` };
      if (expects(is) === '' || (expects(is).includes('...') && !expects(was).includes('...')))
        return { refused: `makes an example of ${name} expect anything` };
      edits.push({ test: name, old: expects(was), new: expects(is) });
    }
  }
  return { edits };
};
