import path from 'node:path';
import { Lang } from '@ast-grep/napi';

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
  /** The npm package of a dynamic grammar (none for the ones built into @ast-grep/napi). */
  readonly pkg?: string;
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

/**
 * The dynamic grammars: npm packages with prebuilt parsers (no install script
 * needed). The common ones ship with regreen; regreen fetches the others the
 * first time they are needed (`grammars.ts`). Their extensions and the
 * character that stands for `$` are the packages' own, known before one loads.
 */
type Grammar = Omit<AstLanguage, 'napi'> & { readonly pkg: string };

const GRAMMARS: readonly Grammar[] = [
  {
    id: 'python',
    pkg: '@ast-grep/lang-python',
    extensions: ['py'],
    expando: 'µ',
    contexts: [
      { name: 'class member', template: 'class __C:\n    {}' },
      { name: 'statement', template: 'def __f():\n    {}' },
    ],
  },
  {
    id: 'go',
    pkg: '@ast-grep/lang-go',
    extensions: ['go'],
    expando: 'µ',
    contexts: [
      { name: 'declaration', template: 'package __p\n{}' },
      { name: 'statement', template: 'package __p\nfunc __f() {\n{}\n}' },
      { name: 'struct member', template: 'package __p\ntype __T struct {\n{}\n}' },
    ],
  },
  {
    id: 'rust',
    pkg: '@ast-grep/lang-rust',
    extensions: ['rs'],
    expando: 'µ',
    contexts: [
      { name: 'statement', template: 'fn __f() {\n{}\n}' },
      { name: 'impl member', template: 'impl __T {\n{}\n}' },
      { name: 'struct member', template: 'struct __T {\n{}\n}' },
    ],
  },
  {
    id: 'java',
    pkg: '@ast-grep/lang-java',
    extensions: ['java'],
    expando: '$',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'class __C { void __f() {\n{}\n} }' },
    ],
  },
  {
    id: 'c',
    pkg: '@ast-grep/lang-c',
    extensions: ['c', 'h'],
    expando: '_',
    contexts: [
      { name: 'statement', template: 'void __f() {\n{}\n}' },
      { name: 'struct member', template: 'struct __T {\n{}\n};' },
    ],
  },
  {
    id: 'cpp',
    pkg: '@ast-grep/lang-cpp',
    extensions: ['cc', 'hpp', 'cpp', 'hh', 'cxx', 'cu', 'ino'],
    expando: '_',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n};' },
      { name: 'statement', template: 'void __f() {\n{}\n}' },
    ],
  },
  {
    id: 'dart',
    pkg: '@ast-grep/lang-dart',
    extensions: ['dart'],
    expando: '$',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'void __f() {\n{}\n}' },
    ],
  },
  {
    id: 'kotlin',
    pkg: '@ast-grep/lang-kotlin',
    extensions: ['kt', 'ktm', 'kts'],
    expando: 'µ',
    contexts: [
      { name: 'class member', template: 'class __C {\n{}\n}' },
      { name: 'statement', template: 'fun __f() {\n{}\n}' },
    ],
  },
  {
    id: 'ruby',
    pkg: '@ast-grep/lang-ruby',
    extensions: ['rb', 'rbw', 'gemspec'],
    expando: 'µ',
    contexts: [
      { name: 'class member', template: 'class C__\n  {}\nend' },
      { name: 'statement', template: 'def __f\n  {}\nend' },
    ],
  },
  {
    id: 'bash',
    pkg: '@ast-grep/lang-bash',
    extensions: [
      'bash',
      'bats',
      'cgi',
      'command',
      'env',
      'fcgi',
      'ksh',
      'sh',
      'tmux',
      'tool',
      'zsh',
    ],
    expando: '$',
    contexts: [{ name: 'statement', template: '__f() {\n{}\n}' }],
  },
  {
    id: 'yaml',
    pkg: '@ast-grep/lang-yaml',
    extensions: ['yaml', 'yml'],
    expando: '$',
    contexts: [],
  },
  {
    id: 'json',
    pkg: '@ast-grep/lang-json',
    extensions: ['json'],
    expando: '$',
    contexts: [],
  },
];

export const DYNAMIC: readonly (Grammar & AstLanguage)[] = GRAMMARS.map((grammar) => ({
  ...grammar,
  napi: grammar.id,
}));

const LANGUAGES: ReadonlyMap<string, AstLanguage> = new Map(
  [...BUILT_IN, ...DYNAMIC].map((language) => [language.id, language]),
);

/** Every language regreen can search: the built-in ones, and the dynamic ones once their grammar loads. */
export const astLanguages = (): { languages: ReadonlyMap<string, AstLanguage> } => ({
  languages: LANGUAGES,
});

/** The language of a file, from its extension. */
export const languageOfFile = (file: string): AstLanguage | undefined => {
  const extension = path.extname(file).slice(1).toLowerCase();
  return [...LANGUAGES.values()].find((language) => language.extensions.includes(extension));
};
