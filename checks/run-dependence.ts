/**
 * Product code that can behave by who calls it or what runs it, read on
 * Python's syntax tree with every name resolved through the file's imports
 * and assignments (`from sys import _getframe as gf`, `e = os.environ`):
 *
 * - a module imported by a name given at run time (`__import__`,
 *   `importlib`, `runpy`…), however it is spelled;
 * - another frame looked at (`sys._getframe`, `inspect.stack`,
 *   `traceback.extract_stack`, any `f_back`, `tb_frame`, `co_filename`);
 * - the environment read by a name the code computes (`os.environ[x]`,
 *   `getenv(''.join(map(chr, …)))`, the environment walked or copied);
 * - an attribute written on another module (`helpers.x = …`,
 *   `setattr(mod, …)`, `setattr(obj, name_computed, …)`, `globals()[…] =`);
 * - a comparison dunder defined (`__eq__`, `__ne__`, `__hash__`, the
 *   orderings, `__bool__`, the instance checks): a value that compares equal
 *   to anything passes every `assert x == expected`.
 *
 * Each is ordinary in some product code, and each is how code tells the
 * judged run from a person's call. So none is refused and none is proposed
 * automatically: what the change adds of them (beyond what the file held at
 * the base) fails closed as a draft a person must confirm. A file whose
 * grammar cannot be loaded fails the same way.
 */
import type { SgNode } from '@ast-grep/napi';
import { parse } from '@ast-grep/napi';
import { grammarReady } from '../src/util/ast-grammars.ts';
import { jsFindings, jsLanguage } from './run-dependence-js.ts';
import { PY } from './runner-tampering-rules.ts';
import type { Check } from './types.ts';

const DYNAMIC_IMPORT =
  /^(?:__import__|builtins\.__import__|importlib|imp|runpy|pkgutil|zipimport)(?:\.|$)/;
const FRAMES =
  /^(?:sys\._getframe|sys\._current_frames|sys\._getframemodulename|inspect\.(?:currentframe|stack|trace|getouterframes|getinnerframes|getframeinfo)|traceback\.(?:extract_stack|walk_stack|format_stack|print_stack|StackSummary)|logging\.currentframe)$/;
const FRAME_ATTRIBUTES = new Set([
  'f_back',
  'f_globals',
  'f_locals',
  'f_code',
  'f_builtins',
  'tb_frame',
  'gi_frame',
  'cr_frame',
  'ag_frame',
  'co_filename',
]);
const ENVIRON = /^(?:os|posix|nt)\.environb?$/;
const ENV_CALLS =
  /^(?:os\.(?:getenv|getenvb)|(?:os|posix|nt)\.environb?\.(?:get|pop|setdefault|__getitem__|__contains__))$/;
const DUNDERS = new Set(
  '__eq__ __ne__ __lt__ __le__ __gt__ __ge__ __hash__ __bool__ __instancecheck__ __subclasscheck__ __subclasshook__'.split(
    ' ',
  ),
);
const WRITES_BY_NAME = /^(?:setattr|delattr|builtins\.setattr|builtins\.delattr)$/;
const NAMESPACES = /^(?:globals|vars|locals|builtins\.(?:globals|vars))$/;

const IMPORTS = new Set(['import_statement', 'import_from_statement', 'future_import_statement']);

/** Built-ins that run code a program builds as text: any of the above may hide in it. */
const RUNS_TEXT = /^(?:eval|exec|builtins\.(?:eval|exec))$/;
const READS_BY_NAME = /^(?:getattr|hasattr|builtins\.(?:getattr|hasattr))$/;

type Rule =
  | 'dynamic import'
  | 'frame'
  | 'computed env'
  | 'module write'
  | 'comparison dunder'
  | 'computed name';

const WHY: Record<Rule, string> = {
  'dynamic import': 'imports a module by a name given at run time',
  frame: "looks at its caller's frame",
  'computed env': 'reads the environment by a name it computes',
  'module write': 'writes an attribute of another module (or one it names at run time)',
  'comparison dunder': 'defines how its values compare',
  'computed name': 'reaches a module by a name it computes, or runs code it builds as text',
};

/** A string written whole (no f-string's interpolation): its name is the code's, not computed. */
const isLiteral = (node: SgNode | null | undefined): boolean =>
  node !== null &&
  node !== undefined &&
  (node.kind() === 'string' || node.kind() === 'concatenated_string') &&
  node.find({ rule: { kind: 'interpolation' } }) === null;

const args = (call: SgNode): SgNode[] =>
  (call.field('arguments')?.children() ?? []).filter(
    (child) => child.isNamed() && child.kind() !== 'comment',
  );

/** The names a file binds to modules and their members: its imports, and assignments of a resolved name. */
const bindings = (root: SgNode): { aliases: Map<string, string>; modules: Set<string> } => {
  const aliases = new Map<string, string>();
  const modules = new Set<string>();
  for (const statement of root.findAll({ rule: { kind: 'import_statement' } }))
    for (const item of statement.children().filter((c) => c.isNamed())) {
      const dotted = item.kind() === 'aliased_import' ? item.children()[0] : item;
      const name = dotted?.text() ?? '';
      const local =
        item.kind() === 'aliased_import'
          ? (item.children().at(-1)?.text() ?? '')
          : name.split('.')[0];
      if (!local) continue;
      aliases.set(local, item.kind() === 'aliased_import' ? name : local);
      modules.add(local);
    }
  for (const statement of root.findAll({ rule: { kind: 'import_from_statement' } })) {
    const named = statement.children().filter((c) => c.isNamed());
    const from = named[0]?.text() ?? '';
    for (const item of named.slice(1)) {
      const dotted = item.kind() === 'aliased_import' ? item.children()[0] : item;
      const name = dotted?.text() ?? '';
      if (!name || item.kind() === 'wildcard_import') continue;
      const local =
        item.kind() === 'aliased_import' ? (item.children().at(-1)?.text() ?? '') : name;
      aliases.set(local, `${from}.${name}`);
      // A name imported from a package may be a module of it: written to, it is another module's.
      modules.add(local);
    }
  }
  // `e = os.environ`, `g = sys._getframe`: twice, so a chain of two resolves whatever its order.
  for (let pass = 0; pass < 2; pass += 1)
    for (const assignment of root.findAll({ rule: { kind: 'assignment' } })) {
      const left = assignment.field('left');
      const right = assignment.field('right');
      if (left?.kind() !== 'identifier' || !right) continue;
      const resolved = resolve(right, aliases);
      if (resolved && resolved !== left.text()) aliases.set(left.text(), resolved);
    }
  return { aliases, modules };
};

/** What a name or attribute chain stands for, through the file's bindings; undefined when not a chain. */
const resolve = (node: SgNode, aliases: ReadonlyMap<string, string>): string | undefined => {
  if (node.kind() === 'identifier') return aliases.get(node.text()) ?? node.text();
  if (node.kind() === 'attribute') {
    const object = node.field('object');
    const attribute = node.field('attribute')?.text();
    const base = object ? resolve(object, aliases) : undefined;
    return base && attribute ? `${base}.${attribute}` : undefined;
  }
  if (node.kind() === 'call') {
    // `getattr(os, "environ")` is `os.environ`; `__import__("os")` is `os`.
    const callee = node.field('function');
    const name = callee ? resolve(callee, aliases) : undefined;
    const [first, second] = args(node);
    if (name === 'getattr' && first && isLiteral(second))
      return `${resolve(first, aliases) ?? '?'}.${second?.text().slice(1, -1) ?? ''}`;
  }
  return undefined;
};

/** Each place a Python text does one of the things above: its line (0-based) and why. */
const findings = (text: string): Finding[] => {
  const root = parse('python', text).root();
  const { aliases, modules } = bindings(root);
  const found: Finding[] = [];
  const add = (rule: Rule, node: SgNode): void => {
    found.push({ line: node.range().start.line, why: WHY[rule] });
  };
  for (const node of root.findAll({
    rule: { any: [{ kind: 'identifier' }, { kind: 'attribute' }] },
  })) {
    const parent = node.parent();
    // A part of a longer chain is judged as the chain.
    if (parent?.kind() === 'attribute' && parent.field('object')?.id() === node.id()) continue;
    if (node.kind() === 'identifier' && parent?.kind() === 'attribute') continue;
    if (node.ancestors().some((above) => IMPORTS.has(String(above.kind())))) continue;
    const name = resolve(node, aliases);
    if (node.kind() === 'attribute' && FRAME_ATTRIBUTES.has(node.field('attribute')?.text() ?? ''))
      add('frame', node);
    if (!name) continue;
    if (DYNAMIC_IMPORT.test(name)) add('dynamic import', node);
    if (FRAMES.test(name)) add('frame', node);
    if (ENVIRON.test(name)) {
      // Read by a name written whole: `os.environ["HOME"]`, `os.environ.get("HOME")`, `"HOME" in os.environ`.
      const subscript = parent?.kind() === 'subscript' && parent.field('value')?.id() === node.id();
      const index = subscript ? parent?.field('subscript') : undefined;
      const method = parent?.kind() === 'attribute' ? parent.parent() : undefined;
      const called = method?.kind() === 'call' ? args(method)[0] : undefined;
      const compared = parent?.kind() === 'comparison_operator' && isLiteral(parent.children()[0]);
      if (!(isLiteral(index) || isLiteral(called) || compared)) add('computed env', node);
    }
  }
  for (const call of root.findAll({ rule: { kind: 'call' } })) {
    const callee = call.field('function');
    const name = callee ? resolve(callee, aliases) : undefined;
    if (!name) continue;
    const [first, second] = args(call);
    if (ENV_CALLS.test(name) && !isLiteral(first)) add('computed env', call);
    if (RUNS_TEXT.test(name)) add('computed name', call);
    if (READS_BY_NAME.test(name) && !isLiteral(second)) {
      const target = first?.kind() === 'identifier' ? first.text() : '';
      if (modules.has(target)) add('computed name', call);
    }
    if (NAMESPACES.test(name) && first?.kind() === 'identifier' && modules.has(first.text()))
      add('computed name', call);
    if (WRITES_BY_NAME.test(name)) {
      const target = first?.kind() === 'identifier' ? first.text() : '';
      if (modules.has(target) || !isLiteral(second)) add('module write', call);
      if (isLiteral(second) && DUNDERS.has(second?.text().slice(1, -1) ?? ''))
        add('comparison dunder', call);
    }
  }
  for (const target of root.findAll({
    rule: {
      any: [
        { kind: 'attribute', inside: { kind: 'assignment', field: 'left' } },
        { kind: 'attribute', inside: { kind: 'augmented_assignment', field: 'left' } },
        { kind: 'attribute', inside: { kind: 'delete_statement' } },
        { kind: 'subscript', inside: { kind: 'assignment', field: 'left' } },
      ],
    },
  })) {
    if (target.kind() === 'subscript') {
      const value = target.field('value');
      const name =
        value?.kind() === 'call' ? resolve(value.field('function') ?? value, aliases) : undefined;
      if ((name && NAMESPACES.test(name)) || value?.field('attribute')?.text() === '__dict__')
        add('module write', target);
      continue;
    }
    let root = target.field('object');
    while (root?.kind() === 'attribute') root = root.field('object');
    if (root?.kind() === 'identifier' && modules.has(root.text())) add('module write', target);
  }
  for (const node of root.findAll({
    rule: {
      any: [
        { kind: 'identifier', inside: { kind: 'function_definition', field: 'name' } },
        { kind: 'identifier', inside: { kind: 'assignment', field: 'left' } },
        { kind: 'string_content' },
      ],
    },
  }))
    if (DUNDERS.has(node.text())) add('comparison dunder', node);
  return found;
};

interface Finding {
  readonly line: number;
  readonly why: string;
}

/**
 * Findings keyed by why and the line's code (whitespace folded), once per
 * line and why, counted: a line written once more than the base had is new.
 */
const keyed = (text: string, list: readonly Finding[]): Map<string, Finding> => {
  const lines = text.split('\n');
  const out = new Map<string, Finding>();
  const seen = new Set<string>();
  for (const finding of list) {
    const code = (lines[finding.line] ?? '').trim().replace(/\s+/g, ' ').slice(0, 160);
    const key = `${finding.why}\u0000${code}`;
    if (seen.has(`${key}\u0000${finding.line}`)) continue;
    seen.add(`${key}\u0000${finding.line}`);
    let n = 1;
    while (out.has(`${key}\u0000${n}`)) n += 1;
    out.set(`${key}\u0000${n}`, finding);
  }
  return out;
};

/** What a change adds of them to a Python file: each one's line (1-based) and why. */
export const runDependence = (
  before: string | undefined,
  after: string,
  file = 'a.py',
): { line: number; code: string; why: string }[] => {
  const read = (text: string): Finding[] => {
    if (!PY.test(file)) return jsFindings(file, text);
    if (!grammarReady('python')) throw new Error('no Python grammar here');
    return findings(text);
  };
  const base = new Set(before === undefined ? [] : keyed(before, read(before)).keys());
  const lines = after.split('\n');
  return [...keyed(after, read(after))]
    .filter(([key]) => !base.has(key))
    .map(([, { line, why }]) => ({
      line: line + 1,
      code: (lines[line] ?? '').trim().slice(0, 120),
      why,
    }));
};

export const noRunDependence: Check = (ctx) => {
  const name = 'no-run-dependence';
  const source = new Set(ctx.split.paths.source);
  const seen: string[] = [];
  for (const file of ctx.diff.files) {
    const python = PY.test(file.path);
    if (!source.has(file.path) || file.status === 'deleted') continue;
    if (!python && jsLanguage(file.path) === undefined) continue;
    const after = ctx.newContent(file.path);
    if (after === undefined) continue;
    if (python && !grammarReady('python')) {
      seen.push(`${file.path}: its syntax tree could not be read (no Python grammar here)`);
      continue;
    }
    try {
      for (const found of runDependence(
        ctx.baseContent(file.oldPath ?? file.path),
        after,
        file.path,
      ))
        seen.push(`${file.path}:${found.line} ${found.why}: \`${found.code}\``);
    } catch {
      // Fails closed: what cannot be read is a person's to read.
      seen.push(`${file.path}: its syntax tree could not be read`);
    }
  }
  if (seen.length === 0)
    return {
      name,
      ok: true,
      detail:
        'no product line acts by who calls it or what runs it (Python, JavaScript and TypeScript, on their syntax trees)',
    };
  return {
    name,
    ok: false,
    detail: `product code that may behave otherwise under the tests than when a person calls it: ${seen.slice(0, 6).join('; ')}; a person must confirm it`,
    needsPerson: seen.slice(0, 40),
  };
};
