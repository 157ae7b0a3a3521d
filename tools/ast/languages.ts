import { createRequire } from 'node:module';
import path from 'node:path';
import { Lang, registerDynamicLanguage } from '@ast-grep/napi';

/** A grammar regreen can search, with what the parse ladder wraps fragments in. */
export interface AstLanguage {
  /** The id the model uses (`typescript`, `python`, …). */
  readonly id: string;
  /** What @ast-grep/napi calls it: a built-in `Lang` or a registered dynamic name. */
  readonly napi: string;
  readonly extensions: readonly string[];
  /** The character that stands for `$` where `$` cannot start an identifier. */
  readonly expando: string;
  /** Scaffolding for fragments, `{}` marking the fragment, tried in this order. */
  readonly contexts: readonly { readonly name: string; readonly template: string }[];
}

const CLASS_BRACES = [
  { name: 'class member', template: 'class __C {\n{}\n}' },
  { name: 'statement', template: 'function __f() {\n{}\n}' },
  { name: 'expression', template: '__x = (\n{}\n);' },
  { name: 'object member', template: '__x = {\n{}\n};' },
];

const BUILT_IN: readonly AstLanguage[] = [
  {
    id: 'typescript',
    napi: Lang.TypeScript,
    extensions: ['ts', 'mts', 'cts'],
    expando: '$',
    contexts: CLASS_BRACES,
  },
  { id: 'tsx', napi: Lang.Tsx, extensions: ['tsx'], expando: '$', contexts: CLASS_BRACES },
  {
    id: 'javascript',
    napi: Lang.JavaScript,
    extensions: ['js', 'mjs', 'cjs', 'jsx'],
    expando: '$',
    contexts: CLASS_BRACES,
  },
  { id: 'html', napi: Lang.Html, extensions: ['html', 'htm'], expando: '$', contexts: [] },
  {
    id: 'css',
    napi: Lang.Css,
    extensions: ['css'],
    expando: '$',
    contexts: [{ name: 'declaration', template: '__x {\n{}\n}' }],
  },
];

/** The dynamic grammars: npm packages with prebuilt parsers (no install script needed). */
const DYNAMIC: readonly { id: string; pkg: string; contexts: AstLanguage['contexts'] }[] = [
  {
    id: 'python',
    pkg: '@ast-grep/lang-python',
    contexts: [
      { name: 'class member', template: 'class __C:\n    {}' },
      { name: 'statement', template: 'def __f():\n    {}' },
    ],
  },
  {
    id: 'go',
    pkg: '@ast-grep/lang-go',
    contexts: [
      { name: 'declaration', template: 'package __p\n{}' },
      { name: 'statement', template: 'package __p\nfunc __f() {\n{}\n}' },
      { name: 'struct member', template: 'package __p\ntype __T struct {\n{}\n}' },
    ],
  },
  {
    id: 'rust',
    pkg: '@ast-grep/lang-rust',
    contexts: [
      { name: 'statement', template: 'fn __f() {\n{}\n}' },
      { name: 'impl member', template: 'impl __T {\n{}\n}' },
      { name: 'struct member', template: 'struct __T {\n{}\n}' },
    ],
  },
  {
    id: 'java',
    pkg: '@ast-grep/lang-java',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'class __C { void __f() {\n{}\n} }' },
    ],
  },
  {
    id: 'c',
    pkg: '@ast-grep/lang-c',
    contexts: [
      { name: 'statement', template: 'void __f() {\n{}\n}' },
      { name: 'struct member', template: 'struct __T {\n{}\n};' },
    ],
  },
  {
    id: 'cpp',
    pkg: '@ast-grep/lang-cpp',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n};' },
      { name: 'statement', template: 'void __f() {\n{}\n}' },
    ],
  },
  {
    id: 'dart',
    pkg: '@ast-grep/lang-dart',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'void __f() {\n{}\n}' },
    ],
  },
  {
    id: 'kotlin',
    pkg: '@ast-grep/lang-kotlin',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'fun __f() {\n{}\n}' },
    ],
  },
  {
    id: 'ruby',
    pkg: '@ast-grep/lang-ruby',
    contexts: [
      { name: 'class member', template: 'class C__\n  {}\nend' },
      { name: 'statement', template: 'def __f\n  {}\nend' },
    ],
  },
  {
    id: 'bash',
    pkg: '@ast-grep/lang-bash',
    contexts: [{ name: 'statement', template: '__f() {\n{}\n}' }],
  },
  { id: 'yaml', pkg: '@ast-grep/lang-yaml', contexts: [] },
  { id: 'json', pkg: '@ast-grep/lang-json', contexts: [] },
];

interface DynamicPackage {
  readonly libraryPath: string;
  readonly extensions: string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
  readonly metaVarChar?: string;
}

let loaded: { languages: Map<string, AstLanguage>; missing: string[] } | undefined;

/**
 * The grammars available in this process. Dynamic languages can be
 * registered only once per process (a limit of the library), so this loads
 * them on first use and returns the same table afterwards.
 */
export const astLanguages = (): {
  languages: ReadonlyMap<string, AstLanguage>;
  missing: readonly string[];
} => {
  if (loaded) return loaded;
  const require = createRequire(import.meta.url);
  const languages = new Map(BUILT_IN.map((language) => [language.id, language]));
  const registrations: Record<string, DynamicPackage> = {};
  const missing: string[] = [];
  for (const entry of DYNAMIC) {
    try {
      const pkg = require(entry.pkg) as DynamicPackage;
      // Touch the library path now: a package without a prebuilt parser for this platform throws here.
      registrations[entry.id] = {
        ...pkg,
        libraryPath: pkg.libraryPath,
        extensions: pkg.extensions,
      };
      languages.set(entry.id, {
        id: entry.id,
        napi: entry.id,
        extensions: pkg.extensions,
        expando: pkg.expandoChar ?? '$',
        contexts: entry.contexts,
      });
    } catch {
      missing.push(entry.id);
    }
  }
  registerDynamicLanguage(registrations);
  loaded = { languages, missing };
  return loaded;
};

/** The language of a file, from its extension. */
export const languageOfFile = (file: string): AstLanguage | undefined => {
  const extension = path.extname(file).slice(1).toLowerCase();
  return [...astLanguages().languages.values()].find((language) =>
    language.extensions.includes(extension),
  );
};
