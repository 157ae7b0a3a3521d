import { createRequire } from 'node:module';
import { registerDynamicLanguage } from '@ast-grep/napi';

/** What a grammar package of @ast-grep exports: what `registerDynamicLanguage` takes. */
export interface DynamicPackage {
  readonly libraryPath: string;
  readonly extensions: string[];
  readonly languageSymbol?: string;
  readonly expandoChar?: string;
  readonly metaVarChar?: string;
}

/** The grammars regreen ships (its dependencies): a check can read their languages with no fetch. */
const SHIPPED: Record<string, string> = {
  python: '@ast-grep/lang-python',
  go: '@ast-grep/lang-go',
  rust: '@ast-grep/lang-rust',
  java: '@ast-grep/lang-java',
  json: '@ast-grep/lang-json',
  yaml: '@ast-grep/lang-yaml',
};

let registered: ReadonlySet<string> | undefined;

/**
 * @ast-grep/napi registers dynamic languages once per process (a later call
 * is ignored): the first registration, whoever makes it, is the process's.
 * The agent's search (`tools/ast/grammars.ts`) brings the grammars it fetched
 * too; the checks bring the shipped ones. Returns the names registered.
 */
export const registerGrammarsOnce = (
  registrations: Record<string, DynamicPackage>,
): ReadonlySet<string> => {
  if (registered) return registered;
  registerDynamicLanguage(registrations);
  registered = new Set(Object.keys(registrations));
  return registered;
};

/** The shipped grammars, registered if nothing was yet; whether `language` can be parsed now. */
export const grammarReady = (language: string): boolean => {
  if (!registered) {
    const require = createRequire(import.meta.url);
    const found: Record<string, DynamicPackage> = {};
    for (const [name, pkg] of Object.entries(SHIPPED))
      try {
        found[name] = require(pkg) as DynamicPackage;
      } catch {
        // not installed here: a check that needs it fails closed
      }
    try {
      registerGrammarsOnce(found);
    } catch {
      registered = new Set();
    }
  }
  return registered?.has(language) ?? false;
};
