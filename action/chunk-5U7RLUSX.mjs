import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  segmentsInside,
  statInside,
  withParent
} from "./chunk-DME75M6N.mjs";

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

// src/workspace/repo/confined-stat.ts
import { lstatSync, realpathSync } from "node:fs";
var lstatInside = (workspace, file) => {
  const segments = segmentsInside(workspace, file);
  try {
    if (segments.length === 0) return lstatSync(realpathSync(workspace), { bigint: true });
    return withParent(
      workspace,
      file,
      false,
      (dir, name) => lstatSync(`/proc/self/fd/${dir}/${name}`, { bigint: true })
    );
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw error;
  }
};
var existsInside = (workspace, file) => {
  try {
    return statInside(workspace, file) !== void 0;
  } catch {
    return false;
  }
};

export {
  whichIn,
  namesOnPath,
  lstatInside,
  existsInside
};
