import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/util/ast-grammars.ts
import { createRequire } from "node:module";
import { registerDynamicLanguage } from "@ast-grep/napi";
var SHIPPED = {
  python: "@ast-grep/lang-python",
  go: "@ast-grep/lang-go",
  rust: "@ast-grep/lang-rust",
  java: "@ast-grep/lang-java",
  json: "@ast-grep/lang-json",
  yaml: "@ast-grep/lang-yaml"
};
var registered;
var registerGrammarsOnce = (registrations) => {
  if (registered) return registered;
  registerDynamicLanguage(registrations);
  registered = new Set(Object.keys(registrations));
  return registered;
};
var grammarReady = (language) => {
  if (!registered) {
    const require2 = createRequire(import.meta.url);
    const found = {};
    for (const [name, pkg] of Object.entries(SHIPPED))
      try {
        found[name] = require2(pkg);
      } catch {
      }
    try {
      registerGrammarsOnce(found);
    } catch {
      registered = /* @__PURE__ */ new Set();
    }
  }
  return registered?.has(language) ?? false;
};

export {
  registerGrammarsOnce,
  grammarReady
};
