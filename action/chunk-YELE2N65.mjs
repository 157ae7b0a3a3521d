import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  defaultToolsDir,
  installNpmTool,
  installedNpmTool,
  npmToolRoot
} from "./chunk-2ZZLC3XA.mjs";
import {
  describeError
} from "./chunk-2SKYD2FN.mjs";
import {
  external_exports
} from "./chunk-EABGHHZK.mjs";

// src/workspace/setup/provided-tools.ts
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
var PinsFile = external_exports.object({
  tools: external_exports.record(
    external_exports.string(),
    external_exports.array(
      external_exports.object({
        name: external_exports.string().min(1),
        version: external_exports.string().regex(/^\d+\.\d+\.\d+(?:[-+][\w.-]+)?$/),
        integrity: external_exports.string().startsWith("sha512-")
      })
    ).min(1)
  )
});
var readPins = (file) => {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return /* @__PURE__ */ new Map();
  }
  const { tools } = PinsFile.parse(JSON.parse(text));
  return new Map(
    Object.entries(tools).map(([name, packages]) => [
      name,
      packages
    ])
  );
};
var shipped;
var shippedPins = () => shipped ??= readPins(new URL("./provided-tools.json", import.meta.url));
var ownCopies = (name) => {
  const paths = createRequire(import.meta.url).resolve.paths(name) ?? [];
  return paths.flatMap((modules) => {
    const dir = path.join(modules, ...name.split("/"));
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
      return [{ dir, version: manifest.version }];
    } catch {
      return [];
    }
  });
};
var providedTools = (options) => {
  const pins = options.pins ?? /* @__PURE__ */ new Map();
  const own = options.own ?? ownCopies;
  const failed = /* @__PURE__ */ new Map();
  const find = (name) => {
    const pinned = pins.get(name)?.[0];
    const mine = own(name).find((copy) => !pinned || copy.version === pinned.version);
    if (mine) return mine.dir;
    if (!pinned || options.toolsDir === void 0) return void 0;
    const installed = installedNpmTool(options.toolsDir, name, pinned.version);
    return installed && installed.record.integrity === pinned.integrity ? installed.dir : void 0;
  };
  return {
    find,
    where: (name) => {
      const found = find(name);
      if (found) return found;
      const pinned = pins.get(name)?.[0];
      if (!pinned || options.toolsDir === void 0) return void 0;
      return path.join(
        npmToolRoot(options.toolsDir, name, pinned.version),
        "node_modules",
        ...name.split("/")
      );
    },
    provide: async (name, provideOptions) => {
      const found = find(name);
      if (found) return { dir: found };
      const packages = pins.get(name);
      const { toolsDir } = options;
      if (!packages || toolsDir === void 0)
        return {
          reason: `${name} is not installed with regreen${packages ? "" : " and this build of regreen pins no version of it to fetch"}: reinstall regreen (in a checkout of it: npm ci)`
        };
      const before = failed.get(name);
      if (before) return { reason: before };
      try {
        options.onFetch?.(`${name}@${packages[0].version}`);
        const installed = await installNpmTool({
          toolsDir,
          env: options.env ?? {},
          packages,
          ...provideOptions?.prune ? { prune: provideOptions.prune } : {}
        });
        return { dir: installed.dir };
      } catch (error) {
        const reason = `regreen fetches ${name}@${packages[0].version} from the npm registry the first time it is needed, and could not: ${describeError(error)}. It comes from the registry npm uses on this machine (npm config get registry; npm_config_registry names another) into ${toolsDir} (REGREEN_TOOLS_DIR moves it); regreen doctor lists what is fetched`;
        failed.set(name, reason);
        return { reason };
      }
    },
    list: () => [...pins.values()].map(([tool]) => {
      const dir = find(tool.name);
      return { name: tool.name, version: tool.version, ...dir ? { dir } : {} };
    })
  };
};
var providedToolsFor = (env, onFetch) => providedTools({
  toolsDir: defaultToolsDir(env),
  env,
  pins: shippedPins(),
  ...onFetch ? { onFetch } : {}
});
var ownToolsOnly = () => providedTools({});

export {
  providedToolsFor,
  ownToolsOnly
};
