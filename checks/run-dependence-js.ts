/**
 * `no-run-dependence` for JavaScript and TypeScript (see `run-dependence.ts`):
 * what a change adds, on the syntax tree (ast-grep's built-in grammars), of
 * code that can behave by what runs it — the environment read by a computed
 * name or walked (`process.env[k]`, `Object.keys(process.env)`), a module
 * loaded by a computed name (`import(x)`, `require(x)`), the call stack read
 * (`new Error().stack`, `Error.captureStackTrace`, `prepareStackTrace`), a
 * module the file imports written to (`fs.readFileSync = …`,
 * `Object.assign(m, …)`), a global written (`globalThis.x = …`), and a
 * value that compares as anything (`valueOf`, `Symbol.toPrimitive`,
 * `asymmetricMatch` — which jest's and vitest's `toEqual` call —, `equals`,
 * `Symbol.hasInstance`).
 */
import { Lang, parse, type SgNode } from '@ast-grep/napi';

const LANGUAGES: readonly [RegExp, Lang][] = [
  [/\.(?:ts|mts|cts)$/, Lang.TypeScript],
  [/\.tsx$/, Lang.Tsx],
  [/\.(?:js|mjs|cjs|jsx)$/, Lang.JavaScript],
];

export const jsLanguage = (file: string): Lang | undefined =>
  LANGUAGES.find(([pattern]) => pattern.test(file))?.[1];

const COMPARES = new Set([
  'valueOf',
  'asymmetricMatch',
  'equals',
  'Symbol.toPrimitive',
  'Symbol.hasInstance',
]);
const GLOBALS = new Set(['globalThis', 'global', 'window', 'self']);

const isLiteral = (node: SgNode | null | undefined): boolean =>
  node?.kind() === 'string' ||
  (node?.kind() === 'template_string' &&
    node.find({ rule: { kind: 'template_substitution' } }) === null);

const firstArgument = (call: SgNode): SgNode | undefined =>
  call
    .field('arguments')
    ?.children()
    .find((child) => child.isNamed());

/** The names a file binds to modules: `import x from`, `import * as x`, `import { a as x }`, `const x = require(…)`. */
const moduleBindings = (root: SgNode): Set<string> => {
  const names = new Set<string>();
  for (const clause of root.findAll({
    rule: { kind: 'identifier', inside: { kind: 'import_clause', stopBy: 'end' } },
  }))
    names.add(clause.text());
  for (const declarator of root.findAll({
    rule: { kind: 'variable_declarator', has: { field: 'value', pattern: 'require($$$)' } },
  }))
    for (const name of declarator.field('name')?.findAll({ rule: { kind: 'identifier' } }) ?? [])
      names.add(name.text());
  for (const declarator of root.findAll({
    rule: { kind: 'variable_declarator', has: { field: 'name', kind: 'identifier' } },
  }))
    if (
      declarator.field('name')?.kind() === 'identifier' &&
      /^require\(/.test(declarator.field('value')?.text() ?? '')
    )
      names.add(declarator.field('name')?.text() ?? '');
  return names;
};

/** Each place a JS/TS text does one of the things above: its line (0-based) and why. */
export const jsFindings = (file: string, text: string): { line: number; why: string }[] => {
  const lang = jsLanguage(file);
  if (lang === undefined) return [];
  const root = parse(lang, text).root();
  const modules = moduleBindings(root);
  const found: { line: number; why: string }[] = [];
  const add = (node: SgNode, why: string): void => {
    found.push({ line: node.range().start.line, why });
  };
  for (const env of root.findAll({ rule: { pattern: 'process.env' } })) {
    const parent = env.parent();
    const named =
      (parent?.kind() === 'member_expression' && parent.field('object')?.id() === env.id()) ||
      (parent?.kind() === 'subscript_expression' && isLiteral(parent.field('index')));
    if (!named) add(env, 'reads the environment by a name it computes');
  }
  for (const call of root.findAll({ rule: { kind: 'call_expression' } })) {
    const callee = call.field('function');
    const name = callee?.text() ?? '';
    const first = firstArgument(call);
    if ((callee?.kind() === 'import' || name === 'require') && !isLiteral(first))
      add(call, 'loads a module by a name given at run time');
    if (/^Error\.captureStackTrace$/.test(name)) add(call, 'reads the call stack');
    if (
      /^(?:Object\.(?:assign|defineProperty|defineProperties|setPrototypeOf)|Reflect\.(?:set|defineProperty))$/.test(
        name,
      )
    ) {
      const target = first?.kind() === 'identifier' ? first.text() : '';
      if (modules.has(target) || GLOBALS.has(target))
        add(call, 'writes to another module or a global');
    }
  }
  for (const member of root.findAll({ rule: { kind: 'member_expression' } })) {
    const property = member.field('property')?.text() ?? '';
    const object = member.field('object');
    if (property === 'stack' && /^(?:new\s+)?Error\b/.test(object?.text() ?? ''))
      add(member, 'reads the call stack');
    if (
      (property === 'prepareStackTrace' || property === 'stackTraceLimit') &&
      object?.text() === 'Error'
    )
      add(member, 'reads the call stack');
  }
  for (const assignment of root.findAll({
    rule: { any: [{ kind: 'assignment_expression' }, { kind: 'augmented_assignment_expression' }] },
  })) {
    let target = assignment.field('left');
    while (target?.kind() === 'member_expression' || target?.kind() === 'subscript_expression')
      target = target.field('object');
    if (target !== assignment.field('left') && target?.kind() === 'identifier')
      if (modules.has(target.text()) || GLOBALS.has(target.text()))
        add(assignment, 'writes to another module or a global');
  }
  // Kinds differ by grammar (TypeScript's `public_field_definition`, JavaScript's `field_definition`).
  const KEYS = new Set([
    'method_definition',
    'pair',
    'public_field_definition',
    'field_definition',
  ]);
  for (const key of root.findAll({
    rule: { any: [{ kind: 'property_identifier' }, { kind: 'computed_property_name' }] },
  })) {
    const computed = key.kind() === 'computed_property_name';
    if (!computed && !KEYS.has(String(key.parent()?.kind() ?? ''))) continue;
    const name = computed ? key.text().slice(1, -1).trim() : key.text();
    if (COMPARES.has(name)) add(key, 'defines how its values compare');
  }
  return found;
};
