import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/workspace/repo/confined-fs.ts
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  futimesSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  realpathSync,
  renameSync,
  unlinkSync,
  writeSync
} from "node:fs";
import { randomBytes } from "node:crypto";
import path from "node:path";
var { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW, O_DIRECTORY, O_NONBLOCK } = constants;
var at = (dirFd, name) => `/proc/self/fd/${dirFd}/${name}`;
var ConfinedPathError = class extends Error {
  constructor(message, code) {
    super(message);
    this.code = code;
  }
  code;
  name = "ConfinedPathError";
};
var fail = (message, code) => {
  throw new ConfinedPathError(message, code);
};
var segmentsInside = (workspace, file, root = realpathSync(workspace)) => {
  const absolute = path.resolve(file);
  const relative = path.relative(root, absolute);
  const lexical = path.relative(path.resolve(workspace), absolute);
  const inside = (rel) => !rel.startsWith("..") && !path.isAbsolute(rel);
  const chosen = inside(relative) ? relative : inside(lexical) ? lexical : void 0;
  if (chosen === void 0) return fail(`${file} is outside the workspace ${workspace}`, "EXDEV");
  const segments = chosen.split(path.sep).filter((segment) => segment !== "" && segment !== ".");
  if (segments.some((segment) => segment === ".."))
    return fail(`${file} leaves the workspace`, "EXDEV");
  if (segments.some((segment) => segment.toLowerCase() === ".git"))
    return fail(`${file} is inside a .git folder`, "EACCES");
  return segments;
};
var checkOpened = (fd, root, what) => {
  const real = readlinkSync(`/proc/self/fd/${fd}`);
  const relative = path.relative(root, real);
  if (relative.startsWith("..") || path.isAbsolute(relative))
    fail(`${what} opened ${real}, outside the workspace: refused`, "EXDEV");
};
var openParent = (workspace, segments, create) => {
  const root = realpathSync(workspace);
  let dir = openSync(root, O_RDONLY | O_DIRECTORY);
  try {
    for (const segment of segments.slice(0, -1)) {
      let next;
      try {
        next = openSync(at(dir, segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        const code = error.code ?? "EIO";
        if (code === "ENOENT" && create) {
          mkdirSync(at(dir, segment));
          next = openSync(at(dir, segment), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        } else if (code === "ELOOP" || code === "ENOTDIR") {
          return fail(`${segment} on the way to the file is a symlink or not a folder`, "ELOOP");
        } else {
          throw error;
        }
      }
      closeSync(dir);
      dir = next;
    }
    checkOpened(dir, root, "the folder");
    return dir;
  } catch (error) {
    closeSync(dir);
    throw error;
  }
};
var withParent = (workspace, file, create, body) => {
  const segments = segmentsInside(workspace, file);
  const name = segments.at(-1);
  if (name === void 0) return fail(`${file} is the workspace itself, not a file`, "EISDIR");
  const dir = openParent(workspace, segments, create);
  try {
    return body(dir, name);
  } finally {
    closeSync(dir);
  }
};
var openFileInside = (workspace, file) => withParent(workspace, file, false, (dir, name) => {
  let fd;
  try {
    fd = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    if (error.code === "ELOOP")
      return fail(`${file} is a symlink: refused`, "ELOOP");
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) fail(`${file} is a directory`, "EISDIR");
    if (!stats.isFile()) fail(`${file} is not a regular file`, "EINVAL");
    checkOpened(fd, realpathSync(workspace), file);
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
});
var readAll = (fd, size, maxBytes = Number.POSITIVE_INFINITY) => {
  const chunks = [];
  let total = 0;
  const chunk = Buffer.allocUnsafe(Math.min(Math.max(size, 1), 1 << 20) + 1);
  for (; ; ) {
    const read = readSync(fd, chunk, 0, chunk.length, null);
    if (read === 0 || total > maxBytes) break;
    chunks.push(Buffer.from(chunk.subarray(0, read)));
    total += read;
  }
  return Buffer.concat(chunks, total);
};
var readFileInside = (workspace, file) => {
  const { fd, stats } = openFileInside(workspace, file);
  try {
    return readAll(fd, stats.size);
  } finally {
    closeSync(fd);
  }
};
var readFileInsideUpTo = (workspace, file, maxBytes) => {
  const { fd, stats } = openFileInside(workspace, file);
  try {
    if (stats.size > maxBytes) return void 0;
    const bytes = readAll(fd, stats.size, maxBytes);
    return bytes.length > maxBytes ? void 0 : bytes;
  } finally {
    closeSync(fd);
  }
};
var listInside = (workspace, dir) => {
  const segments = segmentsInside(workspace, dir);
  const root = realpathSync(workspace);
  const open = () => {
    if (segments.length === 0) return openSync(root, O_RDONLY | O_DIRECTORY);
    return withParent(workspace, dir, false, (parent, name) => {
      try {
        return openSync(at(parent, name), O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
      } catch (error) {
        if (error.code === "ELOOP")
          return fail(`${dir} is a symlink: refused`, "ELOOP");
        throw error;
      }
    });
  };
  const fd = open();
  try {
    checkOpened(fd, root, dir);
    return readdirSync(`/proc/self/fd/${fd}`, { withFileTypes: true });
  } finally {
    closeSync(fd);
  }
};
var keepChangeSeen = (fd, before) => {
  if (!before) return;
  const after = fstatSync(fd);
  const second = (ms) => Math.floor(ms / 1e3);
  if (after.size !== before.size || second(after.mtimeMs) !== second(before.mtimeMs)) return;
  futimesSync(fd, after.atime, new Date((second(before.mtimeMs) + 1) * 1e3));
};
var writeFileInside = (workspace, file, content) => withParent(workspace, file, true, (dir, name) => {
  let mode = 420;
  let before;
  try {
    const existing = openSync(at(dir, name), O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
    try {
      const stats = fstatSync(existing);
      if (stats.isDirectory()) fail(`${file} is a directory`, "EISDIR");
      if (!stats.isFile()) fail(`${file} is not a regular file`, "EINVAL");
      if ((stats.mode & 146) === 0) fail(`${file} is read-only`, "EACCES");
      mode = stats.mode & 4095;
      before = stats;
    } finally {
      closeSync(existing);
    }
  } catch (error) {
    const code = error.code;
    if (code === "ELOOP") fail(`${file} is a symlink: refused`, "ELOOP");
    if (code !== "ENOENT") throw error;
  }
  const temp = `.regreen-${randomBytes(6).toString("hex")}.tmp`;
  const fd = openSync(at(dir, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode);
  try {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset);
    fchmodSync(fd, mode);
    keepChangeSeen(fd, before);
    closeSync(fd);
    renameSync(at(dir, temp), at(dir, name));
  } catch (error) {
    try {
      closeSync(fd);
    } catch {
    }
    try {
      unlinkSync(at(dir, temp));
    } catch {
    }
    throw error;
  }
});
var removeFileInside = (workspace, file) => withParent(workspace, file, false, (dir, name) => {
  unlinkSync(at(dir, name));
});
var MAX_CONFIG_BYTES = 4 * 1024 * 1024;
var readTextInside = (workspace, file, maxBytes = MAX_CONFIG_BYTES) => {
  try {
    return readFileInsideUpTo(workspace, file, maxBytes)?.toString("utf8");
  } catch {
    return void 0;
  }
};
var openDirInside = (workspace, dir) => {
  const relative = path.relative(path.resolve(workspace), path.resolve(dir));
  const segments = relative.split(path.sep).filter((segment) => segment !== "" && segment !== ".");
  if (relative.startsWith("..") || path.isAbsolute(relative) || segments.includes(".."))
    return fail(`${dir} is outside the workspace ${workspace}`, "EXDEV");
  try {
    return openParent(workspace, [...segments, "."], false);
  } catch (error) {
    if (error.code === "ENOENT") return void 0;
    throw error;
  }
};

export {
  at,
  segmentsInside,
  checkOpened,
  withParent,
  openFileInside,
  readAll,
  readFileInside,
  readFileInsideUpTo,
  listInside,
  writeFileInside,
  removeFileInside,
  readTextInside,
  openDirInside
};
