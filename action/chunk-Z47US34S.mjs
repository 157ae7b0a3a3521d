import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  decodeUtf8,
  looksBinary,
  relativeToWorkspace,
  resolveInsideWorkspace,
  statInside
} from "./chunk-EABGHHZK.mjs";
import {
  readFileInside,
  removeFileInside,
  writeFileInside
} from "./chunk-KWM7AYEU.mjs";

// tools/types.ts
var ok = (text) => ({
  content: [{ type: "text", text }],
  isError: false
});
var fail = (text) => ({
  content: [{ type: "text", text }],
  isError: true
});
var resultText = (result) => result.content.map((block) => block.type === "text" ? block.text : "[image]").join("\n");
var defineTool = (tool) => tool;

// tools/files/file-io.ts
import path from "node:path";
var MAX_WHOLE_FILE_BYTES = 8 * 1024 * 1024;
var checkPath = (workspace, candidate) => {
  const resolved = resolveInsideWorkspace(workspace, candidate);
  if (!resolved.ok) return { ok: false, error: resolved.error };
  const relative = relativeToWorkspace(workspace, resolved.path);
  if (relative.split(path.sep).some((segment) => segment.toLowerCase() === ".git")) {
    return {
      ok: false,
      error: `${candidate} is inside a .git folder: regreen manages the repository's history itself, and no nested repository may be made`
    };
  }
  return { ok: true, value: resolved.path };
};
var readTextForEdit = (workspace, file) => Promise.resolve(readTextForEditSync(workspace, file));
var readTextForEditSync = (workspace, file) => {
  let bytes;
  try {
    const info = statInside(workspace, file);
    if (!info)
      return {
        ok: false,
        error: `file not found: ${file}. Use list or search to find the right path`
      };
    if (info.isDirectory()) return { ok: false, error: `${file} is a directory` };
    if (info.size > MAX_WHOLE_FILE_BYTES) {
      return {
        ok: false,
        error: `${file} is ${info.size} bytes, too large to edit whole: use apply_patch`
      };
    }
    bytes = readFileInside(workspace, file);
  } catch (error) {
    return { ok: false, error: error.message };
  }
  if (looksBinary(bytes))
    return {
      ok: false,
      error: `${file} is a binary file (${bytes.length} bytes): it cannot be edited as text`
    };
  const text = decodeUtf8(bytes);
  if (text === void 0)
    return { ok: false, error: `${file} is not valid UTF-8 text: it cannot be edited safely` };
  return { ok: true, value: text };
};
var atomicWrite = (workspace, file, content) => {
  try {
    writeFileInside(workspace, file, content);
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
};
var writeAllOrNothing = async (workspace, changes, afterEach = () => Promise.resolve()) => {
  const written = [];
  for (const change of changes) {
    try {
      await atomicWrite(workspace, change.path, change.after);
      written.push(change);
      await afterEach(change.path);
    } catch (error) {
      const restored = [];
      for (const done of written.reverse()) {
        const undo = done.created ? Promise.resolve().then(() => removeFileInside(workspace, done.path)) : atomicWrite(workspace, done.path, done.before);
        await undo.then(
          () => restored.push(done.path),
          () => void 0
        );
      }
      return {
        ok: false,
        failed: change.path,
        code: error.code ?? "error",
        restored
      };
    }
  }
  return { ok: true };
};

export {
  ok,
  fail,
  resultText,
  defineTool,
  MAX_WHOLE_FILE_BYTES,
  checkPath,
  readTextForEdit,
  atomicWrite,
  writeAllOrNothing
};
