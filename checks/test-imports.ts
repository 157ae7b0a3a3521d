import { JS, PY } from './runner-tampering-rules.ts';
import { baseCode } from './test-files.ts';
import type { CheckContext } from './types.ts';

/**
 * Modules that belong to the test run: a runner, an assertion, mocking or
 * testing library. Product code never needs one, and one loaded into it
 * shares the test process's instance (`expect.extend`, `chai.use`,
 * `unittest.TestCase`): a product that loads one can decide what the
 * base's tests assert. A module the base's product already imports is not
 * refused (a vitest plugin's product imports vitest).
 */
const JS_TEST_MODULES =
  /^(node:test|node:assert|test|assert|vitest|@vitest\/.+|jest|jest-.+|@jest\/.+|expect|expect-type|chai|chai-.+|mocha|ava|tap|@tapjs\/.+|uvu|should|should-.+|sinon|sinon-.+|jasmine|jasmine-.+|karma|qunit|tape|power-assert|testdouble|@testing-library\/.+|@playwright\/test|bun:test|@std\/(assert|testing)|node:test\/.+)$/;
const PY_TEST_MODULES = /^(pytest|_pytest|py|unittest|doctest|nose|nose2|pytest_\w+|xdist)$/;

/** The package a JS specifier names (`@jest/globals/x` → `@jest/globals`, `node:assert/strict` → `node:assert`). */
const jsPackage = (specifier: string): string | undefined => {
  if (/^[./]/.test(specifier) || /^[a-z]+:\/\//.test(specifier)) return undefined;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? '');
  return /^(assert|test)$/.test(name) || name.startsWith('node:')
    ? `node:${name.replace(/^node:/, '')}`
    : name;
};

const JS_IMPORT =
  /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+|\brequire\s*\(\s*|\brequire\.resolve\s*\(\s*|\bgetBuiltinModule\s*\(\s*)(['"`])([^'"`\n]{1,200})\1/g;
const PY_IMPORT =
  /^[^\S\n\r\u2028\u2029]*(?:from\s+([\w.]+)\s+import\b|import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*))|\b(?:__import__|import_module)\s*\(\s*['"]([\w.]+)['"]/gm;

/** The modules a line or a text imports, by the package (JS) or top-level module (Python) it names. */
export const importsOf = (file: string, text: string): string[] => {
  const found: string[] = [];
  if (JS.test(file)) {
    for (const line of text.split('\n')) {
      // A type-only import is erased: it loads nothing.
      if (/^\s*(import|export)\s+type\b/.test(line)) continue;
      for (const match of line.matchAll(JS_IMPORT)) {
        const name = jsPackage(match[2] ?? '');
        if (name) found.push(name);
      }
    }
  } else if (PY.test(file)) {
    for (const match of text.matchAll(PY_IMPORT)) {
      const names = match[1] ?? match[3] ?? (match[2] ?? '').split(',').map((item) => item.trim());
      for (const name of [names].flat()) {
        const top = name.split(/[.\s]/)[0] ?? '';
        if (top !== '') found.push(top);
      }
    }
  }
  return [...new Set(found)];
};

/** Packages a base package.json declares only for development (not a dependency of the product). */
const devOnly = (ctx: CheckContext, files: readonly string[]): Set<string> => {
  const dev = new Set<string>();
  const shipped = new Set<string>();
  for (const file of files.filter((f) => /(^|\/)package\.json$/.test(f))) {
    try {
      const manifest = JSON.parse(ctx.baseContent(file) ?? '{}') as Record<string, unknown>;
      const keys = (field: string): string[] => Object.keys(manifest[field] ?? {});
      for (const name of keys('devDependencies')) dev.add(name);
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies'])
        for (const name of keys(field)) shipped.add(name);
    } catch {
      // An unreadable manifest declares nothing.
    }
  }
  return new Set([...dev].filter((name) => !shipped.has(name)));
};

/** Who imports what at the base: its product files and its test files. */
const baseImporters = (ctx: CheckContext) => {
  const product = new Set<string>();
  const tests = new Set<string>();
  for (const { file, text, test } of baseCode(
    ctx.baseFiles,
    ctx.baseContent,
    /\.(js|jsx|ts|tsx|mjs|cjs|mts|cts|vue|svelte|pyi?)$/,
  ))
    for (const name of importsOf(file, text)) (test ? tests : product).add(name);
  return { product, tests };
};

/**
 * Product files that newly load a module only the base's tests load: a
 * runner's, assertion or mocking library by name, or a development-only
 * package the base's tests import. Each refusal quotes the line.
 */
export const testModuleImports = (ctx: CheckContext): string[] => {
  const source = new Set(ctx.split.paths.source);
  const fresh = ctx.diff.files.flatMap((file) => {
    if (!source.has(file.path) || file.status === 'deleted') return [];
    const after = ctx.newContent(file.path) ?? file.added.join('\n');
    const before = new Set(importsOf(file.path, ctx.baseContent(file.oldPath ?? file.path) ?? ''));
    return importsOf(file.path, after)
      .filter((name) => !before.has(name))
      .map((name) => ({ file, name }));
  });
  if (fresh.length === 0) return [];
  const files = ctx.baseFiles ?? [];
  const dev = fresh.some(({ file }) => JS.test(file.path)) ? devOnly(ctx, files) : new Set();
  const candidates = fresh.filter(({ file, name }) =>
    JS.test(file.path) ? JS_TEST_MODULES.test(name) || dev.has(name) : PY_TEST_MODULES.test(name),
  );
  if (candidates.length === 0) return [];
  const importers = baseImporters(ctx);
  return candidates
    .filter(({ file, name }) => {
      if (importers.product.has(name)) return false;
      const known = JS.test(file.path) ? JS_TEST_MODULES : PY_TEST_MODULES;
      return known.test(name) || importers.tests.has(name);
    })
    .map(({ file, name }) => {
      const line =
        file.added.find((entry) => importsOf(file.path, entry).includes(name)) ?? `(${name})`;
      return `${file.path} loads ${name}, a module only the tests load (a runner's, an assertion or mocking library), into product code: ${JSON.stringify(line.trim().slice(0, 120))}`;
    });
};
