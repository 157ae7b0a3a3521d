import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/util/which.ts
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
var whichIn = (pathVariable) => (name) => {
  for (const dir of (pathVariable ?? "").split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    } catch {
    }
  }
  return void 0;
};
var namesOnPath = (pathVariable, matches) => (pathVariable ?? "").split(path.delimiter).filter(Boolean).flatMap((dir) => {
  try {
    return [{ dir, names: readdirSync(dir).filter(matches) }];
  } catch {
    return [];
  }
});

export {
  whichIn,
  namesOnPath
};
