import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  DEFAULT_COMMAND_LIMITS,
  PRIVATE_TOOLCHAINS,
  PROJECT_VENV,
  privateFolders,
  privateToolchainScript,
  pythonSuffix,
  recogniseFailures,
  terminalLines,
  timedRuns,
  withLiveOutput
} from "./chunk-MX3TKKOS.mjs";
import {
  whichIn
} from "./chunk-U2ZNDUQ6.mjs";
import {
  pricesFromConfig
} from "./chunk-JCOJM3WN.mjs";
import {
  HostGitError,
  IDENTITY,
  git,
  hostGit,
  hostGitSync,
  knownFiles,
  workspaceGit
} from "./chunk-NQAGCYDC.mjs";
import {
  defaultToolsDir,
  homeOf,
  installNpmTool,
  installedNpmTool,
  nearestWord,
  runNpm,
  settingsOf,
  toolchainRootsOf
} from "./chunk-2ZZLC3XA.mjs";
import {
  RegreenError,
  describeError
} from "./chunk-2SKYD2FN.mjs";
import {
  MAX_LINE_CHARS,
  decodeUtf8,
  existsInside,
  external_exports,
  looksBinary,
  quote,
  shellWord,
  stripAnsi,
  withoutUserinfo
} from "./chunk-EABGHHZK.mjs";
import {
  listInside,
  openFileInside,
  readFileInside,
  readFileInsideUpTo,
  readTextInside,
  removeFileInside,
  writeFileInside
} from "./chunk-KWM7AYEU.mjs";
import {
  __commonJS,
  __require,
  __toESM
} from "./chunk-LINFLWR3.mjs";

// node_modules/yaml/dist/nodes/identity.js
var require_identity = __commonJS({
  "node_modules/yaml/dist/nodes/identity.js"(exports) {
    "use strict";
    var ALIAS = /* @__PURE__ */ Symbol.for("yaml.alias");
    var DOC = /* @__PURE__ */ Symbol.for("yaml.document");
    var MAP = /* @__PURE__ */ Symbol.for("yaml.map");
    var PAIR = /* @__PURE__ */ Symbol.for("yaml.pair");
    var SCALAR = /* @__PURE__ */ Symbol.for("yaml.scalar");
    var SEQ = /* @__PURE__ */ Symbol.for("yaml.seq");
    var NODE_TYPE = /* @__PURE__ */ Symbol.for("yaml.node.type");
    var isAlias = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === ALIAS;
    var isDocument = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === DOC;
    var isMap3 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === MAP;
    var isPair = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === PAIR;
    var isScalar2 = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SCALAR;
    var isSeq = (node) => !!node && typeof node === "object" && node[NODE_TYPE] === SEQ;
    function isCollection(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case MAP:
          case SEQ:
            return true;
        }
      return false;
    }
    function isNode(node) {
      if (node && typeof node === "object")
        switch (node[NODE_TYPE]) {
          case ALIAS:
          case MAP:
          case SCALAR:
          case SEQ:
            return true;
        }
      return false;
    }
    var hasAnchor = (node) => (isScalar2(node) || isCollection(node)) && !!node.anchor;
    exports.ALIAS = ALIAS;
    exports.DOC = DOC;
    exports.MAP = MAP;
    exports.NODE_TYPE = NODE_TYPE;
    exports.PAIR = PAIR;
    exports.SCALAR = SCALAR;
    exports.SEQ = SEQ;
    exports.hasAnchor = hasAnchor;
    exports.isAlias = isAlias;
    exports.isCollection = isCollection;
    exports.isDocument = isDocument;
    exports.isMap = isMap3;
    exports.isNode = isNode;
    exports.isPair = isPair;
    exports.isScalar = isScalar2;
    exports.isSeq = isSeq;
  }
});

// node_modules/yaml/dist/visit.js
var require_visit = __commonJS({
  "node_modules/yaml/dist/visit.js"(exports) {
    "use strict";
    var identity = require_identity();
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove node");
    function visit2(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = visit_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        visit_(null, node, visitor_, Object.freeze([]));
    }
    visit2.BREAK = BREAK;
    visit2.SKIP = SKIP;
    visit2.REMOVE = REMOVE;
    function visit_(key, node, visitor, path32) {
      const ctrl = callVisitor(key, node, visitor, path32);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path32, ctrl);
        return visit_(key, ctrl, visitor, path32);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path32 = Object.freeze(path32.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = visit_(i, node.items[i], visitor, path32);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path32 = Object.freeze(path32.concat(node));
          const ck = visit_("key", node.key, visitor, path32);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = visit_("value", node.value, visitor, path32);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    async function visitAsync(node, visitor) {
      const visitor_ = initVisitor(visitor);
      if (identity.isDocument(node)) {
        const cd = await visitAsync_(null, node.contents, visitor_, Object.freeze([node]));
        if (cd === REMOVE)
          node.contents = null;
      } else
        await visitAsync_(null, node, visitor_, Object.freeze([]));
    }
    visitAsync.BREAK = BREAK;
    visitAsync.SKIP = SKIP;
    visitAsync.REMOVE = REMOVE;
    async function visitAsync_(key, node, visitor, path32) {
      const ctrl = await callVisitor(key, node, visitor, path32);
      if (identity.isNode(ctrl) || identity.isPair(ctrl)) {
        replaceNode(key, path32, ctrl);
        return visitAsync_(key, ctrl, visitor, path32);
      }
      if (typeof ctrl !== "symbol") {
        if (identity.isCollection(node)) {
          path32 = Object.freeze(path32.concat(node));
          for (let i = 0; i < node.items.length; ++i) {
            const ci = await visitAsync_(i, node.items[i], visitor, path32);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              node.items.splice(i, 1);
              i -= 1;
            }
          }
        } else if (identity.isPair(node)) {
          path32 = Object.freeze(path32.concat(node));
          const ck = await visitAsync_("key", node.key, visitor, path32);
          if (ck === BREAK)
            return BREAK;
          else if (ck === REMOVE)
            node.key = null;
          const cv = await visitAsync_("value", node.value, visitor, path32);
          if (cv === BREAK)
            return BREAK;
          else if (cv === REMOVE)
            node.value = null;
        }
      }
      return ctrl;
    }
    function initVisitor(visitor) {
      if (typeof visitor === "object" && (visitor.Collection || visitor.Node || visitor.Value)) {
        return Object.assign({
          Alias: visitor.Node,
          Map: visitor.Node,
          Scalar: visitor.Node,
          Seq: visitor.Node
        }, visitor.Value && {
          Map: visitor.Value,
          Scalar: visitor.Value,
          Seq: visitor.Value
        }, visitor.Collection && {
          Map: visitor.Collection,
          Seq: visitor.Collection
        }, visitor);
      }
      return visitor;
    }
    function callVisitor(key, node, visitor, path32) {
      if (typeof visitor === "function")
        return visitor(key, node, path32);
      if (identity.isMap(node))
        return visitor.Map?.(key, node, path32);
      if (identity.isSeq(node))
        return visitor.Seq?.(key, node, path32);
      if (identity.isPair(node))
        return visitor.Pair?.(key, node, path32);
      if (identity.isScalar(node))
        return visitor.Scalar?.(key, node, path32);
      if (identity.isAlias(node))
        return visitor.Alias?.(key, node, path32);
      return void 0;
    }
    function replaceNode(key, path32, node) {
      const parent = path32[path32.length - 1];
      if (identity.isCollection(parent)) {
        parent.items[key] = node;
      } else if (identity.isPair(parent)) {
        if (key === "key")
          parent.key = node;
        else
          parent.value = node;
      } else if (identity.isDocument(parent)) {
        parent.contents = node;
      } else {
        const pt = identity.isAlias(parent) ? "alias" : "scalar";
        throw new Error(`Cannot replace node with ${pt} parent`);
      }
    }
    exports.visit = visit2;
    exports.visitAsync = visitAsync;
  }
});

// node_modules/yaml/dist/doc/directives.js
var require_directives = __commonJS({
  "node_modules/yaml/dist/doc/directives.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit2 = require_visit();
    var escapeChars = {
      "!": "%21",
      ",": "%2C",
      "[": "%5B",
      "]": "%5D",
      "{": "%7B",
      "}": "%7D"
    };
    var escapeTagName = (tn) => tn.replace(/[!,[\]{}]/g, (ch) => escapeChars[ch]);
    var Directives = class _Directives {
      constructor(yaml, tags) {
        this.docStart = null;
        this.docEnd = false;
        this.yaml = Object.assign({}, _Directives.defaultYaml, yaml);
        this.tags = Object.assign({}, _Directives.defaultTags, tags);
      }
      clone() {
        const copy = new _Directives(this.yaml, this.tags);
        copy.docStart = this.docStart;
        return copy;
      }
      /**
       * During parsing, get a Directives instance for the current document and
       * update the stream state according to the current version's spec.
       */
      atDocument() {
        const res = new _Directives(this.yaml, this.tags);
        switch (this.yaml.version) {
          case "1.1":
            this.atNextDocument = true;
            break;
          case "1.2":
            this.atNextDocument = false;
            this.yaml = {
              explicit: _Directives.defaultYaml.explicit,
              version: "1.2"
            };
            this.tags = Object.assign({}, _Directives.defaultTags);
            break;
        }
        return res;
      }
      /**
       * @param onError - May be called even if the action was successful
       * @returns `true` on success
       */
      add(line, onError) {
        if (this.atNextDocument) {
          this.yaml = { explicit: _Directives.defaultYaml.explicit, version: "1.1" };
          this.tags = Object.assign({}, _Directives.defaultTags);
          this.atNextDocument = false;
        }
        const parts = line.trim().split(/[ \t]+/);
        const name = parts.shift();
        switch (name) {
          case "%TAG": {
            if (parts.length !== 2) {
              onError(0, "%TAG directive should contain exactly two parts");
              if (parts.length < 2)
                return false;
            }
            const [handle, prefix] = parts;
            this.tags[handle] = prefix;
            return true;
          }
          case "%YAML": {
            this.yaml.explicit = true;
            if (parts.length !== 1) {
              onError(0, "%YAML directive should contain exactly one part");
              return false;
            }
            const [version] = parts;
            if (version === "1.1" || version === "1.2") {
              this.yaml.version = version;
              return true;
            } else {
              const isValid = /^\d+\.\d+$/.test(version);
              onError(6, `Unsupported YAML version ${version}`, isValid);
              return false;
            }
          }
          default:
            onError(0, `Unknown directive ${name}`, true);
            return false;
        }
      }
      /**
       * Resolves a tag, matching handles to those defined in %TAG directives.
       *
       * @returns Resolved tag, which may also be the non-specific tag `'!'` or a
       *   `'!local'` tag, or `null` if unresolvable.
       */
      tagName(source, onError) {
        if (source === "!")
          return "!";
        if (source[0] !== "!") {
          onError(`Not a valid tag: ${source}`);
          return null;
        }
        if (source[1] === "<") {
          const verbatim = source.slice(2, -1);
          if (verbatim === "!" || verbatim === "!!") {
            onError(`Verbatim tags aren't resolved, so ${source} is invalid.`);
            return null;
          }
          if (source[source.length - 1] !== ">")
            onError("Verbatim tags must end with a >");
          return verbatim;
        }
        const [, handle, suffix] = source.match(/^(.*!)([^!]*)$/s);
        if (!suffix)
          onError(`The ${source} tag has no suffix`);
        const prefix = this.tags[handle];
        if (prefix) {
          try {
            return prefix + decodeURIComponent(suffix);
          } catch (error) {
            onError(String(error));
            return null;
          }
        }
        if (handle === "!")
          return source;
        onError(`Could not resolve tag: ${source}`);
        return null;
      }
      /**
       * Given a fully resolved tag, returns its printable string form,
       * taking into account current tag prefixes and defaults.
       */
      tagString(tag) {
        for (const [handle, prefix] of Object.entries(this.tags)) {
          if (tag.startsWith(prefix))
            return handle + escapeTagName(tag.substring(prefix.length));
        }
        return tag[0] === "!" ? tag : `!<${tag}>`;
      }
      toString(doc) {
        const lines = this.yaml.explicit ? [`%YAML ${this.yaml.version || "1.2"}`] : [];
        const tagEntries = Object.entries(this.tags);
        let tagNames;
        if (doc && tagEntries.length > 0 && identity.isNode(doc.contents)) {
          const tags = {};
          visit2.visit(doc.contents, (_key, node) => {
            if (identity.isNode(node) && node.tag)
              tags[node.tag] = true;
          });
          tagNames = Object.keys(tags);
        } else
          tagNames = [];
        for (const [handle, prefix] of tagEntries) {
          if (handle === "!!" && prefix === "tag:yaml.org,2002:")
            continue;
          if (!doc || tagNames.some((tn) => tn.startsWith(prefix)))
            lines.push(`%TAG ${handle} ${prefix}`);
        }
        return lines.join("\n");
      }
    };
    Directives.defaultYaml = { explicit: false, version: "1.2" };
    Directives.defaultTags = { "!!": "tag:yaml.org,2002:" };
    exports.Directives = Directives;
  }
});

// node_modules/yaml/dist/doc/anchors.js
var require_anchors = __commonJS({
  "node_modules/yaml/dist/doc/anchors.js"(exports) {
    "use strict";
    var identity = require_identity();
    var visit2 = require_visit();
    function anchorIsValid(anchor) {
      if (/[\x00-\x19\s,[\]{}]/.test(anchor)) {
        const sa = JSON.stringify(anchor);
        const msg = `Anchor must not contain whitespace or control characters: ${sa}`;
        throw new Error(msg);
      }
      return true;
    }
    function anchorNames(root2) {
      const anchors = /* @__PURE__ */ new Set();
      visit2.visit(root2, {
        Value(_key, node) {
          if (node.anchor)
            anchors.add(node.anchor);
        }
      });
      return anchors;
    }
    function findNewAnchor(prefix, exclude) {
      for (let i = 1; true; ++i) {
        const name = `${prefix}${i}`;
        if (!exclude.has(name))
          return name;
      }
    }
    function createNodeAnchors(doc, prefix) {
      const aliasObjects = [];
      const sourceObjects = /* @__PURE__ */ new Map();
      let prevAnchors = null;
      return {
        onAnchor: (source) => {
          aliasObjects.push(source);
          prevAnchors ?? (prevAnchors = anchorNames(doc));
          const anchor = findNewAnchor(prefix, prevAnchors);
          prevAnchors.add(anchor);
          return anchor;
        },
        /**
         * With circular references, the source node is only resolved after all
         * of its child nodes are. This is why anchors are set only after all of
         * the nodes have been created.
         */
        setAnchors: () => {
          for (const source of aliasObjects) {
            const ref = sourceObjects.get(source);
            if (typeof ref === "object" && ref.anchor && (identity.isScalar(ref.node) || identity.isCollection(ref.node))) {
              ref.node.anchor = ref.anchor;
            } else {
              const error = new Error("Failed to resolve repeated object (this should not happen)");
              error.source = source;
              throw error;
            }
          }
        },
        sourceObjects
      };
    }
    exports.anchorIsValid = anchorIsValid;
    exports.anchorNames = anchorNames;
    exports.createNodeAnchors = createNodeAnchors;
    exports.findNewAnchor = findNewAnchor;
  }
});

// node_modules/yaml/dist/doc/applyReviver.js
var require_applyReviver = __commonJS({
  "node_modules/yaml/dist/doc/applyReviver.js"(exports) {
    "use strict";
    function applyReviver(reviver, obj, key, val) {
      if (val && typeof val === "object") {
        if (Array.isArray(val)) {
          for (let i = 0, len = val.length; i < len; ++i) {
            const v0 = val[i];
            const v1 = applyReviver(reviver, val, String(i), v0);
            if (v1 === void 0)
              delete val[i];
            else if (v1 !== v0)
              val[i] = v1;
          }
        } else if (val instanceof Map) {
          for (const k of Array.from(val.keys())) {
            const v0 = val.get(k);
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              val.delete(k);
            else if (v1 !== v0)
              val.set(k, v1);
          }
        } else if (val instanceof Set) {
          for (const v0 of Array.from(val)) {
            const v1 = applyReviver(reviver, val, v0, v0);
            if (v1 === void 0)
              val.delete(v0);
            else if (v1 !== v0) {
              val.delete(v0);
              val.add(v1);
            }
          }
        } else {
          for (const [k, v0] of Object.entries(val)) {
            const v1 = applyReviver(reviver, val, k, v0);
            if (v1 === void 0)
              delete val[k];
            else if (v1 !== v0)
              val[k] = v1;
          }
        }
      }
      return reviver.call(obj, key, val);
    }
    exports.applyReviver = applyReviver;
  }
});

// node_modules/yaml/dist/nodes/toJS.js
var require_toJS = __commonJS({
  "node_modules/yaml/dist/nodes/toJS.js"(exports) {
    "use strict";
    var identity = require_identity();
    function toJS(value, arg, ctx) {
      if (Array.isArray(value))
        return value.map((v, i) => toJS(v, String(i), ctx));
      if (value && typeof value.toJSON === "function") {
        if (!ctx || !identity.hasAnchor(value))
          return value.toJSON(arg, ctx);
        const data = { aliasCount: 0, count: 1, res: void 0 };
        ctx.anchors.set(value, data);
        ctx.onCreate = (res2) => {
          data.res = res2;
          delete ctx.onCreate;
        };
        const res = value.toJSON(arg, ctx);
        if (ctx.onCreate)
          ctx.onCreate(res);
        return res;
      }
      if (typeof value === "bigint" && !ctx?.keep)
        return Number(value);
      return value;
    }
    exports.toJS = toJS;
  }
});

// node_modules/yaml/dist/nodes/Node.js
var require_Node = __commonJS({
  "node_modules/yaml/dist/nodes/Node.js"(exports) {
    "use strict";
    var applyReviver = require_applyReviver();
    var identity = require_identity();
    var toJS = require_toJS();
    var NodeBase = class {
      constructor(type) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: type });
      }
      /** Create a copy of this node.  */
      clone() {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** A plain JavaScript representation of this node. */
      toJS(doc, { mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        if (!identity.isDocument(doc))
          throw new TypeError("A document argument is required");
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc,
          keep: true,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this, "", ctx);
        if (typeof onAnchor === "function")
          for (const { count: count2, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count2);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
    };
    exports.NodeBase = NodeBase;
  }
});

// node_modules/yaml/dist/nodes/Alias.js
var require_Alias = __commonJS({
  "node_modules/yaml/dist/nodes/Alias.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var visit2 = require_visit();
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var Alias = class extends Node.NodeBase {
      constructor(source) {
        super(identity.ALIAS);
        this.source = source;
        Object.defineProperty(this, "tag", {
          set() {
            throw new Error("Alias nodes cannot have tags");
          }
        });
      }
      /**
       * Resolve the value of this alias within `doc`, finding the last
       * instance of the `source` anchor before this node.
       */
      resolve(doc, ctx) {
        if (ctx?.maxAliasCount === 0)
          throw new ReferenceError("Alias resolution is disabled");
        let nodes;
        if (ctx?.aliasResolveCache) {
          nodes = ctx.aliasResolveCache;
        } else {
          nodes = [];
          visit2.visit(doc, {
            Node: (_key, node) => {
              if (identity.isAlias(node) || identity.hasAnchor(node))
                nodes.push(node);
            }
          });
          if (ctx)
            ctx.aliasResolveCache = nodes;
        }
        let found = void 0;
        for (const node of nodes) {
          if (node === this)
            break;
          if (node.anchor === this.source)
            found = node;
        }
        if (found && ctx) {
          const { anchors: anchors2, doc: doc2, maxAliasCount } = ctx;
          let data = anchors2.get(found);
          if (!data) {
            toJS.toJS(found, null, ctx);
            data = anchors2.get(found);
          }
          if (data?.res === void 0) {
            const msg = "This should not happen: Alias anchor was not resolved?";
            throw new ReferenceError(msg);
          }
          if (maxAliasCount >= 0) {
            data.count += 1;
            if (data.aliasCount === 0)
              data.aliasCount = getAliasCount(doc2, found, anchors2);
            if (data.count * data.aliasCount > maxAliasCount) {
              const msg = "Excessive alias count indicates a resource exhaustion attack";
              throw new ReferenceError(msg);
            }
          }
        }
        return found;
      }
      toJSON(_arg, ctx) {
        if (!ctx)
          return { source: this.source };
        const source = this.resolve(ctx.doc, ctx);
        if (!source) {
          const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
          throw new ReferenceError(msg);
        }
        return ctx.anchors.get(source).res;
      }
      toString(ctx, _onComment, _onChompKeep) {
        const src = `*${this.source}`;
        if (ctx) {
          anchors.anchorIsValid(this.source);
          if (ctx.options.verifyAliasOrder && !ctx.anchors.has(this.source)) {
            const msg = `Unresolved alias (the anchor must be set before the alias): ${this.source}`;
            throw new Error(msg);
          }
          if (ctx.implicitKey)
            return `${src} `;
        }
        return src;
      }
    };
    function getAliasCount(doc, node, anchors2) {
      if (identity.isAlias(node)) {
        const source = node.resolve(doc);
        const anchor = anchors2 && source && anchors2.get(source);
        return anchor ? anchor.count * anchor.aliasCount : 0;
      } else if (identity.isCollection(node)) {
        let count2 = 0;
        for (const item of node.items) {
          const c = getAliasCount(doc, item, anchors2);
          if (c > count2)
            count2 = c;
        }
        return count2;
      } else if (identity.isPair(node)) {
        const kc = getAliasCount(doc, node.key, anchors2);
        const vc = getAliasCount(doc, node.value, anchors2);
        return Math.max(kc, vc);
      }
      return 1;
    }
    exports.Alias = Alias;
  }
});

// node_modules/yaml/dist/nodes/Scalar.js
var require_Scalar = __commonJS({
  "node_modules/yaml/dist/nodes/Scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Node = require_Node();
    var toJS = require_toJS();
    var isScalarValue = (value) => !value || typeof value !== "function" && typeof value !== "object";
    var Scalar = class extends Node.NodeBase {
      constructor(value) {
        super(identity.SCALAR);
        this.value = value;
      }
      toJSON(arg, ctx) {
        return ctx?.keep ? this.value : toJS.toJS(this.value, arg, ctx);
      }
      toString() {
        return String(this.value);
      }
    };
    Scalar.BLOCK_FOLDED = "BLOCK_FOLDED";
    Scalar.BLOCK_LITERAL = "BLOCK_LITERAL";
    Scalar.PLAIN = "PLAIN";
    Scalar.QUOTE_DOUBLE = "QUOTE_DOUBLE";
    Scalar.QUOTE_SINGLE = "QUOTE_SINGLE";
    exports.Scalar = Scalar;
    exports.isScalarValue = isScalarValue;
  }
});

// node_modules/yaml/dist/doc/createNode.js
var require_createNode = __commonJS({
  "node_modules/yaml/dist/doc/createNode.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var defaultTagPrefix = "tag:yaml.org,2002:";
    function findTagObject(value, tagName, tags) {
      if (tagName) {
        const match = tags.filter((t) => t.tag === tagName);
        const tagObj = match.find((t) => !t.format) ?? match[0];
        if (!tagObj)
          throw new Error(`Tag ${tagName} not found`);
        return tagObj;
      }
      return tags.find((t) => t.identify?.(value) && !t.format);
    }
    function createNode(value, tagName, ctx) {
      if (identity.isDocument(value))
        value = value.contents;
      if (identity.isNode(value))
        return value;
      if (identity.isPair(value)) {
        const map = ctx.schema[identity.MAP].createNode?.(ctx.schema, null, ctx);
        map.items.push(value);
        return map;
      }
      if (value instanceof String || value instanceof Number || value instanceof Boolean || typeof BigInt !== "undefined" && value instanceof BigInt) {
        value = value.valueOf();
      }
      const { aliasDuplicateObjects, onAnchor, onTagObj, schema, sourceObjects } = ctx;
      let ref = void 0;
      if (aliasDuplicateObjects && value && typeof value === "object") {
        ref = sourceObjects.get(value);
        if (ref) {
          ref.anchor ?? (ref.anchor = onAnchor(value));
          return new Alias.Alias(ref.anchor);
        } else {
          ref = { anchor: null, node: null };
          sourceObjects.set(value, ref);
        }
      }
      if (tagName?.startsWith("!!"))
        tagName = defaultTagPrefix + tagName.slice(2);
      let tagObj = findTagObject(value, tagName, schema.tags);
      if (!tagObj) {
        if (value && typeof value.toJSON === "function") {
          value = value.toJSON();
        }
        if (!value || typeof value !== "object") {
          const node2 = new Scalar.Scalar(value);
          if (ref)
            ref.node = node2;
          return node2;
        }
        tagObj = value instanceof Map ? schema[identity.MAP] : Symbol.iterator in Object(value) ? schema[identity.SEQ] : schema[identity.MAP];
      }
      if (onTagObj) {
        onTagObj(tagObj);
        delete ctx.onTagObj;
      }
      const node = tagObj?.createNode ? tagObj.createNode(ctx.schema, value, ctx) : typeof tagObj?.nodeClass?.from === "function" ? tagObj.nodeClass.from(ctx.schema, value, ctx) : new Scalar.Scalar(value);
      if (tagName)
        node.tag = tagName;
      else if (!tagObj.default)
        node.tag = tagObj.tag;
      if (ref)
        ref.node = node;
      return node;
    }
    exports.createNode = createNode;
  }
});

// node_modules/yaml/dist/nodes/Collection.js
var require_Collection = __commonJS({
  "node_modules/yaml/dist/nodes/Collection.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var identity = require_identity();
    var Node = require_Node();
    function collectionFromPath(schema, path32, value) {
      let v = value;
      for (let i = path32.length - 1; i >= 0; --i) {
        const k = path32[i];
        if (typeof k === "number" && Number.isInteger(k) && k >= 0) {
          const a = [];
          a[k] = v;
          v = a;
        } else {
          v = /* @__PURE__ */ new Map([[k, v]]);
        }
      }
      return createNode.createNode(v, void 0, {
        aliasDuplicateObjects: false,
        keepUndefined: false,
        onAnchor: () => {
          throw new Error("This should not happen, please report a bug.");
        },
        schema,
        sourceObjects: /* @__PURE__ */ new Map()
      });
    }
    var isEmptyPath = (path32) => path32 == null || typeof path32 === "object" && !!path32[Symbol.iterator]().next().done;
    var Collection = class extends Node.NodeBase {
      constructor(type, schema) {
        super(type);
        Object.defineProperty(this, "schema", {
          value: schema,
          configurable: true,
          enumerable: false,
          writable: true
        });
      }
      /**
       * Create a copy of this collection.
       *
       * @param schema - If defined, overwrites the original's schema
       */
      clone(schema) {
        const copy = Object.create(Object.getPrototypeOf(this), Object.getOwnPropertyDescriptors(this));
        if (schema)
          copy.schema = schema;
        copy.items = copy.items.map((it) => identity.isNode(it) || identity.isPair(it) ? it.clone(schema) : it);
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /**
       * Adds a value to the collection. For `!!map` and `!!omap` the value must
       * be a Pair instance or a `{ key, value }` object, which may not have a key
       * that already exists in the map.
       */
      addIn(path32, value) {
        if (isEmptyPath(path32))
          this.add(value);
        else {
          const [key, ...rest] = path32;
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.addIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
      /**
       * Removes a value from the collection.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path32) {
        const [key, ...rest] = path32;
        if (rest.length === 0)
          return this.delete(key);
        const node = this.get(key, true);
        if (identity.isCollection(node))
          return node.deleteIn(rest);
        else
          throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path32, keepScalar) {
        const [key, ...rest] = path32;
        const node = this.get(key, true);
        if (rest.length === 0)
          return !keepScalar && identity.isScalar(node) ? node.value : node;
        else
          return identity.isCollection(node) ? node.getIn(rest, keepScalar) : void 0;
      }
      hasAllNullValues(allowScalar) {
        return this.items.every((node) => {
          if (!identity.isPair(node))
            return false;
          const n = node.value;
          return n == null || allowScalar && identity.isScalar(n) && n.value == null && !n.commentBefore && !n.comment && !n.tag;
        });
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       */
      hasIn(path32) {
        const [key, ...rest] = path32;
        if (rest.length === 0)
          return this.has(key);
        const node = this.get(key, true);
        return identity.isCollection(node) ? node.hasIn(rest) : false;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path32, value) {
        const [key, ...rest] = path32;
        if (rest.length === 0) {
          this.set(key, value);
        } else {
          const node = this.get(key, true);
          if (identity.isCollection(node))
            node.setIn(rest, value);
          else if (node === void 0 && this.schema)
            this.set(key, collectionFromPath(this.schema, rest, value));
          else
            throw new Error(`Expected YAML collection at ${key}. Remaining path: ${rest}`);
        }
      }
    };
    exports.Collection = Collection;
    exports.collectionFromPath = collectionFromPath;
    exports.isEmptyPath = isEmptyPath;
  }
});

// node_modules/yaml/dist/stringify/stringifyComment.js
var require_stringifyComment = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyComment.js"(exports) {
    "use strict";
    var stringifyComment = (str) => str.replace(/^(?!$)(?: $)?/gm, "#");
    function indentComment(comment, indent) {
      if (/^\n+$/.test(comment))
        return comment.substring(1);
      return indent ? comment.replace(/^(?! *$)/gm, indent) : comment;
    }
    var lineComment = (str, indent, comment) => str.endsWith("\n") ? indentComment(comment, indent) : comment.includes("\n") ? "\n" + indentComment(comment, indent) : (str.endsWith(" ") ? "" : " ") + comment;
    exports.indentComment = indentComment;
    exports.lineComment = lineComment;
    exports.stringifyComment = stringifyComment;
  }
});

// node_modules/yaml/dist/stringify/foldFlowLines.js
var require_foldFlowLines = __commonJS({
  "node_modules/yaml/dist/stringify/foldFlowLines.js"(exports) {
    "use strict";
    var FOLD_FLOW = "flow";
    var FOLD_BLOCK = "block";
    var FOLD_QUOTED = "quoted";
    function foldFlowLines(text, indent, mode = "flow", { indentAtStart, lineWidth = 80, minContentWidth = 20, onFold, onOverflow } = {}) {
      if (!lineWidth || lineWidth < 0)
        return text;
      if (lineWidth < minContentWidth)
        minContentWidth = 0;
      const endStep = Math.max(1 + minContentWidth, 1 + lineWidth - indent.length);
      if (text.length <= endStep)
        return text;
      const folds = [];
      const escapedFolds = {};
      let end = lineWidth - indent.length;
      if (typeof indentAtStart === "number") {
        if (indentAtStart > lineWidth - Math.max(2, minContentWidth))
          folds.push(0);
        else
          end = lineWidth - indentAtStart;
      }
      let split = void 0;
      let prev = void 0;
      let overflow = false;
      let i = -1;
      let escStart = -1;
      let escEnd = -1;
      if (mode === FOLD_BLOCK) {
        i = consumeMoreIndentedLines(text, i, indent.length);
        if (i !== -1)
          end = i + endStep;
      }
      for (let ch; ch = text[i += 1]; ) {
        if (mode === FOLD_QUOTED && ch === "\\") {
          escStart = i;
          switch (text[i + 1]) {
            case "x":
              i += 3;
              break;
            case "u":
              i += 5;
              break;
            case "U":
              i += 9;
              break;
            default:
              i += 1;
          }
          escEnd = i;
        }
        if (ch === "\n") {
          if (mode === FOLD_BLOCK)
            i = consumeMoreIndentedLines(text, i, indent.length);
          end = i + indent.length + endStep;
          split = void 0;
        } else {
          if (ch === " " && prev && prev !== " " && prev !== "\n" && prev !== "	") {
            const next = text[i + 1];
            if (next && next !== " " && next !== "\n" && next !== "	")
              split = i;
          }
          if (i >= end) {
            if (split) {
              folds.push(split);
              end = split + endStep;
              split = void 0;
            } else if (mode === FOLD_QUOTED) {
              while (prev === " " || prev === "	") {
                prev = ch;
                ch = text[i += 1];
                overflow = true;
              }
              const j = i > escEnd + 1 ? i - 2 : escStart - 1;
              if (escapedFolds[j])
                return text;
              folds.push(j);
              escapedFolds[j] = true;
              end = j + endStep;
              split = void 0;
            } else {
              overflow = true;
            }
          }
        }
        prev = ch;
      }
      if (overflow && onOverflow)
        onOverflow();
      if (folds.length === 0)
        return text;
      if (onFold)
        onFold();
      let res = text.slice(0, folds[0]);
      for (let i2 = 0; i2 < folds.length; ++i2) {
        const fold = folds[i2];
        const end2 = folds[i2 + 1] || text.length;
        if (fold === 0)
          res = `
${indent}${text.slice(0, end2)}`;
        else {
          if (mode === FOLD_QUOTED && escapedFolds[fold])
            res += `${text[fold]}\\`;
          res += `
${indent}${text.slice(fold + 1, end2)}`;
        }
      }
      return res;
    }
    function consumeMoreIndentedLines(text, i, indent) {
      let end = i;
      let start = i + 1;
      let ch = text[start];
      while (ch === " " || ch === "	") {
        if (i < start + indent) {
          ch = text[++i];
        } else {
          do {
            ch = text[++i];
          } while (ch && ch !== "\n");
          end = i;
          start = i + 1;
          ch = text[start];
        }
      }
      return end;
    }
    exports.FOLD_BLOCK = FOLD_BLOCK;
    exports.FOLD_FLOW = FOLD_FLOW;
    exports.FOLD_QUOTED = FOLD_QUOTED;
    exports.foldFlowLines = foldFlowLines;
  }
});

// node_modules/yaml/dist/stringify/stringifyString.js
var require_stringifyString = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyString.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var foldFlowLines = require_foldFlowLines();
    var getFoldOptions = (ctx, isBlock) => ({
      indentAtStart: isBlock ? ctx.indent.length : ctx.indentAtStart,
      lineWidth: ctx.options.lineWidth,
      minContentWidth: ctx.options.minContentWidth
    });
    var containsDocumentMarker = (str) => /^(%|---|\.\.\.)/m.test(str);
    function lineLengthOverLimit(str, lineWidth, indentLength) {
      if (!lineWidth || lineWidth < 0)
        return false;
      const limit = lineWidth - indentLength;
      const strLen = str.length;
      if (strLen <= limit)
        return false;
      for (let i = 0, start = 0; i < strLen; ++i) {
        if (str[i] === "\n") {
          if (i - start > limit)
            return true;
          start = i + 1;
          if (strLen - start <= limit)
            return false;
        }
      }
      return true;
    }
    function doubleQuotedString(value, ctx) {
      const json = JSON.stringify(value);
      if (ctx.options.doubleQuotedAsJSON)
        return json;
      const { implicitKey } = ctx;
      const minMultiLineLength = ctx.options.doubleQuotedMinMultiLineLength;
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      let str = "";
      let start = 0;
      for (let i = 0, ch = json[i]; ch; ch = json[++i]) {
        if (ch === " " && json[i + 1] === "\\" && json[i + 2] === "n") {
          str += json.slice(start, i) + "\\ ";
          i += 1;
          start = i;
          ch = "\\";
        }
        if (ch === "\\")
          switch (json[i + 1]) {
            case "u":
              {
                str += json.slice(start, i);
                const code = json.substr(i + 2, 4);
                switch (code) {
                  case "0000":
                    str += "\\0";
                    break;
                  case "0007":
                    str += "\\a";
                    break;
                  case "000b":
                    str += "\\v";
                    break;
                  case "001b":
                    str += "\\e";
                    break;
                  case "0085":
                    str += "\\N";
                    break;
                  case "00a0":
                    str += "\\_";
                    break;
                  case "2028":
                    str += "\\L";
                    break;
                  case "2029":
                    str += "\\P";
                    break;
                  default:
                    if (code.substr(0, 2) === "00")
                      str += "\\x" + code.substr(2);
                    else
                      str += json.substr(i, 6);
                }
                i += 5;
                start = i + 1;
              }
              break;
            case "n":
              if (implicitKey || json[i + 2] === '"' || json.length < minMultiLineLength) {
                i += 1;
              } else {
                str += json.slice(start, i) + "\n\n";
                while (json[i + 2] === "\\" && json[i + 3] === "n" && json[i + 4] !== '"') {
                  str += "\n";
                  i += 2;
                }
                str += indent;
                if (json[i + 2] === " ")
                  str += "\\";
                i += 1;
                start = i + 1;
              }
              break;
            default:
              i += 1;
          }
      }
      str = start ? str + json.slice(start) : json;
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_QUOTED, getFoldOptions(ctx, false));
    }
    function singleQuotedString(value, ctx) {
      if (ctx.options.singleQuote === false || ctx.implicitKey && value.includes("\n") || /[ \t]\n|\n[ \t]/.test(value))
        return doubleQuotedString(value, ctx);
      const indent = ctx.indent || (containsDocumentMarker(value) ? "  " : "");
      const res = "'" + value.replace(/'/g, "''").replace(/\n+/g, `$&
${indent}`) + "'";
      return ctx.implicitKey ? res : foldFlowLines.foldFlowLines(res, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function quotedString(value, ctx) {
      const { singleQuote } = ctx.options;
      let qs;
      if (singleQuote === false)
        qs = doubleQuotedString;
      else {
        const hasDouble = value.includes('"');
        const hasSingle = value.includes("'");
        if (hasDouble && !hasSingle)
          qs = singleQuotedString;
        else if (hasSingle && !hasDouble)
          qs = doubleQuotedString;
        else
          qs = singleQuote ? singleQuotedString : doubleQuotedString;
      }
      return qs(value, ctx);
    }
    var blockEndNewlines;
    try {
      blockEndNewlines = new RegExp("(^|(?<!\n))\n+(?!\n|$)", "g");
    } catch {
      blockEndNewlines = /\n+(?!\n|$)/g;
    }
    function blockString({ comment, type, value }, ctx, onComment, onChompKeep) {
      const { blockQuote, commentString, lineWidth } = ctx.options;
      if (!blockQuote || /\n[\t ]+$/.test(value)) {
        return quotedString(value, ctx);
      }
      const indent = ctx.indent || (ctx.forceBlockIndent || containsDocumentMarker(value) ? "  " : "");
      const literal2 = blockQuote === "literal" ? true : blockQuote === "folded" || type === Scalar.Scalar.BLOCK_FOLDED ? false : type === Scalar.Scalar.BLOCK_LITERAL ? true : !lineLengthOverLimit(value, lineWidth, indent.length);
      if (!value)
        return literal2 ? "|\n" : ">\n";
      let chomp;
      let endStart;
      for (endStart = value.length; endStart > 0; --endStart) {
        const ch = value[endStart - 1];
        if (ch !== "\n" && ch !== "	" && ch !== " ")
          break;
      }
      let end = value.substring(endStart);
      const endNlPos = end.indexOf("\n");
      if (endNlPos === -1) {
        chomp = "-";
      } else if (value === end || endNlPos !== end.length - 1) {
        chomp = "+";
        if (onChompKeep)
          onChompKeep();
      } else {
        chomp = "";
      }
      if (end) {
        value = value.slice(0, -end.length);
        if (end[end.length - 1] === "\n")
          end = end.slice(0, -1);
        end = end.replace(blockEndNewlines, `$&${indent}`);
      }
      let startWithSpace = false;
      let startEnd;
      let startNlPos = -1;
      for (startEnd = 0; startEnd < value.length; ++startEnd) {
        const ch = value[startEnd];
        if (ch === " ")
          startWithSpace = true;
        else if (ch === "\n")
          startNlPos = startEnd;
        else
          break;
      }
      let start = value.substring(0, startNlPos < startEnd ? startNlPos + 1 : startEnd);
      if (start) {
        value = value.substring(start.length);
        start = start.replace(/\n+/g, `$&${indent}`);
      }
      const indentSize = indent ? "2" : "1";
      let header = (startWithSpace ? indentSize : "") + chomp;
      if (comment) {
        header += " " + commentString(comment.replace(/ ?[\r\n]+/g, " "));
        if (onComment)
          onComment();
      }
      if (!literal2) {
        const foldedValue = value.replace(/\n+/g, "\n$&").replace(/(?:^|\n)([\t ].*)(?:([\n\t ]*)\n(?![\n\t ]))?/g, "$1$2").replace(/\n+/g, `$&${indent}`);
        let literalFallback = false;
        const foldOptions = getFoldOptions(ctx, true);
        if (blockQuote !== "folded" && type !== Scalar.Scalar.BLOCK_FOLDED) {
          foldOptions.onOverflow = () => {
            literalFallback = true;
          };
        }
        const body = foldFlowLines.foldFlowLines(`${start}${foldedValue}${end}`, indent, foldFlowLines.FOLD_BLOCK, foldOptions);
        if (!literalFallback)
          return `>${header}
${indent}${body}`;
      }
      value = value.replace(/\n+/g, `$&${indent}`);
      return `|${header}
${indent}${start}${value}${end}`;
    }
    function plainString(item, ctx, onComment, onChompKeep) {
      const { type, value } = item;
      const { actualString, implicitKey, indent, indentStep, inFlow } = ctx;
      if (implicitKey && value.includes("\n") || inFlow && /[[\]{},]/.test(value)) {
        return quotedString(value, ctx);
      }
      if (/^[\n\t ,[\]{}#&*!|>'"%@`]|^[?-]$|^[?-][ \t]|[\n:][ \t]|[ \t]\n|[\n\t ]#|[\n\t :]$/.test(value)) {
        return implicitKey || inFlow || !value.includes("\n") ? quotedString(value, ctx) : blockString(item, ctx, onComment, onChompKeep);
      }
      if (!implicitKey && !inFlow && type !== Scalar.Scalar.PLAIN && value.includes("\n")) {
        return blockString(item, ctx, onComment, onChompKeep);
      }
      if (containsDocumentMarker(value)) {
        if (indent === "") {
          ctx.forceBlockIndent = true;
          return blockString(item, ctx, onComment, onChompKeep);
        } else if (implicitKey && indent === indentStep) {
          return quotedString(value, ctx);
        }
      }
      const str = value.replace(/\n+/g, `$&
${indent}`);
      if (actualString) {
        const test = (tag) => tag.default && tag.tag !== "tag:yaml.org,2002:str" && tag.test?.test(str);
        const { compat, tags } = ctx.doc.schema;
        if (tags.some(test) || compat?.some(test))
          return quotedString(value, ctx);
      }
      return implicitKey ? str : foldFlowLines.foldFlowLines(str, indent, foldFlowLines.FOLD_FLOW, getFoldOptions(ctx, false));
    }
    function stringifyString(item, ctx, onComment, onChompKeep) {
      const { implicitKey, inFlow } = ctx;
      const ss = typeof item.value === "string" ? item : Object.assign({}, item, { value: String(item.value) });
      let { type } = item;
      if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
        if (/[\x00-\x08\x0b-\x1f\x7f-\x9f\u{D800}-\u{DFFF}]/u.test(ss.value))
          type = Scalar.Scalar.QUOTE_DOUBLE;
      }
      const _stringify = (_type) => {
        switch (_type) {
          case Scalar.Scalar.BLOCK_FOLDED:
          case Scalar.Scalar.BLOCK_LITERAL:
            return implicitKey || inFlow ? quotedString(ss.value, ctx) : blockString(ss, ctx, onComment, onChompKeep);
          case Scalar.Scalar.QUOTE_DOUBLE:
            return doubleQuotedString(ss.value, ctx);
          case Scalar.Scalar.QUOTE_SINGLE:
            return singleQuotedString(ss.value, ctx);
          case Scalar.Scalar.PLAIN:
            return plainString(ss, ctx, onComment, onChompKeep);
          default:
            return null;
        }
      };
      let res = _stringify(type);
      if (res === null) {
        const { defaultKeyType, defaultStringType } = ctx.options;
        const t = implicitKey && defaultKeyType || defaultStringType;
        res = _stringify(t);
        if (res === null)
          throw new Error(`Unsupported default string type ${t}`);
      }
      return res;
    }
    exports.stringifyString = stringifyString;
  }
});

// node_modules/yaml/dist/stringify/stringify.js
var require_stringify = __commonJS({
  "node_modules/yaml/dist/stringify/stringify.js"(exports) {
    "use strict";
    var anchors = require_anchors();
    var identity = require_identity();
    var stringifyComment = require_stringifyComment();
    var stringifyString = require_stringifyString();
    function createStringifyContext(doc, options) {
      const opt = Object.assign({
        blockQuote: true,
        commentString: stringifyComment.stringifyComment,
        defaultKeyType: null,
        defaultStringType: "PLAIN",
        directives: null,
        doubleQuotedAsJSON: false,
        doubleQuotedMinMultiLineLength: 40,
        falseStr: "false",
        flowCollectionPadding: true,
        indentSeq: true,
        lineWidth: 80,
        minContentWidth: 20,
        nullStr: "null",
        simpleKeys: false,
        singleQuote: null,
        trailingComma: false,
        trueStr: "true",
        verifyAliasOrder: true
      }, doc.schema.toStringOptions, options);
      let inFlow;
      switch (opt.collectionStyle) {
        case "block":
          inFlow = false;
          break;
        case "flow":
          inFlow = true;
          break;
        default:
          inFlow = null;
      }
      return {
        anchors: /* @__PURE__ */ new Set(),
        doc,
        flowCollectionPadding: opt.flowCollectionPadding ? " " : "",
        indent: "",
        indentStep: typeof opt.indent === "number" ? " ".repeat(opt.indent) : "  ",
        inFlow,
        options: opt
      };
    }
    function getTagObject(tags, item) {
      if (item.tag) {
        const match = tags.filter((t) => t.tag === item.tag);
        if (match.length > 0)
          return match.find((t) => t.format === item.format) ?? match[0];
      }
      let tagObj = void 0;
      let obj;
      if (identity.isScalar(item)) {
        obj = item.value;
        let match = tags.filter((t) => t.identify?.(obj));
        if (match.length > 1) {
          const testMatch = match.filter((t) => t.test);
          if (testMatch.length > 0)
            match = testMatch;
        }
        tagObj = match.find((t) => t.format === item.format) ?? match.find((t) => !t.format);
      } else {
        obj = item;
        tagObj = tags.find((t) => t.nodeClass && obj instanceof t.nodeClass);
      }
      if (!tagObj) {
        const name = obj?.constructor?.name ?? (obj === null ? "null" : typeof obj);
        throw new Error(`Tag not resolved for ${name} value`);
      }
      return tagObj;
    }
    function stringifyProps(node, tagObj, { anchors: anchors$1, doc }) {
      if (!doc.directives)
        return "";
      const props = [];
      const anchor = (identity.isScalar(node) || identity.isCollection(node)) && node.anchor;
      if (anchor && anchors.anchorIsValid(anchor)) {
        anchors$1.add(anchor);
        props.push(`&${anchor}`);
      }
      const tag = node.tag ?? (tagObj.default ? null : tagObj.tag);
      if (tag)
        props.push(doc.directives.tagString(tag));
      return props.join(" ");
    }
    function stringify2(item, ctx, onComment, onChompKeep) {
      if (identity.isPair(item))
        return item.toString(ctx, onComment, onChompKeep);
      if (identity.isAlias(item)) {
        if (ctx.doc.directives)
          return item.toString(ctx);
        if (ctx.resolvedAliases?.has(item)) {
          throw new TypeError(`Cannot stringify circular structure without alias nodes`);
        } else {
          if (ctx.resolvedAliases)
            ctx.resolvedAliases.add(item);
          else
            ctx.resolvedAliases = /* @__PURE__ */ new Set([item]);
          item = item.resolve(ctx.doc);
        }
      }
      let tagObj = void 0;
      const node = identity.isNode(item) ? item : ctx.doc.createNode(item, { onTagObj: (o) => tagObj = o });
      tagObj ?? (tagObj = getTagObject(ctx.doc.schema.tags, node));
      const props = stringifyProps(node, tagObj, ctx);
      if (props.length > 0)
        ctx.indentAtStart = (ctx.indentAtStart ?? 0) + props.length + 1;
      const str = typeof tagObj.stringify === "function" ? tagObj.stringify(node, ctx, onComment, onChompKeep) : identity.isScalar(node) ? stringifyString.stringifyString(node, ctx, onComment, onChompKeep) : node.toString(ctx, onComment, onChompKeep);
      if (!props)
        return str;
      return identity.isScalar(node) || str[0] === "{" || str[0] === "[" ? `${props} ${str}` : `${props}
${ctx.indent}${str}`;
    }
    exports.createStringifyContext = createStringifyContext;
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/stringify/stringifyPair.js
var require_stringifyPair = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyPair.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyPair({ key, value }, ctx, onComment, onChompKeep) {
      const { allNullValues, doc, indent, indentStep, options: { commentString, indentSeq, simpleKeys } } = ctx;
      let keyComment = identity.isNode(key) && key.comment || null;
      if (simpleKeys) {
        if (keyComment) {
          throw new Error("With simple keys, key nodes cannot have comments");
        }
        if (identity.isCollection(key) || !identity.isNode(key) && typeof key === "object") {
          const msg = "With simple keys, collection cannot be used as a key value";
          throw new Error(msg);
        }
      }
      let explicitKey = !simpleKeys && (!key || keyComment && value == null && !ctx.inFlow || identity.isCollection(key) || (identity.isScalar(key) ? key.type === Scalar.Scalar.BLOCK_FOLDED || key.type === Scalar.Scalar.BLOCK_LITERAL : typeof key === "object"));
      ctx = Object.assign({}, ctx, {
        allNullValues: false,
        implicitKey: !explicitKey && (simpleKeys || !allNullValues),
        indent: indent + indentStep
      });
      let keyCommentDone = false;
      let chompKeep = false;
      let str = stringify2.stringify(key, ctx, () => keyCommentDone = true, () => chompKeep = true);
      if (!explicitKey && !ctx.inFlow && str.length > 1024) {
        if (simpleKeys)
          throw new Error("With simple keys, single line scalar must not span more than 1024 characters");
        explicitKey = true;
      }
      if (ctx.inFlow) {
        if (allNullValues || value == null) {
          if (keyCommentDone && onComment)
            onComment();
          return str === "" ? "?" : explicitKey ? `? ${str}` : str;
        }
      } else if (allNullValues && !simpleKeys || value == null && explicitKey) {
        str = `? ${str}`;
        if (keyComment && !keyCommentDone) {
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        } else if (chompKeep && onChompKeep)
          onChompKeep();
        return str;
      }
      if (keyCommentDone)
        keyComment = null;
      if (explicitKey) {
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
        str = `? ${str}
${indent}:`;
      } else {
        str = `${str}:`;
        if (keyComment)
          str += stringifyComment.lineComment(str, ctx.indent, commentString(keyComment));
      }
      let vsb, vcb, valueComment;
      if (identity.isNode(value)) {
        vsb = !!value.spaceBefore;
        vcb = value.commentBefore;
        valueComment = value.comment;
      } else {
        vsb = false;
        vcb = null;
        valueComment = null;
        if (value && typeof value === "object")
          value = doc.createNode(value);
      }
      ctx.implicitKey = false;
      if (!explicitKey && !keyComment && identity.isScalar(value))
        ctx.indentAtStart = str.length + 1;
      chompKeep = false;
      if (!indentSeq && indentStep.length >= 2 && !ctx.inFlow && !explicitKey && identity.isSeq(value) && !value.flow && !value.tag && !value.anchor) {
        ctx.indent = ctx.indent.substring(2);
      }
      let valueCommentDone = false;
      const valueStr = stringify2.stringify(value, ctx, () => valueCommentDone = true, () => chompKeep = true);
      let ws = " ";
      if (keyComment || vsb || vcb) {
        ws = vsb ? "\n" : "";
        if (vcb) {
          const cs = commentString(vcb);
          ws += `
${stringifyComment.indentComment(cs, ctx.indent)}`;
        }
        if (valueStr === "" && !ctx.inFlow) {
          if (ws === "\n" && valueComment)
            ws = "\n\n";
        } else {
          ws += `
${ctx.indent}`;
        }
      } else if (!explicitKey && identity.isCollection(value)) {
        const vs0 = valueStr[0];
        const nl0 = valueStr.indexOf("\n");
        const hasNewline = nl0 !== -1;
        const flow = ctx.inFlow ?? value.flow ?? value.items.length === 0;
        if (hasNewline || !flow) {
          let hasPropsLine = false;
          if (hasNewline && (vs0 === "&" || vs0 === "!")) {
            let sp0 = valueStr.indexOf(" ");
            if (vs0 === "&" && sp0 !== -1 && sp0 < nl0 && valueStr[sp0 + 1] === "!") {
              sp0 = valueStr.indexOf(" ", sp0 + 1);
            }
            if (sp0 === -1 || nl0 < sp0)
              hasPropsLine = true;
          }
          if (!hasPropsLine)
            ws = `
${ctx.indent}`;
        }
      } else if (valueStr === "" || valueStr[0] === "\n") {
        ws = "";
      }
      str += ws + valueStr;
      if (ctx.inFlow) {
        if (valueCommentDone && onComment)
          onComment();
      } else if (valueComment && !valueCommentDone) {
        str += stringifyComment.lineComment(str, ctx.indent, commentString(valueComment));
      } else if (chompKeep && onChompKeep) {
        onChompKeep();
      }
      return str;
    }
    exports.stringifyPair = stringifyPair;
  }
});

// node_modules/yaml/dist/log.js
var require_log = __commonJS({
  "node_modules/yaml/dist/log.js"(exports) {
    "use strict";
    var node_process = __require("process");
    function debug(logLevel, ...messages) {
      if (logLevel === "debug")
        console.log(...messages);
    }
    function warn(logLevel, warning) {
      if (logLevel === "debug" || logLevel === "warn") {
        if (typeof node_process.emitWarning === "function")
          node_process.emitWarning(warning);
        else
          console.warn(warning);
      }
    }
    exports.debug = debug;
    exports.warn = warn;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/merge.js
var require_merge = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/merge.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var MERGE_KEY = "<<";
    var merge = {
      identify: (value) => value === MERGE_KEY || typeof value === "symbol" && value.description === MERGE_KEY,
      default: "key",
      tag: "tag:yaml.org,2002:merge",
      test: /^<<$/,
      resolve: () => Object.assign(new Scalar.Scalar(Symbol(MERGE_KEY)), {
        addToJSMap: addMergeToJSMap
      }),
      stringify: () => MERGE_KEY
    };
    var isMergeKey = (ctx, key) => (merge.identify(key) || identity.isScalar(key) && (!key.type || key.type === Scalar.Scalar.PLAIN) && merge.identify(key.value)) && ctx?.doc.schema.tags.some((tag) => tag.tag === merge.tag && tag.default);
    function addMergeToJSMap(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (identity.isSeq(source))
        for (const it of source.items)
          mergeValue(ctx, map, it);
      else if (Array.isArray(source))
        for (const it of source)
          mergeValue(ctx, map, it);
      else
        mergeValue(ctx, map, source);
    }
    function mergeValue(ctx, map, value) {
      const source = resolveAliasValue(ctx, value);
      if (!identity.isMap(source))
        throw new Error("Merge sources must be maps or map aliases");
      const srcMap = source.toJSON(null, ctx, Map);
      for (const [key, value2] of srcMap) {
        if (map instanceof Map) {
          if (!map.has(key))
            map.set(key, value2);
        } else if (map instanceof Set) {
          map.add(key);
        } else if (!Object.prototype.hasOwnProperty.call(map, key)) {
          Object.defineProperty(map, key, {
            value: value2,
            writable: true,
            enumerable: true,
            configurable: true
          });
        }
      }
      return map;
    }
    function resolveAliasValue(ctx, value) {
      return ctx && identity.isAlias(value) ? value.resolve(ctx.doc, ctx) : value;
    }
    exports.addMergeToJSMap = addMergeToJSMap;
    exports.isMergeKey = isMergeKey;
    exports.merge = merge;
  }
});

// node_modules/yaml/dist/nodes/addPairToJSMap.js
var require_addPairToJSMap = __commonJS({
  "node_modules/yaml/dist/nodes/addPairToJSMap.js"(exports) {
    "use strict";
    var log = require_log();
    var merge = require_merge();
    var stringify2 = require_stringify();
    var identity = require_identity();
    var toJS = require_toJS();
    function addPairToJSMap(ctx, map, { key, value }) {
      if (identity.isNode(key) && key.addToJSMap)
        key.addToJSMap(ctx, map, value);
      else if (merge.isMergeKey(ctx, key))
        merge.addMergeToJSMap(ctx, map, value);
      else {
        const jsKey = toJS.toJS(key, "", ctx);
        if (map instanceof Map) {
          map.set(jsKey, toJS.toJS(value, jsKey, ctx));
        } else if (map instanceof Set) {
          map.add(jsKey);
        } else {
          const stringKey = stringifyKey(key, jsKey, ctx);
          const jsValue = toJS.toJS(value, stringKey, ctx);
          if (stringKey in map)
            Object.defineProperty(map, stringKey, {
              value: jsValue,
              writable: true,
              enumerable: true,
              configurable: true
            });
          else
            map[stringKey] = jsValue;
        }
      }
      return map;
    }
    function stringifyKey(key, jsKey, ctx) {
      if (jsKey === null)
        return "";
      if (typeof jsKey !== "object")
        return String(jsKey);
      if (identity.isNode(key) && ctx?.doc) {
        const strCtx = stringify2.createStringifyContext(ctx.doc, {});
        strCtx.anchors = /* @__PURE__ */ new Set();
        for (const node of ctx.anchors.keys())
          strCtx.anchors.add(node.anchor);
        strCtx.inFlow = true;
        strCtx.inStringifyKey = true;
        const strKey = key.toString(strCtx);
        if (!ctx.mapKeyWarned) {
          let jsonStr = JSON.stringify(strKey);
          if (jsonStr.length > 40)
            jsonStr = jsonStr.substring(0, 36) + '..."';
          log.warn(ctx.doc.options.logLevel, `Keys with collection values will be stringified due to JS Object restrictions: ${jsonStr}. Set mapAsMap: true to use object keys.`);
          ctx.mapKeyWarned = true;
        }
        return strKey;
      }
      return JSON.stringify(jsKey);
    }
    exports.addPairToJSMap = addPairToJSMap;
  }
});

// node_modules/yaml/dist/nodes/Pair.js
var require_Pair = __commonJS({
  "node_modules/yaml/dist/nodes/Pair.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyPair = require_stringifyPair();
    var addPairToJSMap = require_addPairToJSMap();
    var identity = require_identity();
    function createPair(key, value, ctx) {
      const k = createNode.createNode(key, void 0, ctx);
      const v = createNode.createNode(value, void 0, ctx);
      return new Pair(k, v);
    }
    var Pair = class _Pair {
      constructor(key, value = null) {
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.PAIR });
        this.key = key;
        this.value = value;
      }
      clone(schema) {
        let { key, value } = this;
        if (identity.isNode(key))
          key = key.clone(schema);
        if (identity.isNode(value))
          value = value.clone(schema);
        return new _Pair(key, value);
      }
      toJSON(_, ctx) {
        const pair = ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        return addPairToJSMap.addPairToJSMap(ctx, pair, this);
      }
      toString(ctx, onComment, onChompKeep) {
        return ctx?.doc ? stringifyPair.stringifyPair(this, ctx, onComment, onChompKeep) : JSON.stringify(this);
      }
    };
    exports.Pair = Pair;
    exports.createPair = createPair;
  }
});

// node_modules/yaml/dist/stringify/stringifyCollection.js
var require_stringifyCollection = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyCollection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyCollection(collection, ctx, options) {
      const flow = ctx.inFlow ?? collection.flow;
      const stringify3 = flow ? stringifyFlowCollection : stringifyBlockCollection;
      return stringify3(collection, ctx, options);
    }
    function stringifyBlockCollection({ comment, items }, ctx, { blockItemPrefix, flowChars, itemIndent, onChompKeep, onComment }) {
      const { indent, options: { commentString } } = ctx;
      const itemCtx = Object.assign({}, ctx, { indent: itemIndent, type: null });
      let chompKeep = false;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment2 = null;
        if (identity.isNode(item)) {
          if (!chompKeep && item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, chompKeep);
          if (item.comment)
            comment2 = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (!chompKeep && ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, chompKeep);
          }
        }
        chompKeep = false;
        let str2 = stringify2.stringify(item, itemCtx, () => comment2 = null, () => chompKeep = true);
        if (comment2)
          str2 += stringifyComment.lineComment(str2, itemIndent, commentString(comment2));
        if (chompKeep && comment2)
          chompKeep = false;
        lines.push(blockItemPrefix + str2);
      }
      let str;
      if (lines.length === 0) {
        str = flowChars.start + flowChars.end;
      } else {
        str = lines[0];
        for (let i = 1; i < lines.length; ++i) {
          const line = lines[i];
          str += line ? `
${indent}${line}` : "\n";
        }
      }
      if (comment) {
        str += "\n" + stringifyComment.indentComment(commentString(comment), indent);
        if (onComment)
          onComment();
      } else if (chompKeep && onChompKeep)
        onChompKeep();
      return str;
    }
    function stringifyFlowCollection({ items }, ctx, { flowChars, itemIndent }) {
      const { indent, indentStep, flowCollectionPadding: fcPadding, options: { commentString } } = ctx;
      itemIndent += indentStep;
      const itemCtx = Object.assign({}, ctx, {
        indent: itemIndent,
        inFlow: true,
        type: null
      });
      let reqNewline = false;
      let linesAtValue = 0;
      const lines = [];
      for (let i = 0; i < items.length; ++i) {
        const item = items[i];
        let comment = null;
        if (identity.isNode(item)) {
          if (item.spaceBefore)
            lines.push("");
          addCommentBefore(ctx, lines, item.commentBefore, false);
          if (item.comment)
            comment = item.comment;
        } else if (identity.isPair(item)) {
          const ik = identity.isNode(item.key) ? item.key : null;
          if (ik) {
            if (ik.spaceBefore)
              lines.push("");
            addCommentBefore(ctx, lines, ik.commentBefore, false);
            if (ik.comment)
              reqNewline = true;
          }
          const iv = identity.isNode(item.value) ? item.value : null;
          if (iv) {
            if (iv.comment)
              comment = iv.comment;
            if (iv.commentBefore)
              reqNewline = true;
          } else if (item.value == null && ik?.comment) {
            comment = ik.comment;
          }
        }
        if (comment)
          reqNewline = true;
        let str = stringify2.stringify(item, itemCtx, () => comment = null);
        reqNewline || (reqNewline = lines.length > linesAtValue || str.includes("\n"));
        if (i < items.length - 1) {
          str += ",";
        } else if (ctx.options.trailingComma) {
          if (ctx.options.lineWidth > 0) {
            reqNewline || (reqNewline = lines.reduce((sum, line) => sum + line.length + 2, 2) + (str.length + 2) > ctx.options.lineWidth);
          }
          if (reqNewline) {
            str += ",";
          }
        }
        if (comment)
          str += stringifyComment.lineComment(str, itemIndent, commentString(comment));
        lines.push(str);
        linesAtValue = lines.length;
      }
      const { start, end } = flowChars;
      if (lines.length === 0) {
        return start + end;
      } else {
        if (!reqNewline) {
          const len = lines.reduce((sum, line) => sum + line.length + 2, 2);
          reqNewline = ctx.options.lineWidth > 0 && len > ctx.options.lineWidth;
        }
        if (reqNewline) {
          let str = start;
          for (const line of lines)
            str += line ? `
${indentStep}${indent}${line}` : "\n";
          return `${str}
${indent}${end}`;
        } else {
          return `${start}${fcPadding}${lines.join(" ")}${fcPadding}${end}`;
        }
      }
    }
    function addCommentBefore({ indent, options: { commentString } }, lines, comment, chompKeep) {
      if (comment && chompKeep)
        comment = comment.replace(/^\n+/, "");
      if (comment) {
        const ic = stringifyComment.indentComment(commentString(comment), indent);
        lines.push(ic.trimStart());
      }
    }
    exports.stringifyCollection = stringifyCollection;
  }
});

// node_modules/yaml/dist/nodes/YAMLMap.js
var require_YAMLMap = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLMap.js"(exports) {
    "use strict";
    var stringifyCollection = require_stringifyCollection();
    var addPairToJSMap = require_addPairToJSMap();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    function findPair(items, key) {
      const k = identity.isScalar(key) ? key.value : key;
      for (const it of items) {
        if (identity.isPair(it)) {
          if (it.key === key || it.key === k)
            return it;
          if (identity.isScalar(it.key) && it.key.value === k)
            return it;
        }
      }
      return void 0;
    }
    var YAMLMap = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:map";
      }
      constructor(schema) {
        super(identity.MAP, schema);
        this.items = [];
      }
      /**
       * A generic collection parsing method that can be extended
       * to other node classes that inherit from YAMLMap
       */
      static from(schema, obj, ctx) {
        const { keepUndefined, replacer } = ctx;
        const map = new this(schema);
        const add = (key, value) => {
          if (typeof replacer === "function")
            value = replacer.call(obj, key, value);
          else if (Array.isArray(replacer) && !replacer.includes(key))
            return;
          if (value !== void 0 || keepUndefined)
            map.items.push(Pair.createPair(key, value, ctx));
        };
        if (obj instanceof Map) {
          for (const [key, value] of obj)
            add(key, value);
        } else if (obj && typeof obj === "object") {
          for (const key of Object.keys(obj))
            add(key, obj[key]);
        }
        if (typeof schema.sortMapEntries === "function") {
          map.items.sort(schema.sortMapEntries);
        }
        return map;
      }
      /**
       * Adds a value to the collection.
       *
       * @param overwrite - If not set `true`, using a key that is already in the
       *   collection will throw. Otherwise, overwrites the previous value.
       */
      add(pair, overwrite) {
        let _pair;
        if (identity.isPair(pair))
          _pair = pair;
        else if (!pair || typeof pair !== "object" || !("key" in pair)) {
          _pair = new Pair.Pair(pair, pair?.value);
        } else
          _pair = new Pair.Pair(pair.key, pair.value);
        const prev = findPair(this.items, _pair.key);
        const sortEntries = this.schema?.sortMapEntries;
        if (prev) {
          if (!overwrite)
            throw new Error(`Key ${_pair.key} already set`);
          if (identity.isScalar(prev.value) && Scalar.isScalarValue(_pair.value))
            prev.value.value = _pair.value;
          else
            prev.value = _pair.value;
        } else if (sortEntries) {
          const i = this.items.findIndex((item) => sortEntries(_pair, item) < 0);
          if (i === -1)
            this.items.push(_pair);
          else
            this.items.splice(i, 0, _pair);
        } else {
          this.items.push(_pair);
        }
      }
      delete(key) {
        const it = findPair(this.items, key);
        if (!it)
          return false;
        const del = this.items.splice(this.items.indexOf(it), 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const it = findPair(this.items, key);
        const node = it?.value;
        return (!keepScalar && identity.isScalar(node) ? node.value : node) ?? void 0;
      }
      has(key) {
        return !!findPair(this.items, key);
      }
      set(key, value) {
        this.add(new Pair.Pair(key, value), true);
      }
      /**
       * @param ctx - Conversion context, originally set in Document#toJS()
       * @param {Class} Type - If set, forces the returned collection type
       * @returns Instance of Type, Map, or Object
       */
      toJSON(_, ctx, Type) {
        const map = Type ? new Type() : ctx?.mapAsMap ? /* @__PURE__ */ new Map() : {};
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const item of this.items)
          addPairToJSMap.addPairToJSMap(ctx, map, item);
        return map;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        for (const item of this.items) {
          if (!identity.isPair(item))
            throw new Error(`Map items must all be pairs; found ${JSON.stringify(item)} instead`);
        }
        if (!ctx.allNullValues && this.hasAllNullValues(false))
          ctx = Object.assign({}, ctx, { allNullValues: true });
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "",
          flowChars: { start: "{", end: "}" },
          itemIndent: ctx.indent || "",
          onChompKeep,
          onComment
        });
      }
    };
    exports.YAMLMap = YAMLMap;
    exports.findPair = findPair;
  }
});

// node_modules/yaml/dist/schema/common/map.js
var require_map = __commonJS({
  "node_modules/yaml/dist/schema/common/map.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLMap = require_YAMLMap();
    var map = {
      collection: "map",
      default: true,
      nodeClass: YAMLMap.YAMLMap,
      tag: "tag:yaml.org,2002:map",
      resolve(map2, onError) {
        if (!identity.isMap(map2))
          onError("Expected a mapping for this tag");
        return map2;
      },
      createNode: (schema, obj, ctx) => YAMLMap.YAMLMap.from(schema, obj, ctx)
    };
    exports.map = map;
  }
});

// node_modules/yaml/dist/nodes/YAMLSeq.js
var require_YAMLSeq = __commonJS({
  "node_modules/yaml/dist/nodes/YAMLSeq.js"(exports) {
    "use strict";
    var createNode = require_createNode();
    var stringifyCollection = require_stringifyCollection();
    var Collection = require_Collection();
    var identity = require_identity();
    var Scalar = require_Scalar();
    var toJS = require_toJS();
    var YAMLSeq = class extends Collection.Collection {
      static get tagName() {
        return "tag:yaml.org,2002:seq";
      }
      constructor(schema) {
        super(identity.SEQ, schema);
        this.items = [];
      }
      add(value) {
        this.items.push(value);
      }
      /**
       * Removes a value from the collection.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       *
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return false;
        const del = this.items.splice(idx, 1);
        return del.length > 0;
      }
      get(key, keepScalar) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          return void 0;
        const it = this.items[idx];
        return !keepScalar && identity.isScalar(it) ? it.value : it;
      }
      /**
       * Checks if the collection includes a value with the key `key`.
       *
       * `key` must contain a representation of an integer for this to succeed.
       * It may be wrapped in a `Scalar`.
       */
      has(key) {
        const idx = asItemIndex(key);
        return typeof idx === "number" && idx < this.items.length;
      }
      /**
       * Sets a value in this collection. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       *
       * If `key` does not contain a representation of an integer, this will throw.
       * It may be wrapped in a `Scalar`.
       */
      set(key, value) {
        const idx = asItemIndex(key);
        if (typeof idx !== "number")
          throw new Error(`Expected a valid index, not ${key}.`);
        const prev = this.items[idx];
        if (identity.isScalar(prev) && Scalar.isScalarValue(value))
          prev.value = value;
        else
          this.items[idx] = value;
      }
      toJSON(_, ctx) {
        const seq = [];
        if (ctx?.onCreate)
          ctx.onCreate(seq);
        let i = 0;
        for (const item of this.items)
          seq.push(toJS.toJS(item, String(i++), ctx));
        return seq;
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        return stringifyCollection.stringifyCollection(this, ctx, {
          blockItemPrefix: "- ",
          flowChars: { start: "[", end: "]" },
          itemIndent: (ctx.indent || "") + "  ",
          onChompKeep,
          onComment
        });
      }
      static from(schema, obj, ctx) {
        const { replacer } = ctx;
        const seq = new this(schema);
        if (obj && Symbol.iterator in Object(obj)) {
          let i = 0;
          for (let it of obj) {
            if (typeof replacer === "function") {
              const key = obj instanceof Set ? it : String(i++);
              it = replacer.call(obj, key, it);
            }
            seq.items.push(createNode.createNode(it, void 0, ctx));
          }
        }
        return seq;
      }
    };
    function asItemIndex(key) {
      let idx = identity.isScalar(key) ? key.value : key;
      if (idx && typeof idx === "string")
        idx = Number(idx);
      return typeof idx === "number" && Number.isInteger(idx) && idx >= 0 ? idx : null;
    }
    exports.YAMLSeq = YAMLSeq;
  }
});

// node_modules/yaml/dist/schema/common/seq.js
var require_seq = __commonJS({
  "node_modules/yaml/dist/schema/common/seq.js"(exports) {
    "use strict";
    var identity = require_identity();
    var YAMLSeq = require_YAMLSeq();
    var seq = {
      collection: "seq",
      default: true,
      nodeClass: YAMLSeq.YAMLSeq,
      tag: "tag:yaml.org,2002:seq",
      resolve(seq2, onError) {
        if (!identity.isSeq(seq2))
          onError("Expected a sequence for this tag");
        return seq2;
      },
      createNode: (schema, obj, ctx) => YAMLSeq.YAMLSeq.from(schema, obj, ctx)
    };
    exports.seq = seq;
  }
});

// node_modules/yaml/dist/schema/common/string.js
var require_string = __commonJS({
  "node_modules/yaml/dist/schema/common/string.js"(exports) {
    "use strict";
    var stringifyString = require_stringifyString();
    var string = {
      identify: (value) => typeof value === "string",
      default: true,
      tag: "tag:yaml.org,2002:str",
      resolve: (str) => str,
      stringify(item, ctx, onComment, onChompKeep) {
        ctx = Object.assign({ actualString: true }, ctx);
        return stringifyString.stringifyString(item, ctx, onComment, onChompKeep);
      }
    };
    exports.string = string;
  }
});

// node_modules/yaml/dist/schema/common/null.js
var require_null = __commonJS({
  "node_modules/yaml/dist/schema/common/null.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var nullTag = {
      identify: (value) => value == null,
      createNode: () => new Scalar.Scalar(null),
      default: true,
      tag: "tag:yaml.org,2002:null",
      test: /^(?:~|[Nn]ull|NULL)?$/,
      resolve: () => new Scalar.Scalar(null),
      stringify: ({ source }, ctx) => typeof source === "string" && nullTag.test.test(source) ? source : ctx.options.nullStr
    };
    exports.nullTag = nullTag;
  }
});

// node_modules/yaml/dist/schema/core/bool.js
var require_bool = __commonJS({
  "node_modules/yaml/dist/schema/core/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var boolTag = {
      identify: (value) => typeof value === "boolean",
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/,
      resolve: (str) => new Scalar.Scalar(str[0] === "t" || str[0] === "T"),
      stringify({ source, value }, ctx) {
        if (source && boolTag.test.test(source)) {
          const sv = source[0] === "t" || source[0] === "T";
          if (value === sv)
            return source;
        }
        return value ? ctx.options.trueStr : ctx.options.falseStr;
      }
    };
    exports.boolTag = boolTag;
  }
});

// node_modules/yaml/dist/stringify/stringifyNumber.js
var require_stringifyNumber = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyNumber.js"(exports) {
    "use strict";
    function stringifyNumber({ format, minFractionDigits, tag, value }) {
      if (typeof value === "bigint")
        return String(value);
      const num = typeof value === "number" ? value : Number(value);
      if (!isFinite(num))
        return isNaN(num) ? ".nan" : num < 0 ? "-.inf" : ".inf";
      let n = Object.is(value, -0) ? "-0" : JSON.stringify(value);
      if (!format && minFractionDigits && (!tag || tag === "tag:yaml.org,2002:float") && /^-?\d/.test(n) && !n.includes("e")) {
        let i = n.indexOf(".");
        if (i < 0) {
          i = n.length;
          n += ".";
        }
        let d = minFractionDigits - (n.length - i - 1);
        while (d-- > 0)
          n += "0";
      }
      return n;
    }
    exports.stringifyNumber = stringifyNumber;
  }
});

// node_modules/yaml/dist/schema/core/float.js
var require_float = __commonJS({
  "node_modules/yaml/dist/schema/core/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str),
      stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str));
        const dot = str.indexOf(".");
        if (dot !== -1 && str[str.length - 1] === "0")
          node.minFractionDigits = str.length - dot - 1;
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/core/int.js
var require_int = __commonJS({
  "node_modules/yaml/dist/schema/core/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    var intResolve = (str, offset, radix, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str.substring(offset), radix);
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value) && value >= 0)
        return prefix + value.toString(radix);
      return stringifyNumber.stringifyNumber(node);
    }
    var intOct = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^0o[0-7]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 8, opt),
      stringify: (node) => intStringify(node, 8, "0o")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: (value) => intIdentify(value) && value >= 0,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^0x[0-9a-fA-F]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/core/schema.js
var require_schema = __commonJS({
  "node_modules/yaml/dist/schema/core/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.boolTag,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/json/schema.js
var require_schema2 = __commonJS({
  "node_modules/yaml/dist/schema/json/schema.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var map = require_map();
    var seq = require_seq();
    function intIdentify(value) {
      return typeof value === "bigint" || Number.isInteger(value);
    }
    var stringifyJSON = ({ value }) => JSON.stringify(value);
    var jsonScalars = [
      {
        identify: (value) => typeof value === "string",
        default: true,
        tag: "tag:yaml.org,2002:str",
        resolve: (str) => str,
        stringify: stringifyJSON
      },
      {
        identify: (value) => value == null,
        createNode: () => new Scalar.Scalar(null),
        default: true,
        tag: "tag:yaml.org,2002:null",
        test: /^null$/,
        resolve: () => null,
        stringify: stringifyJSON
      },
      {
        identify: (value) => typeof value === "boolean",
        default: true,
        tag: "tag:yaml.org,2002:bool",
        test: /^true$|^false$/,
        resolve: (str) => str === "true",
        stringify: stringifyJSON
      },
      {
        identify: intIdentify,
        default: true,
        tag: "tag:yaml.org,2002:int",
        test: /^-?(?:0|[1-9][0-9]*)$/,
        resolve: (str, _onError, { intAsBigInt }) => intAsBigInt ? BigInt(str) : parseInt(str, 10),
        stringify: ({ value }) => intIdentify(value) ? value.toString() : JSON.stringify(value)
      },
      {
        identify: (value) => typeof value === "number",
        default: true,
        tag: "tag:yaml.org,2002:float",
        test: /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?$/,
        resolve: (str) => parseFloat(str),
        stringify: stringifyJSON
      }
    ];
    var jsonError = {
      default: true,
      tag: "",
      test: /^/,
      resolve(str, onError) {
        onError(`Unresolved plain scalar ${JSON.stringify(str)}`);
        return str;
      }
    };
    var schema = [map.map, seq.seq].concat(jsonScalars, jsonError);
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/binary.js
var require_binary = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/binary.js"(exports) {
    "use strict";
    var node_buffer = __require("buffer");
    var Scalar = require_Scalar();
    var stringifyString = require_stringifyString();
    var binary = {
      identify: (value) => value instanceof Uint8Array,
      // Buffer inherits from Uint8Array
      default: false,
      tag: "tag:yaml.org,2002:binary",
      /**
       * Returns a Buffer in node and an Uint8Array in browsers
       *
       * To use the resulting buffer as an image, you'll want to do something like:
       *
       *   const blob = new Blob([buffer], { type: 'image/jpeg' })
       *   document.querySelector('#photo').src = URL.createObjectURL(blob)
       */
      resolve(src, onError) {
        if (typeof node_buffer.Buffer === "function") {
          return node_buffer.Buffer.from(src, "base64");
        } else if (typeof atob === "function") {
          const str = atob(src.replace(/[\n\r]/g, ""));
          const buffer = new Uint8Array(str.length);
          for (let i = 0; i < str.length; ++i)
            buffer[i] = str.charCodeAt(i);
          return buffer;
        } else {
          onError("This environment does not support reading binary tags; either Buffer or atob is required");
          return src;
        }
      },
      stringify({ comment, type, value }, ctx, onComment, onChompKeep) {
        if (!value)
          return "";
        const buf = value;
        let str;
        if (typeof node_buffer.Buffer === "function") {
          str = buf instanceof node_buffer.Buffer ? buf.toString("base64") : node_buffer.Buffer.from(buf.buffer).toString("base64");
        } else if (typeof btoa === "function") {
          let s = "";
          for (let i = 0; i < buf.length; ++i)
            s += String.fromCharCode(buf[i]);
          str = btoa(s);
        } else {
          throw new Error("This environment does not support writing binary tags; either Buffer or btoa is required");
        }
        type ?? (type = Scalar.Scalar.BLOCK_LITERAL);
        if (type !== Scalar.Scalar.QUOTE_DOUBLE) {
          const lineWidth = Math.max(ctx.options.lineWidth - ctx.indent.length, ctx.options.minContentWidth);
          const n = Math.ceil(str.length / lineWidth);
          const lines = new Array(n);
          for (let i = 0, o = 0; i < n; ++i, o += lineWidth) {
            lines[i] = str.substr(o, lineWidth);
          }
          str = lines.join(type === Scalar.Scalar.BLOCK_LITERAL ? "\n" : " ");
        }
        return stringifyString.stringifyString({ comment, type, value: str }, ctx, onComment, onChompKeep);
      }
    };
    exports.binary = binary;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/pairs.js
var require_pairs = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/pairs.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLSeq = require_YAMLSeq();
    function resolvePairs(seq, onError) {
      if (identity.isSeq(seq)) {
        for (let i = 0; i < seq.items.length; ++i) {
          let item = seq.items[i];
          if (identity.isPair(item))
            continue;
          else if (identity.isMap(item)) {
            if (item.items.length > 1)
              onError("Each pair must have its own sequence indicator");
            const pair = item.items[0] || new Pair.Pair(new Scalar.Scalar(null));
            if (item.commentBefore)
              pair.key.commentBefore = pair.key.commentBefore ? `${item.commentBefore}
${pair.key.commentBefore}` : item.commentBefore;
            if (item.comment) {
              const cn = pair.value ?? pair.key;
              cn.comment = cn.comment ? `${item.comment}
${cn.comment}` : item.comment;
            }
            item = pair;
          }
          seq.items[i] = identity.isPair(item) ? item : new Pair.Pair(item);
        }
      } else
        onError("Expected a sequence for this tag");
      return seq;
    }
    function createPairs(schema, iterable, ctx) {
      const { replacer } = ctx;
      const pairs2 = new YAMLSeq.YAMLSeq(schema);
      pairs2.tag = "tag:yaml.org,2002:pairs";
      let i = 0;
      if (iterable && Symbol.iterator in Object(iterable))
        for (let it of iterable) {
          if (typeof replacer === "function")
            it = replacer.call(iterable, String(i++), it);
          let key, value;
          if (Array.isArray(it)) {
            if (it.length === 2) {
              key = it[0];
              value = it[1];
            } else
              throw new TypeError(`Expected [key, value] tuple: ${it}`);
          } else if (it && it instanceof Object) {
            const keys = Object.keys(it);
            if (keys.length === 1) {
              key = keys[0];
              value = it[key];
            } else {
              throw new TypeError(`Expected tuple with one key, not ${keys.length} keys`);
            }
          } else {
            key = it;
          }
          pairs2.items.push(Pair.createPair(key, value, ctx));
        }
      return pairs2;
    }
    var pairs = {
      collection: "seq",
      default: false,
      tag: "tag:yaml.org,2002:pairs",
      resolve: resolvePairs,
      createNode: createPairs
    };
    exports.createPairs = createPairs;
    exports.pairs = pairs;
    exports.resolvePairs = resolvePairs;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/omap.js
var require_omap = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/omap.js"(exports) {
    "use strict";
    var identity = require_identity();
    var toJS = require_toJS();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var pairs = require_pairs();
    var YAMLOMap = class _YAMLOMap extends YAMLSeq.YAMLSeq {
      constructor() {
        super();
        this.add = YAMLMap.YAMLMap.prototype.add.bind(this);
        this.delete = YAMLMap.YAMLMap.prototype.delete.bind(this);
        this.get = YAMLMap.YAMLMap.prototype.get.bind(this);
        this.has = YAMLMap.YAMLMap.prototype.has.bind(this);
        this.set = YAMLMap.YAMLMap.prototype.set.bind(this);
        this.tag = _YAMLOMap.tag;
      }
      /**
       * If `ctx` is given, the return type is actually `Map<unknown, unknown>`,
       * but TypeScript won't allow widening the signature of a child method.
       */
      toJSON(_, ctx) {
        if (!ctx)
          return super.toJSON(_);
        const map = /* @__PURE__ */ new Map();
        if (ctx?.onCreate)
          ctx.onCreate(map);
        for (const pair of this.items) {
          let key, value;
          if (identity.isPair(pair)) {
            key = toJS.toJS(pair.key, "", ctx);
            value = toJS.toJS(pair.value, key, ctx);
          } else {
            key = toJS.toJS(pair, "", ctx);
          }
          if (map.has(key))
            throw new Error("Ordered maps must not include duplicate keys");
          map.set(key, value);
        }
        return map;
      }
      static from(schema, iterable, ctx) {
        const pairs$1 = pairs.createPairs(schema, iterable, ctx);
        const omap2 = new this();
        omap2.items = pairs$1.items;
        return omap2;
      }
    };
    YAMLOMap.tag = "tag:yaml.org,2002:omap";
    var omap = {
      collection: "seq",
      identify: (value) => value instanceof Map,
      nodeClass: YAMLOMap,
      default: false,
      tag: "tag:yaml.org,2002:omap",
      resolve(seq, onError) {
        const pairs$1 = pairs.resolvePairs(seq, onError);
        const seenKeys = [];
        for (const { key } of pairs$1.items) {
          if (identity.isScalar(key)) {
            if (seenKeys.includes(key.value)) {
              onError(`Ordered maps must not include duplicate keys: ${key.value}`);
            } else {
              seenKeys.push(key.value);
            }
          }
        }
        return Object.assign(new YAMLOMap(), pairs$1);
      },
      createNode: (schema, iterable, ctx) => YAMLOMap.from(schema, iterable, ctx)
    };
    exports.YAMLOMap = YAMLOMap;
    exports.omap = omap;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/bool.js
var require_bool2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/bool.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function boolStringify({ value, source }, ctx) {
      const boolObj = value ? trueTag : falseTag;
      if (source && boolObj.test.test(source))
        return source;
      return value ? ctx.options.trueStr : ctx.options.falseStr;
    }
    var trueTag = {
      identify: (value) => value === true,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:Y|y|[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/,
      resolve: () => new Scalar.Scalar(true),
      stringify: boolStringify
    };
    var falseTag = {
      identify: (value) => value === false,
      default: true,
      tag: "tag:yaml.org,2002:bool",
      test: /^(?:N|n|[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/,
      resolve: () => new Scalar.Scalar(false),
      stringify: boolStringify
    };
    exports.falseTag = falseTag;
    exports.trueTag = trueTag;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/float.js
var require_float2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/float.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var stringifyNumber = require_stringifyNumber();
    var floatNaN = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/,
      resolve: (str) => str.slice(-3).toLowerCase() === "nan" ? NaN : str[0] === "-" ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY,
      stringify: stringifyNumber.stringifyNumber
    };
    var floatExp = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "EXP",
      test: /^[-+]?(?:[0-9][0-9_]*)?(?:\.[0-9_]*)?[eE][-+]?[0-9]+$/,
      resolve: (str) => parseFloat(str.replace(/_/g, "")),
      stringify(node) {
        const num = Number(node.value);
        return isFinite(num) ? num.toExponential() : stringifyNumber.stringifyNumber(node);
      }
    };
    var float = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      test: /^[-+]?(?:[0-9][0-9_]*)?\.[0-9_]*$/,
      resolve(str) {
        const node = new Scalar.Scalar(parseFloat(str.replace(/_/g, "")));
        const dot = str.indexOf(".");
        if (dot !== -1) {
          const f = str.substring(dot + 1).replace(/_/g, "");
          if (f[f.length - 1] === "0")
            node.minFractionDigits = f.length;
        }
        return node;
      },
      stringify: stringifyNumber.stringifyNumber
    };
    exports.float = float;
    exports.floatExp = floatExp;
    exports.floatNaN = floatNaN;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/int.js
var require_int2 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/int.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    var intIdentify = (value) => typeof value === "bigint" || Number.isInteger(value);
    function intResolve(str, offset, radix, { intAsBigInt }) {
      const sign = str[0];
      if (sign === "-" || sign === "+")
        offset += 1;
      str = str.substring(offset).replace(/_/g, "");
      if (intAsBigInt) {
        switch (radix) {
          case 2:
            str = `0b${str}`;
            break;
          case 8:
            str = `0o${str}`;
            break;
          case 16:
            str = `0x${str}`;
            break;
        }
        const n2 = BigInt(str);
        return sign === "-" ? BigInt(-1) * n2 : n2;
      }
      const n = parseInt(str, radix);
      return sign === "-" ? -1 * n : n;
    }
    function intStringify(node, radix, prefix) {
      const { value } = node;
      if (intIdentify(value)) {
        const str = value.toString(radix);
        return value < 0 ? "-" + prefix + str.substr(1) : prefix + str;
      }
      return stringifyNumber.stringifyNumber(node);
    }
    var intBin = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "BIN",
      test: /^[-+]?0b[0-1_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 2, opt),
      stringify: (node) => intStringify(node, 2, "0b")
    };
    var intOct = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "OCT",
      test: /^[-+]?0[0-7_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 1, 8, opt),
      stringify: (node) => intStringify(node, 8, "0")
    };
    var int = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      test: /^[-+]?[0-9][0-9_]*$/,
      resolve: (str, _onError, opt) => intResolve(str, 0, 10, opt),
      stringify: stringifyNumber.stringifyNumber
    };
    var intHex = {
      identify: intIdentify,
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "HEX",
      test: /^[-+]?0x[0-9a-fA-F_]+$/,
      resolve: (str, _onError, opt) => intResolve(str, 2, 16, opt),
      stringify: (node) => intStringify(node, 16, "0x")
    };
    exports.int = int;
    exports.intBin = intBin;
    exports.intHex = intHex;
    exports.intOct = intOct;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/set.js
var require_set = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/set.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSet = class _YAMLSet extends YAMLMap.YAMLMap {
      constructor(schema) {
        super(schema);
        this.tag = _YAMLSet.tag;
      }
      add(key) {
        let pair;
        if (identity.isPair(key))
          pair = key;
        else if (key && typeof key === "object" && "key" in key && "value" in key && key.value === null)
          pair = new Pair.Pair(key.key, null);
        else
          pair = new Pair.Pair(key, null);
        const prev = YAMLMap.findPair(this.items, pair.key);
        if (!prev)
          this.items.push(pair);
      }
      /**
       * If `keepPair` is `true`, returns the Pair matching `key`.
       * Otherwise, returns the value of that Pair's key.
       */
      get(key, keepPair) {
        const pair = YAMLMap.findPair(this.items, key);
        return !keepPair && identity.isPair(pair) ? identity.isScalar(pair.key) ? pair.key.value : pair.key : pair;
      }
      set(key, value) {
        if (typeof value !== "boolean")
          throw new Error(`Expected boolean value for set(key, value) in a YAML set, not ${typeof value}`);
        const prev = YAMLMap.findPair(this.items, key);
        if (prev && !value) {
          this.items.splice(this.items.indexOf(prev), 1);
        } else if (!prev && value) {
          this.items.push(new Pair.Pair(key));
        }
      }
      toJSON(_, ctx) {
        return super.toJSON(_, ctx, Set);
      }
      toString(ctx, onComment, onChompKeep) {
        if (!ctx)
          return JSON.stringify(this);
        if (this.hasAllNullValues(true))
          return super.toString(Object.assign({}, ctx, { allNullValues: true }), onComment, onChompKeep);
        else
          throw new Error("Set items must all have null values");
      }
      static from(schema, iterable, ctx) {
        const { replacer } = ctx;
        const set2 = new this(schema);
        if (iterable && Symbol.iterator in Object(iterable))
          for (let value of iterable) {
            if (typeof replacer === "function")
              value = replacer.call(iterable, value, value);
            set2.items.push(Pair.createPair(value, null, ctx));
          }
        return set2;
      }
    };
    YAMLSet.tag = "tag:yaml.org,2002:set";
    var set = {
      collection: "map",
      identify: (value) => value instanceof Set,
      nodeClass: YAMLSet,
      default: false,
      tag: "tag:yaml.org,2002:set",
      createNode: (schema, iterable, ctx) => YAMLSet.from(schema, iterable, ctx),
      resolve(map, onError) {
        if (identity.isMap(map)) {
          if (map.hasAllNullValues(true))
            return Object.assign(new YAMLSet(), map);
          else
            onError("Set items must all have null values");
        } else
          onError("Expected a mapping for this tag");
        return map;
      }
    };
    exports.YAMLSet = YAMLSet;
    exports.set = set;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/timestamp.js
var require_timestamp = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/timestamp.js"(exports) {
    "use strict";
    var stringifyNumber = require_stringifyNumber();
    function parseSexagesimal(str, asBigInt) {
      const sign = str[0];
      const parts = sign === "-" || sign === "+" ? str.substring(1) : str;
      const num = (n) => asBigInt ? BigInt(n) : Number(n);
      const res = parts.replace(/_/g, "").split(":").reduce((res2, p) => res2 * num(60) + num(p), num(0));
      return sign === "-" ? num(-1) * res : res;
    }
    function stringifySexagesimal(node) {
      let { value } = node;
      let num = (n) => n;
      if (typeof value === "bigint")
        num = (n) => BigInt(n);
      else if (isNaN(value) || !isFinite(value))
        return stringifyNumber.stringifyNumber(node);
      let sign = "";
      if (value < 0) {
        sign = "-";
        value *= num(-1);
      }
      const _60 = num(60);
      const parts = [value % _60];
      if (value < 60) {
        parts.unshift(0);
      } else {
        value = (value - parts[0]) / _60;
        parts.unshift(value % _60);
        if (value >= 60) {
          value = (value - parts[0]) / _60;
          parts.unshift(value);
        }
      }
      return sign + parts.map((n) => String(n).padStart(2, "0")).join(":").replace(/000000\d*$/, "");
    }
    var intTime = {
      identify: (value) => typeof value === "bigint" || Number.isInteger(value),
      default: true,
      tag: "tag:yaml.org,2002:int",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+$/,
      resolve: (str, _onError, { intAsBigInt }) => parseSexagesimal(str, intAsBigInt),
      stringify: stringifySexagesimal
    };
    var floatTime = {
      identify: (value) => typeof value === "number",
      default: true,
      tag: "tag:yaml.org,2002:float",
      format: "TIME",
      test: /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
      resolve: (str) => parseSexagesimal(str, false),
      stringify: stringifySexagesimal
    };
    var timestamp = {
      identify: (value) => value instanceof Date,
      default: true,
      tag: "tag:yaml.org,2002:timestamp",
      // If the time zone is omitted, the timestamp is assumed to be specified in UTC. The time part
      // may be omitted altogether, resulting in a date format. In such a case, the time part is
      // assumed to be 00:00:00Z (start of day, UTC).
      test: RegExp("^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:(?:t|T|[ \\t]+)([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(\\.[0-9]+)?)(?:[ \\t]*(Z|[-+][012]?[0-9](?::[0-9]{2})?))?)?$"),
      resolve(str) {
        const match = str.match(timestamp.test);
        if (!match)
          throw new Error("!!timestamp expects a date, starting with yyyy-mm-dd");
        const [, year, month, day, hour, minute, second] = match.map(Number);
        const millisec = match[7] ? Number((match[7] + "00").substr(1, 3)) : 0;
        let date = Date.UTC(year, month - 1, day, hour || 0, minute || 0, second || 0, millisec);
        const tz = match[8];
        if (tz && tz !== "Z") {
          let d = parseSexagesimal(tz, false);
          if (Math.abs(d) < 30)
            d *= 60;
          date -= 6e4 * d;
        }
        return new Date(date);
      },
      stringify: ({ value }) => value?.toISOString().replace(/(T00:00:00)?\.000Z$/, "") ?? ""
    };
    exports.floatTime = floatTime;
    exports.intTime = intTime;
    exports.timestamp = timestamp;
  }
});

// node_modules/yaml/dist/schema/yaml-1.1/schema.js
var require_schema3 = __commonJS({
  "node_modules/yaml/dist/schema/yaml-1.1/schema.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var binary = require_binary();
    var bool = require_bool2();
    var float = require_float2();
    var int = require_int2();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var set = require_set();
    var timestamp = require_timestamp();
    var schema = [
      map.map,
      seq.seq,
      string.string,
      _null.nullTag,
      bool.trueTag,
      bool.falseTag,
      int.intBin,
      int.intOct,
      int.int,
      int.intHex,
      float.floatNaN,
      float.floatExp,
      float.float,
      binary.binary,
      merge.merge,
      omap.omap,
      pairs.pairs,
      set.set,
      timestamp.intTime,
      timestamp.floatTime,
      timestamp.timestamp
    ];
    exports.schema = schema;
  }
});

// node_modules/yaml/dist/schema/tags.js
var require_tags = __commonJS({
  "node_modules/yaml/dist/schema/tags.js"(exports) {
    "use strict";
    var map = require_map();
    var _null = require_null();
    var seq = require_seq();
    var string = require_string();
    var bool = require_bool();
    var float = require_float();
    var int = require_int();
    var schema = require_schema();
    var schema$1 = require_schema2();
    var binary = require_binary();
    var merge = require_merge();
    var omap = require_omap();
    var pairs = require_pairs();
    var schema$2 = require_schema3();
    var set = require_set();
    var timestamp = require_timestamp();
    var schemas = /* @__PURE__ */ new Map([
      ["core", schema.schema],
      ["failsafe", [map.map, seq.seq, string.string]],
      ["json", schema$1.schema],
      ["yaml11", schema$2.schema],
      ["yaml-1.1", schema$2.schema]
    ]);
    var tagsByName = {
      binary: binary.binary,
      bool: bool.boolTag,
      float: float.float,
      floatExp: float.floatExp,
      floatNaN: float.floatNaN,
      floatTime: timestamp.floatTime,
      int: int.int,
      intHex: int.intHex,
      intOct: int.intOct,
      intTime: timestamp.intTime,
      map: map.map,
      merge: merge.merge,
      null: _null.nullTag,
      omap: omap.omap,
      pairs: pairs.pairs,
      seq: seq.seq,
      set: set.set,
      timestamp: timestamp.timestamp
    };
    var coreKnownTags = {
      "tag:yaml.org,2002:binary": binary.binary,
      "tag:yaml.org,2002:merge": merge.merge,
      "tag:yaml.org,2002:omap": omap.omap,
      "tag:yaml.org,2002:pairs": pairs.pairs,
      "tag:yaml.org,2002:set": set.set,
      "tag:yaml.org,2002:timestamp": timestamp.timestamp
    };
    function getTags(customTags, schemaName, addMergeTag) {
      const schemaTags = schemas.get(schemaName);
      if (schemaTags && !customTags) {
        return addMergeTag && !schemaTags.includes(merge.merge) ? schemaTags.concat(merge.merge) : schemaTags.slice();
      }
      let tags = schemaTags;
      if (!tags) {
        if (Array.isArray(customTags))
          tags = [];
        else {
          const keys = Array.from(schemas.keys()).filter((key) => key !== "yaml11").map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown schema "${schemaName}"; use one of ${keys} or define customTags array`);
        }
      }
      if (Array.isArray(customTags)) {
        for (const tag of customTags)
          tags = tags.concat(tag);
      } else if (typeof customTags === "function") {
        tags = customTags(tags.slice());
      }
      if (addMergeTag)
        tags = tags.concat(merge.merge);
      return tags.reduce((tags2, tag) => {
        const tagObj = typeof tag === "string" ? tagsByName[tag] : tag;
        if (!tagObj) {
          const tagName = JSON.stringify(tag);
          const keys = Object.keys(tagsByName).map((key) => JSON.stringify(key)).join(", ");
          throw new Error(`Unknown custom tag ${tagName}; use one of ${keys}`);
        }
        if (!tags2.includes(tagObj))
          tags2.push(tagObj);
        return tags2;
      }, []);
    }
    exports.coreKnownTags = coreKnownTags;
    exports.getTags = getTags;
  }
});

// node_modules/yaml/dist/schema/Schema.js
var require_Schema = __commonJS({
  "node_modules/yaml/dist/schema/Schema.js"(exports) {
    "use strict";
    var identity = require_identity();
    var map = require_map();
    var seq = require_seq();
    var string = require_string();
    var tags = require_tags();
    var sortMapEntriesByKey = (a, b) => a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    var Schema = class _Schema {
      constructor({ compat, customTags, merge, resolveKnownTags, schema, sortMapEntries, toStringDefaults }) {
        this.compat = Array.isArray(compat) ? tags.getTags(compat, "compat") : compat ? tags.getTags(null, compat) : null;
        this.name = typeof schema === "string" && schema || "core";
        this.knownTags = resolveKnownTags ? tags.coreKnownTags : {};
        this.tags = tags.getTags(customTags, this.name, merge);
        this.toStringOptions = toStringDefaults ?? null;
        Object.defineProperty(this, identity.MAP, { value: map.map });
        Object.defineProperty(this, identity.SCALAR, { value: string.string });
        Object.defineProperty(this, identity.SEQ, { value: seq.seq });
        this.sortMapEntries = typeof sortMapEntries === "function" ? sortMapEntries : sortMapEntries === true ? sortMapEntriesByKey : null;
      }
      clone() {
        const copy = Object.create(_Schema.prototype, Object.getOwnPropertyDescriptors(this));
        copy.tags = this.tags.slice();
        return copy;
      }
    };
    exports.Schema = Schema;
  }
});

// node_modules/yaml/dist/stringify/stringifyDocument.js
var require_stringifyDocument = __commonJS({
  "node_modules/yaml/dist/stringify/stringifyDocument.js"(exports) {
    "use strict";
    var identity = require_identity();
    var stringify2 = require_stringify();
    var stringifyComment = require_stringifyComment();
    function stringifyDocument(doc, options) {
      const lines = [];
      let hasDirectives = options.directives === true;
      if (options.directives !== false && doc.directives) {
        const dir = doc.directives.toString(doc);
        if (dir) {
          lines.push(dir);
          hasDirectives = true;
        } else if (doc.directives.docStart)
          hasDirectives = true;
      }
      if (hasDirectives)
        lines.push("---");
      const ctx = stringify2.createStringifyContext(doc, options);
      const { commentString } = ctx.options;
      if (doc.commentBefore) {
        if (lines.length !== 1)
          lines.unshift("");
        const cs = commentString(doc.commentBefore);
        lines.unshift(stringifyComment.indentComment(cs, ""));
      }
      let chompKeep = false;
      let contentComment = null;
      if (doc.contents) {
        if (identity.isNode(doc.contents)) {
          if (doc.contents.spaceBefore && hasDirectives)
            lines.push("");
          if (doc.contents.commentBefore) {
            const cs = commentString(doc.contents.commentBefore);
            lines.push(stringifyComment.indentComment(cs, ""));
          }
          ctx.forceBlockIndent = !!doc.comment;
          contentComment = doc.contents.comment;
        }
        const onChompKeep = contentComment ? void 0 : () => chompKeep = true;
        let body = stringify2.stringify(doc.contents, ctx, () => contentComment = null, onChompKeep);
        if (contentComment)
          body += stringifyComment.lineComment(body, "", commentString(contentComment));
        if ((body[0] === "|" || body[0] === ">") && lines[lines.length - 1] === "---") {
          lines[lines.length - 1] = `--- ${body}`;
        } else
          lines.push(body);
      } else {
        lines.push(stringify2.stringify(doc.contents, ctx));
      }
      if (doc.directives?.docEnd) {
        if (doc.comment) {
          const cs = commentString(doc.comment);
          if (cs.includes("\n")) {
            lines.push("...");
            lines.push(stringifyComment.indentComment(cs, ""));
          } else {
            lines.push(`... ${cs}`);
          }
        } else {
          lines.push("...");
        }
      } else {
        let dc = doc.comment;
        if (dc && chompKeep)
          dc = dc.replace(/^\n+/, "");
        if (dc) {
          if ((!chompKeep || contentComment) && lines[lines.length - 1] !== "")
            lines.push("");
          lines.push(stringifyComment.indentComment(commentString(dc), ""));
        }
      }
      return lines.join("\n") + "\n";
    }
    exports.stringifyDocument = stringifyDocument;
  }
});

// node_modules/yaml/dist/doc/Document.js
var require_Document = __commonJS({
  "node_modules/yaml/dist/doc/Document.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var Collection = require_Collection();
    var identity = require_identity();
    var Pair = require_Pair();
    var toJS = require_toJS();
    var Schema = require_Schema();
    var stringifyDocument = require_stringifyDocument();
    var anchors = require_anchors();
    var applyReviver = require_applyReviver();
    var createNode = require_createNode();
    var directives = require_directives();
    var Document = class _Document {
      constructor(value, replacer, options) {
        this.commentBefore = null;
        this.comment = null;
        this.errors = [];
        this.warnings = [];
        Object.defineProperty(this, identity.NODE_TYPE, { value: identity.DOC });
        let _replacer = null;
        if (typeof replacer === "function" || Array.isArray(replacer)) {
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const opt = Object.assign({
          intAsBigInt: false,
          keepSourceTokens: false,
          logLevel: "warn",
          prettyErrors: true,
          strict: true,
          stringKeys: false,
          uniqueKeys: true,
          version: "1.2"
        }, options);
        this.options = opt;
        let { version } = opt;
        if (options?._directives) {
          this.directives = options._directives.atDocument();
          if (this.directives.yaml.explicit)
            version = this.directives.yaml.version;
        } else
          this.directives = new directives.Directives({ version });
        this.setSchema(version, options);
        this.contents = value === void 0 ? null : this.createNode(value, _replacer, options);
      }
      /**
       * Create a deep copy of this Document and its contents.
       *
       * Custom Node values that inherit from `Object` still refer to their original instances.
       */
      clone() {
        const copy = Object.create(_Document.prototype, {
          [identity.NODE_TYPE]: { value: identity.DOC }
        });
        copy.commentBefore = this.commentBefore;
        copy.comment = this.comment;
        copy.errors = this.errors.slice();
        copy.warnings = this.warnings.slice();
        copy.options = Object.assign({}, this.options);
        if (this.directives)
          copy.directives = this.directives.clone();
        copy.schema = this.schema.clone();
        copy.contents = identity.isNode(this.contents) ? this.contents.clone(copy.schema) : this.contents;
        if (this.range)
          copy.range = this.range.slice();
        return copy;
      }
      /** Adds a value to the document. */
      add(value) {
        if (assertCollection(this.contents))
          this.contents.add(value);
      }
      /** Adds a value to the document. */
      addIn(path32, value) {
        if (assertCollection(this.contents))
          this.contents.addIn(path32, value);
      }
      /**
       * Create a new `Alias` node, ensuring that the target `node` has the required anchor.
       *
       * If `node` already has an anchor, `name` is ignored.
       * Otherwise, the `node.anchor` value will be set to `name`,
       * or if an anchor with that name is already present in the document,
       * `name` will be used as a prefix for a new unique anchor.
       * If `name` is undefined, the generated anchor will use 'a' as a prefix.
       */
      createAlias(node, name) {
        if (!node.anchor) {
          const prev = anchors.anchorNames(this);
          node.anchor = // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          !name || prev.has(name) ? anchors.findNewAnchor(name || "a", prev) : name;
        }
        return new Alias.Alias(node.anchor);
      }
      createNode(value, replacer, options) {
        let _replacer = void 0;
        if (typeof replacer === "function") {
          value = replacer.call({ "": value }, "", value);
          _replacer = replacer;
        } else if (Array.isArray(replacer)) {
          const keyToStr = (v) => typeof v === "number" || v instanceof String || v instanceof Number;
          const asStr = replacer.filter(keyToStr).map(String);
          if (asStr.length > 0)
            replacer = replacer.concat(asStr);
          _replacer = replacer;
        } else if (options === void 0 && replacer) {
          options = replacer;
          replacer = void 0;
        }
        const { aliasDuplicateObjects, anchorPrefix, flow, keepUndefined, onTagObj, tag } = options ?? {};
        const { onAnchor, setAnchors, sourceObjects } = anchors.createNodeAnchors(
          this,
          // eslint-disable-next-line @typescript-eslint/prefer-nullish-coalescing
          anchorPrefix || "a"
        );
        const ctx = {
          aliasDuplicateObjects: aliasDuplicateObjects ?? true,
          keepUndefined: keepUndefined ?? false,
          onAnchor,
          onTagObj,
          replacer: _replacer,
          schema: this.schema,
          sourceObjects
        };
        const node = createNode.createNode(value, tag, ctx);
        if (flow && identity.isCollection(node))
          node.flow = true;
        setAnchors();
        return node;
      }
      /**
       * Convert a key and a value into a `Pair` using the current schema,
       * recursively wrapping all values as `Scalar` or `Collection` nodes.
       */
      createPair(key, value, options = {}) {
        const k = this.createNode(key, null, options);
        const v = this.createNode(value, null, options);
        return new Pair.Pair(k, v);
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      delete(key) {
        return assertCollection(this.contents) ? this.contents.delete(key) : false;
      }
      /**
       * Removes a value from the document.
       * @returns `true` if the item was found and removed.
       */
      deleteIn(path32) {
        if (Collection.isEmptyPath(path32)) {
          if (this.contents == null)
            return false;
          this.contents = null;
          return true;
        }
        return assertCollection(this.contents) ? this.contents.deleteIn(path32) : false;
      }
      /**
       * Returns item at `key`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      get(key, keepScalar) {
        return identity.isCollection(this.contents) ? this.contents.get(key, keepScalar) : void 0;
      }
      /**
       * Returns item at `path`, or `undefined` if not found. By default unwraps
       * scalar values from their surrounding node; to disable set `keepScalar` to
       * `true` (collections are always returned intact).
       */
      getIn(path32, keepScalar) {
        if (Collection.isEmptyPath(path32))
          return !keepScalar && identity.isScalar(this.contents) ? this.contents.value : this.contents;
        return identity.isCollection(this.contents) ? this.contents.getIn(path32, keepScalar) : void 0;
      }
      /**
       * Checks if the document includes a value with the key `key`.
       */
      has(key) {
        return identity.isCollection(this.contents) ? this.contents.has(key) : false;
      }
      /**
       * Checks if the document includes a value at `path`.
       */
      hasIn(path32) {
        if (Collection.isEmptyPath(path32))
          return this.contents !== void 0;
        return identity.isCollection(this.contents) ? this.contents.hasIn(path32) : false;
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      set(key, value) {
        if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, [key], value);
        } else if (assertCollection(this.contents)) {
          this.contents.set(key, value);
        }
      }
      /**
       * Sets a value in this document. For `!!set`, `value` needs to be a
       * boolean to add/remove the item from the set.
       */
      setIn(path32, value) {
        if (Collection.isEmptyPath(path32)) {
          this.contents = value;
        } else if (this.contents == null) {
          this.contents = Collection.collectionFromPath(this.schema, Array.from(path32), value);
        } else if (assertCollection(this.contents)) {
          this.contents.setIn(path32, value);
        }
      }
      /**
       * Change the YAML version and schema used by the document.
       * A `null` version disables support for directives, explicit tags, anchors, and aliases.
       * It also requires the `schema` option to be given as a `Schema` instance value.
       *
       * Overrides all previously set schema options.
       */
      setSchema(version, options = {}) {
        if (typeof version === "number")
          version = String(version);
        let opt;
        switch (version) {
          case "1.1":
            if (this.directives)
              this.directives.yaml.version = "1.1";
            else
              this.directives = new directives.Directives({ version: "1.1" });
            opt = { resolveKnownTags: false, schema: "yaml-1.1" };
            break;
          case "1.2":
          case "next":
            if (this.directives)
              this.directives.yaml.version = version;
            else
              this.directives = new directives.Directives({ version });
            opt = { resolveKnownTags: true, schema: "core" };
            break;
          case null:
            if (this.directives)
              delete this.directives;
            opt = null;
            break;
          default: {
            const sv = JSON.stringify(version);
            throw new Error(`Expected '1.1', '1.2' or null as first argument, but found: ${sv}`);
          }
        }
        if (options.schema instanceof Object)
          this.schema = options.schema;
        else if (opt)
          this.schema = new Schema.Schema(Object.assign(opt, options));
        else
          throw new Error(`With a null YAML version, the { schema: Schema } option is required`);
      }
      // json & jsonArg are only used from toJSON()
      toJS({ json, jsonArg, mapAsMap, maxAliasCount, onAnchor, reviver } = {}) {
        const ctx = {
          anchors: /* @__PURE__ */ new Map(),
          doc: this,
          keep: !json,
          mapAsMap: mapAsMap === true,
          mapKeyWarned: false,
          maxAliasCount: typeof maxAliasCount === "number" ? maxAliasCount : 100
        };
        const res = toJS.toJS(this.contents, jsonArg ?? "", ctx);
        if (typeof onAnchor === "function")
          for (const { count: count2, res: res2 } of ctx.anchors.values())
            onAnchor(res2, count2);
        return typeof reviver === "function" ? applyReviver.applyReviver(reviver, { "": res }, "", res) : res;
      }
      /**
       * A JSON representation of the document `contents`.
       *
       * @param jsonArg Used by `JSON.stringify` to indicate the array index or
       *   property name.
       */
      toJSON(jsonArg, onAnchor) {
        return this.toJS({ json: true, jsonArg, mapAsMap: false, onAnchor });
      }
      /** A YAML representation of the document. */
      toString(options = {}) {
        if (this.errors.length > 0)
          throw new Error("Document with errors cannot be stringified");
        if ("indent" in options && (!Number.isInteger(options.indent) || Number(options.indent) <= 0)) {
          const s = JSON.stringify(options.indent);
          throw new Error(`"indent" option must be a positive integer, not ${s}`);
        }
        return stringifyDocument.stringifyDocument(this, options);
      }
    };
    function assertCollection(contents) {
      if (identity.isCollection(contents))
        return true;
      throw new Error("Expected a YAML collection as document contents");
    }
    exports.Document = Document;
  }
});

// node_modules/yaml/dist/errors.js
var require_errors = __commonJS({
  "node_modules/yaml/dist/errors.js"(exports) {
    "use strict";
    var YAMLError = class extends Error {
      constructor(name, pos, code, message) {
        super();
        this.name = name;
        this.code = code;
        this.message = message;
        this.pos = pos;
      }
    };
    var YAMLParseError2 = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLParseError", pos, code, message);
      }
    };
    var YAMLWarning = class extends YAMLError {
      constructor(pos, code, message) {
        super("YAMLWarning", pos, code, message);
      }
    };
    var prettifyError = (src, lc) => (error) => {
      if (error.pos[0] === -1)
        return;
      error.linePos = error.pos.map((pos) => lc.linePos(pos));
      const { line, col } = error.linePos[0];
      error.message += ` at line ${line}, column ${col}`;
      let ci = col - 1;
      let lineStr = src.substring(lc.lineStarts[line - 1], lc.lineStarts[line]).replace(/[\n\r]+$/, "");
      if (ci >= 60 && lineStr.length > 80) {
        const trimStart = Math.min(ci - 39, lineStr.length - 79);
        lineStr = "\u2026" + lineStr.substring(trimStart);
        ci -= trimStart - 1;
      }
      if (lineStr.length > 80)
        lineStr = lineStr.substring(0, 79) + "\u2026";
      if (line > 1 && /^ *$/.test(lineStr.substring(0, ci))) {
        let prev = src.substring(lc.lineStarts[line - 2], lc.lineStarts[line - 1]);
        if (prev.length > 80)
          prev = prev.substring(0, 79) + "\u2026\n";
        lineStr = prev + lineStr;
      }
      if (/[^ ]/.test(lineStr)) {
        let count2 = 1;
        const end = error.linePos[1];
        if (end?.line === line && end.col > col) {
          count2 = Math.max(1, Math.min(end.col - col, 80 - ci));
        }
        const pointer = " ".repeat(ci) + "^".repeat(count2);
        error.message += `:

${lineStr}
${pointer}
`;
      }
    };
    exports.YAMLError = YAMLError;
    exports.YAMLParseError = YAMLParseError2;
    exports.YAMLWarning = YAMLWarning;
    exports.prettifyError = prettifyError;
  }
});

// node_modules/yaml/dist/compose/resolve-props.js
var require_resolve_props = __commonJS({
  "node_modules/yaml/dist/compose/resolve-props.js"(exports) {
    "use strict";
    function resolveProps(tokens, { flow, indicator, next, offset, onError, parentIndent, startOnNewline }) {
      let spaceBefore = false;
      let atNewline = startOnNewline;
      let hasSpace = startOnNewline;
      let comment = "";
      let commentSep = "";
      let hasNewline = false;
      let reqSpace = false;
      let tab = null;
      let anchor = null;
      let tag = null;
      let newlineAfterProp = null;
      let comma = null;
      let found = null;
      let start = null;
      for (const token of tokens) {
        if (reqSpace) {
          if (token.type !== "space" && token.type !== "newline" && token.type !== "comma")
            onError(token.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
          reqSpace = false;
        }
        if (tab) {
          if (atNewline && token.type !== "comment" && token.type !== "newline") {
            onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
          }
          tab = null;
        }
        switch (token.type) {
          case "space":
            if (!flow && (indicator !== "doc-start" || next?.type !== "flow-collection") && token.source.includes("	")) {
              tab = token;
            }
            hasSpace = true;
            break;
          case "comment": {
            if (!hasSpace)
              onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
            const cb = token.source.substring(1) || " ";
            if (!comment)
              comment = cb;
            else
              comment += commentSep + cb;
            commentSep = "";
            atNewline = false;
            break;
          }
          case "newline":
            if (atNewline) {
              if (comment)
                comment += token.source;
              else if (!found || indicator !== "seq-item-ind")
                spaceBefore = true;
            } else
              commentSep += token.source;
            atNewline = true;
            hasNewline = true;
            if (anchor || tag)
              newlineAfterProp = token;
            hasSpace = true;
            break;
          case "anchor":
            if (anchor)
              onError(token, "MULTIPLE_ANCHORS", "A node can have at most one anchor");
            if (token.source.endsWith(":"))
              onError(token.offset + token.source.length - 1, "BAD_ALIAS", "Anchor ending in : is ambiguous", true);
            anchor = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          case "tag": {
            if (tag)
              onError(token, "MULTIPLE_TAGS", "A node can have at most one tag");
            tag = token;
            start ?? (start = token.offset);
            atNewline = false;
            hasSpace = false;
            reqSpace = true;
            break;
          }
          case indicator:
            if (anchor || tag)
              onError(token, "BAD_PROP_ORDER", `Anchors and tags must be after the ${token.source} indicator`);
            if (found)
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.source} in ${flow ?? "collection"}`);
            found = token;
            atNewline = indicator === "seq-item-ind" || indicator === "explicit-key-ind";
            hasSpace = false;
            break;
          case "comma":
            if (flow) {
              if (comma)
                onError(token, "UNEXPECTED_TOKEN", `Unexpected , in ${flow}`);
              comma = token;
              atNewline = false;
              hasSpace = false;
              break;
            }
          // else fallthrough
          default:
            onError(token, "UNEXPECTED_TOKEN", `Unexpected ${token.type} token`);
            atNewline = false;
            hasSpace = false;
        }
      }
      const last = tokens[tokens.length - 1];
      const end = last ? last.offset + last.source.length : offset;
      if (reqSpace && next && next.type !== "space" && next.type !== "newline" && next.type !== "comma" && (next.type !== "scalar" || next.source !== "")) {
        onError(next.offset, "MISSING_CHAR", "Tags and anchors must be separated from the next token by white space");
      }
      if (tab && (atNewline && tab.indent <= parentIndent || next?.type === "block-map" || next?.type === "block-seq"))
        onError(tab, "TAB_AS_INDENT", "Tabs are not allowed as indentation");
      return {
        comma,
        found,
        spaceBefore,
        comment,
        hasNewline,
        anchor,
        tag,
        newlineAfterProp,
        end,
        start: start ?? end
      };
    }
    exports.resolveProps = resolveProps;
  }
});

// node_modules/yaml/dist/compose/util-contains-newline.js
var require_util_contains_newline = __commonJS({
  "node_modules/yaml/dist/compose/util-contains-newline.js"(exports) {
    "use strict";
    function containsNewline(key) {
      if (!key)
        return null;
      switch (key.type) {
        case "alias":
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          if (key.source.includes("\n"))
            return true;
          if (key.end) {
            for (const st of key.end)
              if (st.type === "newline")
                return true;
          }
          return false;
        case "flow-collection":
          for (const it of key.items) {
            for (const st of it.start)
              if (st.type === "newline")
                return true;
            if (it.sep) {
              for (const st of it.sep)
                if (st.type === "newline")
                  return true;
            }
            if (containsNewline(it.key) || containsNewline(it.value))
              return true;
          }
          return false;
        default:
          return true;
      }
    }
    exports.containsNewline = containsNewline;
  }
});

// node_modules/yaml/dist/compose/util-flow-indent-check.js
var require_util_flow_indent_check = __commonJS({
  "node_modules/yaml/dist/compose/util-flow-indent-check.js"(exports) {
    "use strict";
    var utilContainsNewline = require_util_contains_newline();
    function flowIndentCheck(indent, fc, onError) {
      if (fc?.type === "flow-collection") {
        const end = fc.end[0];
        if (end.indent === indent && (end.source === "]" || end.source === "}") && utilContainsNewline.containsNewline(fc)) {
          const msg = "Flow end indicator should be more indented than parent";
          onError(end, "BAD_INDENT", msg, true);
        }
      }
    }
    exports.flowIndentCheck = flowIndentCheck;
  }
});

// node_modules/yaml/dist/compose/util-map-includes.js
var require_util_map_includes = __commonJS({
  "node_modules/yaml/dist/compose/util-map-includes.js"(exports) {
    "use strict";
    var identity = require_identity();
    function mapIncludes(ctx, items, search) {
      const { uniqueKeys } = ctx.options;
      if (uniqueKeys === false)
        return false;
      const isEqual = typeof uniqueKeys === "function" ? uniqueKeys : (a, b) => a === b || identity.isScalar(a) && identity.isScalar(b) && a.value === b.value;
      return items.some((pair) => isEqual(pair.key, search));
    }
    exports.mapIncludes = mapIncludes;
  }
});

// node_modules/yaml/dist/compose/resolve-block-map.js
var require_resolve_block_map = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-map.js"(exports) {
    "use strict";
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    var utilMapIncludes = require_util_map_includes();
    var startColMsg = "All mapping items must start at the same column";
    function resolveBlockMap({ composeNode, composeEmptyNode }, ctx, bm, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLMap.YAMLMap;
      const map = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      let offset = bm.offset;
      let commentEnd = null;
      for (const collItem of bm.items) {
        const { start, key, sep, value } = collItem;
        const keyProps = resolveProps.resolveProps(start, {
          indicator: "explicit-key-ind",
          next: key ?? sep?.[0],
          offset,
          onError,
          parentIndent: bm.indent,
          startOnNewline: true
        });
        const implicitKey = !keyProps.found;
        if (implicitKey) {
          if (key) {
            if (key.type === "block-seq")
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "A block sequence may not be used as an implicit map key");
            else if ("indent" in key && key.indent !== bm.indent)
              onError(offset, "BAD_INDENT", startColMsg);
          }
          if (!keyProps.anchor && !keyProps.tag && !sep) {
            commentEnd = keyProps.end;
            if (keyProps.comment) {
              if (map.comment)
                map.comment += "\n" + keyProps.comment;
              else
                map.comment = keyProps.comment;
            }
            continue;
          }
          if (keyProps.newlineAfterProp || utilContainsNewline.containsNewline(key)) {
            onError(key ?? start[start.length - 1], "MULTILINE_IMPLICIT_KEY", "Implicit keys need to be on a single line");
          }
        } else if (keyProps.found?.indent !== bm.indent) {
          onError(offset, "BAD_INDENT", startColMsg);
        }
        ctx.atKey = true;
        const keyStart = keyProps.end;
        const keyNode = key ? composeNode(ctx, key, keyProps, onError) : composeEmptyNode(ctx, keyStart, start, null, keyProps, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bm.indent, key, onError);
        ctx.atKey = false;
        if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
          onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
        const valueProps = resolveProps.resolveProps(sep ?? [], {
          indicator: "map-value-ind",
          next: value,
          offset: keyNode.range[2],
          onError,
          parentIndent: bm.indent,
          startOnNewline: !key || key.type === "block-scalar"
        });
        offset = valueProps.end;
        if (valueProps.found) {
          if (implicitKey) {
            if (value?.type === "block-map" && !valueProps.hasNewline)
              onError(offset, "BLOCK_AS_IMPLICIT_KEY", "Nested mappings are not allowed in compact mappings");
            if (ctx.options.strict && keyProps.start < valueProps.found.offset - 1024)
              onError(keyNode.range, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit block mapping key");
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : composeEmptyNode(ctx, offset, sep, null, valueProps, onError);
          if (ctx.schema.compat)
            utilFlowIndentCheck.flowIndentCheck(bm.indent, value, onError);
          offset = valueNode.range[2];
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        } else {
          if (implicitKey)
            onError(keyNode.range, "MISSING_CHAR", "Implicit map keys need to be followed by map values");
          if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          map.items.push(pair);
        }
      }
      if (commentEnd && commentEnd < offset)
        onError(commentEnd, "IMPOSSIBLE", "Map comment with trailing content");
      map.range = [bm.offset, offset, commentEnd ?? offset];
      return map;
    }
    exports.resolveBlockMap = resolveBlockMap;
  }
});

// node_modules/yaml/dist/compose/resolve-block-seq.js
var require_resolve_block_seq = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-seq.js"(exports) {
    "use strict";
    var YAMLSeq = require_YAMLSeq();
    var resolveProps = require_resolve_props();
    var utilFlowIndentCheck = require_util_flow_indent_check();
    function resolveBlockSeq({ composeNode, composeEmptyNode }, ctx, bs, onError, tag) {
      const NodeClass = tag?.nodeClass ?? YAMLSeq.YAMLSeq;
      const seq = new NodeClass(ctx.schema);
      if (ctx.atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = bs.offset;
      let commentEnd = null;
      for (const { start, value } of bs.items) {
        const props = resolveProps.resolveProps(start, {
          indicator: "seq-item-ind",
          next: value,
          offset,
          onError,
          parentIndent: bs.indent,
          startOnNewline: true
        });
        if (!props.found) {
          if (props.anchor || props.tag || value) {
            if (value?.type === "block-seq")
              onError(props.end, "BAD_INDENT", "All sequence items must start at the same column");
            else
              onError(offset, "MISSING_CHAR", "Sequence item without - indicator");
          } else {
            commentEnd = props.end;
            if (props.comment)
              seq.comment = props.comment;
            continue;
          }
        }
        const node = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, start, null, props, onError);
        if (ctx.schema.compat)
          utilFlowIndentCheck.flowIndentCheck(bs.indent, value, onError);
        offset = node.range[2];
        seq.items.push(node);
      }
      seq.range = [bs.offset, offset, commentEnd ?? offset];
      return seq;
    }
    exports.resolveBlockSeq = resolveBlockSeq;
  }
});

// node_modules/yaml/dist/compose/resolve-end.js
var require_resolve_end = __commonJS({
  "node_modules/yaml/dist/compose/resolve-end.js"(exports) {
    "use strict";
    function resolveEnd(end, offset, reqSpace, onError) {
      let comment = "";
      if (end) {
        let hasSpace = false;
        let sep = "";
        for (const token of end) {
          const { source, type } = token;
          switch (type) {
            case "space":
              hasSpace = true;
              break;
            case "comment": {
              if (reqSpace && !hasSpace)
                onError(token, "MISSING_CHAR", "Comments must be separated from other tokens by white space characters");
              const cb = source.substring(1) || " ";
              if (!comment)
                comment = cb;
              else
                comment += sep + cb;
              sep = "";
              break;
            }
            case "newline":
              if (comment)
                sep += source;
              hasSpace = true;
              break;
            default:
              onError(token, "UNEXPECTED_TOKEN", `Unexpected ${type} at node end`);
          }
          offset += source.length;
        }
      }
      return { comment, offset };
    }
    exports.resolveEnd = resolveEnd;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-collection.js
var require_resolve_flow_collection = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Pair = require_Pair();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    var utilContainsNewline = require_util_contains_newline();
    var utilMapIncludes = require_util_map_includes();
    var blockMsg = "Block collections are not allowed within flow collections";
    var isBlock = (token) => token && (token.type === "block-map" || token.type === "block-seq");
    function resolveFlowCollection({ composeNode, composeEmptyNode }, ctx, fc, onError, tag) {
      const isMap3 = fc.start.source === "{";
      const fcName = isMap3 ? "flow map" : "flow sequence";
      const NodeClass = tag?.nodeClass ?? (isMap3 ? YAMLMap.YAMLMap : YAMLSeq.YAMLSeq);
      const coll = new NodeClass(ctx.schema);
      coll.flow = true;
      const atRoot = ctx.atRoot;
      if (atRoot)
        ctx.atRoot = false;
      if (ctx.atKey)
        ctx.atKey = false;
      let offset = fc.offset + fc.start.source.length;
      for (let i = 0; i < fc.items.length; ++i) {
        const collItem = fc.items[i];
        const { start, key, sep, value } = collItem;
        const props = resolveProps.resolveProps(start, {
          flow: fcName,
          indicator: "explicit-key-ind",
          next: key ?? sep?.[0],
          offset,
          onError,
          parentIndent: fc.indent,
          startOnNewline: false
        });
        if (!props.found) {
          if (!props.anchor && !props.tag && !sep && !value) {
            if (i === 0 && props.comma)
              onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
            else if (i < fc.items.length - 1)
              onError(props.start, "UNEXPECTED_TOKEN", `Unexpected empty item in ${fcName}`);
            if (props.comment) {
              if (coll.comment)
                coll.comment += "\n" + props.comment;
              else
                coll.comment = props.comment;
            }
            offset = props.end;
            continue;
          }
          if (!isMap3 && ctx.options.strict && utilContainsNewline.containsNewline(key))
            onError(
              key,
              // checked by containsNewline()
              "MULTILINE_IMPLICIT_KEY",
              "Implicit keys of flow sequence pairs need to be on a single line"
            );
        }
        if (i === 0) {
          if (props.comma)
            onError(props.comma, "UNEXPECTED_TOKEN", `Unexpected , in ${fcName}`);
        } else {
          if (!props.comma)
            onError(props.start, "MISSING_CHAR", `Missing , between ${fcName} items`);
          if (props.comment) {
            let prevItemComment = "";
            loop: for (const st of start) {
              switch (st.type) {
                case "comma":
                case "space":
                  break;
                case "comment":
                  prevItemComment = st.source.substring(1);
                  break loop;
                default:
                  break loop;
              }
            }
            if (prevItemComment) {
              let prev = coll.items[coll.items.length - 1];
              if (identity.isPair(prev))
                prev = prev.value ?? prev.key;
              if (prev.comment)
                prev.comment += "\n" + prevItemComment;
              else
                prev.comment = prevItemComment;
              props.comment = props.comment.substring(prevItemComment.length + 1);
            }
          }
        }
        if (!isMap3 && !sep && !props.found) {
          const valueNode = value ? composeNode(ctx, value, props, onError) : composeEmptyNode(ctx, props.end, sep, null, props, onError);
          coll.items.push(valueNode);
          offset = valueNode.range[2];
          if (isBlock(value))
            onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
        } else {
          ctx.atKey = true;
          const keyStart = props.end;
          const keyNode = key ? composeNode(ctx, key, props, onError) : composeEmptyNode(ctx, keyStart, start, null, props, onError);
          if (isBlock(key))
            onError(keyNode.range, "BLOCK_IN_FLOW", blockMsg);
          ctx.atKey = false;
          const valueProps = resolveProps.resolveProps(sep ?? [], {
            flow: fcName,
            indicator: "map-value-ind",
            next: value,
            offset: keyNode.range[2],
            onError,
            parentIndent: fc.indent,
            startOnNewline: false
          });
          if (valueProps.found) {
            if (!isMap3 && !props.found && ctx.options.strict) {
              if (sep)
                for (const st of sep) {
                  if (st === valueProps.found)
                    break;
                  if (st.type === "newline") {
                    onError(st, "MULTILINE_IMPLICIT_KEY", "Implicit keys of flow sequence pairs need to be on a single line");
                    break;
                  }
                }
              if (props.start < valueProps.found.offset - 1024)
                onError(valueProps.found, "KEY_OVER_1024_CHARS", "The : indicator must be at most 1024 chars after the start of an implicit flow sequence key");
            }
          } else if (value) {
            if ("source" in value && value.source?.[0] === ":")
              onError(value, "MISSING_CHAR", `Missing space after : in ${fcName}`);
            else
              onError(valueProps.start, "MISSING_CHAR", `Missing , or : between ${fcName} items`);
          }
          const valueNode = value ? composeNode(ctx, value, valueProps, onError) : valueProps.found ? composeEmptyNode(ctx, valueProps.end, sep, null, valueProps, onError) : null;
          if (valueNode) {
            if (isBlock(value))
              onError(valueNode.range, "BLOCK_IN_FLOW", blockMsg);
          } else if (valueProps.comment) {
            if (keyNode.comment)
              keyNode.comment += "\n" + valueProps.comment;
            else
              keyNode.comment = valueProps.comment;
          }
          const pair = new Pair.Pair(keyNode, valueNode);
          if (ctx.options.keepSourceTokens)
            pair.srcToken = collItem;
          if (isMap3) {
            const map = coll;
            if (utilMapIncludes.mapIncludes(ctx, map.items, keyNode))
              onError(keyStart, "DUPLICATE_KEY", "Map keys must be unique");
            map.items.push(pair);
          } else {
            const map = new YAMLMap.YAMLMap(ctx.schema);
            map.flow = true;
            map.items.push(pair);
            const endRange = (valueNode ?? keyNode).range;
            map.range = [keyNode.range[0], endRange[1], endRange[2]];
            coll.items.push(map);
          }
          offset = valueNode ? valueNode.range[2] : valueProps.end;
        }
      }
      const expectedEnd = isMap3 ? "}" : "]";
      const [ce, ...ee] = fc.end;
      let cePos = offset;
      if (ce?.source === expectedEnd)
        cePos = ce.offset + ce.source.length;
      else {
        const name = fcName[0].toUpperCase() + fcName.substring(1);
        const msg = atRoot ? `${name} must end with a ${expectedEnd}` : `${name} in block collection must be sufficiently indented and end with a ${expectedEnd}`;
        onError(offset, atRoot ? "MISSING_CHAR" : "BAD_INDENT", msg);
        if (ce && ce.source.length !== 1)
          ee.unshift(ce);
      }
      if (ee.length > 0) {
        const end = resolveEnd.resolveEnd(ee, cePos, ctx.options.strict, onError);
        if (end.comment) {
          if (coll.comment)
            coll.comment += "\n" + end.comment;
          else
            coll.comment = end.comment;
        }
        coll.range = [fc.offset, cePos, end.offset];
      } else {
        coll.range = [fc.offset, cePos, cePos];
      }
      return coll;
    }
    exports.resolveFlowCollection = resolveFlowCollection;
  }
});

// node_modules/yaml/dist/compose/compose-collection.js
var require_compose_collection = __commonJS({
  "node_modules/yaml/dist/compose/compose-collection.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var resolveBlockMap = require_resolve_block_map();
    var resolveBlockSeq = require_resolve_block_seq();
    var resolveFlowCollection = require_resolve_flow_collection();
    function resolveCollection(CN, ctx, token, onError, tagName, tag) {
      const coll = token.type === "block-map" ? resolveBlockMap.resolveBlockMap(CN, ctx, token, onError, tag) : token.type === "block-seq" ? resolveBlockSeq.resolveBlockSeq(CN, ctx, token, onError, tag) : resolveFlowCollection.resolveFlowCollection(CN, ctx, token, onError, tag);
      const Coll = coll.constructor;
      if (tagName === "!" || tagName === Coll.tagName) {
        coll.tag = Coll.tagName;
        return coll;
      }
      if (tagName)
        coll.tag = tagName;
      return coll;
    }
    function composeCollection(CN, ctx, token, props, onError) {
      const tagToken = props.tag;
      const tagName = !tagToken ? null : ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg));
      if (token.type === "block-seq") {
        const { anchor, newlineAfterProp: nl } = props;
        const lastProp = anchor && tagToken ? anchor.offset > tagToken.offset ? anchor : tagToken : anchor ?? tagToken;
        if (lastProp && (!nl || nl.offset < lastProp.offset)) {
          const message = "Missing newline after block sequence props";
          onError(lastProp, "MISSING_CHAR", message);
        }
      }
      const expType = token.type === "block-map" ? "map" : token.type === "block-seq" ? "seq" : token.start.source === "{" ? "map" : "seq";
      if (!tagToken || !tagName || tagName === "!" || tagName === YAMLMap.YAMLMap.tagName && expType === "map" || tagName === YAMLSeq.YAMLSeq.tagName && expType === "seq") {
        return resolveCollection(CN, ctx, token, onError, tagName);
      }
      let tag = ctx.schema.tags.find((t) => t.tag === tagName && t.collection === expType);
      if (!tag) {
        const kt = ctx.schema.knownTags[tagName];
        if (kt?.collection === expType) {
          ctx.schema.tags.push(Object.assign({}, kt, { default: false }));
          tag = kt;
        } else {
          if (kt) {
            onError(tagToken, "BAD_COLLECTION_TYPE", `${kt.tag} used for ${expType} collection, but expects ${kt.collection ?? "scalar"}`, true);
          } else {
            onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, true);
          }
          return resolveCollection(CN, ctx, token, onError, tagName);
        }
      }
      const coll = resolveCollection(CN, ctx, token, onError, tagName, tag);
      const res = tag.resolve?.(coll, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg), ctx.options) ?? coll;
      const node = identity.isNode(res) ? res : new Scalar.Scalar(res);
      node.range = coll.range;
      node.tag = tagName;
      if (tag?.format)
        node.format = tag.format;
      return node;
    }
    exports.composeCollection = composeCollection;
  }
});

// node_modules/yaml/dist/compose/resolve-block-scalar.js
var require_resolve_block_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-block-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    function resolveBlockScalar(ctx, scalar, onError) {
      const start = scalar.offset;
      const header = parseBlockScalarHeader(scalar, ctx.options.strict, onError);
      if (!header)
        return { value: "", type: null, comment: "", range: [start, start, start] };
      const type = header.mode === ">" ? Scalar.Scalar.BLOCK_FOLDED : Scalar.Scalar.BLOCK_LITERAL;
      const lines = scalar.source ? splitLines(scalar.source) : [];
      let chompStart = lines.length;
      for (let i = lines.length - 1; i >= 0; --i) {
        const content = lines[i][1];
        if (content === "" || content === "\r")
          chompStart = i;
        else
          break;
      }
      if (chompStart === 0) {
        const value2 = header.chomp === "+" && lines.length > 0 ? "\n".repeat(Math.max(1, lines.length - 1)) : "";
        let end2 = start + header.length;
        if (scalar.source)
          end2 += scalar.source.length;
        return { value: value2, type, comment: header.comment, range: [start, end2, end2] };
      }
      let trimIndent = scalar.indent + header.indent;
      let offset = scalar.offset + header.length;
      let contentStart = 0;
      for (let i = 0; i < chompStart; ++i) {
        const [indent, content] = lines[i];
        if (content === "" || content === "\r") {
          if (header.indent === 0 && indent.length > trimIndent)
            trimIndent = indent.length;
        } else {
          if (indent.length < trimIndent) {
            const message = "Block scalars with more-indented leading empty lines must use an explicit indentation indicator";
            onError(offset + indent.length, "MISSING_CHAR", message);
          }
          if (header.indent === 0)
            trimIndent = indent.length;
          contentStart = i;
          if (trimIndent === 0 && !ctx.atRoot) {
            const message = "Block scalar values in collections must be indented";
            onError(offset, "BAD_INDENT", message);
          }
          break;
        }
        offset += indent.length + content.length + 1;
      }
      for (let i = lines.length - 1; i >= chompStart; --i) {
        if (lines[i][0].length > trimIndent)
          chompStart = i + 1;
      }
      let value = "";
      let sep = "";
      let prevMoreIndented = false;
      for (let i = 0; i < contentStart; ++i)
        value += lines[i][0].slice(trimIndent) + "\n";
      for (let i = contentStart; i < chompStart; ++i) {
        let [indent, content] = lines[i];
        offset += indent.length + content.length + 1;
        const crlf = content[content.length - 1] === "\r";
        if (crlf)
          content = content.slice(0, -1);
        if (content && indent.length < trimIndent) {
          const src = header.indent ? "explicit indentation indicator" : "first line";
          const message = `Block scalar lines must not be less indented than their ${src}`;
          onError(offset - content.length - (crlf ? 2 : 1), "BAD_INDENT", message);
          indent = "";
        }
        if (type === Scalar.Scalar.BLOCK_LITERAL) {
          value += sep + indent.slice(trimIndent) + content;
          sep = "\n";
        } else if (indent.length > trimIndent || content[0] === "	") {
          if (sep === " ")
            sep = "\n";
          else if (!prevMoreIndented && sep === "\n")
            sep = "\n\n";
          value += sep + indent.slice(trimIndent) + content;
          sep = "\n";
          prevMoreIndented = true;
        } else if (content === "") {
          if (sep === "\n")
            value += "\n";
          else
            sep = "\n";
        } else {
          value += sep + content;
          sep = " ";
          prevMoreIndented = false;
        }
      }
      switch (header.chomp) {
        case "-":
          break;
        case "+":
          for (let i = chompStart; i < lines.length; ++i)
            value += "\n" + lines[i][0].slice(trimIndent);
          if (value[value.length - 1] !== "\n")
            value += "\n";
          break;
        default:
          value += "\n";
      }
      const end = start + header.length + scalar.source.length;
      return { value, type, comment: header.comment, range: [start, end, end] };
    }
    function parseBlockScalarHeader({ offset, props }, strict, onError) {
      if (props[0].type !== "block-scalar-header") {
        onError(props[0], "IMPOSSIBLE", "Block scalar header not found");
        return null;
      }
      const { source } = props[0];
      const mode = source[0];
      let indent = 0;
      let chomp = "";
      let error = -1;
      for (let i = 1; i < source.length; ++i) {
        const ch = source[i];
        if (!chomp && (ch === "-" || ch === "+"))
          chomp = ch;
        else {
          const n = Number(ch);
          if (!indent && n)
            indent = n;
          else if (error === -1)
            error = offset + i;
        }
      }
      if (error !== -1)
        onError(error, "UNEXPECTED_TOKEN", `Block scalar header includes extra characters: ${source}`);
      let hasSpace = false;
      let comment = "";
      let length = source.length;
      for (let i = 1; i < props.length; ++i) {
        const token = props[i];
        switch (token.type) {
          case "space":
            hasSpace = true;
          // fallthrough
          case "newline":
            length += token.source.length;
            break;
          case "comment":
            if (strict && !hasSpace) {
              const message = "Comments must be separated from other tokens by white space characters";
              onError(token, "MISSING_CHAR", message);
            }
            length += token.source.length;
            comment = token.source.substring(1);
            break;
          case "error":
            onError(token, "UNEXPECTED_TOKEN", token.message);
            length += token.source.length;
            break;
          /* istanbul ignore next should not happen */
          default: {
            const message = `Unexpected token in block scalar header: ${token.type}`;
            onError(token, "UNEXPECTED_TOKEN", message);
            const ts = token.source;
            if (ts && typeof ts === "string")
              length += ts.length;
          }
        }
      }
      return { mode, indent, chomp, comment, length };
    }
    function splitLines(source) {
      const split = source.split(/\n( *)/);
      const first = split[0];
      const m = first.match(/^( *)/);
      const line0 = m?.[1] ? [m[1], first.slice(m[1].length)] : ["", first];
      const lines = [line0];
      for (let i = 1; i < split.length; i += 2)
        lines.push([split[i], split[i + 1]]);
      return lines;
    }
    exports.resolveBlockScalar = resolveBlockScalar;
  }
});

// node_modules/yaml/dist/compose/resolve-flow-scalar.js
var require_resolve_flow_scalar = __commonJS({
  "node_modules/yaml/dist/compose/resolve-flow-scalar.js"(exports) {
    "use strict";
    var Scalar = require_Scalar();
    var resolveEnd = require_resolve_end();
    function resolveFlowScalar(scalar, strict, onError) {
      const { offset, type, source, end } = scalar;
      let _type;
      let value;
      const _onError = (rel, code, msg) => onError(offset + rel, code, msg);
      switch (type) {
        case "scalar":
          _type = Scalar.Scalar.PLAIN;
          value = plainValue(source, _onError);
          break;
        case "single-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_SINGLE;
          value = singleQuotedValue(source, _onError);
          break;
        case "double-quoted-scalar":
          _type = Scalar.Scalar.QUOTE_DOUBLE;
          value = doubleQuotedValue(source, _onError);
          break;
        /* istanbul ignore next should not happen */
        default:
          onError(scalar, "UNEXPECTED_TOKEN", `Expected a flow scalar value, but found: ${type}`);
          return {
            value: "",
            type: null,
            comment: "",
            range: [offset, offset + source.length, offset + source.length]
          };
      }
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, strict, onError);
      return {
        value,
        type: _type,
        comment: re.comment,
        range: [offset, valueEnd, re.offset]
      };
    }
    function plainValue(source, onError) {
      let badChar = "";
      switch (source[0]) {
        /* istanbul ignore next should not happen */
        case "	":
          badChar = "a tab character";
          break;
        case ",":
          badChar = "flow indicator character ,";
          break;
        case "%":
          badChar = "directive indicator character %";
          break;
        case "|":
        case ">": {
          badChar = `block scalar indicator ${source[0]}`;
          break;
        }
        case "@":
        case "`": {
          badChar = `reserved character ${source[0]}`;
          break;
        }
      }
      if (badChar)
        onError(0, "BAD_SCALAR_START", `Plain value cannot start with ${badChar}`);
      return unfoldLines(source);
    }
    function singleQuotedValue(source, onError) {
      if (source[source.length - 1] !== "'" || source.length === 1)
        onError(source.length, "MISSING_CHAR", "Missing closing 'quote");
      return unfoldLines(source.slice(1, -1)).replace(/''/g, "'");
    }
    function unfoldLines(source) {
      const line = /(.*?)\r?\n/sy;
      let match = line.exec(source);
      if (!match)
        return source;
      let trimEnd, trimBoth;
      try {
        trimEnd = new RegExp("(?<![ 	])[ 	]+$");
        trimBoth = new RegExp("^[ 	]+|(?<![ 	])[ 	]+$", "g");
      } catch {
        trimEnd = /[ \t]+$/;
        trimBoth = /^[ \t]+|[ \t]+$/g;
      }
      let res = match[1].replace(trimEnd, "");
      let sep = " ";
      let pos = line.lastIndex;
      while (match = line.exec(source)) {
        const lm = match[1].replace(trimBoth, "");
        if (lm === "") {
          if (sep === "\n")
            res += sep;
          else
            sep = "\n";
        } else {
          res += sep + lm;
          sep = " ";
        }
        pos = line.lastIndex;
      }
      const last = /[ \t]*(.*)/sy;
      last.lastIndex = pos;
      match = last.exec(source);
      return res + sep + (match?.[1] ?? "");
    }
    function doubleQuotedValue(source, onError) {
      let res = "";
      for (let i = 1; i < source.length - 1; ++i) {
        const ch = source[i];
        if (ch === "\r" && source[i + 1] === "\n")
          continue;
        if (ch === "\n") {
          const { fold, offset } = foldNewline(source, i);
          res += fold;
          i = offset;
        } else if (ch === "\\") {
          let next = source[++i];
          const cc = escapeCodes[next];
          if (cc)
            res += cc;
          else if (next === "\n") {
            next = source[i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "\r" && source[i + 1] === "\n") {
            next = source[++i + 1];
            while (next === " " || next === "	")
              next = source[++i + 1];
          } else if (next === "x" || next === "u" || next === "U") {
            const length = next === "x" ? 2 : next === "u" ? 4 : 8;
            res += parseCharCode(source, i + 1, length, onError);
            i += length;
          } else {
            const raw = source.substr(i - 1, 2);
            onError(i - 1, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
            res += raw;
          }
        } else if (ch === " " || ch === "	") {
          const wsStart = i;
          let next = source[i + 1];
          while (next === " " || next === "	")
            next = source[++i + 1];
          if (next !== "\n" && !(next === "\r" && source[i + 2] === "\n"))
            res += i > wsStart ? source.slice(wsStart, i + 1) : ch;
        } else {
          res += ch;
        }
      }
      if (source[source.length - 1] !== '"' || source.length === 1)
        onError(source.length, "MISSING_CHAR", 'Missing closing "quote');
      return res;
    }
    function foldNewline(source, offset) {
      let fold = "";
      let ch = source[offset + 1];
      while (ch === " " || ch === "	" || ch === "\n" || ch === "\r") {
        if (ch === "\r" && source[offset + 2] !== "\n")
          break;
        if (ch === "\n")
          fold += "\n";
        offset += 1;
        ch = source[offset + 1];
      }
      if (!fold)
        fold = " ";
      return { fold, offset };
    }
    var escapeCodes = {
      "0": "\0",
      // null character
      a: "\x07",
      // bell character
      b: "\b",
      // backspace
      e: "\x1B",
      // escape character
      f: "\f",
      // form feed
      n: "\n",
      // line feed
      r: "\r",
      // carriage return
      t: "	",
      // horizontal tab
      v: "\v",
      // vertical tab
      N: "\x85",
      // Unicode next line
      _: "\xA0",
      // Unicode non-breaking space
      L: "\u2028",
      // Unicode line separator
      P: "\u2029",
      // Unicode paragraph separator
      " ": " ",
      '"': '"',
      "/": "/",
      "\\": "\\",
      "	": "	"
    };
    function parseCharCode(source, offset, length, onError) {
      const cc = source.substr(offset, length);
      const ok = cc.length === length && /^[0-9a-fA-F]+$/.test(cc);
      const code = ok ? parseInt(cc, 16) : NaN;
      try {
        return String.fromCodePoint(code);
      } catch {
        const raw = source.substr(offset - 2, length + 2);
        onError(offset - 2, "BAD_DQ_ESCAPE", `Invalid escape sequence ${raw}`);
        return raw;
      }
    }
    exports.resolveFlowScalar = resolveFlowScalar;
  }
});

// node_modules/yaml/dist/compose/compose-scalar.js
var require_compose_scalar = __commonJS({
  "node_modules/yaml/dist/compose/compose-scalar.js"(exports) {
    "use strict";
    var identity = require_identity();
    var Scalar = require_Scalar();
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    function composeScalar(ctx, token, tagToken, onError) {
      const { value, type, comment, range } = token.type === "block-scalar" ? resolveBlockScalar.resolveBlockScalar(ctx, token, onError) : resolveFlowScalar.resolveFlowScalar(token, ctx.options.strict, onError);
      const tagName = tagToken ? ctx.directives.tagName(tagToken.source, (msg) => onError(tagToken, "TAG_RESOLVE_FAILED", msg)) : null;
      let tag;
      if (ctx.options.stringKeys && ctx.atKey) {
        tag = ctx.schema[identity.SCALAR];
      } else if (tagName)
        tag = findScalarTagByName(ctx.schema, value, tagName, tagToken, onError);
      else if (token.type === "scalar")
        tag = findScalarTagByTest(ctx, value, token, onError);
      else
        tag = ctx.schema[identity.SCALAR];
      let scalar;
      try {
        const res = tag.resolve(value, (msg) => onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg), ctx.options);
        scalar = identity.isScalar(res) ? res : new Scalar.Scalar(res);
      } catch (error) {
        const msg = error instanceof Error ? error.message : String(error);
        onError(tagToken ?? token, "TAG_RESOLVE_FAILED", msg);
        scalar = new Scalar.Scalar(value);
      }
      scalar.range = range;
      scalar.source = value;
      if (type)
        scalar.type = type;
      if (tagName)
        scalar.tag = tagName;
      if (tag.format)
        scalar.format = tag.format;
      if (comment)
        scalar.comment = comment;
      return scalar;
    }
    function findScalarTagByName(schema, value, tagName, tagToken, onError) {
      if (tagName === "!")
        return schema[identity.SCALAR];
      const matchWithTest = [];
      for (const tag of schema.tags) {
        if (!tag.collection && tag.tag === tagName) {
          if (tag.default && tag.test)
            matchWithTest.push(tag);
          else
            return tag;
        }
      }
      for (const tag of matchWithTest)
        if (tag.test?.test(value))
          return tag;
      const kt = schema.knownTags[tagName];
      if (kt && !kt.collection) {
        schema.tags.push(Object.assign({}, kt, { default: false, test: void 0 }));
        return kt;
      }
      onError(tagToken, "TAG_RESOLVE_FAILED", `Unresolved tag: ${tagName}`, tagName !== "tag:yaml.org,2002:str");
      return schema[identity.SCALAR];
    }
    function findScalarTagByTest({ atKey, directives, schema }, value, token, onError) {
      const tag = schema.tags.find((tag2) => (tag2.default === true || atKey && tag2.default === "key") && tag2.test?.test(value)) || schema[identity.SCALAR];
      if (schema.compat) {
        const compat = schema.compat.find((tag2) => tag2.default && tag2.test?.test(value)) ?? schema[identity.SCALAR];
        if (tag.tag !== compat.tag) {
          const ts = directives.tagString(tag.tag);
          const cs = directives.tagString(compat.tag);
          const msg = `Value may be parsed as either ${ts} or ${cs}`;
          onError(token, "TAG_RESOLVE_FAILED", msg, true);
        }
      }
      return tag;
    }
    exports.composeScalar = composeScalar;
  }
});

// node_modules/yaml/dist/compose/util-empty-scalar-position.js
var require_util_empty_scalar_position = __commonJS({
  "node_modules/yaml/dist/compose/util-empty-scalar-position.js"(exports) {
    "use strict";
    function emptyScalarPosition(offset, before, pos) {
      if (before) {
        pos ?? (pos = before.length);
        for (let i = pos - 1; i >= 0; --i) {
          let st = before[i];
          switch (st.type) {
            case "space":
            case "comment":
            case "newline":
              offset -= st.source.length;
              continue;
          }
          st = before[++i];
          while (st?.type === "space") {
            offset += st.source.length;
            st = before[++i];
          }
          break;
        }
      }
      return offset;
    }
    exports.emptyScalarPosition = emptyScalarPosition;
  }
});

// node_modules/yaml/dist/compose/compose-node.js
var require_compose_node = __commonJS({
  "node_modules/yaml/dist/compose/compose-node.js"(exports) {
    "use strict";
    var Alias = require_Alias();
    var identity = require_identity();
    var composeCollection = require_compose_collection();
    var composeScalar = require_compose_scalar();
    var resolveEnd = require_resolve_end();
    var utilEmptyScalarPosition = require_util_empty_scalar_position();
    var CN = { composeNode, composeEmptyNode };
    function composeNode(ctx, token, props, onError) {
      const atKey = ctx.atKey;
      const { spaceBefore, comment, anchor, tag } = props;
      let node;
      let isSrcToken = true;
      switch (token.type) {
        case "alias":
          node = composeAlias(ctx, token, onError);
          if (anchor || tag)
            onError(token, "ALIAS_PROPS", "An alias node must not specify any properties");
          break;
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "block-scalar":
          node = composeScalar.composeScalar(ctx, token, tag, onError);
          if (anchor)
            node.anchor = anchor.source.substring(1);
          break;
        case "block-map":
        case "block-seq":
        case "flow-collection":
          try {
            node = composeCollection.composeCollection(CN, ctx, token, props, onError);
            if (anchor)
              node.anchor = anchor.source.substring(1);
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            onError(token, "RESOURCE_EXHAUSTION", message);
          }
          break;
        default: {
          const message = token.type === "error" ? token.message : `Unsupported token (type: ${token.type})`;
          onError(token, "UNEXPECTED_TOKEN", message);
          isSrcToken = false;
        }
      }
      node ?? (node = composeEmptyNode(ctx, token.offset, void 0, null, props, onError));
      if (anchor && node.anchor === "")
        onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      if (atKey && ctx.options.stringKeys && (!identity.isScalar(node) || typeof node.value !== "string" || node.tag && node.tag !== "tag:yaml.org,2002:str")) {
        const msg = "With stringKeys, all keys must be strings";
        onError(tag ?? token, "NON_STRING_KEY", msg);
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        if (token.type === "scalar" && token.source === "")
          node.comment = comment;
        else
          node.commentBefore = comment;
      }
      if (ctx.options.keepSourceTokens && isSrcToken)
        node.srcToken = token;
      return node;
    }
    function composeEmptyNode(ctx, offset, before, pos, { spaceBefore, comment, anchor, tag, end }, onError) {
      const token = {
        type: "scalar",
        offset: utilEmptyScalarPosition.emptyScalarPosition(offset, before, pos),
        indent: -1,
        source: ""
      };
      const node = composeScalar.composeScalar(ctx, token, tag, onError);
      if (anchor) {
        node.anchor = anchor.source.substring(1);
        if (node.anchor === "")
          onError(anchor, "BAD_ALIAS", "Anchor cannot be an empty string");
      }
      if (spaceBefore)
        node.spaceBefore = true;
      if (comment) {
        node.comment = comment;
        node.range[2] = end;
      }
      return node;
    }
    function composeAlias({ options }, { offset, source, end }, onError) {
      const alias = new Alias.Alias(source.substring(1));
      if (alias.source === "")
        onError(offset, "BAD_ALIAS", "Alias cannot be an empty string");
      if (alias.source.endsWith(":"))
        onError(offset + source.length - 1, "BAD_ALIAS", "Alias ending in : is ambiguous", true);
      const valueEnd = offset + source.length;
      const re = resolveEnd.resolveEnd(end, valueEnd, options.strict, onError);
      alias.range = [offset, valueEnd, re.offset];
      if (re.comment)
        alias.comment = re.comment;
      return alias;
    }
    exports.composeEmptyNode = composeEmptyNode;
    exports.composeNode = composeNode;
  }
});

// node_modules/yaml/dist/compose/compose-doc.js
var require_compose_doc = __commonJS({
  "node_modules/yaml/dist/compose/compose-doc.js"(exports) {
    "use strict";
    var Document = require_Document();
    var composeNode = require_compose_node();
    var resolveEnd = require_resolve_end();
    var resolveProps = require_resolve_props();
    function composeDoc(options, directives, { offset, start, value, end }, onError) {
      const opts = Object.assign({ _directives: directives }, options);
      const doc = new Document.Document(void 0, opts);
      const ctx = {
        atKey: false,
        atRoot: true,
        directives: doc.directives,
        options: doc.options,
        schema: doc.schema
      };
      const props = resolveProps.resolveProps(start, {
        indicator: "doc-start",
        next: value ?? end?.[0],
        offset,
        onError,
        parentIndent: 0,
        startOnNewline: true
      });
      if (props.found) {
        doc.directives.docStart = true;
        if (value && (value.type === "block-map" || value.type === "block-seq") && !props.hasNewline)
          onError(props.end, "MISSING_CHAR", "Block collection cannot start on same line with directives-end marker");
      }
      doc.contents = value ? composeNode.composeNode(ctx, value, props, onError) : composeNode.composeEmptyNode(ctx, props.end, start, null, props, onError);
      const contentEnd = doc.contents.range[2];
      const re = resolveEnd.resolveEnd(end, contentEnd, false, onError);
      if (re.comment)
        doc.comment = re.comment;
      doc.range = [offset, contentEnd, re.offset];
      return doc;
    }
    exports.composeDoc = composeDoc;
  }
});

// node_modules/yaml/dist/compose/composer.js
var require_composer = __commonJS({
  "node_modules/yaml/dist/compose/composer.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var directives = require_directives();
    var Document = require_Document();
    var errors = require_errors();
    var identity = require_identity();
    var composeDoc = require_compose_doc();
    var resolveEnd = require_resolve_end();
    function getErrorPos(src) {
      if (typeof src === "number")
        return [src, src + 1];
      if (Array.isArray(src))
        return src.length === 2 ? src : [src[0], src[1]];
      const { offset, source } = src;
      return [offset, offset + (typeof source === "string" ? source.length : 1)];
    }
    function parsePrelude(prelude2) {
      let comment = "";
      let atComment = false;
      let afterEmptyLine = false;
      for (let i = 0; i < prelude2.length; ++i) {
        const source = prelude2[i];
        switch (source[0]) {
          case "#":
            comment += (comment === "" ? "" : afterEmptyLine ? "\n\n" : "\n") + (source.substring(1) || " ");
            atComment = true;
            afterEmptyLine = false;
            break;
          case "%":
            if (prelude2[i + 1]?.[0] !== "#")
              i += 1;
            atComment = false;
            break;
          default:
            if (!atComment)
              afterEmptyLine = true;
            atComment = false;
        }
      }
      return { comment, afterEmptyLine };
    }
    var Composer = class {
      constructor(options = {}) {
        this.doc = null;
        this.atDirectives = false;
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
        this.onError = (source, code, message, warning) => {
          const pos = getErrorPos(source);
          if (warning)
            this.warnings.push(new errors.YAMLWarning(pos, code, message));
          else
            this.errors.push(new errors.YAMLParseError(pos, code, message));
        };
        this.directives = new directives.Directives({ version: options.version || "1.2" });
        this.options = options;
      }
      decorate(doc, afterDoc) {
        const { comment, afterEmptyLine } = parsePrelude(this.prelude);
        if (comment) {
          const dc = doc.contents;
          if (afterDoc) {
            doc.comment = doc.comment ? `${doc.comment}
${comment}` : comment;
          } else if (afterEmptyLine || doc.directives.docStart || !dc) {
            doc.commentBefore = comment;
          } else if (identity.isCollection(dc) && !dc.flow && dc.items.length > 0) {
            let it = dc.items[0];
            if (identity.isPair(it))
              it = it.key;
            const cb = it.commentBefore;
            it.commentBefore = cb ? `${comment}
${cb}` : comment;
          } else {
            const cb = dc.commentBefore;
            dc.commentBefore = cb ? `${comment}
${cb}` : comment;
          }
        }
        if (afterDoc) {
          for (let i = 0; i < this.errors.length; ++i)
            doc.errors.push(this.errors[i]);
          for (let i = 0; i < this.warnings.length; ++i)
            doc.warnings.push(this.warnings[i]);
        } else {
          doc.errors = this.errors;
          doc.warnings = this.warnings;
        }
        this.prelude = [];
        this.errors = [];
        this.warnings = [];
      }
      /**
       * Current stream status information.
       *
       * Mostly useful at the end of input for an empty stream.
       */
      streamInfo() {
        return {
          comment: parsePrelude(this.prelude).comment,
          directives: this.directives,
          errors: this.errors,
          warnings: this.warnings
        };
      }
      /**
       * Compose tokens into documents.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *compose(tokens, forceDoc = false, endOffset = -1) {
        for (const token of tokens)
          yield* this.next(token);
        yield* this.end(forceDoc, endOffset);
      }
      /** Advance the composer by one CST token. */
      *next(token) {
        if (node_process.env.LOG_STREAM)
          console.dir(token, { depth: null });
        switch (token.type) {
          case "directive":
            this.directives.add(token.source, (offset, message, warning) => {
              const pos = getErrorPos(token);
              pos[0] += offset;
              this.onError(pos, "BAD_DIRECTIVE", message, warning);
            });
            this.prelude.push(token.source);
            this.atDirectives = true;
            break;
          case "document": {
            const doc = composeDoc.composeDoc(this.options, this.directives, token, this.onError);
            if (this.atDirectives && !doc.directives.docStart)
              this.onError(token, "MISSING_CHAR", "Missing directives-end/doc-start indicator line");
            this.decorate(doc, false);
            if (this.doc)
              yield this.doc;
            this.doc = doc;
            this.atDirectives = false;
            break;
          }
          case "byte-order-mark":
          case "space":
            break;
          case "comment":
          case "newline":
            this.prelude.push(token.source);
            break;
          case "error": {
            const msg = token.source ? `${token.message}: ${JSON.stringify(token.source)}` : token.message;
            const error = new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg);
            if (this.atDirectives || !this.doc)
              this.errors.push(error);
            else
              this.doc.errors.push(error);
            break;
          }
          case "doc-end": {
            if (!this.doc) {
              const msg = "Unexpected doc-end without preceding document";
              this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", msg));
              break;
            }
            this.doc.directives.docEnd = true;
            const end = resolveEnd.resolveEnd(token.end, token.offset + token.source.length, this.doc.options.strict, this.onError);
            this.decorate(this.doc, true);
            if (end.comment) {
              const dc = this.doc.comment;
              this.doc.comment = dc ? `${dc}
${end.comment}` : end.comment;
            }
            this.doc.range[2] = end.offset;
            break;
          }
          default:
            this.errors.push(new errors.YAMLParseError(getErrorPos(token), "UNEXPECTED_TOKEN", `Unsupported token ${token.type}`));
        }
      }
      /**
       * Call at end of input to yield any remaining document.
       *
       * @param forceDoc - If the stream contains no document, still emit a final document including any comments and directives that would be applied to a subsequent document.
       * @param endOffset - Should be set if `forceDoc` is also set, to set the document range end and to indicate errors correctly.
       */
      *end(forceDoc = false, endOffset = -1) {
        if (this.doc) {
          this.decorate(this.doc, true);
          yield this.doc;
          this.doc = null;
        } else if (forceDoc) {
          const opts = Object.assign({ _directives: this.directives }, this.options);
          const doc = new Document.Document(void 0, opts);
          if (this.atDirectives)
            this.onError(endOffset, "MISSING_CHAR", "Missing directives-end indicator line");
          doc.range = [0, endOffset, endOffset];
          this.decorate(doc, false);
          yield doc;
        }
      }
    };
    exports.Composer = Composer;
  }
});

// node_modules/yaml/dist/parse/cst-scalar.js
var require_cst_scalar = __commonJS({
  "node_modules/yaml/dist/parse/cst-scalar.js"(exports) {
    "use strict";
    var resolveBlockScalar = require_resolve_block_scalar();
    var resolveFlowScalar = require_resolve_flow_scalar();
    var errors = require_errors();
    var stringifyString = require_stringifyString();
    function resolveAsScalar(token, strict = true, onError) {
      if (token) {
        const _onError = (pos, code, message) => {
          const offset = typeof pos === "number" ? pos : Array.isArray(pos) ? pos[0] : pos.offset;
          if (onError)
            onError(offset, code, message);
          else
            throw new errors.YAMLParseError([offset, offset + 1], code, message);
        };
        switch (token.type) {
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return resolveFlowScalar.resolveFlowScalar(token, strict, _onError);
          case "block-scalar":
            return resolveBlockScalar.resolveBlockScalar({ options: { strict } }, token, _onError);
        }
      }
      return null;
    }
    function createScalarToken(value, context) {
      const { implicitKey = false, indent, inFlow = false, offset = -1, type = "PLAIN" } = context;
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey,
        indent: indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      const end = context.end ?? [
        { type: "newline", offset: -1, indent, source: "\n" }
      ];
      switch (source[0]) {
        case "|":
        case ">": {
          const he = source.indexOf("\n");
          const head = source.substring(0, he);
          const body = source.substring(he + 1) + "\n";
          const props = [
            { type: "block-scalar-header", offset, indent, source: head }
          ];
          if (!addEndtoBlockProps(props, end))
            props.push({ type: "newline", offset: -1, indent, source: "\n" });
          return { type: "block-scalar", offset, indent, props, source: body };
        }
        case '"':
          return { type: "double-quoted-scalar", offset, indent, source, end };
        case "'":
          return { type: "single-quoted-scalar", offset, indent, source, end };
        default:
          return { type: "scalar", offset, indent, source, end };
      }
    }
    function setScalarValue(token, value, context = {}) {
      let { afterKey = false, implicitKey = false, inFlow = false, type } = context;
      let indent = "indent" in token ? token.indent : null;
      if (afterKey && typeof indent === "number")
        indent += 2;
      if (!type)
        switch (token.type) {
          case "single-quoted-scalar":
            type = "QUOTE_SINGLE";
            break;
          case "double-quoted-scalar":
            type = "QUOTE_DOUBLE";
            break;
          case "block-scalar": {
            const header = token.props[0];
            if (header.type !== "block-scalar-header")
              throw new Error("Invalid block scalar header");
            type = header.source[0] === ">" ? "BLOCK_FOLDED" : "BLOCK_LITERAL";
            break;
          }
          default:
            type = "PLAIN";
        }
      const source = stringifyString.stringifyString({ type, value }, {
        implicitKey: implicitKey || indent === null,
        indent: indent !== null && indent > 0 ? " ".repeat(indent) : "",
        inFlow,
        options: { blockQuote: true, lineWidth: -1 }
      });
      switch (source[0]) {
        case "|":
        case ">":
          setBlockScalarValue(token, source);
          break;
        case '"':
          setFlowScalarValue(token, source, "double-quoted-scalar");
          break;
        case "'":
          setFlowScalarValue(token, source, "single-quoted-scalar");
          break;
        default:
          setFlowScalarValue(token, source, "scalar");
      }
    }
    function setBlockScalarValue(token, source) {
      const he = source.indexOf("\n");
      const head = source.substring(0, he);
      const body = source.substring(he + 1) + "\n";
      if (token.type === "block-scalar") {
        const header = token.props[0];
        if (header.type !== "block-scalar-header")
          throw new Error("Invalid block scalar header");
        header.source = head;
        token.source = body;
      } else {
        const { offset } = token;
        const indent = "indent" in token ? token.indent : -1;
        const props = [
          { type: "block-scalar-header", offset, indent, source: head }
        ];
        if (!addEndtoBlockProps(props, "end" in token ? token.end : void 0))
          props.push({ type: "newline", offset: -1, indent, source: "\n" });
        for (const key of Object.keys(token))
          if (key !== "type" && key !== "offset")
            delete token[key];
        Object.assign(token, { type: "block-scalar", indent, props, source: body });
      }
    }
    function addEndtoBlockProps(props, end) {
      if (end)
        for (const st of end)
          switch (st.type) {
            case "space":
            case "comment":
              props.push(st);
              break;
            case "newline":
              props.push(st);
              return true;
          }
      return false;
    }
    function setFlowScalarValue(token, source, type) {
      switch (token.type) {
        case "scalar":
        case "double-quoted-scalar":
        case "single-quoted-scalar":
          token.type = type;
          token.source = source;
          break;
        case "block-scalar": {
          const end = token.props.slice(1);
          let oa = source.length;
          if (token.props[0].type === "block-scalar-header")
            oa -= token.props[0].source.length;
          for (const tok of end)
            tok.offset += oa;
          delete token.props;
          Object.assign(token, { type, source, end });
          break;
        }
        case "block-map":
        case "block-seq": {
          const offset = token.offset + source.length;
          const nl = { type: "newline", offset, indent: token.indent, source: "\n" };
          delete token.items;
          Object.assign(token, { type, source, end: [nl] });
          break;
        }
        default: {
          const indent = "indent" in token ? token.indent : -1;
          const end = "end" in token && Array.isArray(token.end) ? token.end.filter((st) => st.type === "space" || st.type === "comment" || st.type === "newline") : [];
          for (const key of Object.keys(token))
            if (key !== "type" && key !== "offset")
              delete token[key];
          Object.assign(token, { type, indent, source, end });
        }
      }
    }
    exports.createScalarToken = createScalarToken;
    exports.resolveAsScalar = resolveAsScalar;
    exports.setScalarValue = setScalarValue;
  }
});

// node_modules/yaml/dist/parse/cst-stringify.js
var require_cst_stringify = __commonJS({
  "node_modules/yaml/dist/parse/cst-stringify.js"(exports) {
    "use strict";
    var stringify2 = (cst) => "type" in cst ? stringifyToken(cst) : stringifyItem(cst);
    function stringifyToken(token) {
      switch (token.type) {
        case "block-scalar": {
          let res = "";
          for (const tok of token.props)
            res += stringifyToken(tok);
          return res + token.source;
        }
        case "block-map":
        case "block-seq": {
          let res = "";
          for (const item of token.items)
            res += stringifyItem(item);
          return res;
        }
        case "flow-collection": {
          let res = token.start.source;
          for (const item of token.items)
            res += stringifyItem(item);
          for (const st of token.end)
            res += st.source;
          return res;
        }
        case "document": {
          let res = stringifyItem(token);
          if (token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
        default: {
          let res = token.source;
          if ("end" in token && token.end)
            for (const st of token.end)
              res += st.source;
          return res;
        }
      }
    }
    function stringifyItem({ start, key, sep, value }) {
      let res = "";
      for (const st of start)
        res += st.source;
      if (key)
        res += stringifyToken(key);
      if (sep)
        for (const st of sep)
          res += st.source;
      if (value)
        res += stringifyToken(value);
      return res;
    }
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/parse/cst-visit.js
var require_cst_visit = __commonJS({
  "node_modules/yaml/dist/parse/cst-visit.js"(exports) {
    "use strict";
    var BREAK = /* @__PURE__ */ Symbol("break visit");
    var SKIP = /* @__PURE__ */ Symbol("skip children");
    var REMOVE = /* @__PURE__ */ Symbol("remove item");
    function visit2(cst, visitor) {
      if ("type" in cst && cst.type === "document")
        cst = { start: cst.start, value: cst.value };
      _visit(Object.freeze([]), cst, visitor);
    }
    visit2.BREAK = BREAK;
    visit2.SKIP = SKIP;
    visit2.REMOVE = REMOVE;
    visit2.itemAtPath = (cst, path32) => {
      let item = cst;
      for (const [field, index] of path32) {
        const tok = item?.[field];
        if (tok && "items" in tok) {
          item = tok.items[index];
        } else
          return void 0;
      }
      return item;
    };
    visit2.parentCollection = (cst, path32) => {
      const parent = visit2.itemAtPath(cst, path32.slice(0, -1));
      const field = path32[path32.length - 1][0];
      const coll = parent?.[field];
      if (coll && "items" in coll)
        return coll;
      throw new Error("Parent collection not found");
    };
    function _visit(path32, item, visitor) {
      let ctrl = visitor(item, path32);
      if (typeof ctrl === "symbol")
        return ctrl;
      for (const field of ["key", "value"]) {
        const token = item[field];
        if (token && "items" in token) {
          for (let i = 0; i < token.items.length; ++i) {
            const ci = _visit(Object.freeze(path32.concat([[field, i]])), token.items[i], visitor);
            if (typeof ci === "number")
              i = ci - 1;
            else if (ci === BREAK)
              return BREAK;
            else if (ci === REMOVE) {
              token.items.splice(i, 1);
              i -= 1;
            }
          }
          if (typeof ctrl === "function" && field === "key")
            ctrl = ctrl(item, path32);
        }
      }
      return typeof ctrl === "function" ? ctrl(item, path32) : ctrl;
    }
    exports.visit = visit2;
  }
});

// node_modules/yaml/dist/parse/cst.js
var require_cst = __commonJS({
  "node_modules/yaml/dist/parse/cst.js"(exports) {
    "use strict";
    var cstScalar = require_cst_scalar();
    var cstStringify = require_cst_stringify();
    var cstVisit = require_cst_visit();
    var BOM = "\uFEFF";
    var DOCUMENT = "";
    var FLOW_END = "";
    var SCALAR = "";
    var isCollection = (token) => !!token && "items" in token;
    var isScalar2 = (token) => !!token && (token.type === "scalar" || token.type === "single-quoted-scalar" || token.type === "double-quoted-scalar" || token.type === "block-scalar");
    function prettyToken(token) {
      switch (token) {
        case BOM:
          return "<BOM>";
        case DOCUMENT:
          return "<DOC>";
        case FLOW_END:
          return "<FLOW_END>";
        case SCALAR:
          return "<SCALAR>";
        default:
          return JSON.stringify(token);
      }
    }
    function tokenType(source) {
      switch (source) {
        case BOM:
          return "byte-order-mark";
        case DOCUMENT:
          return "doc-mode";
        case FLOW_END:
          return "flow-error-end";
        case SCALAR:
          return "scalar";
        case "---":
          return "doc-start";
        case "...":
          return "doc-end";
        case "":
        case "\n":
        case "\r\n":
          return "newline";
        case "-":
          return "seq-item-ind";
        case "?":
          return "explicit-key-ind";
        case ":":
          return "map-value-ind";
        case "{":
          return "flow-map-start";
        case "}":
          return "flow-map-end";
        case "[":
          return "flow-seq-start";
        case "]":
          return "flow-seq-end";
        case ",":
          return "comma";
      }
      switch (source[0]) {
        case " ":
        case "	":
          return "space";
        case "#":
          return "comment";
        case "%":
          return "directive-line";
        case "*":
          return "alias";
        case "&":
          return "anchor";
        case "!":
          return "tag";
        case "'":
          return "single-quoted-scalar";
        case '"':
          return "double-quoted-scalar";
        case "|":
        case ">":
          return "block-scalar-header";
      }
      return null;
    }
    exports.createScalarToken = cstScalar.createScalarToken;
    exports.resolveAsScalar = cstScalar.resolveAsScalar;
    exports.setScalarValue = cstScalar.setScalarValue;
    exports.stringify = cstStringify.stringify;
    exports.visit = cstVisit.visit;
    exports.BOM = BOM;
    exports.DOCUMENT = DOCUMENT;
    exports.FLOW_END = FLOW_END;
    exports.SCALAR = SCALAR;
    exports.isCollection = isCollection;
    exports.isScalar = isScalar2;
    exports.prettyToken = prettyToken;
    exports.tokenType = tokenType;
  }
});

// node_modules/yaml/dist/parse/lexer.js
var require_lexer = __commonJS({
  "node_modules/yaml/dist/parse/lexer.js"(exports) {
    "use strict";
    var cst = require_cst();
    function isEmpty(ch) {
      switch (ch) {
        case void 0:
        case " ":
        case "\n":
        case "\r":
        case "	":
          return true;
        default:
          return false;
      }
    }
    var hexDigits = new Set("0123456789ABCDEFabcdef");
    var tagChars = new Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-#;/?:@&=+$_.!~*'()");
    var flowIndicatorChars = new Set(",[]{}");
    var invalidAnchorChars = new Set(" ,[]{}\n\r	");
    var isNotAnchorChar = (ch) => !ch || invalidAnchorChars.has(ch);
    var Lexer = class {
      constructor() {
        this.atEnd = false;
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        this.buffer = "";
        this.flowKey = false;
        this.flowLevel = 0;
        this.indentNext = 0;
        this.indentValue = 0;
        this.lineEndPos = null;
        this.next = null;
        this.pos = 0;
      }
      /**
       * Generate YAML tokens from the `source` string. If `incomplete`,
       * a part of the last line may be left as a buffer for the next call.
       *
       * @returns A generator of lexical tokens
       */
      *lex(source, incomplete = false) {
        if (source) {
          if (typeof source !== "string")
            throw TypeError("source is not a string");
          this.buffer = this.buffer ? this.buffer + source : source;
          this.lineEndPos = null;
        }
        this.atEnd = !incomplete;
        let next = this.next ?? "stream";
        while (next && (incomplete || this.hasChars(1)))
          next = yield* this.parseNext(next);
      }
      atLineEnd() {
        let i = this.pos;
        let ch = this.buffer[i];
        while (ch === " " || ch === "	")
          ch = this.buffer[++i];
        if (!ch || ch === "#" || ch === "\n")
          return true;
        if (ch === "\r")
          return this.buffer[i + 1] === "\n";
        return false;
      }
      charAt(n) {
        return this.buffer[this.pos + n];
      }
      continueScalar(offset) {
        let ch = this.buffer[offset];
        if (this.indentNext > 0) {
          let indent = 0;
          while (ch === " ")
            ch = this.buffer[++indent + offset];
          if (ch === "\r") {
            const next = this.buffer[indent + offset + 1];
            if (next === "\n" || !next && !this.atEnd)
              return offset + indent + 1;
          }
          return ch === "\n" || indent >= this.indentNext || !ch && !this.atEnd ? offset + indent : -1;
        }
        if (ch === "-" || ch === ".") {
          const dt = this.buffer.substr(offset, 3);
          if ((dt === "---" || dt === "...") && isEmpty(this.buffer[offset + 3]))
            return -1;
        }
        return offset;
      }
      getLine() {
        let end = this.lineEndPos;
        if (typeof end !== "number" || end !== -1 && end < this.pos) {
          end = this.buffer.indexOf("\n", this.pos);
          this.lineEndPos = end;
        }
        if (end === -1)
          return this.atEnd ? this.buffer.substring(this.pos) : null;
        if (this.buffer[end - 1] === "\r")
          end -= 1;
        return this.buffer.substring(this.pos, end);
      }
      hasChars(n) {
        return this.pos + n <= this.buffer.length;
      }
      setNext(state) {
        this.buffer = this.buffer.substring(this.pos);
        this.pos = 0;
        this.lineEndPos = null;
        this.next = state;
        return null;
      }
      peek(n) {
        return this.buffer.substr(this.pos, n);
      }
      *parseNext(next) {
        switch (next) {
          case "stream":
            return yield* this.parseStream();
          case "line-start":
            return yield* this.parseLineStart();
          case "block-start":
            return yield* this.parseBlockStart();
          case "doc":
            return yield* this.parseDocument();
          case "flow":
            return yield* this.parseFlowCollection();
          case "quoted-scalar":
            return yield* this.parseQuotedScalar();
          case "block-scalar":
            return yield* this.parseBlockScalar();
          case "plain-scalar":
            return yield* this.parsePlainScalar();
        }
      }
      *parseStream() {
        let line = this.getLine();
        if (line === null)
          return this.setNext("stream");
        if (line[0] === cst.BOM) {
          yield* this.pushCount(1);
          line = line.substring(1);
        }
        if (line[0] === "%") {
          let dirEnd = line.length;
          let cs = line.indexOf("#");
          while (cs !== -1) {
            const ch = line[cs - 1];
            if (ch === " " || ch === "	") {
              dirEnd = cs - 1;
              break;
            } else {
              cs = line.indexOf("#", cs + 1);
            }
          }
          while (true) {
            const ch = line[dirEnd - 1];
            if (ch === " " || ch === "	")
              dirEnd -= 1;
            else
              break;
          }
          const n = (yield* this.pushCount(dirEnd)) + (yield* this.pushSpaces(true));
          yield* this.pushCount(line.length - n);
          this.pushNewline();
          return "stream";
        }
        if (this.atLineEnd()) {
          const sp = yield* this.pushSpaces(true);
          yield* this.pushCount(line.length - sp);
          yield* this.pushNewline();
          return "stream";
        }
        yield cst.DOCUMENT;
        return yield* this.parseLineStart();
      }
      *parseLineStart() {
        const ch = this.charAt(0);
        if (!ch && !this.atEnd)
          return this.setNext("line-start");
        if (ch === "-" || ch === ".") {
          if (!this.atEnd && !this.hasChars(4))
            return this.setNext("line-start");
          const s = this.peek(3);
          if ((s === "---" || s === "...") && isEmpty(this.charAt(3))) {
            yield* this.pushCount(3);
            this.indentValue = 0;
            this.indentNext = 0;
            return s === "---" ? "doc" : "stream";
          }
        }
        this.indentValue = yield* this.pushSpaces(false);
        if (this.indentNext > this.indentValue && !isEmpty(this.charAt(1)))
          this.indentNext = this.indentValue;
        return yield* this.parseBlockStart();
      }
      *parseBlockStart() {
        const [ch0, ch1] = this.peek(2);
        if (!ch1 && !this.atEnd)
          return this.setNext("block-start");
        if ((ch0 === "-" || ch0 === "?" || ch0 === ":") && isEmpty(ch1)) {
          const n = (yield* this.pushCount(1)) + (yield* this.pushSpaces(true));
          this.indentNext = this.indentValue + 1;
          this.indentValue += n;
          return "block-start";
        }
        return "doc";
      }
      *parseDocument() {
        yield* this.pushSpaces(true);
        const line = this.getLine();
        if (line === null)
          return this.setNext("doc");
        let n = yield* this.pushIndicators();
        switch (line[n]) {
          case "#":
            yield* this.pushCount(line.length - n);
          // fallthrough
          case void 0:
            yield* this.pushNewline();
            return yield* this.parseLineStart();
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel = 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            return "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "doc";
          case '"':
          case "'":
            return yield* this.parseQuotedScalar();
          case "|":
          case ">":
            n += yield* this.parseBlockScalarHeader();
            n += yield* this.pushSpaces(true);
            yield* this.pushCount(line.length - n);
            yield* this.pushNewline();
            return yield* this.parseBlockScalar();
          default:
            return yield* this.parsePlainScalar();
        }
      }
      *parseFlowCollection() {
        let nl, sp;
        let indent = -1;
        do {
          nl = yield* this.pushNewline();
          if (nl > 0) {
            sp = yield* this.pushSpaces(false);
            this.indentValue = indent = sp;
          } else {
            sp = 0;
          }
          sp += yield* this.pushSpaces(true);
        } while (nl + sp > 0);
        const line = this.getLine();
        if (line === null)
          return this.setNext("flow");
        if (indent !== -1 && indent < this.indentNext && line[0] !== "#" || indent === 0 && (line.startsWith("---") || line.startsWith("...")) && isEmpty(line[3])) {
          const atFlowEndMarker = indent === this.indentNext - 1 && this.flowLevel === 1 && (line[0] === "]" || line[0] === "}");
          if (!atFlowEndMarker) {
            this.flowLevel = 0;
            yield cst.FLOW_END;
            return yield* this.parseLineStart();
          }
        }
        let n = 0;
        while (line[n] === ",") {
          n += yield* this.pushCount(1);
          n += yield* this.pushSpaces(true);
          this.flowKey = false;
        }
        n += yield* this.pushIndicators();
        switch (line[n]) {
          case void 0:
            return "flow";
          case "#":
            yield* this.pushCount(line.length - n);
            return "flow";
          case "{":
          case "[":
            yield* this.pushCount(1);
            this.flowKey = false;
            this.flowLevel += 1;
            return "flow";
          case "}":
          case "]":
            yield* this.pushCount(1);
            this.flowKey = true;
            this.flowLevel -= 1;
            return this.flowLevel ? "flow" : "doc";
          case "*":
            yield* this.pushUntil(isNotAnchorChar);
            return "flow";
          case '"':
          case "'":
            this.flowKey = true;
            return yield* this.parseQuotedScalar();
          case ":": {
            const next = this.charAt(1);
            if (this.flowKey || isEmpty(next) || next === ",") {
              this.flowKey = false;
              yield* this.pushCount(1);
              yield* this.pushSpaces(true);
              return "flow";
            }
          }
          // fallthrough
          default:
            this.flowKey = false;
            return yield* this.parsePlainScalar();
        }
      }
      *parseQuotedScalar() {
        const quote2 = this.charAt(0);
        let end = this.buffer.indexOf(quote2, this.pos + 1);
        if (quote2 === "'") {
          while (end !== -1 && this.buffer[end + 1] === "'")
            end = this.buffer.indexOf("'", end + 2);
        } else {
          while (end !== -1) {
            let n = 0;
            while (this.buffer[end - 1 - n] === "\\")
              n += 1;
            if (n % 2 === 0)
              break;
            end = this.buffer.indexOf('"', end + 1);
          }
        }
        const qb = this.buffer.substring(0, end);
        let nl = qb.indexOf("\n", this.pos);
        if (nl !== -1) {
          while (nl !== -1) {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = qb.indexOf("\n", cs);
          }
          if (nl !== -1) {
            end = nl - (qb[nl - 1] === "\r" ? 2 : 1);
          }
        }
        if (end === -1) {
          if (!this.atEnd)
            return this.setNext("quoted-scalar");
          end = this.buffer.length;
        }
        yield* this.pushToIndex(end + 1, false);
        return this.flowLevel ? "flow" : "doc";
      }
      *parseBlockScalarHeader() {
        this.blockScalarIndent = -1;
        this.blockScalarKeep = false;
        let i = this.pos;
        while (true) {
          const ch = this.buffer[++i];
          if (ch === "+")
            this.blockScalarKeep = true;
          else if (ch > "0" && ch <= "9")
            this.blockScalarIndent = Number(ch) - 1;
          else if (ch !== "-")
            break;
        }
        return yield* this.pushUntil((ch) => isEmpty(ch) || ch === "#");
      }
      *parseBlockScalar() {
        let nl = this.pos - 1;
        let indent = 0;
        let ch;
        loop: for (let i2 = this.pos; ch = this.buffer[i2]; ++i2) {
          switch (ch) {
            case " ":
              indent += 1;
              break;
            case "\n":
              nl = i2;
              indent = 0;
              break;
            case "\r": {
              const next = this.buffer[i2 + 1];
              if (!next && !this.atEnd)
                return this.setNext("block-scalar");
              if (next === "\n")
                break;
            }
            // fallthrough
            default:
              break loop;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("block-scalar");
        if (indent >= this.indentNext) {
          if (this.blockScalarIndent === -1)
            this.indentNext = indent;
          else {
            this.indentNext = this.blockScalarIndent + (this.indentNext === 0 ? 1 : this.indentNext);
          }
          do {
            const cs = this.continueScalar(nl + 1);
            if (cs === -1)
              break;
            nl = this.buffer.indexOf("\n", cs);
          } while (nl !== -1);
          if (nl === -1) {
            if (!this.atEnd)
              return this.setNext("block-scalar");
            nl = this.buffer.length;
          }
        }
        let i = nl + 1;
        ch = this.buffer[i];
        while (ch === " ")
          ch = this.buffer[++i];
        if (ch === "	") {
          while (ch === "	" || ch === " " || ch === "\r" || ch === "\n")
            ch = this.buffer[++i];
          nl = i - 1;
        } else if (!this.blockScalarKeep) {
          do {
            let i2 = nl - 1;
            let ch2 = this.buffer[i2];
            if (ch2 === "\r")
              ch2 = this.buffer[--i2];
            const lastChar = i2;
            while (ch2 === " ")
              ch2 = this.buffer[--i2];
            if (ch2 === "\n" && i2 >= this.pos && i2 + 1 + indent > lastChar)
              nl = i2;
            else
              break;
          } while (true);
        }
        yield cst.SCALAR;
        yield* this.pushToIndex(nl + 1, true);
        return yield* this.parseLineStart();
      }
      *parsePlainScalar() {
        const inFlow = this.flowLevel > 0;
        let end = this.pos - 1;
        let i = this.pos - 1;
        let ch;
        while (ch = this.buffer[++i]) {
          if (ch === ":") {
            const next = this.buffer[i + 1];
            if (isEmpty(next) || inFlow && flowIndicatorChars.has(next))
              break;
            end = i;
          } else if (isEmpty(ch)) {
            let next = this.buffer[i + 1];
            if (ch === "\r") {
              if (next === "\n") {
                i += 1;
                ch = "\n";
                next = this.buffer[i + 1];
              } else
                end = i;
            }
            if (next === "#" || inFlow && flowIndicatorChars.has(next))
              break;
            if (ch === "\n") {
              const cs = this.continueScalar(i + 1);
              if (cs === -1)
                break;
              i = Math.max(i, cs - 2);
            }
          } else {
            if (inFlow && flowIndicatorChars.has(ch))
              break;
            end = i;
          }
        }
        if (!ch && !this.atEnd)
          return this.setNext("plain-scalar");
        yield cst.SCALAR;
        yield* this.pushToIndex(end + 1, true);
        return inFlow ? "flow" : "doc";
      }
      *pushCount(n) {
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos += n;
          return n;
        }
        return 0;
      }
      *pushToIndex(i, allowEmpty) {
        const s = this.buffer.slice(this.pos, i);
        if (s) {
          yield s;
          this.pos += s.length;
          return s.length;
        } else if (allowEmpty)
          yield "";
        return 0;
      }
      *pushIndicators() {
        let n = 0;
        loop: while (true) {
          switch (this.charAt(0)) {
            case "!":
              n += yield* this.pushTag();
              n += yield* this.pushSpaces(true);
              continue loop;
            case "&":
              n += yield* this.pushUntil(isNotAnchorChar);
              n += yield* this.pushSpaces(true);
              continue loop;
            case "-":
            // this is an error
            case "?":
            // this is an error outside flow collections
            case ":": {
              const inFlow = this.flowLevel > 0;
              const ch1 = this.charAt(1);
              if (isEmpty(ch1) || inFlow && flowIndicatorChars.has(ch1)) {
                if (!inFlow)
                  this.indentNext = this.indentValue + 1;
                else if (this.flowKey)
                  this.flowKey = false;
                n += yield* this.pushCount(1);
                n += yield* this.pushSpaces(true);
                continue loop;
              }
            }
          }
          break loop;
        }
        return n;
      }
      *pushTag() {
        if (this.charAt(1) === "<") {
          let i = this.pos + 2;
          let ch = this.buffer[i];
          while (!isEmpty(ch) && ch !== ">")
            ch = this.buffer[++i];
          return yield* this.pushToIndex(ch === ">" ? i + 1 : i, false);
        } else {
          let i = this.pos + 1;
          let ch = this.buffer[i];
          while (ch) {
            if (tagChars.has(ch))
              ch = this.buffer[++i];
            else if (ch === "%" && hexDigits.has(this.buffer[i + 1]) && hexDigits.has(this.buffer[i + 2])) {
              ch = this.buffer[i += 3];
            } else
              break;
          }
          return yield* this.pushToIndex(i, false);
        }
      }
      *pushNewline() {
        const ch = this.buffer[this.pos];
        if (ch === "\n")
          return yield* this.pushCount(1);
        else if (ch === "\r" && this.charAt(1) === "\n")
          return yield* this.pushCount(2);
        else
          return 0;
      }
      *pushSpaces(allowTabs) {
        let i = this.pos - 1;
        let ch;
        do {
          ch = this.buffer[++i];
        } while (ch === " " || allowTabs && ch === "	");
        const n = i - this.pos;
        if (n > 0) {
          yield this.buffer.substr(this.pos, n);
          this.pos = i;
        }
        return n;
      }
      *pushUntil(test) {
        let i = this.pos;
        let ch = this.buffer[i];
        while (!test(ch))
          ch = this.buffer[++i];
        return yield* this.pushToIndex(i, false);
      }
    };
    exports.Lexer = Lexer;
  }
});

// node_modules/yaml/dist/parse/line-counter.js
var require_line_counter = __commonJS({
  "node_modules/yaml/dist/parse/line-counter.js"(exports) {
    "use strict";
    var LineCounter2 = class {
      constructor() {
        this.lineStarts = [];
        this.addNewLine = (offset) => this.lineStarts.push(offset);
        this.linePos = (offset) => {
          let low = 0;
          let high = this.lineStarts.length;
          while (low < high) {
            const mid = low + high >> 1;
            if (this.lineStarts[mid] < offset)
              low = mid + 1;
            else
              high = mid;
          }
          if (this.lineStarts[low] === offset)
            return { line: low + 1, col: 1 };
          if (low === 0)
            return { line: 0, col: offset };
          const start = this.lineStarts[low - 1];
          return { line: low, col: offset - start + 1 };
        };
      }
    };
    exports.LineCounter = LineCounter2;
  }
});

// node_modules/yaml/dist/parse/parser.js
var require_parser = __commonJS({
  "node_modules/yaml/dist/parse/parser.js"(exports) {
    "use strict";
    var node_process = __require("process");
    var cst = require_cst();
    var lexer = require_lexer();
    function includesToken(list2, type) {
      for (let i = 0; i < list2.length; ++i)
        if (list2[i].type === type)
          return true;
      return false;
    }
    function findNonEmptyIndex(list2) {
      for (let i = 0; i < list2.length; ++i) {
        switch (list2[i].type) {
          case "space":
          case "comment":
          case "newline":
            break;
          default:
            return i;
        }
      }
      return -1;
    }
    function isFlowToken(token) {
      switch (token?.type) {
        case "alias":
        case "scalar":
        case "single-quoted-scalar":
        case "double-quoted-scalar":
        case "flow-collection":
          return true;
        default:
          return false;
      }
    }
    function getPrevProps(parent) {
      switch (parent.type) {
        case "document":
          return parent.start;
        case "block-map": {
          const it = parent.items[parent.items.length - 1];
          return it.sep ?? it.start;
        }
        case "block-seq":
          return parent.items[parent.items.length - 1].start;
        /* istanbul ignore next should not happen */
        default:
          return [];
      }
    }
    function getFirstKeyStartProps(prev) {
      if (prev.length === 0)
        return [];
      let i = prev.length;
      loop: while (--i >= 0) {
        switch (prev[i].type) {
          case "doc-start":
          case "explicit-key-ind":
          case "map-value-ind":
          case "seq-item-ind":
          case "newline":
            break loop;
        }
      }
      while (prev[++i]?.type === "space") {
      }
      return prev.splice(i, prev.length);
    }
    function arrayPushArray(target, source) {
      if (source.length < 1e5)
        Array.prototype.push.apply(target, source);
      else
        for (let i = 0; i < source.length; ++i)
          target.push(source[i]);
    }
    function fixFlowSeqItems(fc) {
      if (fc.start.type === "flow-seq-start") {
        for (const it of fc.items) {
          if (it.sep && !it.value && !includesToken(it.start, "explicit-key-ind") && !includesToken(it.sep, "map-value-ind")) {
            if (it.key)
              it.value = it.key;
            delete it.key;
            if (isFlowToken(it.value)) {
              if (it.value.end)
                arrayPushArray(it.value.end, it.sep);
              else
                it.value.end = it.sep;
            } else
              arrayPushArray(it.start, it.sep);
            delete it.sep;
          }
        }
      }
    }
    var Parser = class {
      /**
       * @param onNewLine - If defined, called separately with the start position of
       *   each new line (in `parse()`, including the start of input).
       */
      constructor(onNewLine) {
        this.atNewLine = true;
        this.atScalar = false;
        this.indent = 0;
        this.offset = 0;
        this.onKeyLine = false;
        this.stack = [];
        this.source = "";
        this.type = "";
        this.lexer = new lexer.Lexer();
        this.onNewLine = onNewLine;
      }
      /**
       * Parse `source` as a YAML stream.
       * If `incomplete`, a part of the last line may be left as a buffer for the next call.
       *
       * Errors are not thrown, but yielded as `{ type: 'error', message }` tokens.
       *
       * @returns A generator of tokens representing each directive, document, and other structure.
       */
      *parse(source, incomplete = false) {
        if (this.onNewLine && this.offset === 0)
          this.onNewLine(0);
        for (const lexeme of this.lexer.lex(source, incomplete))
          yield* this.next(lexeme);
        if (!incomplete)
          yield* this.end();
      }
      /**
       * Advance the parser by the `source` of one lexical token.
       */
      *next(source) {
        this.source = source;
        if (node_process.env.LOG_TOKENS)
          console.log("|", cst.prettyToken(source));
        if (this.atScalar) {
          this.atScalar = false;
          yield* this.step();
          this.offset += source.length;
          return;
        }
        const type = cst.tokenType(source);
        if (!type) {
          const message = `Not a YAML token: ${source}`;
          yield* this.pop({ type: "error", offset: this.offset, message, source });
          this.offset += source.length;
        } else if (type === "scalar") {
          this.atNewLine = false;
          this.atScalar = true;
          this.type = "scalar";
        } else {
          this.type = type;
          yield* this.step();
          switch (type) {
            case "newline":
              this.atNewLine = true;
              this.indent = 0;
              if (this.onNewLine)
                this.onNewLine(this.offset + source.length);
              break;
            case "space":
              if (this.atNewLine && source[0] === " ")
                this.indent += source.length;
              break;
            case "explicit-key-ind":
            case "map-value-ind":
            case "seq-item-ind":
              if (this.atNewLine)
                this.indent += source.length;
              break;
            case "doc-mode":
            case "flow-error-end":
              return;
            default:
              this.atNewLine = false;
          }
          this.offset += source.length;
        }
      }
      /** Call at end of input to push out any remaining constructions */
      *end() {
        while (this.stack.length > 0)
          yield* this.pop();
      }
      get sourceToken() {
        const st = {
          type: this.type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
        return st;
      }
      *step() {
        const top = this.peek(1);
        if (this.type === "doc-end" && top?.type !== "doc-end") {
          while (this.stack.length > 0)
            yield* this.pop();
          this.stack.push({
            type: "doc-end",
            offset: this.offset,
            source: this.source
          });
          return;
        }
        if (!top)
          return yield* this.stream();
        switch (top.type) {
          case "document":
            return yield* this.document(top);
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return yield* this.scalar(top);
          case "block-scalar":
            return yield* this.blockScalar(top);
          case "block-map":
            return yield* this.blockMap(top);
          case "block-seq":
            return yield* this.blockSequence(top);
          case "flow-collection":
            return yield* this.flowCollection(top);
          case "doc-end":
            return yield* this.documentEnd(top);
        }
        yield* this.pop();
      }
      peek(n) {
        return this.stack[this.stack.length - n];
      }
      *pop(error) {
        const token = error ?? this.stack.pop();
        if (!token) {
          const message = "Tried to pop an empty stack";
          yield { type: "error", offset: this.offset, source: "", message };
        } else if (this.stack.length === 0) {
          yield token;
        } else {
          const top = this.peek(1);
          if (token.type === "block-scalar") {
            token.indent = "indent" in top ? top.indent : 0;
          } else if (token.type === "flow-collection" && top.type === "document") {
            token.indent = 0;
          }
          if (token.type === "flow-collection")
            fixFlowSeqItems(token);
          switch (top.type) {
            case "document":
              top.value = token;
              break;
            case "block-scalar":
              top.props.push(token);
              break;
            case "block-map": {
              const it = top.items[top.items.length - 1];
              if (it.value) {
                top.items.push({ start: [], key: token, sep: [] });
                this.onKeyLine = true;
                return;
              } else if (it.sep) {
                it.value = token;
              } else {
                Object.assign(it, { key: token, sep: [] });
                this.onKeyLine = !it.explicitKey;
                return;
              }
              break;
            }
            case "block-seq": {
              const it = top.items[top.items.length - 1];
              if (it.value)
                top.items.push({ start: [], value: token });
              else
                it.value = token;
              break;
            }
            case "flow-collection": {
              const it = top.items[top.items.length - 1];
              if (!it || it.value)
                top.items.push({ start: [], key: token, sep: [] });
              else if (it.sep)
                it.value = token;
              else
                Object.assign(it, { key: token, sep: [] });
              return;
            }
            /* istanbul ignore next should not happen */
            default:
              yield* this.pop();
              yield* this.pop(token);
          }
          if ((top.type === "document" || top.type === "block-map" || top.type === "block-seq") && (token.type === "block-map" || token.type === "block-seq")) {
            const last = token.items[token.items.length - 1];
            if (last && !last.sep && !last.value && last.start.length > 0 && findNonEmptyIndex(last.start) === -1 && (token.indent === 0 || last.start.every((st) => st.type !== "comment" || st.indent < token.indent))) {
              if (top.type === "document")
                top.end = last.start;
              else
                top.items.push({ start: last.start });
              token.items.splice(-1, 1);
            }
          }
        }
      }
      *stream() {
        switch (this.type) {
          case "directive-line":
            yield { type: "directive", offset: this.offset, source: this.source };
            return;
          case "byte-order-mark":
          case "space":
          case "comment":
          case "newline":
            yield this.sourceToken;
            return;
          case "doc-mode":
          case "doc-start": {
            const doc = {
              type: "document",
              offset: this.offset,
              start: []
            };
            if (this.type === "doc-start")
              doc.start.push(this.sourceToken);
            this.stack.push(doc);
            return;
          }
        }
        yield {
          type: "error",
          offset: this.offset,
          message: `Unexpected ${this.type} token in YAML stream`,
          source: this.source
        };
      }
      *document(doc) {
        if (doc.value)
          return yield* this.lineEnd(doc);
        switch (this.type) {
          case "doc-start": {
            if (findNonEmptyIndex(doc.start) !== -1) {
              yield* this.pop();
              yield* this.step();
            } else
              doc.start.push(this.sourceToken);
            return;
          }
          case "anchor":
          case "tag":
          case "space":
          case "comment":
          case "newline":
            doc.start.push(this.sourceToken);
            return;
        }
        const bv = this.startBlockValue(doc);
        if (bv)
          this.stack.push(bv);
        else {
          yield {
            type: "error",
            offset: this.offset,
            message: `Unexpected ${this.type} token in YAML document`,
            source: this.source
          };
        }
      }
      *scalar(scalar) {
        if (this.type === "map-value-ind") {
          const prev = getPrevProps(this.peek(2));
          const start = getFirstKeyStartProps(prev);
          let sep;
          if (scalar.end) {
            sep = scalar.end;
            sep.push(this.sourceToken);
            delete scalar.end;
          } else
            sep = [this.sourceToken];
          const map = {
            type: "block-map",
            offset: scalar.offset,
            indent: scalar.indent,
            items: [{ start, key: scalar, sep }]
          };
          this.onKeyLine = true;
          this.stack[this.stack.length - 1] = map;
        } else
          yield* this.lineEnd(scalar);
      }
      *blockScalar(scalar) {
        switch (this.type) {
          case "space":
          case "comment":
          case "newline":
            scalar.props.push(this.sourceToken);
            return;
          case "scalar":
            scalar.source = this.source;
            this.atNewLine = true;
            this.indent = 0;
            if (this.onNewLine) {
              let nl = this.source.indexOf("\n") + 1;
              while (nl !== 0) {
                this.onNewLine(this.offset + nl);
                nl = this.source.indexOf("\n", nl) + 1;
              }
            }
            yield* this.pop();
            break;
          /* istanbul ignore next should not happen */
          default:
            yield* this.pop();
            yield* this.step();
        }
      }
      *blockMap(map) {
        const it = map.items[map.items.length - 1];
        switch (this.type) {
          case "newline":
            this.onKeyLine = false;
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              it.start.push(this.sourceToken);
            }
            return;
          case "space":
          case "comment":
            if (it.value) {
              map.items.push({ start: [this.sourceToken] });
            } else if (it.sep) {
              it.sep.push(this.sourceToken);
            } else {
              if (this.atIndentedComment(it.start, map.indent)) {
                const prev = map.items[map.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  map.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
        }
        if (this.indent >= map.indent) {
          const atMapIndent = !this.onKeyLine && this.indent === map.indent;
          const atNextItem = atMapIndent && (it.sep || it.explicitKey) && this.type !== "seq-item-ind";
          let start = [];
          if (atNextItem && it.sep && !it.value) {
            const nl = [];
            for (let i = 0; i < it.sep.length; ++i) {
              const st = it.sep[i];
              switch (st.type) {
                case "newline":
                  nl.push(i);
                  break;
                case "space":
                  break;
                case "comment":
                  if (st.indent > map.indent)
                    nl.length = 0;
                  break;
                default:
                  nl.length = 0;
              }
            }
            if (nl.length >= 2)
              start = it.sep.splice(nl[1]);
          }
          switch (this.type) {
            case "anchor":
            case "tag":
              if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start });
                this.onKeyLine = true;
              } else if (it.sep) {
                it.sep.push(this.sourceToken);
              } else {
                it.start.push(this.sourceToken);
              }
              return;
            case "explicit-key-ind":
              if (!it.sep && !it.explicitKey) {
                it.start.push(this.sourceToken);
                it.explicitKey = true;
              } else if (atNextItem || it.value) {
                start.push(this.sourceToken);
                map.items.push({ start, explicitKey: true });
              } else {
                this.stack.push({
                  type: "block-map",
                  offset: this.offset,
                  indent: this.indent,
                  items: [{ start: [this.sourceToken], explicitKey: true }]
                });
              }
              this.onKeyLine = true;
              return;
            case "map-value-ind":
              if (it.explicitKey) {
                if (!it.sep) {
                  if (includesToken(it.start, "newline")) {
                    Object.assign(it, { key: null, sep: [this.sourceToken] });
                  } else {
                    const start2 = getFirstKeyStartProps(it.start);
                    this.stack.push({
                      type: "block-map",
                      offset: this.offset,
                      indent: this.indent,
                      items: [{ start: start2, key: null, sep: [this.sourceToken] }]
                    });
                  }
                } else if (it.value) {
                  map.items.push({ start: [], key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start, key: null, sep: [this.sourceToken] }]
                  });
                } else if (isFlowToken(it.key) && !includesToken(it.sep, "newline")) {
                  const start2 = getFirstKeyStartProps(it.start);
                  const key = it.key;
                  const sep = it.sep;
                  sep.push(this.sourceToken);
                  delete it.key;
                  delete it.sep;
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: start2, key, sep }]
                  });
                } else if (start.length > 0) {
                  it.sep = it.sep.concat(start, this.sourceToken);
                } else {
                  it.sep.push(this.sourceToken);
                }
              } else {
                if (!it.sep) {
                  Object.assign(it, { key: null, sep: [this.sourceToken] });
                } else if (it.value || atNextItem) {
                  map.items.push({ start, key: null, sep: [this.sourceToken] });
                } else if (includesToken(it.sep, "map-value-ind")) {
                  this.stack.push({
                    type: "block-map",
                    offset: this.offset,
                    indent: this.indent,
                    items: [{ start: [], key: null, sep: [this.sourceToken] }]
                  });
                } else {
                  it.sep.push(this.sourceToken);
                }
              }
              this.onKeyLine = true;
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (atNextItem || it.value) {
                map.items.push({ start, key: fs, sep: [] });
                this.onKeyLine = true;
              } else if (it.sep) {
                this.stack.push(fs);
              } else {
                Object.assign(it, { key: fs, sep: [] });
                this.onKeyLine = true;
              }
              return;
            }
            default: {
              const bv = this.startBlockValue(map);
              if (bv) {
                if (bv.type === "block-seq") {
                  if (!it.explicitKey && it.sep && !includesToken(it.sep, "newline")) {
                    yield* this.pop({
                      type: "error",
                      offset: this.offset,
                      message: "Unexpected block-seq-ind on same line with key",
                      source: this.source
                    });
                    return;
                  }
                } else if (atMapIndent) {
                  map.items.push({ start });
                }
                this.stack.push(bv);
                return;
              }
            }
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *blockSequence(seq) {
        const it = seq.items[seq.items.length - 1];
        switch (this.type) {
          case "newline":
            if (it.value) {
              const end = "end" in it.value ? it.value.end : void 0;
              const last = Array.isArray(end) ? end[end.length - 1] : void 0;
              if (last?.type === "comment")
                end?.push(this.sourceToken);
              else
                seq.items.push({ start: [this.sourceToken] });
            } else
              it.start.push(this.sourceToken);
            return;
          case "space":
          case "comment":
            if (it.value)
              seq.items.push({ start: [this.sourceToken] });
            else {
              if (this.atIndentedComment(it.start, seq.indent)) {
                const prev = seq.items[seq.items.length - 2];
                const end = prev?.value?.end;
                if (Array.isArray(end)) {
                  arrayPushArray(end, it.start);
                  end.push(this.sourceToken);
                  seq.items.pop();
                  return;
                }
              }
              it.start.push(this.sourceToken);
            }
            return;
          case "anchor":
          case "tag":
            if (it.value || this.indent <= seq.indent)
              break;
            it.start.push(this.sourceToken);
            return;
          case "seq-item-ind":
            if (this.indent !== seq.indent)
              break;
            if (it.value || includesToken(it.start, "seq-item-ind"))
              seq.items.push({ start: [this.sourceToken] });
            else
              it.start.push(this.sourceToken);
            return;
        }
        if (this.indent > seq.indent) {
          const bv = this.startBlockValue(seq);
          if (bv) {
            this.stack.push(bv);
            return;
          }
        }
        yield* this.pop();
        yield* this.step();
      }
      *flowCollection(fc) {
        const it = fc.items[fc.items.length - 1];
        if (this.type === "flow-error-end") {
          let top;
          do {
            yield* this.pop();
            top = this.peek(1);
          } while (top?.type === "flow-collection");
        } else if (fc.end.length === 0) {
          switch (this.type) {
            case "comma":
            case "explicit-key-ind":
              if (!it || it.sep)
                fc.items.push({ start: [this.sourceToken] });
              else
                it.start.push(this.sourceToken);
              return;
            case "map-value-ind":
              if (!it || it.value)
                fc.items.push({ start: [], key: null, sep: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                Object.assign(it, { key: null, sep: [this.sourceToken] });
              return;
            case "space":
            case "comment":
            case "newline":
            case "anchor":
            case "tag":
              if (!it || it.value)
                fc.items.push({ start: [this.sourceToken] });
              else if (it.sep)
                it.sep.push(this.sourceToken);
              else
                it.start.push(this.sourceToken);
              return;
            case "alias":
            case "scalar":
            case "single-quoted-scalar":
            case "double-quoted-scalar": {
              const fs = this.flowScalar(this.type);
              if (!it || it.value)
                fc.items.push({ start: [], key: fs, sep: [] });
              else if (it.sep)
                this.stack.push(fs);
              else
                Object.assign(it, { key: fs, sep: [] });
              return;
            }
            case "flow-map-end":
            case "flow-seq-end":
              fc.end.push(this.sourceToken);
              return;
          }
          const bv = this.startBlockValue(fc);
          if (bv)
            this.stack.push(bv);
          else {
            yield* this.pop();
            yield* this.step();
          }
        } else {
          const parent = this.peek(2);
          if (parent.type === "block-map" && (this.type === "map-value-ind" && parent.indent === fc.indent || this.type === "newline" && !parent.items[parent.items.length - 1].sep)) {
            yield* this.pop();
            yield* this.step();
          } else if (this.type === "map-value-ind" && parent.type !== "flow-collection") {
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            fixFlowSeqItems(fc);
            const sep = fc.end.splice(1, fc.end.length);
            sep.push(this.sourceToken);
            const map = {
              type: "block-map",
              offset: fc.offset,
              indent: fc.indent,
              items: [{ start, key: fc, sep }]
            };
            this.onKeyLine = true;
            this.stack[this.stack.length - 1] = map;
          } else {
            yield* this.lineEnd(fc);
          }
        }
      }
      flowScalar(type) {
        if (this.onNewLine) {
          let nl = this.source.indexOf("\n") + 1;
          while (nl !== 0) {
            this.onNewLine(this.offset + nl);
            nl = this.source.indexOf("\n", nl) + 1;
          }
        }
        return {
          type,
          offset: this.offset,
          indent: this.indent,
          source: this.source
        };
      }
      startBlockValue(parent) {
        switch (this.type) {
          case "alias":
          case "scalar":
          case "single-quoted-scalar":
          case "double-quoted-scalar":
            return this.flowScalar(this.type);
          case "block-scalar-header":
            return {
              type: "block-scalar",
              offset: this.offset,
              indent: this.indent,
              props: [this.sourceToken],
              source: ""
            };
          case "flow-map-start":
          case "flow-seq-start":
            return {
              type: "flow-collection",
              offset: this.offset,
              indent: this.indent,
              start: this.sourceToken,
              items: [],
              end: []
            };
          case "seq-item-ind":
            return {
              type: "block-seq",
              offset: this.offset,
              indent: this.indent,
              items: [{ start: [this.sourceToken] }]
            };
          case "explicit-key-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            start.push(this.sourceToken);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, explicitKey: true }]
            };
          }
          case "map-value-ind": {
            this.onKeyLine = true;
            const prev = getPrevProps(parent);
            const start = getFirstKeyStartProps(prev);
            return {
              type: "block-map",
              offset: this.offset,
              indent: this.indent,
              items: [{ start, key: null, sep: [this.sourceToken] }]
            };
          }
        }
        return null;
      }
      atIndentedComment(start, indent) {
        if (this.type !== "comment")
          return false;
        if (this.indent <= indent)
          return false;
        return start.every((st) => st.type === "newline" || st.type === "space");
      }
      *documentEnd(docEnd) {
        if (this.type !== "doc-mode") {
          if (docEnd.end)
            docEnd.end.push(this.sourceToken);
          else
            docEnd.end = [this.sourceToken];
          if (this.type === "newline")
            yield* this.pop();
        }
      }
      *lineEnd(token) {
        switch (this.type) {
          case "comma":
          case "doc-start":
          case "doc-end":
          case "flow-seq-end":
          case "flow-map-end":
          case "map-value-ind":
            yield* this.pop();
            yield* this.step();
            break;
          case "newline":
            this.onKeyLine = false;
          // fallthrough
          case "space":
          case "comment":
          default:
            if (token.end)
              token.end.push(this.sourceToken);
            else
              token.end = [this.sourceToken];
            if (this.type === "newline")
              yield* this.pop();
        }
      }
    };
    exports.Parser = Parser;
  }
});

// node_modules/yaml/dist/public-api.js
var require_public_api = __commonJS({
  "node_modules/yaml/dist/public-api.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var errors = require_errors();
    var log = require_log();
    var identity = require_identity();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    function parseOptions(options) {
      const prettyErrors = options.prettyErrors !== false;
      const lineCounter$1 = options.lineCounter || prettyErrors && new lineCounter.LineCounter() || null;
      return { lineCounter: lineCounter$1, prettyErrors };
    }
    function parseAllDocuments(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      const docs = Array.from(composer$1.compose(parser$1.parse(source)));
      if (prettyErrors && lineCounter2)
        for (const doc of docs) {
          doc.errors.forEach(errors.prettifyError(source, lineCounter2));
          doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
        }
      if (docs.length > 0)
        return docs;
      return Object.assign([], { empty: true }, composer$1.streamInfo());
    }
    function parseDocument2(source, options = {}) {
      const { lineCounter: lineCounter2, prettyErrors } = parseOptions(options);
      const parser$1 = new parser.Parser(lineCounter2?.addNewLine);
      const composer$1 = new composer.Composer(options);
      let doc = null;
      for (const _doc of composer$1.compose(parser$1.parse(source), true, source.length)) {
        if (!doc)
          doc = _doc;
        else if (doc.options.logLevel !== "silent") {
          doc.errors.push(new errors.YAMLParseError(_doc.range.slice(0, 2), "MULTIPLE_DOCS", "Source contains multiple documents; please use YAML.parseAllDocuments()"));
          break;
        }
      }
      if (prettyErrors && lineCounter2) {
        doc.errors.forEach(errors.prettifyError(source, lineCounter2));
        doc.warnings.forEach(errors.prettifyError(source, lineCounter2));
      }
      return doc;
    }
    function parse2(src, reviver, options) {
      let _reviver = void 0;
      if (typeof reviver === "function") {
        _reviver = reviver;
      } else if (options === void 0 && reviver && typeof reviver === "object") {
        options = reviver;
      }
      const doc = parseDocument2(src, options);
      if (!doc)
        return null;
      doc.warnings.forEach((warning) => log.warn(doc.options.logLevel, warning));
      if (doc.errors.length > 0) {
        if (doc.options.logLevel !== "silent")
          throw doc.errors[0];
        else
          doc.errors = [];
      }
      return doc.toJS(Object.assign({ reviver: _reviver }, options));
    }
    function stringify2(value, replacer, options) {
      let _replacer = null;
      if (typeof replacer === "function" || Array.isArray(replacer)) {
        _replacer = replacer;
      } else if (options === void 0 && replacer) {
        options = replacer;
      }
      if (typeof options === "string")
        options = options.length;
      if (typeof options === "number") {
        const indent = Math.round(options);
        options = indent < 1 ? void 0 : indent > 8 ? { indent: 8 } : { indent };
      }
      if (value === void 0) {
        const { keepUndefined } = options ?? replacer ?? {};
        if (!keepUndefined)
          return void 0;
      }
      if (identity.isDocument(value) && !_replacer)
        return value.toString(options);
      return new Document.Document(value, _replacer, options).toString(options);
    }
    exports.parse = parse2;
    exports.parseAllDocuments = parseAllDocuments;
    exports.parseDocument = parseDocument2;
    exports.stringify = stringify2;
  }
});

// node_modules/yaml/dist/index.js
var require_dist = __commonJS({
  "node_modules/yaml/dist/index.js"(exports) {
    "use strict";
    var composer = require_composer();
    var Document = require_Document();
    var Schema = require_Schema();
    var errors = require_errors();
    var Alias = require_Alias();
    var identity = require_identity();
    var Pair = require_Pair();
    var Scalar = require_Scalar();
    var YAMLMap = require_YAMLMap();
    var YAMLSeq = require_YAMLSeq();
    var cst = require_cst();
    var lexer = require_lexer();
    var lineCounter = require_line_counter();
    var parser = require_parser();
    var publicApi = require_public_api();
    var visit2 = require_visit();
    exports.Composer = composer.Composer;
    exports.Document = Document.Document;
    exports.Schema = Schema.Schema;
    exports.YAMLError = errors.YAMLError;
    exports.YAMLParseError = errors.YAMLParseError;
    exports.YAMLWarning = errors.YAMLWarning;
    exports.Alias = Alias.Alias;
    exports.isAlias = identity.isAlias;
    exports.isCollection = identity.isCollection;
    exports.isDocument = identity.isDocument;
    exports.isMap = identity.isMap;
    exports.isNode = identity.isNode;
    exports.isPair = identity.isPair;
    exports.isScalar = identity.isScalar;
    exports.isSeq = identity.isSeq;
    exports.Pair = Pair.Pair;
    exports.Scalar = Scalar.Scalar;
    exports.YAMLMap = YAMLMap.YAMLMap;
    exports.YAMLSeq = YAMLSeq.YAMLSeq;
    exports.CST = cst;
    exports.Lexer = lexer.Lexer;
    exports.LineCounter = lineCounter.LineCounter;
    exports.Parser = parser.Parser;
    exports.parse = publicApi.parse;
    exports.parseAllDocuments = publicApi.parseAllDocuments;
    exports.parseDocument = publicApi.parseDocument;
    exports.stringify = publicApi.stringify;
    exports.visit = visit2.visit;
    exports.visitAsync = visit2.visitAsync;
  }
});

// node_modules/picomatch/lib/constants.js
var require_constants = __commonJS({
  "node_modules/picomatch/lib/constants.js"(exports, module) {
    "use strict";
    var WIN_SLASH = "\\\\/";
    var WIN_NO_SLASH = `[^${WIN_SLASH}]`;
    var DEFAULT_MAX_EXTGLOB_RECURSION = 0;
    var DOT_LITERAL = "\\.";
    var PLUS_LITERAL = "\\+";
    var QMARK_LITERAL = "\\?";
    var SLASH_LITERAL = "\\/";
    var ONE_CHAR = "(?=.)";
    var QMARK = "[^/]";
    var END_ANCHOR = `(?:${SLASH_LITERAL}|$)`;
    var START_ANCHOR = `(?:^|${SLASH_LITERAL})`;
    var DOTS_SLASH = `${DOT_LITERAL}{1,2}${END_ANCHOR}`;
    var NO_DOT = `(?!${DOT_LITERAL})`;
    var NO_DOTS = `(?!${START_ANCHOR}${DOTS_SLASH})`;
    var NO_DOT_SLASH = `(?!${DOT_LITERAL}{0,1}${END_ANCHOR})`;
    var NO_DOTS_SLASH = `(?!${DOTS_SLASH})`;
    var QMARK_NO_DOT = `[^.${SLASH_LITERAL}]`;
    var STAR = `${QMARK}*?`;
    var SEP = "/";
    var POSIX_CHARS = {
      DOT_LITERAL,
      PLUS_LITERAL,
      QMARK_LITERAL,
      SLASH_LITERAL,
      ONE_CHAR,
      QMARK,
      END_ANCHOR,
      DOTS_SLASH,
      NO_DOT,
      NO_DOTS,
      NO_DOT_SLASH,
      NO_DOTS_SLASH,
      QMARK_NO_DOT,
      STAR,
      START_ANCHOR,
      SEP
    };
    var WINDOWS_CHARS = {
      ...POSIX_CHARS,
      SLASH_LITERAL: `[${WIN_SLASH}]`,
      QMARK: WIN_NO_SLASH,
      STAR: `${WIN_NO_SLASH}*?`,
      DOTS_SLASH: `${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$)`,
      NO_DOT: `(?!${DOT_LITERAL})`,
      NO_DOTS: `(?!(?:^|[${WIN_SLASH}])${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      NO_DOT_SLASH: `(?!${DOT_LITERAL}{0,1}(?:[${WIN_SLASH}]|$))`,
      NO_DOTS_SLASH: `(?!${DOT_LITERAL}{1,2}(?:[${WIN_SLASH}]|$))`,
      QMARK_NO_DOT: `[^.${WIN_SLASH}]`,
      START_ANCHOR: `(?:^|[${WIN_SLASH}])`,
      END_ANCHOR: `(?:[${WIN_SLASH}]|$)`,
      SEP: "\\"
    };
    var POSIX_REGEX_SOURCE = {
      __proto__: null,
      alnum: "a-zA-Z0-9",
      alpha: "a-zA-Z",
      ascii: "\\x00-\\x7F",
      blank: " \\t",
      cntrl: "\\x00-\\x1F\\x7F",
      digit: "0-9",
      graph: "\\x21-\\x7E",
      lower: "a-z",
      print: "\\x20-\\x7E ",
      punct: "\\-!\"#$%&'()\\*+,./:;<=>?@[\\]^_`{|}~",
      space: " \\t\\r\\n\\v\\f",
      upper: "A-Z",
      word: "A-Za-z0-9_",
      xdigit: "A-Fa-f0-9"
    };
    module.exports = {
      DEFAULT_MAX_EXTGLOB_RECURSION,
      MAX_LENGTH: 1024 * 64,
      POSIX_REGEX_SOURCE,
      // regular expressions
      REGEX_BACKSLASH: /\\(?![*+?^${}(|)[\]])/g,
      REGEX_NON_SPECIAL_CHARS: /^[^@![\].,$*+?^{}()|\\/]+/,
      REGEX_SPECIAL_CHARS: /[-*+?.^${}(|)[\]]/,
      REGEX_SPECIAL_CHARS_BACKREF: /(\\?)((\W)(\3*))/g,
      REGEX_SPECIAL_CHARS_GLOBAL: /([-*+?.^${}(|)[\]])/g,
      REGEX_REMOVE_BACKSLASH: /(?:\[.*?[^\\]\]|\\(?=.))/g,
      // Replace globs with equivalent patterns to reduce parsing time.
      REPLACEMENTS: {
        __proto__: null,
        "***": "*",
        "**/**": "**",
        "**/**/**": "**"
      },
      // Digits
      CHAR_0: 48,
      /* 0 */
      CHAR_9: 57,
      /* 9 */
      // Alphabet chars.
      CHAR_UPPERCASE_A: 65,
      /* A */
      CHAR_LOWERCASE_A: 97,
      /* a */
      CHAR_UPPERCASE_Z: 90,
      /* Z */
      CHAR_LOWERCASE_Z: 122,
      /* z */
      CHAR_LEFT_PARENTHESES: 40,
      /* ( */
      CHAR_RIGHT_PARENTHESES: 41,
      /* ) */
      CHAR_ASTERISK: 42,
      /* * */
      // Non-alphabetic chars.
      CHAR_AMPERSAND: 38,
      /* & */
      CHAR_AT: 64,
      /* @ */
      CHAR_BACKWARD_SLASH: 92,
      /* \ */
      CHAR_CARRIAGE_RETURN: 13,
      /* \r */
      CHAR_CIRCUMFLEX_ACCENT: 94,
      /* ^ */
      CHAR_COLON: 58,
      /* : */
      CHAR_COMMA: 44,
      /* , */
      CHAR_DOT: 46,
      /* . */
      CHAR_DOUBLE_QUOTE: 34,
      /* " */
      CHAR_EQUAL: 61,
      /* = */
      CHAR_EXCLAMATION_MARK: 33,
      /* ! */
      CHAR_FORM_FEED: 12,
      /* \f */
      CHAR_FORWARD_SLASH: 47,
      /* / */
      CHAR_GRAVE_ACCENT: 96,
      /* ` */
      CHAR_HASH: 35,
      /* # */
      CHAR_HYPHEN_MINUS: 45,
      /* - */
      CHAR_LEFT_ANGLE_BRACKET: 60,
      /* < */
      CHAR_LEFT_CURLY_BRACE: 123,
      /* { */
      CHAR_LEFT_SQUARE_BRACKET: 91,
      /* [ */
      CHAR_LINE_FEED: 10,
      /* \n */
      CHAR_NO_BREAK_SPACE: 160,
      /* \u00A0 */
      CHAR_PERCENT: 37,
      /* % */
      CHAR_PLUS: 43,
      /* + */
      CHAR_QUESTION_MARK: 63,
      /* ? */
      CHAR_RIGHT_ANGLE_BRACKET: 62,
      /* > */
      CHAR_RIGHT_CURLY_BRACE: 125,
      /* } */
      CHAR_RIGHT_SQUARE_BRACKET: 93,
      /* ] */
      CHAR_SEMICOLON: 59,
      /* ; */
      CHAR_SINGLE_QUOTE: 39,
      /* ' */
      CHAR_SPACE: 32,
      /*   */
      CHAR_TAB: 9,
      /* \t */
      CHAR_UNDERSCORE: 95,
      /* _ */
      CHAR_VERTICAL_LINE: 124,
      /* | */
      CHAR_ZERO_WIDTH_NOBREAK_SPACE: 65279,
      /* \uFEFF */
      /**
       * Create EXTGLOB_CHARS
       */
      extglobChars(chars) {
        return {
          "!": { type: "negate", open: "(?:(?!(?:", close: `))${chars.STAR})` },
          "?": { type: "qmark", open: "(?:", close: ")?" },
          "+": { type: "plus", open: "(?:", close: ")+" },
          "*": { type: "star", open: "(?:", close: ")*" },
          "@": { type: "at", open: "(?:", close: ")" }
        };
      },
      /**
       * Create GLOB_CHARS
       */
      globChars(win32) {
        return win32 === true ? WINDOWS_CHARS : POSIX_CHARS;
      }
    };
  }
});

// node_modules/picomatch/lib/utils.js
var require_utils = __commonJS({
  "node_modules/picomatch/lib/utils.js"(exports) {
    "use strict";
    var {
      REGEX_BACKSLASH,
      REGEX_REMOVE_BACKSLASH,
      REGEX_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_GLOBAL
    } = require_constants();
    exports.isObject = (val) => val !== null && typeof val === "object" && !Array.isArray(val);
    exports.hasRegexChars = (str) => REGEX_SPECIAL_CHARS.test(str);
    exports.isRegexChar = (str) => str.length === 1 && exports.hasRegexChars(str);
    exports.escapeRegex = (str) => str.replace(REGEX_SPECIAL_CHARS_GLOBAL, "\\$1");
    exports.toPosixSlashes = (str) => str.replace(REGEX_BACKSLASH, "/");
    exports.isWindows = () => {
      if (typeof navigator !== "undefined" && navigator.platform) {
        const platform = navigator.platform.toLowerCase();
        return platform === "win32" || platform === "windows";
      }
      if (typeof process !== "undefined" && process.platform) {
        return process.platform === "win32";
      }
      return false;
    };
    exports.removeBackslashes = (str) => {
      return str.replace(REGEX_REMOVE_BACKSLASH, (match) => {
        return match === "\\" ? "" : match;
      });
    };
    exports.escapeLast = (input, char, lastIdx) => {
      const idx = input.lastIndexOf(char, lastIdx);
      if (idx === -1) return input;
      if (input[idx - 1] === "\\") return exports.escapeLast(input, char, idx - 1);
      return `${input.slice(0, idx)}\\${input.slice(idx)}`;
    };
    exports.removePrefix = (input, state = {}) => {
      let output = input;
      if (output.startsWith("./")) {
        output = output.slice(2);
        state.prefix = "./";
      }
      return output;
    };
    exports.wrapOutput = (input, state = {}, options = {}) => {
      const prepend = options.contains ? "" : "^";
      const append = options.contains ? "" : "$";
      let output = `${prepend}(?:${input})${append}`;
      if (state.negated === true) {
        output = `(?:^(?!${output}).*$)`;
      }
      return output;
    };
    exports.basename = (path32, { windows } = {}) => {
      const segs = path32.split(windows ? /[\\/]/ : "/");
      const last = segs[segs.length - 1];
      if (last === "") {
        return segs[segs.length - 2];
      }
      return last;
    };
  }
});

// node_modules/picomatch/lib/scan.js
var require_scan = __commonJS({
  "node_modules/picomatch/lib/scan.js"(exports, module) {
    "use strict";
    var utils = require_utils();
    var {
      CHAR_ASTERISK,
      /* * */
      CHAR_AT,
      /* @ */
      CHAR_BACKWARD_SLASH,
      /* \ */
      CHAR_COMMA,
      /* , */
      CHAR_DOT,
      /* . */
      CHAR_EXCLAMATION_MARK,
      /* ! */
      CHAR_FORWARD_SLASH,
      /* / */
      CHAR_LEFT_CURLY_BRACE,
      /* { */
      CHAR_LEFT_PARENTHESES,
      /* ( */
      CHAR_LEFT_SQUARE_BRACKET,
      /* [ */
      CHAR_PLUS,
      /* + */
      CHAR_QUESTION_MARK,
      /* ? */
      CHAR_RIGHT_CURLY_BRACE,
      /* } */
      CHAR_RIGHT_PARENTHESES,
      /* ) */
      CHAR_RIGHT_SQUARE_BRACKET
      /* ] */
    } = require_constants();
    var isPathSeparator = (code) => {
      return code === CHAR_FORWARD_SLASH || code === CHAR_BACKWARD_SLASH;
    };
    var depth = (token) => {
      if (token.isPrefix !== true) {
        token.depth = token.isGlobstar ? Infinity : 1;
      }
    };
    var scan = (input, options) => {
      const opts = options || {};
      const length = input.length - 1;
      const scanToEnd = opts.parts === true || opts.tokens === true || opts.scanToEnd === true;
      const slashes = [];
      const tokens = [];
      const parts = [];
      let str = input;
      let index = -1;
      let start = 0;
      let lastIndex = 0;
      let isBrace = false;
      let isBracket = false;
      let isGlob = false;
      let isExtglob = false;
      let isGlobstar = false;
      let braceEscaped = false;
      let backslashes = false;
      let negated = false;
      let negatedExtglob = false;
      let finished = false;
      let braces = 0;
      let prev;
      let code;
      let token = { value: "", depth: 0, isGlob: false };
      const eos = () => index >= length;
      const peek = () => str.charCodeAt(index + 1);
      const advance = () => {
        prev = code;
        return str.charCodeAt(++index);
      };
      while (index < length) {
        code = advance();
        let next;
        if (code === CHAR_BACKWARD_SLASH) {
          backslashes = token.backslashes = true;
          code = advance();
          if (code === CHAR_LEFT_CURLY_BRACE) {
            braceEscaped = true;
          }
          continue;
        }
        if (braceEscaped === true || code === CHAR_LEFT_CURLY_BRACE) {
          braces++;
          while (eos() !== true && (code = advance())) {
            if (code === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (code === CHAR_LEFT_CURLY_BRACE) {
              braces++;
              continue;
            }
            if (braceEscaped !== true && code === CHAR_DOT && (code = advance()) === CHAR_DOT) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (braceEscaped !== true && code === CHAR_COMMA) {
              isBrace = token.isBrace = true;
              isGlob = token.isGlob = true;
              finished = true;
              if (scanToEnd === true) {
                continue;
              }
              break;
            }
            if (code === CHAR_RIGHT_CURLY_BRACE) {
              braces--;
              if (braces === 0) {
                braceEscaped = false;
                isBrace = token.isBrace = true;
                finished = true;
                break;
              }
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_FORWARD_SLASH) {
          slashes.push(index);
          tokens.push(token);
          token = { value: "", depth: 0, isGlob: false };
          if (finished === true) continue;
          if (prev === CHAR_DOT && index === start + 1) {
            start += 2;
            continue;
          }
          lastIndex = index + 1;
          continue;
        }
        if (opts.noext !== true) {
          const isExtglobChar = code === CHAR_PLUS || code === CHAR_AT || code === CHAR_ASTERISK || code === CHAR_QUESTION_MARK || code === CHAR_EXCLAMATION_MARK;
          if (isExtglobChar === true && peek() === CHAR_LEFT_PARENTHESES) {
            isGlob = token.isGlob = true;
            isExtglob = token.isExtglob = true;
            finished = true;
            if (code === CHAR_EXCLAMATION_MARK && index === start) {
              negatedExtglob = true;
            }
            if (scanToEnd === true) {
              let parens = 0;
              while (eos() !== true && (code = advance())) {
                if (code === CHAR_BACKWARD_SLASH) {
                  backslashes = token.backslashes = true;
                  advance();
                  continue;
                }
                if (code === CHAR_LEFT_PARENTHESES) {
                  parens++;
                  continue;
                }
                if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                  finished = true;
                  break;
                }
              }
              continue;
            }
            break;
          }
        }
        if (code === CHAR_ASTERISK) {
          if (prev === CHAR_ASTERISK) isGlobstar = token.isGlobstar = true;
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_QUESTION_MARK) {
          isGlob = token.isGlob = true;
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (code === CHAR_LEFT_SQUARE_BRACKET) {
          while (eos() !== true && (next = advance())) {
            if (next === CHAR_BACKWARD_SLASH) {
              backslashes = token.backslashes = true;
              advance();
              continue;
            }
            if (next === CHAR_RIGHT_SQUARE_BRACKET) {
              isBracket = token.isBracket = true;
              isGlob = token.isGlob = true;
              finished = true;
              break;
            }
          }
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
        if (opts.nonegate !== true && code === CHAR_EXCLAMATION_MARK && index === start) {
          negated = token.negated = true;
          start++;
          continue;
        }
        if (opts.noparen !== true && code === CHAR_LEFT_PARENTHESES) {
          isGlob = token.isGlob = true;
          if (scanToEnd === true) {
            let parens = 1;
            while (eos() !== true && (code = advance())) {
              if (code === CHAR_BACKWARD_SLASH) {
                backslashes = token.backslashes = true;
                advance();
                continue;
              }
              if (code === CHAR_LEFT_PARENTHESES) {
                parens++;
                continue;
              }
              if (code === CHAR_RIGHT_PARENTHESES && --parens === 0) {
                finished = true;
                break;
              }
            }
            continue;
          }
          break;
        }
        if (isGlob === true) {
          finished = true;
          if (scanToEnd === true) {
            continue;
          }
          break;
        }
      }
      if (opts.noext === true) {
        isExtglob = false;
        isGlob = false;
      }
      let base = str;
      let prefix = "";
      let glob = "";
      if (start > 0) {
        prefix = str.slice(0, start);
        str = str.slice(start);
        lastIndex -= start;
      }
      if (base && isGlob === true && lastIndex > 0) {
        base = str.slice(0, lastIndex);
        glob = str.slice(lastIndex);
      } else if (isGlob === true) {
        base = "";
        glob = str;
      } else {
        base = str;
      }
      if (base && base !== "" && base !== "/" && base !== str) {
        if (isPathSeparator(base.charCodeAt(base.length - 1))) {
          base = base.slice(0, -1);
        }
      }
      if (opts.unescape === true) {
        if (glob) glob = utils.removeBackslashes(glob);
        if (base && backslashes === true) {
          base = utils.removeBackslashes(base);
        }
      }
      const state = {
        prefix,
        input,
        start,
        base,
        glob,
        isBrace,
        isBracket,
        isGlob,
        isExtglob,
        isGlobstar,
        negated,
        negatedExtglob
      };
      if (opts.tokens === true) {
        state.maxDepth = 0;
        if (!isPathSeparator(code)) {
          tokens.push(token);
        }
        state.tokens = tokens;
      }
      if (opts.parts === true || opts.tokens === true) {
        let prevIndex;
        for (let idx = 0; idx < slashes.length; idx++) {
          const n2 = prevIndex !== void 0 ? prevIndex + 1 : start;
          const i = slashes[idx];
          const value2 = input.slice(n2, i);
          if (opts.tokens) {
            if (idx === 0 && start !== 0) {
              tokens[idx].isPrefix = true;
              tokens[idx].value = prefix;
            } else {
              tokens[idx].value = value2;
            }
            depth(tokens[idx]);
            state.maxDepth += tokens[idx].depth;
          }
          if (i >= start) {
            parts.push(value2);
            prevIndex = i;
          }
        }
        const n = prevIndex !== void 0 ? prevIndex + 1 : start;
        const value = input.slice(n);
        parts.push(value);
        if (opts.tokens && prevIndex && prevIndex + 1 < input.length) {
          tokens[tokens.length - 1].value = value;
          depth(tokens[tokens.length - 1]);
          state.maxDepth += tokens[tokens.length - 1].depth;
        }
        state.slashes = slashes;
        state.parts = parts;
      }
      return state;
    };
    module.exports = scan;
  }
});

// node_modules/picomatch/lib/parse.js
var require_parse = __commonJS({
  "node_modules/picomatch/lib/parse.js"(exports, module) {
    "use strict";
    var constants = require_constants();
    var utils = require_utils();
    var {
      MAX_LENGTH,
      POSIX_REGEX_SOURCE,
      REGEX_NON_SPECIAL_CHARS,
      REGEX_SPECIAL_CHARS_BACKREF,
      REPLACEMENTS
    } = constants;
    var expandRange = (args, options) => {
      if (typeof options.expandRange === "function") {
        return options.expandRange(...args, options);
      }
      args.sort();
      const value = `[${args.join("-")}]`;
      try {
        new RegExp(value);
      } catch (ex) {
        return args.map((v) => utils.escapeRegex(v)).join("..");
      }
      return value;
    };
    var syntaxError = (type, char) => {
      return `Missing ${type}: "${char}" - use "\\\\${char}" to match literal characters`;
    };
    var splitTopLevel = (input) => {
      const parts = [];
      let bracket = 0;
      let paren = 0;
      let quote2 = 0;
      let value = "";
      let escaped = false;
      for (const ch of input) {
        if (escaped === true) {
          value += ch;
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          value += ch;
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote2 = quote2 === 1 ? 0 : 1;
          value += ch;
          continue;
        }
        if (quote2 === 0) {
          if (ch === "[") {
            bracket++;
          } else if (ch === "]" && bracket > 0) {
            bracket--;
          } else if (bracket === 0) {
            if (ch === "(") {
              paren++;
            } else if (ch === ")" && paren > 0) {
              paren--;
            } else if (ch === "|" && paren === 0) {
              parts.push(value);
              value = "";
              continue;
            }
          }
        }
        value += ch;
      }
      parts.push(value);
      return parts;
    };
    var isPlainBranch = (branch) => {
      let escaped = false;
      for (const ch of branch) {
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (/[?*+@!()[\]{}]/.test(ch)) {
          return false;
        }
      }
      return true;
    };
    var normalizeSimpleBranch = (branch) => {
      let value = branch.trim();
      let changed = true;
      while (changed === true) {
        changed = false;
        if (/^@\([^\\()[\]{}|]+\)$/.test(value)) {
          value = value.slice(2, -1);
          changed = true;
        }
      }
      if (!isPlainBranch(value)) {
        return;
      }
      return value.replace(/\\(.)/g, "$1");
    };
    var hasRepeatedCharPrefixOverlap = (branches) => {
      const values = branches.map(normalizeSimpleBranch).filter(Boolean);
      for (let i = 0; i < values.length; i++) {
        for (let j = i + 1; j < values.length; j++) {
          const a = values[i];
          const b = values[j];
          const char = a[0];
          if (!char || a !== char.repeat(a.length) || b !== char.repeat(b.length)) {
            continue;
          }
          if (a === b || a.startsWith(b) || b.startsWith(a)) {
            return true;
          }
        }
      }
      return false;
    };
    var parseRepeatedExtglob = (pattern2, requireEnd = true) => {
      if (pattern2[0] !== "+" && pattern2[0] !== "*" || pattern2[1] !== "(") {
        return;
      }
      let bracket = 0;
      let paren = 0;
      let quote2 = 0;
      let escaped = false;
      for (let i = 1; i < pattern2.length; i++) {
        const ch = pattern2[i];
        if (escaped === true) {
          escaped = false;
          continue;
        }
        if (ch === "\\") {
          escaped = true;
          continue;
        }
        if (ch === '"') {
          quote2 = quote2 === 1 ? 0 : 1;
          continue;
        }
        if (quote2 === 1) {
          continue;
        }
        if (ch === "[") {
          bracket++;
          continue;
        }
        if (ch === "]" && bracket > 0) {
          bracket--;
          continue;
        }
        if (bracket > 0) {
          continue;
        }
        if (ch === "(") {
          paren++;
          continue;
        }
        if (ch === ")") {
          paren--;
          if (paren === 0) {
            if (requireEnd === true && i !== pattern2.length - 1) {
              return;
            }
            return {
              type: pattern2[0],
              body: pattern2.slice(2, i),
              end: i
            };
          }
        }
      }
    };
    var buildCharClassStar = (chars) => {
      const source = chars.length === 1 ? utils.escapeRegex(chars[0]) : `[${chars.map((ch) => utils.escapeRegex(ch)).join("")}]`;
      return `${source}*`;
    };
    var getStarExtglobSequenceChars = (pattern2) => {
      let index = 0;
      const chars = [];
      while (index < pattern2.length) {
        const match = parseRepeatedExtglob(pattern2.slice(index), false);
        if (!match || match.type !== "*") {
          return;
        }
        const branches = splitTopLevel(match.body).map((branch2) => branch2.trim());
        if (branches.length !== 1) {
          return;
        }
        const branch = normalizeSimpleBranch(branches[0]);
        if (!branch || branch.length !== 1) {
          return;
        }
        chars.push(branch);
        index += match.end + 1;
      }
      if (chars.length < 1) {
        return;
      }
      return chars;
    };
    var repeatedExtglobRecursion = (pattern2) => {
      let depth = 0;
      let value = pattern2.trim();
      let match = parseRepeatedExtglob(value);
      while (match) {
        depth++;
        value = match.body.trim();
        match = parseRepeatedExtglob(value);
      }
      return depth;
    };
    var analyzeRepeatedExtglob = (body, options) => {
      if (options.maxExtglobRecursion === false) {
        return { risky: false };
      }
      const max = typeof options.maxExtglobRecursion === "number" ? options.maxExtglobRecursion : constants.DEFAULT_MAX_EXTGLOB_RECURSION;
      const branches = splitTopLevel(body).map((branch) => branch.trim());
      if (branches.length > 1) {
        if (branches.some((branch) => branch === "") || branches.some((branch) => /^[*?]+$/.test(branch)) || hasRepeatedCharPrefixOverlap(branches)) {
          return { risky: true };
        }
      }
      const safeChars = [];
      let sawStarSequence = false;
      let combinable = true;
      for (const branch of branches) {
        const chars = getStarExtglobSequenceChars(branch);
        if (chars) {
          sawStarSequence = true;
          safeChars.push(...chars);
          continue;
        }
        const literal2 = normalizeSimpleBranch(branch);
        if (literal2 && literal2.length === 1) {
          safeChars.push(literal2);
          continue;
        }
        combinable = false;
        if (repeatedExtglobRecursion(branch) > max) {
          return { risky: true };
        }
      }
      if (sawStarSequence) {
        return combinable ? { risky: true, safeOutput: buildCharClassStar([...new Set(safeChars)]) } : { risky: true };
      }
      return { risky: false };
    };
    var parse2 = (input, options) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected a string");
      }
      input = REPLACEMENTS[input] || input;
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      let len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      const bos = { type: "bos", value: "", output: opts.prepend || "" };
      const tokens = [bos];
      const capture = opts.capture ? "" : "?:";
      const PLATFORM_CHARS = constants.globChars(opts.windows);
      const EXTGLOB_CHARS = constants.extglobChars(PLATFORM_CHARS);
      const {
        DOT_LITERAL,
        PLUS_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOT_SLASH,
        NO_DOTS_SLASH,
        QMARK,
        QMARK_NO_DOT,
        STAR,
        START_ANCHOR
      } = PLATFORM_CHARS;
      const globstar = (opts2) => {
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const nodot = opts.dot ? "" : NO_DOT;
      const qmarkNoDot = opts.dot ? QMARK : QMARK_NO_DOT;
      let star = opts.bash === true ? globstar(opts) : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      if (typeof opts.noext === "boolean") {
        opts.noextglob = opts.noext;
      }
      const state = {
        input,
        index: -1,
        start: 0,
        dot: opts.dot === true,
        consumed: "",
        output: "",
        prefix: "",
        backtrack: false,
        negated: false,
        brackets: 0,
        braces: 0,
        parens: 0,
        quotes: 0,
        globstar: false,
        tokens
      };
      input = utils.removePrefix(input, state);
      len = input.length;
      const extglobs = [];
      const braces = [];
      const stack = [];
      let prev = bos;
      let value;
      const eos = () => state.index === len - 1;
      const peek = state.peek = (n = 1) => input[state.index + n];
      const advance = state.advance = () => input[++state.index] || "";
      const remaining = () => input.slice(state.index + 1);
      const consume = (value2 = "", num = 0) => {
        state.consumed += value2;
        state.index += num;
      };
      const append = (token) => {
        state.output += token.output != null ? token.output : token.value;
        consume(token.value);
      };
      const negate = () => {
        let count2 = 1;
        while (peek() === "!" && (peek(2) !== "(" || peek(3) === "?")) {
          advance();
          state.start++;
          count2++;
        }
        if (count2 % 2 === 0) {
          return false;
        }
        state.negated = true;
        state.start++;
        return true;
      };
      const increment = (type) => {
        state[type]++;
        stack.push(type);
      };
      const decrement = (type) => {
        state[type]--;
        stack.pop();
      };
      const push = (tok) => {
        if (prev.type === "globstar") {
          const isBrace = state.braces > 0 && (tok.type === "comma" || tok.type === "brace");
          const isExtglob = tok.extglob === true || extglobs.length && (tok.type === "pipe" || tok.type === "paren");
          if (tok.type !== "slash" && tok.type !== "paren" && !isBrace && !isExtglob) {
            state.output = state.output.slice(0, -prev.output.length);
            prev.type = "star";
            prev.value = "*";
            prev.output = star;
            state.output += prev.output;
          }
        }
        if (extglobs.length && tok.type !== "paren") {
          extglobs[extglobs.length - 1].inner += tok.value;
        }
        if (tok.value || tok.output) append(tok);
        if (prev && prev.type === "text" && tok.type === "text") {
          prev.output = (prev.output || prev.value) + tok.value;
          prev.value += tok.value;
          return;
        }
        tok.prev = prev;
        tokens.push(tok);
        prev = tok;
      };
      const extglobOpen = (type, value2) => {
        const token = { ...EXTGLOB_CHARS[value2], conditions: 1, inner: "" };
        token.prev = prev;
        token.parens = state.parens;
        token.output = state.output;
        token.startIndex = state.index;
        token.tokensIndex = tokens.length;
        const output = (opts.capture ? "(" : "") + token.open;
        increment("parens");
        push({ type, value: value2, output: state.output ? "" : ONE_CHAR });
        push({ type: "paren", extglob: true, value: advance(), output });
        extglobs.push(token);
      };
      const extglobClose = (token) => {
        const literal2 = input.slice(token.startIndex, state.index + 1);
        const body = input.slice(token.startIndex + 2, state.index);
        const analysis = analyzeRepeatedExtglob(body, opts);
        if ((token.type === "plus" || token.type === "star") && analysis.risky) {
          const safeOutput = analysis.safeOutput ? (token.output ? "" : ONE_CHAR) + (opts.capture ? `(${analysis.safeOutput})` : analysis.safeOutput) : void 0;
          const open = tokens[token.tokensIndex];
          open.type = "text";
          open.value = literal2;
          open.output = safeOutput || utils.escapeRegex(literal2);
          for (let i = token.tokensIndex + 1; i < tokens.length; i++) {
            tokens[i].value = "";
            tokens[i].output = "";
            delete tokens[i].suffix;
          }
          state.output = token.output + open.output;
          state.backtrack = true;
          push({ type: "paren", extglob: true, value, output: "" });
          decrement("parens");
          return;
        }
        let output = token.close + (opts.capture ? ")" : "");
        let rest;
        if (token.type === "negate") {
          let extglobStar = star;
          if (token.inner && token.inner.length > 1 && token.inner.includes("/")) {
            extglobStar = globstar(opts);
          }
          if (extglobStar !== star || eos() || /^\)+$/.test(remaining())) {
            output = token.close = `)$))${extglobStar}`;
          }
          if (token.inner.includes("*") && (rest = remaining()) && /^\.[^\\/.]+$/.test(rest)) {
            const expression = parse2(rest, { ...options, fastpaths: false }).output;
            output = token.close = `)${expression})${extglobStar})`;
          }
          if (token.prev.type === "bos") {
            state.negatedExtglob = true;
          }
        }
        push({ type: "paren", extglob: true, value, output });
        decrement("parens");
      };
      if (opts.fastpaths !== false && !/(^[*!]|[/()[\]{}"])/.test(input)) {
        let backslashes = false;
        let output = input.replace(REGEX_SPECIAL_CHARS_BACKREF, (m, esc, chars, first, rest, index) => {
          if (first === "\\") {
            backslashes = true;
            return m;
          }
          if (first === "?") {
            if (esc) {
              return esc + first + (rest ? QMARK.repeat(rest.length) : "");
            }
            if (index === 0) {
              return qmarkNoDot + (rest ? QMARK.repeat(rest.length) : "");
            }
            return QMARK.repeat(chars.length);
          }
          if (first === ".") {
            return DOT_LITERAL.repeat(chars.length);
          }
          if (first === "*") {
            if (esc) {
              return esc + first + (rest ? star : "");
            }
            return star;
          }
          return esc ? m : `\\${m}`;
        });
        if (backslashes === true) {
          if (opts.unescape === true) {
            output = output.replace(/\\/g, "");
          } else {
            output = output.replace(/\\+/g, (m) => {
              return m.length % 2 === 0 ? "\\\\" : m ? "\\" : "";
            });
          }
        }
        if (output === input && opts.contains === true) {
          state.output = input;
          return state;
        }
        state.output = utils.wrapOutput(output, state, options);
        return state;
      }
      while (!eos()) {
        value = advance();
        if (value === "\0") {
          continue;
        }
        if (value === "\\") {
          const next = peek();
          if (next === "/" && opts.bash !== true) {
            continue;
          }
          if (next === "." || next === ";") {
            continue;
          }
          if (!next) {
            value += "\\";
            push({ type: "text", value });
            continue;
          }
          const match = /^\\+/.exec(remaining());
          let slashes = 0;
          if (match && match[0].length > 2) {
            slashes = match[0].length;
            state.index += slashes;
            if (slashes % 2 !== 0) {
              value += "\\";
            }
          }
          if (opts.unescape === true) {
            value = advance();
          } else {
            value += advance();
          }
          if (state.brackets === 0) {
            push({ type: "text", value });
            continue;
          }
        }
        if (state.brackets > 0 && (value !== "]" || prev.value === "[" || prev.value === "[^")) {
          if (opts.posix !== false && value === ":") {
            const inner = prev.value.slice(1);
            if (inner.includes("[")) {
              prev.posix = true;
              if (inner.includes(":")) {
                const idx = prev.value.lastIndexOf("[");
                const pre = prev.value.slice(0, idx);
                const rest2 = prev.value.slice(idx + 2);
                const posix = POSIX_REGEX_SOURCE[rest2];
                if (posix) {
                  prev.value = pre + posix;
                  state.backtrack = true;
                  advance();
                  if (!bos.output && tokens.indexOf(prev) === 1) {
                    bos.output = ONE_CHAR;
                  }
                  continue;
                }
              }
            }
          }
          if (value === "[" && peek() !== ":" || value === "-" && peek() === "]") {
            value = `\\${value}`;
          }
          if (value === "]" && (prev.value === "[" || prev.value === "[^")) {
            value = `\\${value}`;
          }
          if (opts.posix === true && value === "!" && prev.value === "[") {
            value = "^";
          }
          prev.value += value;
          append({ value });
          continue;
        }
        if (state.quotes === 1 && value !== '"') {
          value = utils.escapeRegex(value);
          prev.value += value;
          append({ value });
          continue;
        }
        if (value === '"') {
          state.quotes = state.quotes === 1 ? 0 : 1;
          if (opts.keepQuotes === true) {
            push({ type: "text", value });
          }
          continue;
        }
        if (value === "(") {
          increment("parens");
          push({ type: "paren", value });
          continue;
        }
        if (value === ")") {
          if (state.parens === 0 && opts.strictBrackets === true) {
            throw new SyntaxError(syntaxError("opening", "("));
          }
          const extglob = extglobs[extglobs.length - 1];
          if (extglob && state.parens === extglob.parens + 1) {
            extglobClose(extglobs.pop());
            continue;
          }
          push({ type: "paren", value, output: state.parens ? ")" : "\\)" });
          decrement("parens");
          continue;
        }
        if (value === "[") {
          if (opts.nobracket === true || !remaining().includes("]")) {
            if (opts.nobracket !== true && opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("closing", "]"));
            }
            value = `\\${value}`;
          } else {
            increment("brackets");
          }
          push({ type: "bracket", value });
          continue;
        }
        if (value === "]") {
          if (opts.nobracket === true || prev && prev.type === "bracket" && prev.value.length === 1) {
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          if (state.brackets === 0) {
            if (opts.strictBrackets === true) {
              throw new SyntaxError(syntaxError("opening", "["));
            }
            push({ type: "text", value, output: `\\${value}` });
            continue;
          }
          decrement("brackets");
          const prevValue = prev.value.slice(1);
          if (prev.posix !== true && prevValue[0] === "^" && !prevValue.includes("/")) {
            value = `/${value}`;
          }
          prev.value += value;
          append({ value });
          if (opts.literalBrackets === false || utils.hasRegexChars(prevValue)) {
            continue;
          }
          const escaped = utils.escapeRegex(prev.value);
          state.output = state.output.slice(0, -prev.value.length);
          if (opts.literalBrackets === true) {
            state.output += escaped;
            prev.value = escaped;
            continue;
          }
          prev.value = `(${capture}${escaped}|${prev.value})`;
          state.output += prev.value;
          continue;
        }
        if (value === "{" && opts.nobrace !== true) {
          increment("braces");
          const open = {
            type: "brace",
            value,
            output: "(",
            outputIndex: state.output.length,
            tokensIndex: state.tokens.length
          };
          braces.push(open);
          push(open);
          continue;
        }
        if (value === "}") {
          const brace = braces[braces.length - 1];
          if (opts.nobrace === true || !brace) {
            push({ type: "text", value, output: value });
            continue;
          }
          let output = ")";
          if (brace.dots === true) {
            const arr = tokens.slice();
            const range = [];
            for (let i = arr.length - 1; i >= 0; i--) {
              tokens.pop();
              if (arr[i].type === "brace") {
                break;
              }
              if (arr[i].type !== "dots") {
                range.unshift(arr[i].value);
              }
            }
            output = expandRange(range, opts);
            state.backtrack = true;
          }
          if (brace.comma !== true && brace.dots !== true) {
            const out = state.output.slice(0, brace.outputIndex);
            const toks = state.tokens.slice(brace.tokensIndex);
            brace.value = brace.output = "\\{";
            value = output = "\\}";
            state.output = out;
            for (const t of toks) {
              state.output += t.output || t.value;
            }
          }
          push({ type: "brace", value, output });
          decrement("braces");
          braces.pop();
          continue;
        }
        if (value === "|") {
          if (extglobs.length > 0) {
            extglobs[extglobs.length - 1].conditions++;
          }
          push({ type: "text", value });
          continue;
        }
        if (value === ",") {
          let output = value;
          const brace = braces[braces.length - 1];
          if (brace && stack[stack.length - 1] === "braces") {
            brace.comma = true;
            output = "|";
          }
          push({ type: "comma", value, output });
          continue;
        }
        if (value === "/") {
          if (prev.type === "dot" && state.index === state.start + 1) {
            state.start = state.index + 1;
            state.consumed = "";
            state.output = "";
            tokens.pop();
            prev = bos;
            continue;
          }
          push({ type: "slash", value, output: SLASH_LITERAL });
          continue;
        }
        if (value === ".") {
          if (state.braces > 0 && prev.type === "dot") {
            if (prev.value === ".") prev.output = DOT_LITERAL;
            const brace = braces[braces.length - 1];
            prev.type = "dots";
            prev.output += value;
            prev.value += value;
            brace.dots = true;
            continue;
          }
          if (state.braces + state.parens === 0 && prev.type !== "bos" && prev.type !== "slash") {
            push({ type: "text", value, output: DOT_LITERAL });
            continue;
          }
          push({ type: "dot", value, output: DOT_LITERAL });
          continue;
        }
        if (value === "?") {
          const isGroup = prev && prev.value === "(";
          if (!isGroup && opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("qmark", value);
            continue;
          }
          if (prev && prev.type === "paren") {
            const next = peek();
            let output = value;
            if (prev.value === "(" && !/[!=<:]/.test(next) || next === "<" && !/<([!=]|\w+>)/.test(remaining())) {
              output = `\\${value}`;
            }
            push({ type: "text", value, output });
            continue;
          }
          if (opts.dot !== true && (prev.type === "slash" || prev.type === "bos")) {
            push({ type: "qmark", value, output: QMARK_NO_DOT });
            continue;
          }
          push({ type: "qmark", value, output: QMARK });
          continue;
        }
        if (value === "!") {
          if (opts.noextglob !== true && peek() === "(") {
            if (peek(2) !== "?" || !/[!=<:]/.test(peek(3))) {
              extglobOpen("negate", value);
              continue;
            }
          }
          if (opts.nonegate !== true && state.index === 0) {
            negate();
            continue;
          }
        }
        if (value === "+") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            extglobOpen("plus", value);
            continue;
          }
          if (prev && prev.value === "(" || opts.regex === false) {
            push({ type: "plus", value, output: PLUS_LITERAL });
            continue;
          }
          if (prev && (prev.type === "bracket" || prev.type === "paren" || prev.type === "brace") || state.parens > 0) {
            push({ type: "plus", value });
            continue;
          }
          push({ type: "plus", value: PLUS_LITERAL });
          continue;
        }
        if (value === "@") {
          if (opts.noextglob !== true && peek() === "(" && peek(2) !== "?") {
            push({ type: "at", extglob: true, value, output: "" });
            continue;
          }
          push({ type: "text", value });
          continue;
        }
        if (value !== "*") {
          if (value === "$" || value === "^") {
            value = `\\${value}`;
          }
          const match = REGEX_NON_SPECIAL_CHARS.exec(remaining());
          if (match) {
            value += match[0];
            state.index += match[0].length;
          }
          push({ type: "text", value });
          continue;
        }
        if (prev && (prev.type === "globstar" || prev.star === true)) {
          prev.type = "star";
          prev.star = true;
          prev.value += value;
          prev.output = star;
          state.backtrack = true;
          state.globstar = true;
          consume(value);
          continue;
        }
        let rest = remaining();
        if (opts.noextglob !== true && /^\([^?]/.test(rest)) {
          extglobOpen("star", value);
          continue;
        }
        if (prev.type === "star") {
          if (opts.noglobstar === true) {
            consume(value);
            continue;
          }
          const prior = prev.prev;
          const before = prior.prev;
          const isStart = prior.type === "slash" || prior.type === "bos";
          const afterStar = before && (before.type === "star" || before.type === "globstar");
          if (opts.bash === true && (!isStart || rest[0] && rest[0] !== "/")) {
            push({ type: "star", value, output: "" });
            continue;
          }
          const isBrace = state.braces > 0 && (prior.type === "comma" || prior.type === "brace");
          const isExtglob = extglobs.length && (prior.type === "pipe" || prior.type === "paren");
          if (!isStart && prior.type !== "paren" && !isBrace && !isExtglob) {
            push({ type: "star", value, output: "" });
            continue;
          }
          while (rest.slice(0, 3) === "/**") {
            const after = input[state.index + 4];
            if (after && after !== "/") {
              break;
            }
            rest = rest.slice(3);
            consume("/**", 3);
          }
          const isEnd = eos() || state.parens > 0 && rest === ")".repeat(state.parens) && !extglobs.some((extglob) => extglob.type === "negate");
          if (prior.type === "bos" && eos()) {
            prev.type = "globstar";
            prev.value += value;
            prev.output = globstar(opts);
            state.output = prev.output;
            state.globstar = true;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && !afterStar && isEnd) {
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = globstar(opts) + (opts.strictSlashes ? ")" : "|$)");
            prev.value += value;
            state.globstar = true;
            state.output += prior.output + prev.output;
            consume(value);
            continue;
          }
          if (prior.type === "slash" && prior.prev.type !== "bos" && rest[0] === "/") {
            const end = rest[1] !== void 0 ? "|$" : "";
            state.output = state.output.slice(0, -(prior.output + prev.output).length);
            prior.output = `(?:${prior.output}`;
            prev.type = "globstar";
            prev.output = `${globstar(opts)}${SLASH_LITERAL}|${SLASH_LITERAL}${end})`;
            prev.value += value;
            state.output += prior.output + prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          if (prior.type === "bos" && rest[0] === "/") {
            prev.type = "globstar";
            prev.value += value;
            prev.output = `(?:^|${SLASH_LITERAL}|${globstar(opts)}${SLASH_LITERAL})`;
            state.output = prev.output;
            state.globstar = true;
            consume(value + advance());
            push({ type: "slash", value: "/", output: "" });
            continue;
          }
          state.output = state.output.slice(0, -prev.output.length);
          prev.type = "globstar";
          prev.output = globstar(opts);
          prev.value += value;
          state.output += prev.output;
          state.globstar = true;
          consume(value);
          continue;
        }
        const token = { type: "star", value, output: star };
        if (opts.bash === true) {
          token.output = ".*?";
          if (prev.type === "bos" || prev.type === "slash") {
            token.output = nodot + token.output;
          }
          push(token);
          continue;
        }
        if (prev && (prev.type === "bracket" || prev.type === "paren") && opts.regex === true) {
          token.output = value;
          push(token);
          continue;
        }
        if (state.index === state.start || prev.type === "slash" || prev.type === "dot") {
          if (prev.type === "dot") {
            state.output += NO_DOT_SLASH;
            prev.output += NO_DOT_SLASH;
          } else if (opts.dot === true) {
            state.output += NO_DOTS_SLASH;
            prev.output += NO_DOTS_SLASH;
          } else {
            state.output += nodot;
            prev.output += nodot;
          }
          if (peek() !== "*") {
            state.output += ONE_CHAR;
            prev.output += ONE_CHAR;
          }
        }
        push(token);
      }
      while (state.brackets > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "]"));
        state.output = utils.escapeLast(state.output, "[");
        decrement("brackets");
      }
      while (state.parens > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", ")"));
        state.output = utils.escapeLast(state.output, "(");
        decrement("parens");
      }
      while (state.braces > 0) {
        if (opts.strictBrackets === true) throw new SyntaxError(syntaxError("closing", "}"));
        state.output = utils.escapeLast(state.output, "{");
        decrement("braces");
      }
      if (opts.strictSlashes !== true && (prev.type === "star" || prev.type === "bracket")) {
        push({ type: "maybe_slash", value: "", output: `${SLASH_LITERAL}?` });
      }
      if (state.backtrack === true) {
        state.output = "";
        for (const token of state.tokens) {
          state.output += token.output != null ? token.output : token.value;
          if (token.suffix) {
            state.output += token.suffix;
          }
        }
      }
      return state;
    };
    parse2.fastpaths = (input, options) => {
      const opts = { ...options };
      const max = typeof opts.maxLength === "number" ? Math.min(MAX_LENGTH, opts.maxLength) : MAX_LENGTH;
      const len = input.length;
      if (len > max) {
        throw new SyntaxError(`Input length: ${len}, exceeds maximum allowed length: ${max}`);
      }
      input = REPLACEMENTS[input] || input;
      const {
        DOT_LITERAL,
        SLASH_LITERAL,
        ONE_CHAR,
        DOTS_SLASH,
        NO_DOT,
        NO_DOTS,
        NO_DOTS_SLASH,
        STAR,
        START_ANCHOR
      } = constants.globChars(opts.windows);
      const nodot = opts.dot ? NO_DOTS : NO_DOT;
      const slashDot = opts.dot ? NO_DOTS_SLASH : NO_DOT;
      const capture = opts.capture ? "" : "?:";
      const state = { negated: false, prefix: "" };
      let star = opts.bash === true ? ".*?" : STAR;
      if (opts.capture) {
        star = `(${star})`;
      }
      const globstar = (opts2) => {
        if (opts2.noglobstar === true) return star;
        return `(${capture}(?:(?!${START_ANCHOR}${opts2.dot ? DOTS_SLASH : DOT_LITERAL}).)*?)`;
      };
      const create = (str) => {
        switch (str) {
          case "*":
            return `${nodot}${ONE_CHAR}${star}`;
          case ".*":
            return `${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*.*":
            return `${nodot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "*/*":
            return `${nodot}${star}${SLASH_LITERAL}${ONE_CHAR}${slashDot}${star}`;
          case "**":
            return nodot + globstar(opts);
          case "**/*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${ONE_CHAR}${star}`;
          case "**/*.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${slashDot}${star}${DOT_LITERAL}${ONE_CHAR}${star}`;
          case "**/.*":
            return `(?:${nodot}${globstar(opts)}${SLASH_LITERAL})?${DOT_LITERAL}${ONE_CHAR}${star}`;
          default: {
            const match = /^(.*?)\.(\w+)$/.exec(str);
            if (!match) return;
            const source2 = create(match[1]);
            if (!source2) return;
            return source2 + DOT_LITERAL + match[2];
          }
        }
      };
      const output = utils.removePrefix(input, state);
      let source = create(output);
      if (source && opts.strictSlashes !== true) {
        source += `${SLASH_LITERAL}?`;
      }
      return source;
    };
    module.exports = parse2;
  }
});

// node_modules/picomatch/lib/picomatch.js
var require_picomatch = __commonJS({
  "node_modules/picomatch/lib/picomatch.js"(exports, module) {
    "use strict";
    var scan = require_scan();
    var parse2 = require_parse();
    var utils = require_utils();
    var constants = require_constants();
    var isObject = (val) => val && typeof val === "object" && !Array.isArray(val);
    var picomatch = (glob, options, returnState = false) => {
      if (Array.isArray(glob)) {
        const fns = glob.map((input) => picomatch(input, options, returnState));
        const arrayMatcher = (str) => {
          for (const isMatch of fns) {
            const state2 = isMatch(str);
            if (state2) return state2;
          }
          return false;
        };
        return arrayMatcher;
      }
      const isState = isObject(glob) && glob.tokens && glob.input;
      if (glob === "" || typeof glob !== "string" && !isState) {
        throw new TypeError("Expected pattern to be a non-empty string");
      }
      const opts = options || {};
      const posix = opts.windows;
      const regex = isState ? picomatch.compileRe(glob, options) : picomatch.makeRe(glob, options, false, true);
      const state = regex.state;
      delete regex.state;
      let isIgnored = () => false;
      if (opts.ignore) {
        const ignoreOpts = { ...options, ignore: null, onMatch: null, onResult: null };
        isIgnored = picomatch(opts.ignore, ignoreOpts, returnState);
      }
      const matcher = (input, returnObject = false) => {
        const { isMatch, match, output } = picomatch.test(input, regex, options, { glob, posix });
        const result = { glob, state, regex, posix, input, output, match, isMatch };
        if (typeof opts.onResult === "function") {
          opts.onResult(result);
        }
        if (isMatch === false) {
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (isIgnored(input)) {
          if (typeof opts.onIgnore === "function") {
            opts.onIgnore(result);
          }
          result.isMatch = false;
          return returnObject ? result : false;
        }
        if (typeof opts.onMatch === "function") {
          opts.onMatch(result);
        }
        return returnObject ? result : true;
      };
      if (returnState) {
        matcher.state = state;
      }
      return matcher;
    };
    picomatch.test = (input, regex, options, { glob, posix } = {}) => {
      if (typeof input !== "string") {
        throw new TypeError("Expected input to be a string");
      }
      if (input === "") {
        return { isMatch: false, output: "" };
      }
      const opts = options || {};
      const format = opts.format || (posix ? utils.toPosixSlashes : null);
      let match = input === glob;
      let output = match && format ? format(input) : input;
      if (match === false) {
        output = format ? format(input) : input;
        match = output === glob;
      }
      if (match === false || opts.capture === true) {
        if (opts.matchBase === true || opts.basename === true) {
          match = picomatch.matchBase(input, regex, options, posix);
        } else {
          match = regex.exec(output);
        }
      }
      return { isMatch: Boolean(match), match, output };
    };
    picomatch.matchBase = (input, glob, options, posix = options && options.windows) => {
      const regex = glob instanceof RegExp ? glob : picomatch.makeRe(glob, options);
      return regex.test(utils.basename(input, { windows: posix }));
    };
    picomatch.isMatch = (str, patterns2, options) => picomatch(patterns2, options)(str);
    picomatch.parse = (pattern2, options) => {
      if (Array.isArray(pattern2)) return pattern2.map((p) => picomatch.parse(p, options));
      return parse2(pattern2, { ...options, fastpaths: false });
    };
    picomatch.scan = (input, options) => scan(input, options);
    picomatch.compileRe = (state, options, returnOutput = false, returnState = false) => {
      if (returnOutput === true) {
        return state.output;
      }
      const opts = options || {};
      const prepend = opts.contains ? "" : "^";
      const append = opts.contains ? "" : "$";
      let source = `${prepend}(?:${state.output})${append}`;
      if (state && state.negated === true) {
        source = `^(?!${source}).*$`;
      }
      const regex = picomatch.toRegex(source, options);
      if (returnState === true) {
        regex.state = state;
      }
      return regex;
    };
    picomatch.makeRe = (input, options = {}, returnOutput = false, returnState = false) => {
      if (!input || typeof input !== "string") {
        throw new TypeError("Expected a non-empty string");
      }
      let parsed = { negated: false, fastpaths: true };
      if (options.fastpaths !== false && (input[0] === "." || input[0] === "*")) {
        parsed.output = parse2.fastpaths(input, options);
      }
      if (!parsed.output) {
        parsed = parse2(input, options);
      }
      return picomatch.compileRe(parsed, options, returnOutput, returnState);
    };
    picomatch.toRegex = (source, options) => {
      try {
        const opts = options || {};
        return new RegExp(source, opts.flags || (opts.nocase ? "i" : ""));
      } catch (err) {
        if (options && options.debug === true) throw err;
        return /$^/;
      }
    };
    picomatch.constants = constants;
    module.exports = picomatch;
  }
});

// node_modules/picomatch/index.js
var require_picomatch2 = __commonJS({
  "node_modules/picomatch/index.js"(exports, module) {
    "use strict";
    var pico = require_picomatch();
    var utils = require_utils();
    function picomatch(glob, options, returnState = false) {
      if (options && (options.windows === null || options.windows === void 0)) {
        options = { ...options, windows: utils.isWindows() };
      }
      return pico(glob, options, returnState);
    }
    Object.assign(picomatch, pico);
    module.exports = picomatch;
  }
});

// src/workspace/repo/staged.ts
import { lstatSync } from "node:fs";
import path2 from "node:path";

// src/workspace/repo/git-objects.ts
import path from "node:path";
var FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
var isFullObjectId = (id) => FULL_ID.test(id);
var MAX_OBJECT_ANSWER_BYTES = 32 * 1024 * 1024;
var objectAnswers = /* @__PURE__ */ new Map();
var objectAnswerBytes = 0;
var hostGitObjectSync = (args, id, options) => {
  if (!isFullObjectId(id) || !args.some((arg) => arg === id || arg.startsWith(`${id}:`)))
    return hostGitSync(args, options);
  const key = `${path.resolve(options.cwd)}\0${args.join("\0")}`;
  const known = objectAnswers.get(key);
  if (known) return known;
  const answer = hostGitSync(args, options);
  if (answer.length <= MAX_OBJECT_ANSWER_BYTES) {
    objectAnswers.set(key, answer);
    objectAnswerBytes += answer.length;
    for (const [oldest, value] of objectAnswers) {
      if (objectAnswerBytes <= MAX_OBJECT_ANSWER_BYTES) break;
      objectAnswers.delete(oldest);
      objectAnswerBytes -= value.length;
    }
  }
  return answer;
};

// src/workspace/repo/staged.ts
var addAll = async (workspace, extraArgs = [], env) => {
  const options = { cwd: workspace, ...env ? { env } : {} };
  const gitlinks = indexGitlinks(workspace, env?.GIT_INDEX_FILE);
  await hostGit(
    [
      ...extraArgs,
      "add",
      "-A",
      "--",
      ".",
      ...gitlinks.map((gitlink) => `:(exclude,literal)${gitlink}`)
    ],
    { ...options, noFollow: true }
  );
};
var gitlinksByIndex = /* @__PURE__ */ new Map();
var indexGitlinks = (workspace, indexFile) => {
  const file = path2.resolve(workspace, indexFile ?? path2.join(".git", "index"));
  const index = lstatSync(file, { throwIfNoEntry: false });
  const stamp = index ? `${index.ino}:${index.size}:${index.mtimeMs}:${index.ctimeMs}` : "none";
  const key = `${path2.resolve(workspace)}\0${file}`;
  const known = gitlinksByIndex.get(key);
  if (known?.stamp === stamp) return known.entries;
  const entries2 = hostGitSync(["ls-files", "--stage", "-z"], {
    cwd: workspace,
    ...indexFile ? { env: { GIT_INDEX_FILE: indexFile } } : {}
  }).toString("utf8").split("\0").filter((entry) => entry.startsWith("160000 ")).map((entry) => entry.slice(entry.indexOf("	") + 1));
  if (gitlinksByIndex.size > 64) gitlinksByIndex.clear();
  gitlinksByIndex.set(key, { stamp, entries: entries2 });
  return entries2;
};
var stageChange = async (workspace, baseSha, indexFile) => {
  const env = indexFile ? { GIT_INDEX_FILE: indexFile } : void 0;
  if (indexFile)
    await hostGit(["read-tree", "-m", `--index-output=${indexFile}`, "--end-of-options", baseSha], {
      cwd: workspace
    });
  await addAll(workspace, IDENTITY, env);
  const tree = await hostGit(["write-tree"], { cwd: workspace, ...env ? { env } : {} }).then(
    (out) => out.trim(),
    () => void 0
  );
  return { workspace, baseSha, tree, env };
};
var diffsOfStaged = async (staged, withChecks) => {
  const { workspace, baseSha, tree, env } = staged;
  const key = tree && `${path2.resolve(workspace)}\0${baseSha}\0${tree}`;
  let reading = key ? readings.get(key) : void 0;
  if (!reading) {
    const weighed = refuseHugeChange(workspace, baseSha, env);
    const applied2 = weighed.then(
      () => hostGit(stagedDiff(baseSha, ["--binary"]), {
        cwd: workspace,
        noFollow: true,
        ...env ? { env } : {}
      })
    );
    reading = { weighed, applied: applied2 };
    if (key) keep(key, reading, applied2);
  }
  if (withChecks && !reading.checks) {
    reading.checks = reading.weighed.then(() => checksText(workspace, baseSha, env));
    if (key) keep(key, reading, reading.checks);
  }
  const [applied, checks] = await Promise.all([
    reading.applied,
    withChecks ? reading.checks : void 0
  ]);
  return { applied, ...checks !== void 0 ? { checks } : {} };
};
var readings = /* @__PURE__ */ new Map();
var keep = (key, reading, answer) => {
  if (readings.get(key) !== reading) {
    readings.clear();
    readings.set(key, reading);
  }
  answer.catch(() => {
    if (readings.get(key) === reading) readings.delete(key);
  });
};
var stagedDiffs = async (workspace, baseSha, indexFile, withChecks) => {
  const staged = await stageChange(workspace, baseSha, indexFile);
  const diffs = await diffsOfStaged(staged, withChecks);
  return { ...diffs, ...staged.tree ? { tree: staged.tree } : {} };
};
var workspaceDiff = async (workspace, baseSha, indexFile) => (await stagedDiffs(workspace, baseSha, indexFile, false)).applied;
var workspaceDiffs = async (workspace, baseSha, indexFile) => {
  const diffs = await stagedDiffs(workspace, baseSha, indexFile, true);
  return { applied: diffs.applied, checks: diffs.checks ?? "", tree: diffs.tree };
};
var MAX_CHANGE_BYTES = 32 * 1024 * 1024;
var ChangeTooLargeError = class extends Error {
  name = "ChangeTooLargeError";
};
var refuseHugeChange = async (workspace, baseSha, env) => {
  const raw = await hostGit(stagedDiff(baseSha, ["--raw", "-z", "--no-renames", "--no-abbrev"]), {
    cwd: workspace,
    noFollow: true,
    ...env ? { env } : {}
  });
  const blobs = raw.split("\0").map((field) => /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) [A-Z]/.exec(field)?.[1]).filter((sha) => sha !== void 0 && !/^0+$/.test(sha));
  if (blobs.length === 0) return;
  const sizes = hostGitSync(["cat-file", "--batch-check=%(objectsize)"], {
    cwd: workspace,
    input: `${blobs.join("\n")}
`
  }).toString("utf8").split("\n").map(Number).filter(Number.isFinite);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total > MAX_CHANGE_BYTES)
    throw new ChangeTooLargeError(
      `the change weighs ${(total / 1024 / 1024).toFixed(1)} MiB (its files' new contents), more than the ${MAX_CHANGE_BYTES / 1024 / 1024} MiB regreen reads as a diff`
    );
};
var stagedDiff = (baseSha, options) => [
  "diff",
  "--cached",
  ...options,
  "--no-color",
  "--no-ext-diff",
  "--no-textconv",
  "--ignore-submodules=none",
  "--end-of-options",
  baseSha,
  "--"
];
var checksText = (workspace, baseSha, env) => hostGit(["-c", "core.quotePath=false", ...stagedDiff(baseSha, ["--text", "--no-renames"])], {
  cwd: workspace,
  noFollow: true,
  ...env ? { env } : {}
});
var cleanMessage = (message) => `${message.split("\n").map((line) => line.trimEnd()).join("\n").replace(/\n{3,}/g, "\n\n").trim()}
`;
var commitTree = async (dir, tree, message) => {
  if (!isFullObjectId(tree)) throw new Error(`not a tree's id: ${JSON.stringify(tree)}`);
  const git2 = (args) => hostGit(args, { cwd: dir }).then((out) => out.trim());
  const [head, headTree] = (await git2(["rev-parse", "HEAD^{commit}", "HEAD^{tree}"])).split("\n");
  if (!head || !headTree) throw new Error("HEAD names no commit");
  if (tree === headTree) throw new Error("nothing to commit: the change is HEAD's tree");
  const commit = await git2([
    ...IDENTITY,
    "commit-tree",
    tree,
    "-p",
    head,
    "-m",
    cleanMessage(message)
  ]);
  await git2(["update-ref", "-m", "commit: regreen", "HEAD", commit, head]);
  return commit;
};

// src/workspace/repo/git-remote.ts
var httpAuthEnv = (url, username, token) => {
  const scope = `http.${new URL(url).origin}/`;
  return {
    GIT_CONFIG_COUNT: "2",
    GIT_CONFIG_KEY_0: `${scope}.extraHeader`,
    GIT_CONFIG_VALUE_0: `Authorization: Basic ${Buffer.from(`${username}:${token}`).toString("base64")}`,
    GIT_CONFIG_KEY_1: `${scope}.followRedirects`,
    GIT_CONFIG_VALUE_1: "false",
    GIT_TERMINAL_PROMPT: "0",
    GIT_ASKPASS: "/bin/false"
  };
};
var SSH_SCHEMES = /* @__PURE__ */ new Set(["ssh", "git+ssh", "ssh+git"]);
var isSchemeChar = (c) => /[A-Za-z0-9+.-]/.test(c);
var holdsUserinfo = (arg) => {
  for (let at = arg.indexOf("://"); at >= 0; at = arg.indexOf("://", at + 3)) {
    let start = at;
    while (start > 0 && isSchemeChar(arg[start - 1] ?? "")) start -= 1;
    const scheme = arg.slice(start, at).toLowerCase();
    let end = at + 3;
    while (end < arg.length && !"/\\?#".includes(arg[end] ?? "")) end += 1;
    const authority = arg.slice(at + 3, end);
    if (!authority.includes("@")) continue;
    const userinfo = authority.slice(0, authority.lastIndexOf("@"));
    if (!SSH_SCHEMES.has(scheme) || userinfo.includes(":") || userinfo === "") return true;
  }
  return false;
};
var refusedRedirect = (text) => / returned error: 30[1278]\b/.test(text);
var gitRemote = async (args, options) => {
  if (args.some(holdsUserinfo))
    throw new RegreenError(
      "usage",
      `git ${args[0] ?? ""}: a URL with a credential in it is not given to git (it would be in argv and the clone's .git/config); give the URL without it and the credential apart`
    );
  try {
    return await hostGit(args, {
      cwd: options.cwd,
      ...options.auth ? { env: options.auth } : {},
      ...options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}
    });
  } catch (error) {
    let text = error instanceof HostGitError ? error.message : String(error);
    for (const value of Object.values(options.auth ?? {})) {
      if (value.length > 8) text = text.replaceAll(value, "***");
    }
    const said = text.replace(/^git (\S+) failed/, `git ${args[0] ?? ""} failed`);
    throw new RegreenError(
      "forge",
      options.auth && refusedRedirect(text) ? `${said}
(the server redirected elsewhere: with a credential, git follows no redirect, which would carry it to another host; give the URL it redirects to)` : said
    );
  }
};

// src/job/context.ts
var runStage = async (job, stage, body, describe) => {
  if (job.signal.aborted) throw new RegreenError("cancelled", `cancelled before ${stage}`);
  const started = job.deps.clock.now();
  job.trace.emit({ type: "stage", stage, phase: "start" });
  job.deps.progress?.({ kind: "start", stage });
  try {
    const value = await body();
    const durationMs = job.deps.clock.now() - started;
    const end = describe(value);
    const { outcome, ...verdict } = typeof end === "string" ? { outcome: end } : end;
    job.trace.emit({ type: "stage", stage, phase: "end", outcome, ...verdict, durationMs });
    job.deps.progress?.({ kind: "stage", stage, outcome, durationMs });
    return value;
  } catch (error) {
    const durationMs = job.deps.clock.now() - started;
    const outcome = `error: ${error instanceof Error ? error.message : String(error)}`;
    job.trace.emit({ type: "stage", stage, phase: "end", outcome, status: "fail", durationMs });
    const code = error instanceof RegreenError ? error.code : "internal";
    job.deps.progress?.({ kind: "stage", stage, outcome: `error (${code})`, durationMs });
    throw error;
  }
};

// src/job/stage-lines.ts
var reproduceEnd = (v) => v.failed ? {
  outcome: `failed (exit ${v.result.exitCode ?? "killed"}), fingerprint ${v.fingerprint}`,
  status: "pass",
  verdict: "reproduced"
} : { outcome: "passed: not reproduced", status: "warn", verdict: "not reproduced" };
var recipesEnd = (v) => v.fixedBy ? `fixed by ${v.fixedBy}` : v.applied.length > 0 ? { outcome: `applied ${v.applied.length}, still failing`, status: "info" } : { outcome: "none applied", status: "skip" };
var agentEnd = (v) => {
  if (!v.ran) return { outcome: `skipped: ${v.why}`, status: "skip" };
  const { status, reason } = v.result;
  const outcome = `${status}${status === "done" ? "" : `: ${reason ?? ""}`}`;
  if (status === "done") return outcome;
  if (status === "suspended") return { outcome, status: "info", verdict: "waiting" };
  return { outcome, status: status === "error" ? "fail" : "warn" };
};
var checksEnd = (v) => {
  if (v.diff.files.length === 0) return { outcome: "no change to check", status: "skip" };
  const passed = v.results.filter((r) => r.ok).length;
  const outcome = `${passed}/${v.results.length} passed`;
  return passed === v.results.length ? outcome : { outcome, status: "fail" };
};

// src/workspace/sandbox/kinds.ts
var SANDBOX_KINDS = ["bubblewrap", "none"];
var OLD_NAMES = { asrt: "bubblewrap" };
var sandboxKindOf = (name, notice, from = "--sandbox") => {
  const given = (name ?? "").trim() || "bubblewrap";
  if (SANDBOX_KINDS.includes(given)) return given;
  const renamed = OLD_NAMES[given];
  const written = from === "--sandbox" ? `--sandbox ${given}` : `${from}=${given}`;
  if (renamed) {
    notice(`${written} is the old name of the ${renamed} sandbox: say ${renamed}`);
    return renamed;
  }
  throw new RegreenError(
    "usage",
    `${from === "--sandbox" ? "the sandbox" : from} must be ${SANDBOX_KINDS.join(" or ")}, not ${JSON.stringify(given)}`
  );
};
var whereRan = (kind) => kind === "none" ? "on the host, with no sandbox" : "in regreen's sandbox";

// checks/failing-tests.ts
var failingTestNames = (output) => {
  const names = /* @__PURE__ */ new Set();
  const patterns2 = [
    /^\s*not ok \d+ - ([^#]+)/,
    // TAP, node:test (a `#` begins its directive)
    /^\s*✖ (.+?)(?: \(\d+(?:\.\d+)?m?s\))?$/,
    // node:test spec reporter
    /^\s*(?:×|✕|✗) (.+?)(?: \d+m?s)?$/,
    // vitest, jest
    /^\s*FAIL\s+(\S+ +> .+)$/,
    // vitest summary
    /^\s*FAIL\s+(\S+)\s+\[ /,
    // vitest: a file that failed whole
    /^\s*FAIL\s+(\S+\.\w+)\s*$/,
    // jest: a failing file (a suite that failed to run, too)
    /^ERROR (\S+)/,
    // pytest: a collection or setup error
    /^FAIL\s+(\S+\s+\[(?:build|setup) failed\])/,
    // go: a package that does not build
    /^FAIL\s+(\S+)\s+[\d.]+s$/,
    // go: a failing package
    /^FAILED (\S+::\S+)/,
    // pytest
    /^--- FAIL: (\S+)/,
    // go test
    /^\s*\d+\) (.+)$/
    // mocha
  ];
  for (const line of output.split("\n")) {
    for (const pattern2 of patterns2) {
      const match = pattern2.exec(line);
      if (match?.[1]) {
        names.add(match[1].trim());
        break;
      }
    }
  }
  return names;
};

// src/job/failure-summary.ts
var shellQuote = (value) => /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
var KNOBS = {
  cli: {
    model: "set `ANTHROPIC_API_KEY` (or pass `--model`) for regreen",
    budget: "`--max-*` / `REGREEN_MAX_*`",
    setup: "the workflow job with `--job`, or the registry and toolchain the step needs on regreen\u2019s machine",
    again: void 0
  },
  action: {
    model: "pass a key to the Action\u2019s `anthropic-api-key` input from a secret (`${{ secrets.ANTHROPIC_API_KEY }}`), then re-run the failed jobs",
    budget: "the Action\u2019s `max-turns`, `max-cost` and `max-minutes` inputs",
    setup: "the toolchain the step needs on the runner",
    again: "re-run the failed jobs to let regreen try again"
  },
  app: {
    model: "the App\u2019s operator sets `ANTHROPIC_API_KEY` (or `REGREEN_MODEL`)",
    budget: "the operator\u2019s `REGREEN_MAX_*`",
    setup: "the registry and toolchain the step needs on the App\u2019s machine",
    again: "On a pull request, `/regreen fix` runs the job again; `/regreen stop` silences it."
  },
  eval: {
    model: "run the eval with a model (`--model`)",
    budget: "`--max-*`",
    setup: "the task\u2019s `setup`",
    again: void 0
  }
};
var nextSteps = (category, failure, failedChecks, trigger = "cli") => {
  const knobs = KNOBS[trigger];
  const steps = [];
  if (failure?.noModel)
    steps.push(`Let the agent try: ${knobs.model}; no recipe fits this failure.`);
  if (category === "budget")
    steps.push(
      `The agent ran out of budget: raise \`budget\` in \`.github/regreen.yml\` (within the operator\u2019s ceilings, ${knobs.budget}), or narrow the task with a hint.`
    );
  if (category === "reproduced-differently")
    steps.push(
      "regreen's run does not fail as CI did: give regreen CI's setup (`setup_command` in `.github/regreen.yml`, or the toolchain the workflow names on regreen's machine), then run it again. No model was asked."
    );
  if (category === "setup-failed")
    steps.push(
      `The set-up failed where regreen ran it, not in the code: give regreen CI's set-up (\`setup_command\` in \`.github/regreen.yml\`, ${knobs.setup}), then run it again. No model was asked.`
    );
  if (category === "loop")
    steps.push("The agent went in circles: a hint about the cause usually breaks the loop.");
  if (failedChecks.length > 0)
    steps.push(
      `A change was made but refused by ${failedChecks.map((name) => `\`${name}\``).join(", ")}: see the checks below; a change to a protected file needs a person (or \`unprotected:\` in \`.github/regreen.yml\`).`
    );
  if (knobs.again) steps.push(knobs.again.charAt(0).toUpperCase() + knobs.again.slice(1));
  if (failure) steps.push(`Reproduce it locally: \`${failure.reproduce}\``);
  return steps;
};
var EXCERPT_LINES = 25;
var EARLIER_ERRORS = 5;
var ERROR_WORD = /\berror\b|ERR!|not found|denied|refused/i;
var tailWithErrors = (lines) => {
  const body = lines.at(-1) === "" ? lines.slice(0, -1) : lines;
  const tail = body.slice(-EXCERPT_LINES);
  const earlier = body.slice(0, Math.max(0, body.length - EXCERPT_LINES)).filter((line) => ERROR_WORD.test(line)).slice(-EARLIER_ERRORS);
  return [...earlier, ...earlier.length > 0 ? ["\u2026"] : [], ...tail].join("\n");
};
var excerptOf = (lines, firstError) => {
  if (firstError === void 0) return lines.slice(-EXCERPT_LINES).join("\n");
  const start = Math.max(0, firstError - 3);
  return lines.slice(start, start + EXCERPT_LINES).join("\n");
};
var JOINS = [" > ", " \u203A ", "::"];
var distinctTests = (names) => names.filter(
  (name) => !names.some(
    (other) => other !== name && JOINS.some((join) => other.endsWith(`${join}${name}`))
  )
);
var summariseFailure = (options) => {
  const text = stripAnsi(options.output).replaceAll(`${options.workspace}/`, "");
  const lines = text.split("\n");
  const recognised = recogniseFailures(
    lines.map((line, index) => ({ line: index + 1, text: line }))
  );
  const locations = [
    ...new Set(
      recognised.flatMap(
        (failure) => failure.file ? [
          `${failure.file}${failure.line !== void 0 ? `:${failure.line}` : ""}${failure.message && /\w/.test(failure.message) ? `: ${failure.message.slice(0, 160)}` : ""}`
        ] : []
      )
    )
  ].slice(0, 10);
  const firstError = recognised.length > 0 ? Math.min(...recognised.map((f) => f.logLine)) - 1 : void 0;
  return {
    command: options.command,
    where: options.where,
    exitCode: options.exitCode,
    tests: distinctTests([...failingTestNames(text)]).slice(0, 20),
    locations,
    excerpt: options.tail ? tailWithErrors(lines) : excerptOf(lines, firstError),
    tried: options.tried,
    // The job's failing command: a failed set-up runs again before it.
    reproduce: `regreen fix --repo ${shellQuote(options.repo)} --ref ${options.sha.slice(0, 12)} --command ${shellQuote(options.setupOf ?? options.command)}`,
    ...options.setupOf !== void 0 ? { setup: true } : {},
    ...options.neverRan ? { neverRan: true } : {},
    noModel: options.noModel,
    ...options.environment && options.environment.length > 0 ? { environment: options.environment } : {}
  };
};
var toolsUsed = (messages) => {
  const counts = /* @__PURE__ */ new Map();
  for (const message of messages)
    if (message.role === "assistant") {
      for (const block of message.content)
        if (block.type === "tool_use") counts.set(block.name, (counts.get(block.name) ?? 0) + 1);
    }
  return counts.size === 0 ? "" : `, tools: ${[...counts].map(([name, n]) => n > 1 ? `${name} \xD7${n}` : name).join(", ")}`;
};

// src/workspace/sandbox/setup-proxy.ts
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import {
  createServer,
  request as httpRequest2
} from "node:http";
import { connect } from "node:net";
import os from "node:os";
import path3 from "node:path";

// src/workspace/sandbox/registry-secrets.ts
var MIN_PIECE = 8;
var MAX_FORMS = 512;
var decoded = (text) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};
var privateLabels = (hostname) => {
  if (/^[\d.]+$/.test(hostname) || hostname.startsWith("[")) return [];
  const labels = hostname.split(".").filter(Boolean);
  const last = labels.at(-1) ?? "";
  const second = labels.at(-2) ?? "";
  const registrable = last.length === 2 && second.length <= 3 ? 3 : 2;
  return labels.slice(0, Math.max(0, labels.length - registrable));
};
var secretPieces = (upstream, authorization) => {
  const url = new URL(upstream);
  const pieces = [url.username, url.password, ...privateLabels(url.hostname)];
  if (url.username || url.password) pieces.push(`${url.username}:${url.password}`);
  pieces.push(...url.pathname.split("/"));
  for (const [, value] of url.searchParams) pieces.push(value);
  for (const pair of url.search.slice(1).split("&")) pieces.push(pair.slice(pair.indexOf("=") + 1));
  if (authorization) {
    const space = authorization.indexOf(" ");
    const credential = space < 0 ? authorization : authorization.slice(space + 1);
    pieces.push(credential);
    if (authorization.toLowerCase().startsWith("basic ")) {
      const pair = Buffer.from(credential, "base64").toString("utf8");
      pieces.push(pair, ...pair.split(":"));
    }
  }
  const all = pieces.flatMap((piece) => [piece, decoded(piece)]);
  return [...new Set(all)].filter((piece) => piece.length >= MIN_PIECE);
};
var base64At = (bytes, shift) => {
  const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
  const whole = Math.floor(padded.length / 3) * 4;
  const skip = shift === 0 ? 0 : shift === 1 ? 2 : 3;
  return padded.toString("base64").slice(skip, whole);
};
var spellingsOf = (piece) => {
  const bytes = Buffer.from(piece, "utf8");
  const encoded = encodeURIComponent(piece);
  const forms = [
    piece,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    // Every byte escaped (a server that encodes the unreserved too).
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""),
    JSON.stringify(piece).slice(1, -1),
    JSON.stringify(piece).slice(1, -1).replaceAll("/", "\\/")
  ];
  for (const shift of [0, 1, 2]) {
    const form = base64At(bytes, shift);
    forms.push(form, form.replaceAll("+", "-").replaceAll("/", "_"));
  }
  return forms.map((form) => form.toLowerCase()).filter((form) => form.length >= 4);
};
var secretSpellings = (registries) => {
  const forms = /* @__PURE__ */ new Set();
  for (const registry of registries)
    for (const piece of secretPieces(registry.upstream, registry.authorization))
      for (const form of spellingsOf(piece))
        forms.add(Buffer.from(form, "utf8").toString("latin1"));
  return [...forms].slice(0, MAX_FORMS);
};
var scanText = (bytes) => (typeof bytes === "string" ? Buffer.from(bytes, "utf8") : bytes).toString("latin1").toLowerCase();
var holdsSpelling = (text, spellings, echoes = [], after = 0) => {
  for (const form of spellings) {
    const from = Math.max(0, after - form.length + 1);
    for (let at = text.indexOf(form, from); at >= 0; at = text.indexOf(form, at + 1)) {
      if (!insideEcho(text, at, form, echoes)) return true;
    }
  }
  return false;
};
var insideEcho = (text, at, form, echoes) => echoes.some((echo) => {
  for (let offset = echo.indexOf(form); offset >= 0; offset = echo.indexOf(form, offset + 1)) {
    const start = at - offset;
    if (start >= 0 && text.startsWith(echo, start)) return true;
  }
  return false;
});
var echoesOf = (texts) => {
  const words = texts.flatMap((text) => scanText(text).split(/[\s,;&?=/]+/));
  return [...new Set(words)].filter((word2) => word2.length >= MIN_PIECE).slice(0, 64);
};
var bodyScan = (spellings, echoes) => {
  const longest = Math.max(1, ...spellings.map((form) => form.length));
  const hold = longest - 1;
  const context = longest + Math.max(0, ...echoes.map((echo) => echo.length));
  let before = "";
  let held = Buffer.alloc(0);
  let found = false;
  const scan = (pending2) => {
    const text = scanText(pending2);
    found ||= holdsSpelling(before + text, spellings, echoes, before.length);
    return found ? void 0 : text;
  };
  return {
    push: (chunk) => {
      if (found) return void 0;
      const pending2 = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const text = scan(pending2);
      if (text === void 0) return void 0;
      const cut = Math.max(0, pending2.length - hold);
      held = Buffer.from(pending2.subarray(cut));
      before = (before + text.slice(Math.max(0, cut - context), cut)).slice(-context);
      return pending2.subarray(0, cut);
    },
    end: () => found || scan(held) === void 0 ? void 0 : held
  };
};

// src/workspace/sandbox/registry-aliases.ts
var PROXY_PORT = 3128;
var ALIAS_HOST = `127.0.0.1:${PROXY_PORT}`;
var ALIAS_ORIGIN = `http://${ALIAS_HOST}`;
var ALIAS_PREFIX = "/regreen-registry/";
var PLACEHOLDER = "~";
var segmentsOf = (pathname) => pathname.replace(/^\//, "").split("/");
var baseSegments = (upstream) => {
  const segments = segmentsOf(upstream.pathname);
  return segments.at(-1) === "" ? segments.slice(0, -1) : segments;
};
var aliasPathOf = (registry, upstreamPath) => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(upstreamPath);
  let shared = 0;
  while (shared < base.length && shared < segments.length && segments[shared] === base[shared])
    shared += 1;
  const shown = segments.map((segment, index) => index < shared ? PLACEHOLDER : segment);
  return `${ALIAS_PREFIX}${registry.id}/${shown.join("/")}`;
};
var aliasUrlOf = (id, upstream) => `${ALIAS_ORIGIN}${aliasPathOf({ id, upstream: upstream.href, alias: "" }, upstream.pathname)}`;
var upstreamPathOf = (registry, rest) => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(rest);
  const real = segments.map(
    (segment, index) => index < base.length && segment === PLACEHOLDER ? base[index] ?? segment : segment
  );
  return `/${real.join("/")}`;
};
var subtreeOf = (base) => ["simple", "+simple"].includes((base.at(-1) ?? "").toLowerCase()) ? base.slice(0, -1) : base;
var climbsWhenDecoded = (segment) => {
  if (segment.includes("\\")) return true;
  let text;
  try {
    text = decodeURIComponent(segment);
  } catch {
    return true;
  }
  if ((text === "." || text === "..") && text !== segment) return true;
  return text !== segment && text.split(/[/\\]/).some((part) => part === "." || part === "..");
};
var confinedUpstreamPath = (registry, rest) => {
  const base = baseSegments(new URL(registry.upstream));
  const segments = segmentsOf(upstreamPathOf(registry, rest));
  if (segments.some(climbsWhenDecoded)) return void 0;
  const resolved = [];
  for (const [index, segment] of segments.entries()) {
    const last = index === segments.length - 1;
    if (segment === "." || segment === "..") {
      if (segment === ".." && resolved.pop() === void 0) return void 0;
      if (last) resolved.push("");
    } else resolved.push(segment);
  }
  const inside = subtreeOf(base).every((segment, index) => resolved[index] === segment);
  return inside ? `/${resolved.join("/")}` : void 0;
};
var aliasTarget = (registries, requestPath) => {
  if (!requestPath.startsWith(ALIAS_PREFIX)) return void 0;
  const after = requestPath.slice(ALIAS_PREFIX.length);
  const slash = after.indexOf("/");
  const number2 = slash < 0 ? after : after.slice(0, slash);
  if (!/^\d{1,6}$/.test(number2)) return void 0;
  const registry = registries.find((entry) => entry.id === Number(number2));
  return registry ? { registry, rest: slash < 0 ? "/" : after.slice(slash) } : void 0;
};
var registryAliases = () => {
  const entries2 = [];
  return {
    aliasOf: (url) => {
      if (url.startsWith(`${ALIAS_ORIGIN}${ALIAS_PREFIX}`)) return url;
      let parsed;
      try {
        parsed = new URL(url);
      } catch {
        return url.includes("//") || url.includes("@") ? "" : url;
      }
      if (parsed.protocol === "file:") return url;
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "";
      const known = entries2.find((entry2) => entry2.upstream === parsed.href);
      if (known) return known.alias;
      const id = entries2.length;
      const entry = { id, upstream: parsed.href, alias: aliasUrlOf(id, parsed) };
      entries2.push(entry);
      return entry.alias;
    },
    list: () => entries2
  };
};
var aliasWords = (value, aliasOf) => value.replace(/[^\s,|]+/g, (word2) => {
  const eq = word2.indexOf("=");
  const named = eq > 0 && !word2.slice(0, eq).includes(":") ? word2.slice(0, eq + 1) : "";
  return `${named}${aliasOf(word2.slice(named.length))}`;
});
var secretWordsOf = (registries) => registries.flatMap(
  (entry) => secretPieces(entry.upstream, entry.authorization).map((piece) => piece.toLowerCase())
);
var REGISTRY_VARIABLES = [
  "PIP_INDEX_URL",
  "PIP_EXTRA_INDEX_URL",
  "PIP_FIND_LINKS",
  "UV_INDEX_URL",
  "UV_EXTRA_INDEX_URL",
  "UV_DEFAULT_INDEX",
  "UV_INDEX",
  "UV_FIND_LINKS",
  "npm_config_registry",
  "NPM_CONFIG_REGISTRY",
  "YARN_NPM_REGISTRY_SERVER",
  "GOPROXY"
];
var GO_PATTERN_VARIABLES = ["GONOSUMDB", "GOPRIVATE", "GONOPROXY", "GOINSECURE"];
var aliasedSumdb = (value, aliasOf) => {
  const words = value.trim().split(/\s+/);
  if (words.length > 2) return "";
  const [name = "", url] = words;
  if (url === void 0) return name;
  const alias = aliasOf(url);
  return alias && alias !== url ? `${name} ${alias}` : "";
};
var TRUSTED_HOST_VARIABLES = ["PIP_TRUSTED_HOST", "UV_INSECURE_HOST"];
var aliasedRegistryVariables = (env, aliases, npmRegistry) => {
  const out = {};
  for (const name of REGISTRY_VARIABLES) {
    const value = env[name];
    if (value !== void 0) out[name] = aliasWords(value, aliases.aliasOf);
  }
  if (env.GOSUMDB !== void 0) out.GOSUMDB = aliasedSumdb(env.GOSUMDB, aliases.aliasOf);
  if (out.YARN_NPM_REGISTRY_SERVER === void 0 && npmRegistry !== void 0) {
    const alias = aliases.aliasOf(npmRegistry);
    if (alias !== npmRegistry) out.YARN_NPM_REGISTRY_SERVER = alias;
  }
  const hosts = new Set(aliases.list().map((entry) => new URL(entry.upstream).host));
  const hostnames = new Set(
    aliases.list().map((entry) => new URL(entry.upstream).hostname.toLowerCase())
  );
  for (const name of TRUSTED_HOST_VARIABLES) {
    const value = env[name];
    if (value === void 0) continue;
    out[name] = value.split(/\s+/).filter((word2) => word2 && !hosts.has(word2) && !hostnames.has(word2)).join(" ");
  }
  if (aliases.list().length > 0) out.YARN_UNSAFE_HTTP_WHITELIST = ALIAS_HOST.split(":")[0] ?? "";
  const pieces = secretWordsOf(aliases.list());
  const secret = (text) => {
    const lower = text.toLowerCase();
    return pieces.some((piece) => lower.includes(piece));
  };
  const names = [...hostnames].filter((host) => !/^[\d.]+$/.test(host) && !host.startsWith("["));
  for (const name of GO_PATTERN_VARIABLES) {
    const value = env[name];
    if (value === void 0) continue;
    out[name] = value.split(",").filter(
      (pattern2) => pattern2.trim() && !secret(pattern2) && !names.some((host) => pattern2.toLowerCase().includes(host))
    ).join(",");
  }
  for (const [name, value] of Object.entries(out)) if (secret(value)) out[name] = "";
  return out;
};

// src/workspace/sandbox/registry-forward.ts
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { rootCertificates } from "node:tls";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";

// src/workspace/sandbox/registry-links.ts
var ENDS_URL = /* @__PURE__ */ new Set([" ", "	", "\r", "\n", '"', "'", "<", ">", "\\", "`", "(", ")"]);
var AFTER_ORIGIN = /* @__PURE__ */ new Set(["/", "?", "#", ...ENDS_URL]);
var LINK_LEADS = [
  'href="',
  "href='",
  'src="',
  "src='",
  '"url":"',
  '"url": "',
  '"tarball":"',
  '"tarball": "',
  '"dl":"',
  '"dl": "',
  '"api":"',
  '"api": "'
];
var urlEnd = (text, from) => {
  let end = from;
  while (end < text.length && !ENDS_URL.has(text.charAt(end))) end += 1;
  return end;
};
var aliasedTail = (registry, tail) => {
  const hashAt = tail.indexOf("#");
  const fragment = hashAt < 0 ? "" : tail.slice(hashAt);
  const beforeHash = hashAt < 0 ? tail : tail.slice(0, hashAt);
  const queryAt = beforeHash.indexOf("?");
  const pathname = (queryAt < 0 ? beforeHash : beforeHash.slice(0, queryAt)) || "/";
  const query = queryAt < 0 ? "" : beforeHash.slice(queryAt + 1);
  const own = new Set(new URL(registry.upstream).searchParams.keys());
  const kept = query.split("&").filter((pair) => pair !== "" && !own.has(decodeKey(pair.split("=")[0] ?? "")));
  return `${aliasPathOf(registry, pathname)}${kept.length > 0 ? `?${kept.join("&")}` : ""}${fragment}`;
};
var decodeKey = (key) => {
  try {
    return decodeURIComponent(key.replaceAll("+", " "));
  } catch {
    return key;
  }
};
var originForms = (registry) => {
  const upstream = new URL(registry.upstream);
  const userinfo = upstream.username ? `${upstream.username}${upstream.password ? `:${upstream.password}` : ""}@` : "";
  const forms = [
    `${upstream.protocol}//${userinfo}${upstream.host}`,
    `${upstream.protocol}//${upstream.host}`,
    `//${upstream.host}`
  ];
  return [...new Set(forms)];
};
var originFinder = (text, forms) => {
  const next = forms.map(() => -2);
  const find2 = (form, from) => {
    let at = text.indexOf(form, from);
    while (at >= 0 && !AFTER_ORIGIN.has(text.charAt(at + form.length) || " "))
      at = text.indexOf(form, at + 1);
    return at;
  };
  return (from) => {
    let best;
    forms.forEach((form, index) => {
      const known = next[index] ?? -1;
      const at = known === -1 ? -1 : known >= from ? known : find2(form, from);
      next[index] = at;
      if (at >= 0 && (!best || at < best.at || at === best.at && form.length > best.form.length))
        best = { at, form };
    });
    return best;
  };
};
var linksIn = (text, registry) => {
  const found = [];
  const nextOrigin = originFinder(text, originForms(registry));
  for (let from = 0; ; ) {
    const next = nextOrigin(from);
    if (!next) break;
    const start = next.at + next.form.length;
    const end = urlEnd(text, start);
    found.push({
      at: next.at,
      length: end - next.at,
      replacement: `${ALIAS_ORIGIN}${aliasedTail(registry, text.slice(start, end))}`
    });
    from = Math.max(end, next.at + 1);
  }
  for (const lead of LINK_LEADS) {
    for (let at = text.indexOf(lead); at >= 0; at = text.indexOf(lead, at + 1)) {
      const start = at + lead.length;
      if (text.charAt(start) !== "/" || text.charAt(start + 1) === "/") continue;
      const end = urlEnd(text, start);
      found.push({
        at: start,
        length: end - start,
        replacement: aliasedTail(registry, text.slice(start, end))
      });
    }
  }
  found.push(...pathsIn(text, registry));
  return found.sort((a, b) => a.at - b.at);
};
var BEFORE_PATH = /* @__PURE__ */ new Set([...ENDS_URL, "=", ":", ",", ";", "[", "{"]);
var pathsIn = (text, registry) => {
  const first = new URL(registry.upstream).pathname.split("/")[1];
  if (!first) return [];
  const needle = `/${first}`;
  const found = [];
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
    const before = at === 0 ? " " : text.charAt(at - 1);
    const after = text.charAt(at + needle.length) || " ";
    if (!BEFORE_PATH.has(before) || !AFTER_ORIGIN.has(after)) continue;
    const end = urlEnd(text, at);
    found.push({ at, length: end - at, replacement: aliasedTail(registry, text.slice(at, end)) });
  }
  return found;
};
var withoutRemnants = (text, registry) => {
  const upstream = new URL(registry.upstream);
  let out = text;
  for (const [key, value] of upstream.searchParams) {
    if (!value) continue;
    for (const pair of [`${key}=${value}`, new URLSearchParams([[key, value]]).toString()])
      out = out.split(pair).join(`${key}=`);
  }
  const host = upstream.hostname;
  if (!/^[\d.]+$/.test(host) && !host.startsWith("[")) out = out.split(host).join("127.0.0.1");
  return out;
};
var rewriteLinks = (text, registry) => {
  const parts = [];
  let done = 0;
  for (const link of linksIn(text, registry)) {
    if (link.at < done) continue;
    parts.push(text.slice(done, link.at), link.replacement);
    done = link.at + link.length;
  }
  parts.push(text.slice(done));
  return withoutRemnants(parts.join(""), registry);
};

// src/workspace/sandbox/registry-forward.ts
var REWRITTEN_MAX_BYTES = 128 * 1024 * 1024;
var MAX_REDIRECTS = 5;
var REDIRECTS = /* @__PURE__ */ new Set([301, 302, 303, 307, 308]);
var PASSED_HEADERS = ["content-type", "etag", "last-modified", "cache-control"];
var ASKED_HEADERS = [
  "accept",
  "user-agent",
  "if-none-match",
  "if-modified-since",
  "range",
  "npm-command",
  "npm-session",
  "npm-scope"
];
var isText = (contentType) => /html|json|xml|^text\//i.test(contentType ?? "");
var decoded2 = (response) => {
  switch ((response.headers["content-encoding"] ?? "").toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return response.pipe(createGunzip());
    case "deflate":
      return response.pipe(createInflate());
    case "br":
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
};
var upstreamUrlOf = (registry, rest) => {
  const upstream = new URL(registry.upstream);
  const queryAt = rest.indexOf("?");
  const pathname = confinedUpstreamPath(registry, queryAt < 0 ? rest : rest.slice(0, queryAt));
  if (pathname === void 0) return void 0;
  const target = new URL(upstream.origin);
  target.pathname = pathname;
  target.search = queryAt < 0 ? "" : rest.slice(queryAt);
  for (const [key, value] of upstream.searchParams)
    if (!target.searchParams.has(key)) target.searchParams.append(key, value);
  return target;
};
var insideRegistry = (registry, url) => {
  const upstream = new URL(registry.upstream);
  if (url.origin !== upstream.origin) return false;
  const asked = url.pathname.slice(1).split("/");
  return subtreeOf(baseSegments(upstream)).every((segment, index) => asked[index] === segment);
};
var basicOf = (upstream) => {
  if (!upstream.username && !upstream.password) return void 0;
  const part = (text) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const pair = `${part(upstream.username)}:${part(upstream.password)}`;
  return `Basic ${Buffer.from(pair, "utf8").toString("base64")}`;
};
var forwardToRegistry = (req, res, registry, rest, options = {}) => {
  const trust = options.trust ?? [];
  const spellings = options.spellings ?? [];
  const say = (status, message, headers = {}) => {
    if (res.headersSent) res.destroy();
    else
      res.writeHead(status, { "content-type": "text/plain", ...headers }).end(`regreen setup proxy: registry ${registry.id} ${message}
`);
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    req.resume();
    say(405, "is only read (GET, HEAD)", { allow: "GET, HEAD" });
    return;
  }
  req.resume();
  const first = upstreamUrlOf(registry, rest);
  if (!first) {
    say(403, "serves only its own path: that request names a place outside it");
    return;
  }
  const echoes = echoesOf([rest, String(req.headers.accept ?? "")]);
  const holds3 = (text) => holdsSpelling(scanText(text), spellings, echoes);
  const leaked = () => say(502, "answered with a part of its credential: refused");
  const asked = { "accept-encoding": "identity" };
  for (const name of ASKED_HEADERS) {
    const value = req.headers[name];
    if (typeof value === "string") asked[name] = value;
  }
  const credential = basicOf(new URL(registry.upstream)) ?? registry.authorization;
  const fetchFrom = (target, hops) => {
    const headers = { ...asked };
    if (credential && insideRegistry(registry, target)) headers.authorization = credential;
    const send = target.protocol === "https:" ? httpsRequest : httpRequest;
    const upstream = send(
      target,
      {
        method: req.method ?? "GET",
        headers,
        ...target.protocol === "https:" && trust.length > 0 ? { ca: [...rootCertificates, ...trust] } : {}
      },
      (response) => {
        const status = response.statusCode ?? 502;
        const location = response.headers.location;
        if (REDIRECTS.has(status) && location !== void 0) {
          response.resume();
          let next;
          try {
            next = new URL(location, target);
          } catch {
            say(502, "redirected to a place that is not a URL");
            return;
          }
          if (next.protocol !== "http:" && next.protocol !== "https:")
            say(502, "redirected to a place that is not http(s)");
          else if (hops >= MAX_REDIRECTS) say(502, `redirected more than ${MAX_REDIRECTS} times`);
          else fetchFrom(next, hops + 1);
          return;
        }
        answer(response, status);
      }
    );
    upstream.on(
      "error",
      (error) => say(502, `could not be reached (${error.code ?? "error"})`)
    );
    upstream.end();
  };
  const answer = (response, status) => {
    const out = {};
    for (const name of PASSED_HEADERS) {
      const value = response.headers[name];
      if (typeof value === "string") out[name] = value;
    }
    if (holds3(JSON.stringify(out))) {
      response.resume();
      leaked();
      return;
    }
    if (req.method === "HEAD") {
      response.resume();
      res.writeHead(status, out).end();
      return;
    }
    const body = decoded2(response);
    body.on("error", () => say(502, "answered a body that could not be decoded"));
    if (isText(response.headers["content-type"])) rewritten(body, status, out);
    else scanned(body, status, out);
  };
  const rewritten = (body, status, out) => {
    const chunks = [];
    let size = 0;
    body.on("data", (chunk) => {
      size += chunk.length;
      if (size > REWRITTEN_MAX_BYTES) {
        body.destroy();
        say(502, `answered more than ${REWRITTEN_MAX_BYTES} bytes of text to rewrite`);
        return;
      }
      chunks.push(chunk);
    });
    body.on("end", () => {
      if (res.writableEnded) return;
      const text = rewriteLinks(Buffer.concat(chunks).toString("utf8"), registry);
      if (holds3(text)) {
        leaked();
        return;
      }
      const bytes = Buffer.from(text, "utf8");
      res.writeHead(status, { ...out, "content-length": String(bytes.length) }).end(bytes);
    });
  };
  const scanned = (body, status, out) => {
    const scan = bodyScan(spellings, echoes);
    const pass = (bytes) => {
      if (bytes.length === 0) return;
      if (!res.headersSent) res.writeHead(status, out);
      res.write(bytes);
    };
    body.on("data", (chunk) => {
      if (res.writableEnded || res.destroyed) return;
      const bytes = scan.push(chunk);
      if (bytes === void 0) {
        body.destroy();
        leaked();
      } else pass(bytes);
    });
    body.on("end", () => {
      if (res.writableEnded || res.destroyed) return;
      const bytes = scan.end();
      if (bytes === void 0) {
        leaked();
        return;
      }
      pass(bytes);
      if (!res.headersSent) res.writeHead(status, out);
      res.end();
    });
  };
  fetchFrom(first, 0);
};

// src/workspace/sandbox/setup-proxy.ts
var parseEndpoints = (entries2) => entries2.flatMap((entry) => {
  const match = /^\[?([^\]]+?)\]?(?::(\d{1,5}))?$/.exec(entry.trim());
  if (!match?.[1]) return [];
  const host = match[1].toLowerCase();
  if (match[2] === void 0)
    return [
      { host, port: 80 },
      { host, port: 443 }
    ];
  const port = Number(match[2]);
  return port > 0 && port < 65536 ? [{ host, port }] : [];
});
var normalHost = (host) => host.replace(/^\[|\]$/g, "").toLowerCase();
var REFUSED_SHOWN = 10;
var REFUSED_NAME_CHARS = 100;
var aliasPathOf2 = (requestUrl) => {
  if (requestUrl.startsWith("/")) return requestUrl;
  try {
    const target = new URL(requestUrl);
    return target.protocol === "http:" && target.host === ALIAS_HOST ? `${target.pathname}${target.search}` : void 0;
  } catch {
    return void 0;
  }
};
var startSetupProxy = async (allowed, registries = [], trust = []) => {
  const dir = mkdtempSync(path3.join(os.tmpdir(), "regreen-proxy-"));
  const socketPath = path3.join(dir, "proxy.sock");
  const refused2 = [];
  let refusedCount = 0;
  const isAllowed = (host, port) => {
    const wanted = normalHost(host);
    const ok = allowed.some((endpoint) => endpoint.host === wanted && endpoint.port === port);
    if (!ok) {
      refusedCount += 1;
      const shown = `${wanted.slice(0, REFUSED_NAME_CHARS)}:${port}`;
      if (refused2.length < REFUSED_SHOWN && !refused2.includes(shown)) refused2.push(shown);
    }
    return ok;
  };
  const sockets = /* @__PURE__ */ new Set();
  const spellings = secretSpellings(registries);
  const server = createServer((req, res) => {
    const aliasPath = aliasPathOf2(req.url ?? "");
    if (aliasPath !== void 0) {
      const found = aliasTarget(registries, aliasPath);
      if (found) forwardToRegistry(req, res, found.registry, found.rest, { trust, spellings });
      else res.writeHead(404).end("regreen setup proxy: no registry of this job has that alias\n");
      return;
    }
    let target;
    try {
      target = new URL(req.url ?? "");
    } catch {
      res.writeHead(400).end("regreen setup proxy: absolute URLs only\n");
      return;
    }
    const port = Number(target.port || (target.protocol === "https:" ? 443 : 80));
    if (target.protocol !== "http:" || !isAllowed(target.hostname, port)) {
      res.writeHead(403).end(
        `regreen setup proxy: ${target.hostname}:${port} is not a registry this job may reach
`
      );
      return;
    }
    const headers = { ...req.headers };
    delete headers["proxy-connection"];
    delete headers["proxy-authorization"];
    const upstream = httpRequest2(
      {
        host: normalHost(target.hostname),
        port,
        method: req.method,
        path: `${target.pathname}${target.search}`,
        headers
      },
      (response) => {
        res.writeHead(response.statusCode ?? 502, response.headers);
        response.pipe(res);
      }
    );
    upstream.on("error", (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(`regreen setup proxy: ${error.message}
`);
    });
    req.pipe(upstream);
  });
  server.on("connect", (req, client, head) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const match = /^\[?([^\]]+?)\]?:(\d{1,5})$/.exec(req.url ?? "");
    if (!match?.[1] || !isAllowed(match[1], Number(match[2]))) {
      client.end(
        `HTTP/1.1 403 Forbidden\r
\r
regreen setup proxy: ${req.url ?? ""} is not a registry this job may reach
`
      );
      return;
    }
    const upstream = connect(Number(match[2]), normalHost(match[1]), () => {
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on("close", () => sockets.delete(upstream));
    upstream.on("error", () => {
      client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n");
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(socketPath, () => resolve());
  });
  chmodSync(socketPath, 438);
  return {
    socketPath,
    refused: refused2,
    refusedCount: () => refusedCount,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    }
  };
};
var REFUSED = "[regreen] the setup proxy refused ";
var NOT_A_REGISTRY = ": not a registry this job may reach";
var refusedLine = (hosts, count2) => `${REFUSED}${hosts.join(", ")}${count2 > hosts.length ? ` (${count2} requests in all)` : ""}${NOT_A_REGISTRY}`;
var refusedHosts = (output) => {
  const line = output.split("\n").reverse().find((text) => text.startsWith(REFUSED) && text.endsWith(NOT_A_REGISTRY));
  return line?.slice(REFUSED.length, line.length - NOT_A_REGISTRY.length);
};

// src/job/stages/setup-failed.ts
var MAX_RUN_TEXT = 200;
var runText = (step) => {
  const text = (step.run ?? step.command).split("\n").map((line) => line.trim()).filter(Boolean).join("; ");
  return text.length > MAX_RUN_TEXT ? `${text.slice(0, MAX_RUN_TEXT - 1)}\u2026` : text;
};
var stepLabel = (step) => {
  const run2 = runText(step);
  const named = step.title !== `Run ${(step.run ?? "").trim().split("\n")[0] ?? ""}`;
  return named ? `step "${step.title}" (\`${run2}\`)` : `step \`${run2}\``;
};
var shownCommand = (prepared) => prepared.replayed?.failing ? runText(prepared.replayed.failing) : prepared.failingCommand;
var failedStep = (steps, output) => {
  const lines = output.split("\n");
  for (let at = lines.length - 1; at >= 0; at -= 1) {
    const line = lines[at] ?? "";
    if (!line.startsWith("[regreen] step: ")) continue;
    const title = line.slice("[regreen] step: ".length);
    const step = steps.findLast((candidate) => candidate.title === title);
    if (step) return { step, output: lines.slice(at + 1).join("\n") };
  }
  return void 0;
};
var setupFailed = (report, reproduced) => {
  const { prepared, result } = reproduced;
  const exit = result.timedOut ? "timed out" : `exited ${result.exitCode ?? "killed"}`;
  const refused2 = refusedHosts(result.output);
  const why = refused2 ? `; it asked for ${refused2}, which is not a registry of regreen's machine (name it in that client's configuration there \u2014 npm's registry, pip's index-url, a Cargo source replacement \u2014 or vendor the dependencies into the repository)` : "";
  const replayed = prepared.replayed;
  const known = replayed?.setupStep;
  const step = known ? { step: known, output: failedStep([known], result.output)?.output ?? result.output } : replayed ? failedStep(replayed.steps, result.output) : void 0;
  const what = step ? `${stepLabel(step.step)} of ${replayed?.job ?? "the job"}` : `\`${prepared.setupCommand ?? reproduced.command}\``;
  const before = replayed?.failing ? stepLabel(replayed.failing) : `\`${prepared.failingCommand}\``;
  return {
    status: "diagnosis",
    category: "setup-failed",
    fingerprint: reproduced.fingerprint,
    checks: [],
    reason: `could not reproduce: set-up failed \u2014 ${what} ${exit} ${whereRan(prepared.sandbox.kind)}, before ${before} could run; no model was asked${why}`,
    failure: summariseFailure({
      command: step ? runText(step.step) : reproduced.command,
      where: `${prepared.intake.source.location} at ${prepared.baseSha.slice(0, 12)}, set-up ${whereRan(prepared.sandbox.kind)}`,
      repo: report.repo,
      sha: prepared.baseSha,
      exitCode: result.exitCode,
      output: step ? step.output : result.output,
      tried: ["no recipe applied to this set-up"],
      noModel: false,
      workspace: prepared.workspace,
      setupOf: shownCommand(prepared),
      environment: prepared.replayNotes,
      tail: true
    })
  };
};

// src/config/repo-config.ts
var import_yaml2 = __toESM(require_dist(), 1);

// src/util/yaml.ts
var import_yaml = __toESM(require_dist(), 1);
var parseYamlDocument = (text, options = {}) => {
  const document = (0, import_yaml.parseDocument)(text, { ...options, uniqueKeys: false });
  (0, import_yaml.visit)(document, {
    Map(_, map) {
      if (!(0, import_yaml.isMap)(map)) return;
      const keys = /* @__PURE__ */ new Set();
      for (const { key } of map.items) {
        if (!(0, import_yaml.isScalar)(key)) continue;
        if (keys.has(key.value) && key.range) {
          const at = key.range[0];
          document.errors.push(
            new import_yaml.YAMLParseError([at, at + 1], "DUPLICATE_KEY", "Map keys must be unique")
          );
        }
        keys.add(key.value);
      }
    }
  });
  return document;
};
var parseYaml = (text) => {
  const document = parseYamlDocument(text);
  const [error] = document.errors;
  if (error) throw error;
  return document.toJS();
};

// src/config/repo-config.ts
var TOOL_LEVELS = ["read", "write", "exec"];
var DEFAULT_BUDGET = {
  max_turns: 40,
  max_input_tokens: 2e6,
  max_output_tokens: 6e4,
  max_cost_usd: 2,
  max_minutes: 20
};
var RepoConfigSchema = external_exports.object({
  test_command: external_exports.string().min(1).optional(),
  setup_command: external_exports.string().min(1).optional(),
  protected: external_exports.array(external_exports.string().min(1)).default([]),
  /** Default-protected paths this repository lets a fix change (never `.github/**`); the checks say so. */
  unprotected: external_exports.array(external_exports.string().min(1)).default([]),
  /** Paths the repository declares product source (judged with the fix) that the classifier would not. */
  product: external_exports.array(external_exports.string().min(1)).default([]),
  diff_limits: external_exports.object({
    max_files: external_exports.number().int().positive().default(10),
    max_lines: external_exports.number().int().positive().default(400),
    /** KiB of changed lines: one line may hold megabytes no reviewer reads. */
    max_kib: external_exports.number().int().positive().default(256)
  }).strict().default({ max_files: 10, max_lines: 400, max_kib: 256 }),
  tools: external_exports.object({
    levels: external_exports.array(external_exports.enum(TOOL_LEVELS)).default([...TOOL_LEVELS]),
    disabled: external_exports.array(external_exports.string()).default([])
  }).strict().default({ levels: [...TOOL_LEVELS], disabled: [] }),
  model: external_exports.string().min(1).optional(),
  plan_mode: external_exports.boolean().default(false),
  /** A change a person must look at (it corrects a test's expectation) may be proposed as a draft; false: refused. */
  drafts: external_exports.boolean().default(true),
  workers: external_exports.object({
    enabled: external_exports.boolean().default(false),
    max_live: external_exports.number().int().positive().max(16).default(3),
    fast: external_exports.string().min(1).optional(),
    good: external_exports.string().min(1).optional()
  }).strict().default({ enabled: false, max_live: 3 }),
  budget: external_exports.object({
    max_turns: external_exports.number().int().positive().default(DEFAULT_BUDGET.max_turns),
    max_input_tokens: external_exports.number().int().positive().default(DEFAULT_BUDGET.max_input_tokens),
    max_output_tokens: external_exports.number().int().positive().default(DEFAULT_BUDGET.max_output_tokens),
    max_cost_usd: external_exports.number().positive().default(DEFAULT_BUDGET.max_cost_usd),
    max_minutes: external_exports.number().positive().default(DEFAULT_BUDGET.max_minutes)
  }).strict().default(DEFAULT_BUDGET),
  prices: external_exports.record(
    external_exports.string(),
    external_exports.object({
      input: external_exports.number().nonnegative(),
      output: external_exports.number().nonnegative(),
      cache_write: external_exports.number().nonnegative().optional(),
      cache_read: external_exports.number().nonnegative().optional()
    }).strict()
  ).default({}),
  ask_user: external_exports.object({
    /** How long a question waits for a person. */
    timeout_minutes: external_exports.number().positive().max(7 * 24 * 60).default(15),
    /** Before an exec-level tool runs, a maintainer must say yes on the card. */
    approve_exec: external_exports.boolean().default(false)
  }).strict().default({ timeout_minutes: 15, approve_exec: false }),
  timeouts: external_exports.object({
    setup_seconds: external_exports.number().int().positive().default(900),
    command_seconds: external_exports.number().int().positive().default(600)
  }).strict().default({ setup_seconds: 900, command_seconds: 600 })
}).strict();
var CONFIG_PATH = ".github/regreen.yml";
var defaultRepoConfig = () => RepoConfigSchema.parse({});
var nodeAt = (root2, keys) => {
  let node = root2;
  let found = node;
  for (const key of keys) {
    if (!node || typeof key === "symbol") break;
    const next = (0, import_yaml2.isMap)(node) ? node.get(key, true) : node.get?.(key, true);
    if (next === void 0) break;
    node = next;
    found = node;
  }
  return found;
};
var knownKeysAt = (schema, keys) => {
  let node = schema;
  for (const key of [...keys, void 0]) {
    while (node instanceof external_exports.ZodDefault || node instanceof external_exports.ZodOptional) node = node.unwrap();
    if (key === void 0) break;
    if (node instanceof external_exports.ZodObject) node = node.shape[key];
    else if (node instanceof external_exports.ZodRecord) node = node.valueType;
    else if (node instanceof external_exports.ZodArray) node = node.element;
    else return [];
  }
  return node instanceof external_exports.ZodObject ? Object.keys(node.shape) : [];
};
var problemsOf = (issues, lineOf) => issues.flatMap((issue) => {
  if (issue.code !== "unrecognized_keys")
    return [
      {
        line: lineOf(issue.path),
        field: issue.path.length > 0 ? issue.path.join(".") : "(top level)",
        message: issue.message
      }
    ];
  const known = knownKeysAt(RepoConfigSchema, issue.path);
  return issue.keys.map((key) => {
    const near = nearestWord(key, known);
    return {
      line: lineOf([...issue.path, key]),
      field: [...issue.path, key].join("."),
      message: `unknown key${near === void 0 ? "" : ` (did you mean ${near}?)`}`
    };
  });
});
var configError = (file, problems) => {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const [only] = sorted;
  if (sorted.length === 1 && only)
    return new RegreenError("config", `${file}:${only.line}: ${only.field}: ${only.message}`);
  return new RegreenError(
    "config",
    `${file}: ${sorted.length} problems: ${sorted.map((p) => `line ${p.line}: ${p.field}: ${p.message}`).join("; ")}`
  );
};
var MAX_CONFIG_CHARS = 64 * 1024;
var parseRepoConfig = (text, file = CONFIG_PATH) => {
  if (text.length > MAX_CONFIG_CHARS)
    throw new RegreenError(
      "config",
      `${file}: ${Math.ceil(text.length / 1024)} KiB, over the ${MAX_CONFIG_CHARS / 1024} KiB a config may be`
    );
  const lineCounter = new import_yaml2.LineCounter();
  const document = parseYamlDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0)
    throw configError(
      file,
      document.errors.map((error) => ({
        line: lineCounter.linePos(error.pos[0]).line,
        field: "invalid YAML",
        message: error.message.split("\n")[0] ?? ""
      }))
    );
  const value = document.toJS() ?? {};
  const result = RepoConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const lineOf = (keys) => {
    const node = nodeAt(document.contents, keys);
    return node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  };
  throw configError(file, problemsOf(result.error.issues, lineOf));
};

// src/config/operator-bounds.ts
var operatorCeilings = (env, flags = {}) => ({
  budget: {
    maxTurns: flags.maxTurns ?? settingsOf(env).maxTurns ?? DEFAULT_BUDGET.max_turns,
    maxInputTokens: flags.maxInputTokens ?? settingsOf(env).maxInputTokens ?? DEFAULT_BUDGET.max_input_tokens,
    maxOutputTokens: flags.maxOutputTokens ?? settingsOf(env).maxOutputTokens ?? DEFAULT_BUDGET.max_output_tokens,
    maxCostUsd: flags.maxCostUsd ?? settingsOf(env).maxCostUsd ?? DEFAULT_BUDGET.max_cost_usd,
    maxMs: flags.maxMs ?? (settingsOf(env).maxMinutes ?? DEFAULT_BUDGET.max_minutes) * 6e4
  },
  setupSeconds: settingsOf(env).maxSetupSeconds ?? 900,
  commandSeconds: settingsOf(env).maxCommandSeconds ?? 600,
  maxFiles: settingsOf(env).maxDiffFiles ?? 10,
  maxLines: settingsOf(env).maxDiffLines ?? 400,
  maxKib: settingsOf(env).maxDiffKib ?? 256,
  maxWorkers: settingsOf(env).maxWorkers ?? 3,
  askTimeoutMinutes: settingsOf(env).maxAskMinutes ?? 24 * 60,
  approveExec: settingsOf(env).approveExec === "always",
  drafts: settingsOf(env).drafts !== "off"
});
var chosen = (value, fallback, ceiling) => value === fallback ? ceiling : value;
var boundRepoConfig = (config, ceilings) => {
  const notes = [];
  const cap = (what, value, ceiling) => {
    if (value <= ceiling) return value;
    notes.push(`${what} ${value} is above the operator's ${ceiling}: ${ceiling} applies`);
    return ceiling;
  };
  const budget = config.budget;
  const bounded = {
    ...config,
    budget: {
      max_turns: cap(
        "budget.max_turns",
        chosen(budget.max_turns, DEFAULT_BUDGET.max_turns, ceilings.budget.maxTurns),
        ceilings.budget.maxTurns
      ),
      max_input_tokens: cap(
        "budget.max_input_tokens",
        chosen(
          budget.max_input_tokens,
          DEFAULT_BUDGET.max_input_tokens,
          ceilings.budget.maxInputTokens
        ),
        ceilings.budget.maxInputTokens
      ),
      max_output_tokens: cap(
        "budget.max_output_tokens",
        chosen(
          budget.max_output_tokens,
          DEFAULT_BUDGET.max_output_tokens,
          ceilings.budget.maxOutputTokens
        ),
        ceilings.budget.maxOutputTokens
      ),
      max_cost_usd: cap(
        "budget.max_cost_usd",
        chosen(budget.max_cost_usd, DEFAULT_BUDGET.max_cost_usd, ceilings.budget.maxCostUsd),
        ceilings.budget.maxCostUsd
      ),
      max_minutes: cap(
        "budget.max_minutes",
        chosen(budget.max_minutes, DEFAULT_BUDGET.max_minutes, ceilings.budget.maxMs / 6e4),
        ceilings.budget.maxMs / 6e4
      )
    },
    timeouts: {
      setup_seconds: cap(
        "timeouts.setup_seconds",
        config.timeouts.setup_seconds,
        ceilings.setupSeconds
      ),
      command_seconds: cap(
        "timeouts.command_seconds",
        config.timeouts.command_seconds,
        ceilings.commandSeconds
      )
    },
    diff_limits: {
      max_files: cap("diff_limits.max_files", config.diff_limits.max_files, ceilings.maxFiles),
      max_lines: cap("diff_limits.max_lines", config.diff_limits.max_lines, ceilings.maxLines),
      max_kib: cap("diff_limits.max_kib", config.diff_limits.max_kib, ceilings.maxKib)
    },
    workers: {
      ...config.workers,
      max_live: cap("workers.max_live", config.workers.max_live, ceilings.maxWorkers)
    },
    // The repository may turn drafts off, never on against the operator.
    drafts: config.drafts && ceilings.drafts,
    ask_user: {
      ...config.ask_user,
      approve_exec: config.ask_user.approve_exec || ceilings.approveExec,
      timeout_minutes: cap(
        "ask_user.timeout_minutes",
        config.ask_user.timeout_minutes,
        ceilings.askTimeoutMinutes
      )
    }
  };
  if (ceilings.approveExec && !config.ask_user.approve_exec)
    notes.push(
      "ask_user.approve_exec is off in the repository's config, but the operator requires it (REGREEN_APPROVE_EXEC=always): on"
    );
  return { config: bounded, notes };
};
var positive = (flag, value, example, whole = false) => {
  if (value === void 0) return void 0;
  const number2 = Number(value);
  if (!Number.isFinite(number2) || number2 <= 0 || whole && !Number.isInteger(number2))
    throw new RegreenError(
      "usage",
      `${flag} must be ${whole ? "a whole number" : "a number"} above 0, not "${value}". For example: ${flag} ${example}`
    );
  return number2;
};
var budgetFlags = (options) => {
  const entries2 = [
    ["maxTurns", positive("--max-turns", options.maxTurns, 30, true)],
    ["maxCostUsd", positive("--max-cost", options.maxCost, 2)],
    [
      "maxMs",
      options.maxMinutes === void 0 ? void 0 : (positive("--max-minutes", options.maxMinutes, 20) ?? 0) * 6e4
    ],
    ["maxInputTokens", positive("--max-input-tokens", options.maxInputTokens, 2e6, true)],
    ["maxOutputTokens", positive("--max-output-tokens", options.maxOutputTokens, 1e5, true)]
  ];
  return Object.fromEntries(entries2.filter(([, value]) => value !== void 0));
};

// src/util/secrets.ts
var SECRET_SHAPES = [
  {
    kind: "GitHub token",
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g,
    diff: true
  },
  { kind: "Anthropic key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, diff: true },
  { kind: "OpenAI-style key", pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g, diff: true },
  { kind: "AWS access key", pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, diff: true },
  { kind: "Slack token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, diff: true },
  { kind: "Google API key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, diff: true },
  { kind: "npm token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, diff: true },
  {
    kind: "private key",
    // The whole block, body included; a BEGIN line alone (a cut-off block) too.
    pattern: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\n]*)/g,
    diff: true
  },
  {
    kind: "JSON Web Token",
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    diff: true
  },
  {
    kind: "HTTP credentials",
    pattern: /\b(Basic|Bearer)\s+([A-Za-z0-9+/_.~=-]{16,})|(Authorization:\s*token)\s+([A-Za-z0-9_.-]{16,})/g,
    diff: false
  },
  {
    kind: "URL credentials",
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@'"]+):([^/\s@'"]+)@/gi,
    diff: false
  }
];
var findSecrets = (text) => SECRET_SHAPES.filter(
  ({ pattern: pattern2, diff }) => (
    // `search` starts at 0 whatever a global pattern's `lastIndex` says.
    diff && text.search(pattern2) >= 0
  )
).map(({ kind }) => kind);
var redactSecrets = (text) => SECRET_SHAPES.reduce((acc, { kind, pattern: pattern2 }) => {
  if (kind === "URL credentials") return acc.replace(pattern2, "$1$2:[redacted]@");
  if (kind === "HTTP credentials")
    return acc.replace(
      pattern2,
      (_m, scheme, _v, header) => `${scheme ?? header ?? ""} [redacted ${kind}]`
    );
  return acc.replace(pattern2, `[redacted ${kind}]`);
}, text);

// src/job/stages/scratch.ts
import path5 from "node:path";
import { writeFileSync as writeFileSync2 } from "node:fs";

// src/workspace/sandbox/job-volume.ts
import { execFile, execFileSync, spawn } from "node:child_process";
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdirSync,
  mkdtempSync as mkdtempSync2,
  openSync,
  readFileSync,
  rmdirSync,
  statfsSync,
  rmSync as rmSync2,
  truncateSync,
  writeFileSync
} from "node:fs";
import os2 from "node:os";
import path4 from "node:path";
var SYSTEM_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";
var run = (file, args, timeoutMs = 6e4) => new Promise((resolve, reject) => {
  execFile(
    file,
    [...args],
    { timeout: timeoutMs, env: { PATH: SYSTEM_PATH, LC_ALL: "C" }, encoding: "utf8" },
    (error, _stdout, stderr) => {
      if (!error) return resolve();
      const why = stderr.trim().split("\n").at(-1) ?? "";
      reject(new Error(`${path4.basename(file)}: ${why || error.message}`));
    }
  ).stdin?.end();
});
var liveMb = 0;
var freeBytes = (dir) => {
  const stats = statfsSync(dir);
  return Number(stats.bavail) * Number(stats.bsize);
};
var mountPoints = () => readFileSync("/proc/self/mountinfo", "utf8").split("\n").map((line) => line.split(" ")[4] ?? "").filter(Boolean);
var OWNER_FILE = "volume.owner";
var startOf = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ")[19];
  } catch {
    return void 0;
  }
};
var loopVolumes = () => readFileSync("/proc/self/mountinfo", "utf8").split("\n").map((line) => line.split(" ")).filter((fields) => {
  const after = fields.indexOf("-");
  return path4.basename(fields[4] ?? "") === "volume" && fields[after + 1] === "ext4" && (fields[after + 2] ?? "").startsWith("/dev/loop");
}).map((fields) => fields[4] ?? "");
var releaseOrphanVolumes = () => {
  const released = [];
  for (const point of loopVolumes()) {
    let owner = {};
    try {
      owner = JSON.parse(
        readFileSync(path4.join(path4.dirname(point), OWNER_FILE), "utf8")
      );
    } catch {
      continue;
    }
    if (typeof owner.pid !== "number" || typeof owner.start !== "string") continue;
    if (startOf(owner.pid) !== owner.start && releaseVolume(point)) released.push(point);
  }
  return released;
};
var releaseVolume = (root2) => {
  if (!mountPoints().includes(root2)) return false;
  execFileSync("umount", ["-l", root2], {
    env: { PATH: SYSTEM_PATH, LC_ALL: "C" },
    stdio: "ignore"
  });
  return true;
};
var holdMount = (root2) => new Promise((resolve) => {
  const keeper = spawn("sleep", ["60"], {
    cwd: root2,
    detached: true,
    stdio: "ignore",
    env: { PATH: SYSTEM_PATH, LC_ALL: "C" }
  });
  keeper.unref();
  keeper.once("spawn", () => resolve(keeper));
  keeper.once("error", () => resolve(void 0));
});
var MIN_MB = 16;
var openJobVolume = async (options) => {
  if (options.mode === "off") return { unavailable: "REGREEN_JOB_VOLUME=off" };
  if (!(options.isRoot ?? process.geteuid?.() === 0))
    return { unavailable: "regreen is not root, so it cannot mount a size-bounded volume" };
  const sizeMb = Math.max(MIN_MB, options.sizeMb);
  mkdirSync(options.dir, { recursive: true });
  const free = freeBytes(options.dir);
  const wanted = (sizeMb + liveMb) * 1024 * 1024;
  if (free < wanted)
    return {
      unavailable: `the data dir's filesystem has ${Math.floor(free / 1024 / 1024)} MiB free for users, less than this job's ${sizeMb} MiB and the ${liveMb} MiB of the volumes in use`
    };
  const image = path4.join(options.dir, "volume.img");
  const root2 = path4.join(options.dir, "volume");
  try {
    const fd = openSync(image, "wx", 384);
    try {
      ftruncateSync(fd, sizeMb * 1024 * 1024);
    } finally {
      closeSync(fd);
    }
    await run("mkfs.ext4", [
      "-q",
      "-F",
      "-m",
      "0",
      "-i",
      "8192",
      "-O",
      "^has_journal,^resize_inode",
      "-E",
      "lazy_itable_init=1,nodiscard",
      image
    ]);
    mkdirSync(root2, { mode: 493 });
    await run("mount", ["-o", "loop,nosuid,nodev,noinit_itable,discard", image, root2]);
  } catch (error) {
    rmSync2(image, { force: true });
    try {
      rmdirSync(root2);
    } catch {
    }
    return {
      unavailable: `no size-bounded volume here (${error.message}): a loop device and root are needed`
    };
  }
  rmdirSync(path4.join(root2, "lost+found"));
  writeFileSync(
    path4.join(options.dir, OWNER_FILE),
    JSON.stringify({ pid: process.pid, start: startOf(process.pid) })
  );
  let mounted = true;
  liveMb += sizeMb;
  return {
    volume: {
      root: root2,
      sizeMb,
      dispose: async () => {
        if (!mounted) return;
        mounted = false;
        liveMb -= sizeMb;
        if (!mountPoints().includes(root2)) return;
        const keeper = await holdMount(root2);
        try {
          await run("umount", ["-l", root2]);
        } finally {
          keeper?.kill("SIGKILL");
        }
        rmSync2(image, { force: true });
        try {
          rmdirSync(root2);
        } catch {
        }
      }
    }
  };
};
var answered;
var volumeUnavailable = () => {
  if (answered) return answered.why;
  let why;
  if (process.geteuid?.() !== 0)
    why = "regreen is not root, so it cannot mount a size-bounded volume";
  else {
    const dir = mkdtempSync2(path4.join(os2.tmpdir(), "regreen-volume-probe-"));
    const image = path4.join(dir, "probe.img");
    const root2 = path4.join(dir, "mnt");
    const options = {
      env: { PATH: SYSTEM_PATH, LC_ALL: "C" },
      timeout: 3e4,
      stdio: "pipe"
    };
    try {
      writeFileSync(image, "");
      truncateSync(image, MIN_MB * 1024 * 1024);
      mkdirSync(root2);
      execFileSync("mkfs.ext4", ["-q", "-F", "-O", "^has_journal", image], options);
      execFileSync("mount", ["-o", "loop,nosuid,nodev,noinit_itable", image, root2], options);
      execFileSync("umount", [root2], options);
    } catch (error) {
      const output = error.stderr;
      const stderr = (typeof output === "string" ? output : output?.toString("utf8") ?? "").trim();
      why = `no size-bounded volume here (${stderr.split("\n").at(-1) || error.message}): a loop device and root are needed`;
    } finally {
      rmSync2(dir, { recursive: true, force: true });
    }
  }
  answered = { why };
  return why;
};

// src/util/discard.ts
import { execFileSync as execFileSync2, spawn as spawn2 } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync as existsSync2, renameSync } from "node:fs";
var removeTree = (...dirs) => {
  for (let at = 0; at < dirs.length; at += 256)
    execFileSync2("rm", ["-rf", "--one-file-system", "--", ...dirs.slice(at, at + 256)], {
      stdio: "ignore"
    });
};
var discardDir = (dir) => {
  if (!existsSync2(dir)) return;
  const aside = `${dir}.discarded-${randomBytes(4).toString("hex")}`;
  try {
    renameSync(dir, aside);
  } catch {
    removeTree(dir);
    return;
  }
  const child = spawn2("rm", ["-rf", "--one-file-system", "--", aside], {
    detached: true,
    stdio: "ignore"
  });
  child.on("error", () => removeTree(aside));
  child.unref();
};

// src/job/stages/scratch.ts
var openScratch = async (dir, env, trace, disposables) => {
  const settings = settingsOf(env);
  const sizeMb = settings.maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb;
  const mode = settings.jobVolume ?? "auto";
  if (mode !== "off")
    for (const released of releaseOrphanVolumes())
      trace.emit({
        type: "note",
        message: `disk: released ${released}, left mounted by a regreen that died`
      });
  const answer = await openJobVolume({ dir, sizeMb, mode });
  if ("unavailable" in answer) {
    trace.emit({
      type: "note",
      message: `disk: the job's trees are on the data dir's filesystem, watched while each command runs, not bounded by the kernel (${answer.unavailable})`
    });
    return { root: dir, onVolume: false };
  }
  const { volume } = answer;
  trace.emit({
    type: "note",
    message: `disk: the job's trees are on a ${volume.sizeMb} MiB volume of their own (${path5.join(dir, "volume.img")}): the kernel refuses a write past it`
  });
  disposables.add(() => volume.dispose());
  return { root: volume.root, onVolume: true };
};
var discardAtEnd = (job, dir) => () => {
  if (!job.scratchOnVolume) discardDir(dir);
};
var CHANGE_FILE = "change.diff";
var keepChange = async (job, workspace, baseSha) => {
  let change = job.proposed.change;
  try {
    change ??= await workspaceDiff(workspace, baseSha);
  } catch (error) {
    if (!(error instanceof ChangeTooLargeError)) throw error;
    change = `# not kept: ${error.message}
`;
  }
  writeFileSync2(path5.join(job.dir, CHANGE_FILE), change);
};

// src/job/stages/setup-exclusions.ts
import { appendFileSync } from "node:fs";
import path6 from "node:path";
var excludeSetupArtifacts = async (workspace) => {
  const status = await workspaceGit(workspace).raw([
    "status",
    "--ignore-submodules=all",
    "--porcelain=v1",
    "-z",
    "--untracked-files=normal"
  ]);
  const untracked = status.split("\0").filter((entry) => entry.startsWith("?? ")).map((entry) => excludeLine(entry.slice(3))).filter((line) => line !== void 0);
  if (untracked.length > 0)
    appendFileSync(path6.join(workspace, ".git", "info", "exclude"), `
${untracked.join("\n")}
`);
};
var excludeLine = (name) => (
  // A name that is not UTF-8 reads with U+FFFD in it: a line of that would name another file.
  /[\n\r\uFFFD]/.test(name) ? void 0 : `/${name.replace(/[\\*?[\]]|\s$/g, (char) => `\\${char}`)}`
);

// src/workspace/setup/reads.ts
import { execFile as execFile2 } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync as readFileSync2, realpathSync, rmSync as rmSync3, statSync, utimesSync, writeFileSync as writeFileSync3 } from "node:fs";
import path7 from "node:path";
var MARK_SECONDS = 1;
var presenceKeyed = /(^|\/)(package\.json|package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.c?js|yarn\.lock|\.yarnrc(\.yml)?|\.npmrc|bun\.lockb?|requirements[^/]*\.txt|constraints[^/]*\.txt|setup\.py|setup\.cfg|pyproject\.toml|poetry\.lock|uv\.lock|Pipfile(\.lock)?|go\.mod|go\.sum|Cargo\.toml|Cargo\.lock|Gemfile(\.lock)?|pom\.xml|build\.gradle(\.kts)?|settings\.gradle(\.kts)?|composer\.(json|lock)|\.nvmrc|\.node-version|\.python-version|\.tool-versions)$|(^|\/)(patches|\.yarn\/patches)\//;
var find = (cwd, args) => new Promise((resolve) => {
  execFile2(
    "find",
    [".", "-not", "-path", "./.git", "-not", "-path", "./.git/*", ...args],
    { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 },
    (error, stdout) => resolve(error ? void 0 : stdout)
  );
});
var recordsReads = /* @__PURE__ */ new Map();
var recordsReadsUnder = (dir) => {
  const device = statSync(dir).dev;
  const known = recordsReads.get(device);
  if (known !== void 0) return known;
  const probe = path7.join(dir, `.regreen-atime-probe-${process.pid}-${Date.now()}`);
  let records = false;
  try {
    writeFileSync3(probe, "probe", { flag: "wx" });
    utimesSync(probe, MARK_SECONDS, statSync(probe).mtime);
    readFileSync2(probe);
    records = statSync(probe).atimeMs > MARK_SECONDS * 1e3;
  } catch {
    records = false;
  } finally {
    rmSync3(probe, { force: true });
  }
  recordsReads.set(device, records);
  return records;
};
var recordReads = async (workspace) => {
  if (!recordsReadsUnder(path7.dirname(path7.resolve(workspace)))) return void 0;
  const marked = await find(workspace, [
    "-type",
    "f",
    "-printf",
    "%P\\0",
    "-exec",
    // -h: a file swapped for a link between the walk and the touch has the link marked, never its target.
    "touch",
    "-a",
    "-h",
    "-d",
    `@${MARK_SECONDS}`,
    "--",
    "{}",
    "+"
  ]);
  if (marked === void 0) return void 0;
  const existed = new Set(marked.split("\0").filter(Boolean));
  return {
    collect: async () => {
      const read3 = await find(workspace, [
        "-type",
        "f",
        "-newerat",
        `@${MARK_SECONDS}`,
        "-printf",
        "%P\\0"
      ]);
      if (read3 === void 0) return void 0;
      const files = read3.split("\0").filter((file) => file && existed.has(file));
      return { files: files.sort() };
    }
  };
};
var readsFingerprint = (workspace, reads, known) => {
  const hash = createHash("sha256");
  const content = (file) => {
    try {
      return readFileInside(workspace, path7.join(workspace, file));
    } catch {
      return Buffer.from("[absent or not a file]");
    }
  };
  for (const file of reads.files) hash.update(`
file ${file}
`).update(content(file));
  for (const file of known.filter((f) => presenceKeyed.test(f)).sort())
    hash.update(`
named ${file}
`).update(content(file));
  return hash.digest("hex");
};
var withReads = async (workspace, setup) => {
  const recording = await recordReads(workspace);
  const result = await setup();
  return { result, reads: recording ? await recording.collect() : void 0 };
};
var touchesReads = (reads, file) => reads.files.includes(file) || presenceKeyed.test(file);
var TOOLCHAIN_PROGRAMS = [
  "node",
  "npm",
  "npx",
  "python3",
  "python",
  "pip",
  "go",
  "cargo",
  "rustc",
  "java",
  "mvn",
  "ruby",
  "bundle"
];
var toolchainStamp = (pathVariable) => TOOLCHAIN_PROGRAMS.map((name) => {
  for (const dir of (pathVariable ?? "").split(path7.delimiter).filter(Boolean)) {
    try {
      const stats = statSync(path7.join(dir, name));
      if (stats.isFile())
        return `${name}=${realpathSync(path7.join(dir, name))}:${stats.size}:${stats.mtimeMs}`;
    } catch {
    }
  }
  return `${name}=none`;
}).join("\n");

// src/workspace/setup/cache.ts
import { execFile as execFile3 } from "node:child_process";
import { createHash as createHash2 } from "node:crypto";
import {
  existsSync as existsSync3,
  lstatSync as lstatSync2,
  mkdirSync as mkdirSync2,
  readdirSync,
  readFileSync as readFileSync3,
  renameSync as renameSync2,
  rmSync as rmSync4,
  writeFileSync as writeFileSync4
} from "node:fs";
import path8 from "node:path";
var ARTIFACTS = ["node_modules"];
var leftovers = async (workspace) => {
  try {
    const status = await hostGit(
      [
        "status",
        "--porcelain=v1",
        "-z",
        "--ignored=traditional",
        "--untracked-files=normal",
        "--ignore-submodules=all"
      ],
      { cwd: workspace, noFollow: true }
    );
    return new Set(status.split("\0").filter(Boolean));
  } catch {
    return void 0;
  }
};
var ONLY_ARTIFACTS = new Set(ARTIFACTS.flatMap((dir) => [`?? ${dir}/`, `!! ${dir}/`]));
var leftTrackedAlone = async (workspace) => {
  const left = await leftovers(workspace);
  return left !== void 0 && [...left].every((entry) => /^(?:\?\?|!!) /.test(entry));
};
var isRealDir = (dir) => {
  try {
    return lstatSync2(dir).isDirectory();
  } catch {
    return false;
  }
};
var copyTree = (from, to) => new Promise((resolve, reject) => {
  execFile3("cp", ["-a", "--reflink=auto", from, to], (error) => {
    if (error) reject(new Error(`cannot copy ${from}: ${error.message}`));
    else resolve();
  });
});
var commandKey = (command, context) => createHash2("sha256").update(command).update("\0").update(context ?? "").digest("hex").slice(0, 24);
var entriesIn = (dir) => {
  if (!existsSync3(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory() && !d.name.includes(".tmp-")).flatMap((d) => {
    try {
      const folder = path8.join(dir, d.name);
      const entry = JSON.parse(readFileSync3(path8.join(folder, "entry.json"), "utf8"));
      return [{ folder, entry }];
    } catch {
      return [];
    }
  });
};
var copiesOnWrite = async (dir) => {
  mkdirSync2(dir, { recursive: true });
  const probe = path8.join(dir, `.reflink-probe-${process.pid}`);
  writeFileSync4(probe, "probe");
  try {
    return await new Promise((resolve) => {
      execFile3("cp", ["--reflink=always", probe, `${probe}.copy`], (error) => resolve(!error));
    });
  } finally {
    rmSync4(probe, { force: true });
    rmSync4(`${probe}.copy`, { force: true });
  }
};
var createSetupCache = (dir, options = {}) => {
  const inFlight = /* @__PURE__ */ new Map();
  let usable;
  const restore = async (entry, workspace) => {
    const resultFile = path8.join(entry, "result.json");
    if (!existsSync3(resultFile)) return void 0;
    for (const artifact of ARTIFACTS) {
      const cached = path8.join(entry, artifact);
      if (!existsSync3(cached)) continue;
      const dest = path8.join(workspace, artifact);
      removeTree(dest);
      await copyTree(cached, dest);
    }
    const saved = JSON.parse(readFileSync3(resultFile, "utf8"));
    return {
      ...saved,
      durationMs: 0,
      output: `${saved.output}
[regreen] setup restored from the cache
`
    };
  };
  return {
    run: async ({ workspace, command, context, setup }) => {
      if (options.copyOnWriteOnly && !await (usable ??= copiesOnWrite(dir))) {
        const { result, reads } = await withReads(workspace, setup);
        return reads ? { ...result, reads } : result;
      }
      const key = commandKey(command, context);
      const keyDir = path8.join(dir, key);
      const previous = inFlight.get(key) ?? Promise.resolve();
      let release = () => void 0;
      const mine = new Promise((resolve) => release = resolve);
      const turn = previous.then(() => mine);
      inFlight.set(key, turn);
      await previous;
      try {
        const known = await knownFiles(workspace).catch(() => void 0);
        if (!known) {
          const { result: result2, reads: reads2 } = await withReads(workspace, setup);
          return reads2 ? { ...result2, reads: reads2 } : result2;
        }
        for (const { folder, entry } of entriesIn(keyDir)) {
          if (readsFingerprint(workspace, entry.reads, known) !== entry.fingerprint) continue;
          const hit = await restore(folder, workspace);
          if (hit) return { ...hit, reads: entry.reads };
        }
        const before = await leftovers(workspace);
        const { result, reads } = await withReads(workspace, setup);
        const after = result.exitCode === 0 && before && reads ? await leftovers(workspace) : void 0;
        const left = [...after ?? []].filter((entry) => !before?.has(entry));
        if (reads && after && left.length > 0 && left.every((e) => ONLY_ARTIFACTS.has(e))) {
          const fingerprint2 = readsFingerprint(workspace, reads, known);
          const entry = path8.join(keyDir, fingerprint2.slice(0, 24));
          const staging = `${entry}.tmp-${process.pid}-${Date.now()}`;
          mkdirSync2(staging, { recursive: true });
          for (const artifact of ARTIFACTS) {
            const made2 = path8.join(workspace, artifact);
            if (isRealDir(made2)) await copyTree(made2, path8.join(staging, artifact));
          }
          writeFileSync4(path8.join(staging, "result.json"), JSON.stringify(result));
          writeFileSync4(
            path8.join(staging, "entry.json"),
            JSON.stringify({ reads, fingerprint: fingerprint2 })
          );
          rmSync4(entry, { recursive: true, force: true });
          renameSync2(staging, entry);
        }
        return reads ? { ...result, reads } : result;
      } finally {
        release();
        if (inFlight.get(key) === turn) inFlight.delete(key);
      }
    }
  };
};

// src/job/stages/agent-budget.ts
var unpricedError = (id) => new RegreenError(
  "usage",
  `no price is known for ${id}, so its dollar budget cannot be kept: price it as the operator (REGREEN_PRICES='{"${id.replace(/^[a-z]+:/, "")}":{"input":0,"output":0}}' for a free local model)`
);
var refuseUnpriced = (model) => {
  if (model.unpriced) throw unpricedError(model.id);
};
var describeBudget = (budget) => `budget ${budget.maxTurns} turns, ${budget.maxInputTokens} input / ${budget.maxOutputTokens} output tokens, $${budget.maxCostUsd}, ${Math.round(budget.maxMs / 6e4)} min`;
var jobBudget = (config, costCeilingUsd) => {
  const budget = {
    maxTurns: config.budget.max_turns,
    maxInputTokens: config.budget.max_input_tokens,
    maxOutputTokens: config.budget.max_output_tokens,
    maxCostUsd: config.budget.max_cost_usd,
    maxMs: config.budget.max_minutes * 6e4
  };
  return costCeilingUsd !== void 0 && costCeilingUsd < budget.maxCostUsd ? { ...budget, maxCostUsd: Math.max(0, costCeilingUsd) } : budget;
};
var jobModel = (job, config, workspace) => {
  const model = job.deps.model({
    workspace: () => workspace,
    configModel: config.model,
    prices: pricesFromConfig(config.prices)
  });
  if (model) refuseUnpriced(model);
  return model;
};

// src/job/stages/setup-caches.ts
import { lstatSync as lstatSync3, mkdirSync as mkdirSync4, renameSync as renameSync3 } from "node:fs";
import path10 from "node:path";

// src/workspace/setup/npm-tarballs.ts
import { createHash as createHash3 } from "node:crypto";
import { existsSync as existsSync4, mkdirSync as mkdirSync3, readdirSync as readdirSync2, rmSync as rmSync5, statSync as statSync2, utimesSync as utimesSync2 } from "node:fs";
import path9 from "node:path";
var ALGORITHMS = /* @__PURE__ */ new Set(["sha512", "sha384", "sha256", "sha1"]);
var HEX_LENGTH = { sha512: 128, sha384: 96, sha256: 64, sha1: 40 };
var MAX_TARBALL_BYTES = 256 * 1024 * 1024;
var addressOf = (tarball) => path9.join(
  "content-v2",
  tarball.algorithm,
  tarball.hex.slice(0, 2),
  tarball.hex.slice(2, 4),
  tarball.hex.slice(4)
);
var tarballsOfIntegrity = (integrity) => integrity.trim().split(/\s+/).flatMap((entry) => {
  const match = /^(sha\d+)-([A-Za-z0-9+/=]+)(\?.*)?$/.exec(entry);
  const algorithm = match?.[1] ?? "";
  if (!ALGORITHMS.has(algorithm)) return [];
  const hex = Buffer.from(match?.[2] ?? "", "base64").toString("hex");
  return hex.length === HEX_LENGTH[algorithm] ? [{ algorithm, hex }] : [];
});
var lockedTarballs = (workspace) => {
  const found = /* @__PURE__ */ new Map();
  const visit2 = (node, depth) => {
    if (depth > 64 || typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "integrity" && typeof value === "string")
        for (const tarball of tarballsOfIntegrity(value)) found.set(addressOf(tarball), tarball);
      else visit2(value, depth + 1);
    }
  };
  for (const name of ["package-lock.json", "npm-shrinkwrap.json"]) {
    const text = readTextInside(workspace, path9.join(workspace, name));
    if (text === void 0) continue;
    try {
      visit2(JSON.parse(text), 0);
    } catch {
    }
  }
  return [...found.values()];
};
var readVerified = (cacache, tarball) => {
  const file = path9.join(cacache, addressOf(tarball));
  let bytes;
  try {
    bytes = readFileInsideUpTo(cacache, file, MAX_TARBALL_BYTES);
  } catch {
    return void 0;
  }
  if (!bytes) return void 0;
  return createHash3(tarball.algorithm).update(bytes).digest("hex") === tarball.hex ? bytes : void 0;
};
var seedTarballs = (caches, target, tarballs) => {
  const present = [caches.store, ...caches.others].filter(
    (source) => existsSync4(path9.join(source, "content-v2"))
  );
  if (present.length === 0 || tarballs.length === 0) return 0;
  mkdirSync3(target, { recursive: true });
  let seeded = 0;
  for (const tarball of tarballs) {
    for (const source of present) {
      const bytes = readVerified(source, tarball);
      if (!bytes) continue;
      writeFileInside(target, path9.join(target, addressOf(tarball)), bytes);
      if (source === caches.store) touch(path9.join(source, addressOf(tarball)));
      seeded += 1;
      break;
    }
  }
  return seeded;
};
var touch = (file) => {
  try {
    const now = /* @__PURE__ */ new Date();
    utimesSync2(file, now, now);
  } catch {
  }
};
var importTarballs = (cacache, store) => {
  const content = path9.join(cacache, "content-v2");
  if (!existsSync4(content)) return 0;
  const list2 = (dir) => {
    try {
      return listInside(cacache, dir);
    } catch {
      return [];
    }
  };
  let imported = 0;
  for (const algorithm of list2(content)) {
    if (!algorithm.isDirectory() || !ALGORITHMS.has(algorithm.name)) continue;
    for (const first of list2(path9.join(content, algorithm.name))) {
      if (!first.isDirectory() || !/^[0-9a-f]{2}$/.test(first.name)) continue;
      for (const second of list2(path9.join(content, algorithm.name, first.name))) {
        if (!second.isDirectory() || !/^[0-9a-f]{2}$/.test(second.name)) continue;
        const dir = path9.join(content, algorithm.name, first.name, second.name);
        for (const rest of list2(dir)) {
          if (!rest.isFile()) continue;
          const tarball = {
            algorithm: algorithm.name,
            hex: `${first.name}${second.name}${rest.name}`
          };
          if (!/^[0-9a-f]+$/.test(tarball.hex) || tarball.hex.length !== HEX_LENGTH[tarball.algorithm])
            continue;
          if (existsSync4(path9.join(store, addressOf(tarball)))) continue;
          const bytes = readVerified(cacache, tarball);
          if (!bytes) continue;
          mkdirSync3(store, { recursive: true });
          writeFileInside(store, path9.join(store, addressOf(tarball)), bytes);
          imported += 1;
        }
      }
    }
  }
  return imported;
};
var pruneTarballs = (store, maxBytes) => {
  const content = path9.join(store, "content-v2");
  if (!existsSync4(content)) return;
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync2(dir, { withFileTypes: true })) {
      const file = path9.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) {
        const stats = statSync2(file);
        files.push({ file, size: stats.size, used: stats.mtimeMs });
      }
    }
  };
  walk(content);
  let total = files.reduce((sum, entry) => sum + entry.size, 0);
  for (const entry of files.sort((a, b) => a.used - b.used)) {
    if (total <= maxBytes) break;
    rmSync5(entry.file, { force: true });
    total -= entry.size;
  }
};

// src/job/stages/setup-caches.ts
var HANDED_ON = [".npm"];
var keptDir = (job) => path10.join(job.scratch, "setup-download-caches");
var isRealDir2 = (file) => {
  try {
    return lstatSync3(file).isDirectory();
  } catch {
    return false;
  }
};
var exists = (file) => {
  try {
    lstatSync3(file);
    return true;
  } catch {
    return false;
  }
};
var npmStore = (job) => ({
  dir: path10.join(job.deps.dataDir, "caches", "npm"),
  maxBytes: (settingsOf(job.deps.env).npmStoreMb ?? 2048) * 1024 * 1024
});
var seedSetupCaches = (job, sandbox, workspace) => {
  const store = npmStore(job);
  if (store.maxBytes === 0) return 0;
  const { home } = privateFolders(sandbox.policy);
  const npm = path10.join(home, ".npm");
  if (exists(npm)) return 0;
  const settings = settingsOf(job.deps.env);
  const operator = path10.join(homeOf(job.deps.env), ".npm", "_cacache");
  const seeded = seedTarballs(
    { store: store.dir, others: settings.hostCaches === "off" ? [] : [operator] },
    path10.join(npm, "_cacache"),
    lockedTarballs(workspace)
  );
  if (seeded > 0)
    job.trace.emit({
      type: "note",
      message: `npm cache: ${seeded} tarballs from earlier downloads`
    });
  return seeded;
};
var keepSetupCaches = (job, sandbox) => {
  const { home } = privateFolders(sandbox.policy);
  const kept = keptDir(job);
  mkdirSync4(kept, { recursive: true });
  job.disposables.add(discardAtEnd(job, kept));
  for (const name of HANDED_ON) {
    if (isRealDir2(path10.join(home, name)) && !exists(path10.join(kept, name)))
      renameSync3(path10.join(home, name), path10.join(kept, name));
  }
  const store = npmStore(job);
  const cacache = path10.join(kept, ".npm", "_cacache");
  if (store.maxBytes > 0 && isRealDir2(cacache) && importTarballs(cacache, store.dir) > 0)
    pruneTarballs(store.dir, store.maxBytes);
};
var handOnSetupCaches = (job, sandbox) => {
  const { home } = privateFolders(sandbox.policy);
  const kept = keptDir(job);
  for (const name of HANDED_ON)
    if (isRealDir2(path10.join(kept, name)) && !exists(path10.join(home, name)))
      renameSync3(path10.join(kept, name), path10.join(home, name));
};

// src/job/stages/prepare.ts
import { mkdirSync as mkdirSync9 } from "node:fs";
import path29 from "node:path";

// src/workspace/repo/clone.ts
import { existsSync as existsSync5, mkdirSync as mkdirSync5, statSync as statSync3 } from "node:fs";
import path11 from "node:path";

// src/workspace/repo/repo-url.ts
var HIDDEN = "[credential]";
var RepoCredential = class {
  #username;
  #password;
  constructor(username, password) {
    this.#username = username;
    this.#password = password;
  }
  /** The environment that lets host git authenticate to `url`'s origin. */
  gitAuth(url) {
    return httpAuthEnv(url, this.#username, this.#password);
  }
  toJSON() {
    return HIDDEN;
  }
  toString() {
    return HIDDEN;
  }
  [/* @__PURE__ */ Symbol.for("nodejs.util.inspect.custom")]() {
    return HIDDEN;
  }
};
var refused = (why) => new RegreenError(
  "usage",
  `--repo: ${why} (the URL is not repeated here: it may hold a credential)`
);
var scpUser = (url) => url.slice(0, url.indexOf("@"));
var SCHEMES = {
  "https:": "credential",
  "http:": "credential",
  "ssh:": "account",
  "git+ssh:": "account",
  "ssh+git:": "account",
  "git:": "nothing",
  "file:": "nothing"
};
var isSeparator = (c) => c === "/" || c === "\\" || /\s/.test(c);
var shownRepoText = (raw) => {
  let shown = "";
  let from = 0;
  for (let at = raw.indexOf("@"); at >= 0; at = raw.indexOf("@", at + 1)) {
    let start = at;
    while (start > from && !isSeparator(raw[start - 1] ?? "")) start -= 1;
    shown += raw.slice(from, start) + (start < at ? "***" : "") + "@";
    from = at + 1;
  }
  return shown + raw.slice(from);
};
var splitRepoUrl = (raw, scpLike2) => {
  if (scpLike2) {
    if (scpUser(raw).includes(":")) throw refused("a password in an ssh address is not taken");
    return { display: raw };
  }
  let url;
  try {
    url = new URL(raw);
  } catch {
    throw refused("not a URL git can read");
  }
  const carries2 = SCHEMES[url.protocol];
  if (carries2 === void 0) throw refused("only https, http, ssh, git and file URLs are taken");
  if (carries2 !== "credential") {
    if (url.password || holdsUserinfo(raw) || carries2 === "nothing" && url.username)
      throw refused(`userinfo in a ${url.protocol}// URL other than an ssh user name is not taken`);
    return { display: raw };
  }
  let username;
  let password;
  try {
    username = decodeURIComponent(url.username);
    password = decodeURIComponent(url.password);
  } catch {
    throw refused("userinfo that is not valid percent-encoding is not taken");
  }
  url.username = "";
  url.password = "";
  if (url.search || url.hash || raw.includes("?") || raw.includes("#"))
    throw refused(
      `a query or fragment in a repository URL is not taken (${url.origin}${url.pathname}: git cannot send it apart from the paths it adds; give a token as https://user:TOKEN@host/\u2026 instead)`
    );
  if (holdsUserinfo(url.href))
    throw refused("userinfo that does not split from the URL is not taken");
  return {
    display: url.href,
    ...username || password ? { credential: new RepoCredential(username, password) } : {}
  };
};

// src/workspace/repo/clone.ts
var scpLike = (repo) => {
  const word2 = /^\S*/.exec(repo)?.[0] ?? "";
  const slash = word2.indexOf("/");
  const colon = word2.lastIndexOf(":");
  for (let at = word2.indexOf("@", 1); at > 0; at = word2.indexOf("@", at + 1)) {
    if (slash >= 0 && at > slash) return false;
    if (at + 1 < word2.length && word2[at + 1] !== ":" && colon > at + 1) return true;
  }
  return false;
};
var hasScheme = (repo) => /^[a-z][a-z0-9+.-]*:\/\//i.test(repo);
var resolveRepoSource = async (repo) => {
  if (hasScheme(repo) || scpLike(repo)) {
    const { display, credential } = splitRepoUrl(repo, !hasScheme(repo));
    return { location: display, ...credential ? { credential } : {} };
  }
  const dir = path11.resolve(repo);
  const shown = shownRepoText(dir);
  if (!existsSync5(dir) || !statSync3(dir).isDirectory()) {
    throw new RegreenError(
      "not-a-repo",
      `${existsSync5(dir) ? "not a directory" : "no such folder"}: ${shown}. --repo takes the folder of a git clone (or a URL)`
    );
  }
  try {
    const top = (await git(dir).revparse(["--show-toplevel"])).trim();
    return { location: top, localRoot: top };
  } catch (error) {
    throw new RegreenError(
      "not-a-repo",
      `not a git repository: ${shown}. --repo takes the folder of a git clone (git clone URL DIR makes one)`,
      { cause: error }
    );
  }
};
var judgedBranches = /* @__PURE__ */ new Map();
var validBranch = async (dir, name) => {
  if (name === void 0 || name === "" || name.startsWith("-")) return void 0;
  if (judgedBranches.has(name)) return judgedBranches.get(name);
  let valid;
  try {
    valid = (await git(dir).raw(["check-ref-format", "--branch", name])).trim() || void 0;
  } catch {
    valid = void 0;
  }
  if (judgedBranches.size >= 256) judgedBranches.clear();
  judgedBranches.set(name, valid);
  return valid;
};
var checkoutSizes = /* @__PURE__ */ new Map();
var checkoutBytes = async (repo, baseSha) => {
  const known = checkoutSizes.get(baseSha);
  if (known !== void 0) return known;
  const listing = await repo.raw(["ls-tree", "-r", "-l", "-z", "--end-of-options", baseSha]);
  const bytes = listing.split("\0").map((entry) => Number(/^\d+ blob [0-9a-f]+ +(\d+)\t/.exec(entry)?.[1] ?? 0)).reduce((sum, size) => sum + size, 0);
  if (!isFullObjectId(baseSha)) return bytes;
  if (checkoutSizes.size >= 256) checkoutSizes.clear();
  checkoutSizes.set(baseSha, bytes);
  return bytes;
};
var ciBranch = async (dest, ref, named) => {
  if (named !== void 0) return validBranch(dest, named);
  const repo = git(dest);
  try {
    if (ref === void 0) {
      const head = (await repo.raw(["symbolic-ref", "-q", "refs/remotes/origin/HEAD"])).trim();
      return validBranch(dest, head.replace(/^refs\/remotes\/origin\//, ""));
    }
    await repo.raw(["show-ref", "--verify", "--quiet", `refs/remotes/origin/${ref}`]);
    return validBranch(dest, ref);
  } catch {
    return void 0;
  }
};
var cloneWorkspace = async (options) => {
  const { source, ref, dest, auth } = options;
  if (ref !== void 0 && (ref.startsWith("-") || ref.includes("\0") || ref.trim() === "")) {
    throw new RegreenError("ref-not-found", `not a ref: ${JSON.stringify(ref)}`);
  }
  mkdirSync5(path11.dirname(dest), { recursive: true });
  try {
    await gitRemote(
      ["clone", "--no-hardlinks", "--quiet", "--no-checkout", "--", source.location, dest],
      { cwd: path11.dirname(dest), ...auth ? { auth } : {} }
    );
  } catch (error) {
    throw new RegreenError(
      "clone-failed",
      `cannot clone ${source.location}: ${describeError(error)}`,
      {
        cause: error
      }
    );
  }
  const repo = git(dest);
  const candidates = ref === void 0 ? ["HEAD"] : [ref, `origin/${ref}`, `refs/tags/${ref}`];
  let baseSha;
  for (const candidate of candidates) {
    try {
      baseSha = (await repo.revparse(["--verify", "--quiet", "--end-of-options", `${candidate}^{commit}`])).trim();
      if (baseSha) break;
    } catch {
      baseSha = void 0;
    }
  }
  if (!baseSha) {
    if (ref !== void 0) {
      try {
        await gitRemote(["fetch", "--quiet", "--", "origin", ref], {
          cwd: dest,
          ...auth ? { auth } : {}
        });
        baseSha = (await repo.revparse(["--verify", "--quiet", "FETCH_HEAD^{commit}"])).trim();
      } catch {
        baseSha = void 0;
      }
    }
  }
  if (!baseSha) {
    throw new RegreenError(
      "ref-not-found",
      ref === void 0 ? `${source.location} has no commit to start from (HEAD names none: an empty repository, or a branch with no commit yet). Commit the code first, or name a ref with --ref` : `ref not found in ${source.location}: ${ref}. git -C ${source.location} branch -a lists its branches`
    );
  }
  const [bytes, branch] = await Promise.all([
    options.maxCheckoutBytes === void 0 ? void 0 : checkoutBytes(repo, baseSha),
    ciBranch(dest, ref, options.branch)
  ]);
  if (bytes !== void 0 && options.maxCheckoutBytes !== void 0 && bytes > options.maxCheckoutBytes)
    throw new RegreenError(
      "clone-failed",
      `the checkout of ${ref ?? "HEAD"} would write ${(bytes / 1024 / 1024).toFixed(1)} MiB, more than the job's disk limit of ${Math.floor(options.maxCheckoutBytes / 1024 / 1024)} MiB (REGREEN_MAX_DISK_MB)`
    );
  await repo.raw(
    branch === void 0 ? ["checkout", "--quiet", "--detach", baseSha] : ["checkout", "--quiet", "-B", branch, baseSha]
  );
  mkdirSync5(path11.join(dest, ".git", "hooks"), { recursive: true });
  return { root: dest, baseSha, branch };
};

// src/workspace/repo/context-file.ts
import { closeSync as closeSync2, readSync } from "node:fs";
import path12 from "node:path";
var CONTEXT_FILES = [
  "AGENTS.md",
  "CLAUDE.md",
  ".github/copilot-instructions.md",
  "CONTRIBUTING.md"
];
var MAX_CONTEXT_BYTES = 32 * 1024;
var readContextFile = (workspace) => {
  for (const name of CONTEXT_FILES) {
    try {
      const { fd, stats } = openFileInside(workspace, path12.join(workspace, name));
      let bytes;
      try {
        const head = Buffer.alloc(Math.min(stats.size, MAX_CONTEXT_BYTES + 1));
        bytes = head.subarray(0, readSync(fd, head, 0, head.length, 0));
      } finally {
        closeSync2(fd);
      }
      if (looksBinary(bytes)) continue;
      const text = decodeUtf8(bytes.subarray(0, MAX_CONTEXT_BYTES)) ?? bytes.subarray(0, MAX_CONTEXT_BYTES).toString("latin1");
      return { path: name, text, truncated: stats.size > MAX_CONTEXT_BYTES };
    } catch {
      continue;
    }
  }
  return void 0;
};

// src/util/lazy.ts
var lazily = (start) => {
  let started;
  const run2 = () => started ??= Promise.resolve().then(start);
  const lazy = {
    then: (onFulfilled, onRejected) => run2().then(onFulfilled, onRejected),
    catch: (onRejected) => run2().catch(onRejected),
    finally: (onFinally) => run2().finally(onFinally),
    [Symbol.toStringTag]: "Promise"
  };
  return lazy;
};

// src/workspace/sandbox/policy.ts
import { existsSync as existsSync8, mkdirSync as mkdirSync6, realpathSync as realpathSync4 } from "node:fs";

// src/workspace/sandbox/secret-masks.ts
import { realpathSync as realpathSync3, statSync as statSync5 } from "node:fs";
import path15 from "node:path";

// src/workspace/sandbox/mounts.ts
import { existsSync as existsSync6, lstatSync as lstatSync4, readdirSync as readdirSync3, realpathSync as realpathSync2, statSync as statSync4 } from "node:fs";
import path14 from "node:path";

// src/util/package-root.ts
import { readFileSync as readFileSync4 } from "node:fs";
import path13 from "node:path";
import { fileURLToPath } from "node:url";
var root;
var packageRoot = () => {
  if (root !== void 0) return root;
  let dir = path13.dirname(fileURLToPath(import.meta.url));
  for (; ; ) {
    try {
      const manifest = JSON.parse(readFileSync4(path13.join(dir, "package.json"), "utf8"));
      if (manifest.name === "regreen") return root = dir;
    } catch {
    }
    const parent = path13.dirname(dir);
    if (parent === dir)
      return root = path13.resolve(path13.dirname(fileURLToPath(import.meta.url)), "..", "..");
    dir = parent;
  }
};

// src/workspace/sandbox/mounts.ts
var SYSTEM_DIRS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"];
var HOME_TOOLCHAINS = [
  ".pyenv",
  ".nvm",
  ".asdf",
  ".local/share/mise",
  ".local/share/pnpm",
  ".rustup",
  ".cargo/bin",
  ".sdkman/candidates",
  ".volta",
  ".bun/bin",
  ".deno/bin",
  "go/bin",
  "sdk"
];
var ROOT_SEGMENTS = [".pyenv", ".nvm", ".asdf", ".volta", ".sdkman", ".rustup"];
var toolchainRootsOnPath = (pathVariable) => {
  const roots = [];
  for (const entry of (pathVariable ?? "").split(":")) {
    if (!path14.isAbsolute(entry)) continue;
    const segments = entry.split("/");
    const at = segments.findIndex((segment) => ROOT_SEGMENTS.includes(segment));
    if (at > 0) roots.push(segments.slice(0, at + 1).join("/"));
    if (entry.endsWith("/.cargo/bin")) roots.push(path14.join(entry, "..", "..", ".rustup"));
  }
  return [...new Set(roots)].filter((root2) => existsSync6(root2));
};
var ETC_MASKED = ["/etc/gitconfig"];
var isAncestorOrSame = (candidate, of) => {
  const relative = path14.relative(candidate, of);
  return relative === "" || !relative.startsWith("..") && !path14.isAbsolute(relative);
};
var unreadableUnder = (root2, depth = 0) => {
  const found = [];
  let names;
  try {
    names = readdirSync3(root2);
  } catch {
    return found;
  }
  for (const name of names) {
    const full = path14.join(root2, name);
    let info;
    try {
      info = lstatSync4(full);
    } catch {
      continue;
    }
    if (info.isSymbolicLink()) continue;
    if (info.isDirectory()) {
      if ((info.mode & 5) !== 5) found.push({ path: full, dir: true });
      else if (depth < 6) found.push(...unreadableUnder(full, depth + 1));
    } else if ((info.mode & 4) === 0) {
      found.push({ path: full, dir: false });
    }
  }
  return found;
};
var etcMasks;
var forgetEtcMasks = () => {
  etcMasks = void 0;
};
var etcMounts = () => {
  etcMasks ??= unreadableUnder("/etc").map((entry) => ({
    kind: entry.dir ? "mask-dir" : "mask-file",
    source: entry.path,
    target: entry.path
  }));
  return [
    ...etcMasks,
    ...ETC_MASKED.filter((file) => existsSync6(file)).map((file) => ({
      kind: "mask-file",
      source: file,
      target: file
    }))
  ];
};
var REGREEN_ROOT = packageRoot();
var regreenReadable = () => {
  const installedIn = path14.dirname(REGREEN_ROOT);
  const outer = path14.basename(installedIn) === "node_modules" ? [installedIn] : path14.basename(path14.dirname(installedIn)) === "node_modules" ? [path14.dirname(installedIn)] : [];
  return [
    ...["node_modules", "tools", "dist", "action"].map((dir) => path14.join(REGREEN_ROOT, dir)),
    ...outer
  ].filter(existsSync6);
};
var readableRoots = (options) => {
  const candidates = [
    path14.dirname(path14.dirname(process.execPath)),
    ...HOME_TOOLCHAINS.map((dir) => path14.join(options.home, dir)),
    ...toolchainRootsOnPath(options.pathVariable),
    ...toolchainRootsOf(options.env),
    ...(options.pathVariable ?? "").split(":").filter((entry) => path14.isAbsolute(entry)),
    ...regreenReadable()
  ];
  const own = new Set(regreenReadable());
  const guarded = [options.home, ...options.secretRoots];
  const roots = [];
  for (const candidate of candidates) {
    let real;
    try {
      real = realpathSync2(candidate);
      if (!statSync4(real).isDirectory()) continue;
    } catch {
      continue;
    }
    if (guarded.some((secret) => isAncestorOrSame(real, secret))) continue;
    if (options.secretRoots.some((secret) => isAncestorOrSame(secret, real)) && !own.has(candidate))
      continue;
    if (SYSTEM_DIRS.some((dir) => isAncestorOrSame(dir, real))) continue;
    if (!roots.includes(real)) roots.push(real);
  }
  return roots;
};
var systemMounts = () => SYSTEM_DIRS.flatMap((dir) => {
  let info;
  try {
    info = lstatSync4(dir);
  } catch {
    return [];
  }
  if (info.isSymbolicLink()) {
    const target = realpathSync2(dir);
    return [{ kind: "symlink", source: target, target: dir }];
  }
  return info.isDirectory() ? [{ kind: "ro", source: dir, target: dir }] : [];
});

// src/workspace/sandbox/secret-masks.ts
var secretRoots = (env, dataDir) => {
  const settings = settingsOf(env);
  return [dataDir, settings.runnerTemp, settings.runnerWorkspace, settings.githubWorkspace].filter(
    (dir) => typeof dir === "string" && path15.isAbsolute(dir)
  );
};
var secretMasks = (hidden, readable) => {
  const shown = [...SYSTEM_DIRS, ...readable];
  const masks = [];
  for (const dir of hidden) {
    let real;
    try {
      real = realpathSync3(dir);
      if (!statSync5(real).isDirectory()) continue;
    } catch {
      continue;
    }
    if (!shown.some((root2) => isAncestorOrSame(root2, real))) continue;
    if (masks.some((mask) => isAncestorOrSame(mask.target, real))) continue;
    masks.push({ kind: "tmpfs", source: real, target: real, sizeBytes: 64 * 1024 });
  }
  return masks;
};

// src/workspace/sandbox/policy.ts
import path19 from "node:path";

// src/workspace/setup/dependency-caches.ts
import { existsSync as existsSync7, readFileSync as readFileSync5 } from "node:fs";
import os3 from "node:os";
import path17 from "node:path";

// src/workspace/setup/gradle.ts
import path16 from "node:path";
var TEST_REPORT_VARIABLE = "REGREEN_TEST_REPORT";
var groovyString = (text) => `'${text.replaceAll("\\", "\\\\").replaceAll("'", "\\'").replaceAll("\n", "\\n")}'`;
var REPORT_SCRIPT = `// written by regreen: Gradle's test events as a JUnit report, to the file a counted run names
def reportPath = System.getenv(${groovyString(TEST_REPORT_VARIABLE)})
if (reportPath) {
  def report = new File(reportPath)
  def xml = { String text -> (text ?: '').replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;').replace('>', '&gt;') }
  allprojects {
    tasks.withType(Test) { task ->
      task.environment.remove(${groovyString(TEST_REPORT_VARIABLE)})
      task.outputs.upToDateWhen { false }
      task.afterTest { descriptor, result ->
        def outcome = result.resultType.toString()
        def inner = outcome == 'FAILURE' ? '<failure/>' : (outcome == 'SKIPPED' ? '<skipped/>' : '')
        synchronized (report) {
          report.append("<testcase classname=\\"\${xml(descriptor.className)}\\" name=\\"\${xml(descriptor.name)}\\">\${inner}</testcase>\\n", 'UTF-8')
        }
      }
    }
  }
}
`;
var hostRepositoryScript = (repository) => `// written by regreen: the host's Maven repository, read-only, as a local registry
allprojects {
  repositories {
    maven { url ${groovyString(`file://${repository}`)} }
  }
}
`;
var gradleReportFiles = () => ({
  [path16.join(".gradle", "init.d", "regreen-test-report.gradle")]: REPORT_SCRIPT
});
var gradleRepositoryFiles = (hostRepository) => ({
  [path16.join(".gradle", "init.d", "regreen-host-repository.gradle")]: hostRepositoryScript(hostRepository)
});

// src/workspace/setup/dependency-caches.ts
var iniEntries = (text) => {
  const entries2 = [];
  let section = "";
  for (const raw of text.split(/\r?\n/)) {
    if (/^\s*([#;]|$)/.test(raw)) continue;
    const last = entries2.at(-1);
    if (/^\s/.test(raw) && last) {
      last[2] = `${last[2]} ${raw.trim()}`.trim();
      continue;
    }
    const header = /^\[([^\]]+)\]\s*$/.exec(raw);
    if (header?.[1]) {
      section = header[1].trim();
      continue;
    }
    const pair = /^([^=:]+)[=:]\s*(\S.*|)$/.exec(raw);
    if (pair?.[1] && section) entries2.push([section, pair[1].trim(), (pair[2] ?? "").trim()]);
  }
  return entries2;
};
var pipConfigFromFiles = (home, env) => {
  const settings = settingsOf(env);
  if (settings.pipConfigFile === os3.devNull) return "";
  const configHome = settings.xdgConfigHome ?? path17.join(home, ".config");
  const files = [
    ...(settings.xdgConfigDirs ?? "/etc/xdg").split(":").filter((dir) => path17.isAbsolute(dir)).map((dir) => path17.join(dir, "pip", "pip.conf")),
    "/etc/pip.conf",
    path17.join(home, ".pip", "pip.conf"),
    path17.join(configHome, "pip", "pip.conf"),
    ...settings.virtualEnv ? [path17.join(settings.virtualEnv, "pip.conf")] : [],
    ...settings.pipConfigFile ? [settings.pipConfigFile] : []
  ];
  const lines = [];
  for (const file of files) {
    let text;
    try {
      text = readFileSync5(file, "utf8");
    } catch {
      continue;
    }
    for (const [section, key, value] of iniEntries(text))
      lines.push(`${section}.${key}='${value}'`);
  }
  return lines.join("\n");
};
var PIP_KEYS = ["index-url", "extra-index-url", "find-links", "trusted-host", "cert"];
var pipConfFrom = (listing, aliasOf) => {
  const values = /* @__PURE__ */ new Map();
  const trusted = [];
  for (const line of listing.split("\n")) {
    const m = /^(?:global|install|user|site)\.([\w-]+)='(.*)'$/.exec(line.trim());
    const key = m?.[1];
    if (!m || !key || !PIP_KEYS.includes(key)) continue;
    const words = (m[2] ?? "").split(/\s+/).filter((word2) => word2 && (aliasOf || !/^[a-z+]+:\/\/[^/@\s]*@/i.test(word2))).map((word2) => aliasOf && key !== "trusted-host" && key !== "cert" ? aliasOf(word2) : word2);
    if (key === "trusted-host") trusted.push(...words);
    else if (words.length > 0) values.set(key, [...values.get(key) ?? [], ...words]);
  }
  const aliased = aliasOf ? registryHostsNamed(listing) : /* @__PURE__ */ new Set();
  const keptTrusted = trusted.filter((host) => !aliased.has(host));
  if (keptTrusted.length > 0) values.set("trusted-host", keptTrusted);
  if (values.size === 0) return void 0;
  return [
    aliasOf ? "# written by regreen: your pip index settings, each index by its alias (the setup proxy adds your credentials)" : "# written by regreen: your pip index settings, without credentials",
    "[global]",
    ...[...values].map(([key, words]) => `${key} = ${[...new Set(words)].join(" ")}`),
    ""
  ].join("\n");
};
var registryHostsNamed = (listing) => {
  const hosts = /* @__PURE__ */ new Set();
  for (const word2 of listing.split(/[\s']+/)) {
    try {
      const url = new URL(word2);
      if (url.protocol === "http:" || url.protocol === "https:") {
        hosts.add(url.host);
        hosts.add(url.hostname);
      }
    } catch {
    }
  }
  return hosts;
};
var operatorNpmrcFiles = (home, env) => {
  const settings = settingsOf(env);
  const prefix = path17.dirname(path17.dirname(process.execPath));
  return [
    settings.npmUserConfig ?? path17.join(home, ".npmrc"),
    settings.npmGlobalConfig ?? path17.join(prefix, "etc", "npmrc"),
    "/etc/npmrc"
  ];
};
var npmConfigFromFiles = (home, env) => {
  const files = operatorNpmrcFiles(home, env);
  return files.flatMap((file) => {
    try {
      return [readFileSync5(file, "utf8")];
    } catch {
      return [];
    }
  });
};
var iniValue = (written) => {
  const value = written.trim();
  const quote2 = value.charAt(0);
  if (value.length >= 2 && (quote2 === '"' || quote2 === "'") && value.endsWith(quote2)) {
    const inner = quote2 === "'" ? value.slice(1, -1) : value;
    try {
      const parsed = JSON.parse(inner);
      return typeof parsed === "string" ? parsed : inner;
    } catch {
      return inner;
    }
  }
  let out = "";
  for (let at = 0; at < value.length; at += 1) {
    const char = value.charAt(at);
    if (char === ";" || char === "#") break;
    if (char !== "\\") out += char;
    else if (at + 1 >= value.length) out += char;
    else {
      const next = value.charAt(at + 1);
      out += ";#\\".includes(next) ? next : `\\${next}`;
      at += 1;
    }
  }
  return out.trim();
};
var NPM_KEYS = /^(registry|@[^:\s]+:registry|cafile|ca|ca\[\]|strict-ssl)$/;
var npmrcFrom = (texts, aliasOf) => {
  const values = /* @__PURE__ */ new Map();
  for (const text of texts) {
    const seen = /* @__PURE__ */ new Set();
    for (const line of text.split("\n")) {
      const eq = line.indexOf("=");
      const written = eq < 0 ? void 0 : /^\s*([^=#;\s].*)$/s.exec(line.slice(0, eq))?.[1];
      const key = written === void 0 ? void 0 : iniValue(written);
      const raw = iniValue(line.slice(eq + 1));
      if (!key || !/^.*$/.test(raw) || !NPM_KEYS.test(key)) continue;
      const value = aliasOf && key.endsWith("registry") ? aliasOf(raw) : withoutUserinfo(raw);
      if (!value) continue;
      if (values.has(key) && !seen.has(key)) continue;
      seen.add(key);
      values.set(key, [...values.get(key) ?? [], value]);
    }
  }
  if (values.size === 0) return void 0;
  return [
    aliasOf ? "# written by regreen: your npm registries by their aliases (the setup proxy adds your credentials) and TLS settings" : "# written by regreen: your npm registries and TLS settings, without credentials",
    ...[...values].flatMap(([key, list2]) => list2.map((value) => `${key}=${value}`)),
    ""
  ].join("\n");
};
var goModuleDownloads = (home, env) => {
  const settings = settingsOf(env);
  const gopath = (settings.goPath ?? "").split(":").find((entry) => path17.isAbsolute(entry));
  const modcache = settings.goModCache ?? path17.join(gopath ?? path17.join(home, "go"), "pkg", "mod");
  const downloads = path17.join(modcache, "cache", "download");
  return path17.isAbsolute(downloads) && existsSync7(downloads) ? downloads : void 0;
};
var xmlText = (text) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
var MAVEN_RC = 'MAVEN_OPTS="${MAVEN_OPTS:+$MAVEN_OPTS }-Daether.offline.protocols=file"\n';
var mavenSettings = (repository) => {
  const url = xmlText(`file://${repository}`);
  const repo = (tag) => `<${tag}><id>regreen-host-cache</id><url>${url}</url><releases><enabled>true</enabled></releases><snapshots><enabled>false</enabled></snapshots></${tag}>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    "<!-- written by regreen: the host's Maven repository, read-only, as a local registry -->",
    "<settings>",
    "  <profiles><profile><id>regreen-host-cache</id>",
    `    <repositories>${repo("repository")}</repositories>`,
    `    <pluginRepositories>${repo("pluginRepository")}</pluginRepositories>`,
    "  </profile></profiles>",
    "  <activeProfiles><activeProfile>regreen-host-cache</activeProfile></activeProfiles>",
    "</settings>",
    ""
  ].join("\n");
};
var hostDependencyCaches = (options) => {
  const readable = [];
  const variables = {};
  const homeFiles = {};
  const { aliasOf } = options;
  const pipConf = options.pipConfig ? pipConfFrom(options.pipConfig(), aliasOf) : void 0;
  if (pipConf) homeFiles[path17.join(".config", "pip", "pip.conf")] = pipConf;
  const npmrc = options.npmConfig ? npmrcFrom(options.npmConfig(), aliasOf) : void 0;
  if (npmrc) homeFiles[".npmrc"] = npmrc;
  if (settingsOf(options.env).hostCaches === "off") return { readable, env: variables, homeFiles };
  const downloads = goModuleDownloads(options.home, options.env);
  if (downloads) {
    readable.push(downloads);
    const proxy = (settingsOf(options.env).goProxy ?? options.goProxy()).trim();
    const named = aliasOf ? aliasWords(proxy, aliasOf) : proxy;
    variables["GOPROXY"] = [`file://${downloads}`, ...named ? [named] : []].join(",");
  }
  const m2 = path17.join(options.home, ".m2", "repository");
  if (existsSync7(m2)) {
    readable.push(m2);
    homeFiles[path17.join(".m2", "settings.xml")] = mavenSettings(m2);
    homeFiles[".mavenrc"] = MAVEN_RC;
    Object.assign(homeFiles, gradleRepositoryFiles(m2));
  }
  return { readable, env: variables, homeFiles };
};

// src/workspace/setup/npm-auth.ts
var npmAuthorizationFor = (registry, texts, env) => {
  let url;
  try {
    url = new URL(registry);
  } catch {
    return void 0;
  }
  const nerf = `//${url.host}${url.pathname.endsWith("/") ? url.pathname : `${url.pathname}/`}`;
  const expand = (value) => value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name) => env[name] ?? "");
  const found = /* @__PURE__ */ new Map();
  for (const text of texts)
    for (const line of text.split("\n")) {
      const trimmed = line.trim();
      if (!trimmed.startsWith("//")) continue;
      const eq = trimmed.indexOf("=");
      const colon = eq < 0 ? -1 : trimmed.lastIndexOf(":", eq);
      if (colon < 0) continue;
      const prefix = trimmed.slice(0, colon);
      const key = trimmed.slice(colon + 1, eq).trim();
      if (!nerf.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) continue;
      const keys2 = found.get(prefix) ?? /* @__PURE__ */ new Map();
      if (!keys2.has(key)) keys2.set(key, expand(trimmed.slice(eq + 1).trim()));
      found.set(prefix, keys2);
    }
  const [, keys] = [...found].sort(([a], [b]) => b.length - a.length)[0] ?? [];
  if (!keys) return void 0;
  const token = keys.get("_authToken");
  if (token) return `Bearer ${token}`;
  const auth = keys.get("_auth");
  if (auth) return `Basic ${auth}`;
  const [user, password] = [keys.get("username"), keys.get("_password")];
  if (user && password) {
    const plain = Buffer.from(password, "base64").toString("utf8");
    return `Basic ${Buffer.from(`${user}:${plain}`, "utf8").toString("base64")}`;
  }
  return void 0;
};

// src/workspace/setup/registries.ts
import { createHash as createHash4 } from "node:crypto";
import { readFileSync as readFileSync6 } from "node:fs";
import { execFile as execFile4, execFileSync as execFileSync3 } from "node:child_process";
import path18 from "node:path";
var registryEndpoint = (url) => {
  try {
    const parsed = new URL(url.trim());
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return void 0;
    const port = parsed.port || (parsed.protocol === "https:" ? "443" : "80");
    return `${parsed.hostname}:${port}`;
  } catch {
    return void 0;
  }
};
var npmrcRegistries = (text, scoped = true) => text.split("\n").map(
  (line) => (scoped ? /^\s*(?:@[^:\s]+:)?registry\s*=\s*(\S+)/ : /^\s*registry\s*=\s*(\S+)/).exec(
    line
  )?.[1]
).filter((value) => value !== void 0);
var pipConfRegistries = (text) => {
  const urls = [];
  let inIndexKey = false;
  for (const line of text.split("\n")) {
    const key = /^\s*(extra-index-url|index-url)\s*=\s*(\S.*|)$/.exec(line);
    if (key) {
      inIndexKey = true;
      urls.push(...(key[2] ?? "").split(/\s+/));
    } else if (inIndexKey && /^\s+\S/.test(line)) {
      urls.push(...line.trim().split(/\s+/));
    } else {
      inIndexKey = false;
    }
  }
  return urls.filter(Boolean);
};
var operatorNpmRegistries = (home, env, readText = readTextOrUndefined, options = {}) => [
  settingsOf(env).npmConfigRegistry,
  settingsOf(env).npmRegistry,
  ...operatorNpmrcFiles(home, env).flatMap(
    (file) => npmrcRegistries(readText(file) ?? "", options.scoped)
  )
].filter((value) => Boolean(value));
var userRegistryHosts = (options) => {
  const { home, env, readText } = options;
  const npmUrls = operatorNpmRegistries(home, env, readText);
  const pipUrls = [
    settingsOf(env).pipIndexUrl,
    ...(settingsOf(env).pipExtraIndexUrl ?? "").split(/\s+/),
    ...[
      settingsOf(env).pipConfigFile,
      "/etc/pip.conf",
      "/etc/xdg/pip/pip.conf",
      path18.join(home, ".pip", "pip.conf"),
      path18.join(home, ".config", "pip", "pip.conf")
    ].filter((file) => Boolean(file)).flatMap((file) => pipConfRegistries(readText(file) ?? ""))
  ].filter((value) => Boolean(value));
  const hosts = [...npmUrls, ...pipUrls, ...options.effectiveUrls ?? []].map(registryEndpoint).filter((host) => host !== void 0);
  return [...new Set(hosts)];
};
var readTextOrUndefined = (file) => {
  try {
    return readFileSync6(file, "utf8");
  } catch {
    return void 0;
  }
};
var ASK_OPTIONS = { timeout: 15e3 };
var settled = /* @__PURE__ */ new Map();
var pending = /* @__PURE__ */ new Map();
var questionKey = (home, env, file, args) => createHash4("sha256").update(JSON.stringify([home, file, args, Object.entries(env).sort()])).digest("hex");
var ask = (home, env, file, args) => {
  const key = questionKey(home, env, file, args);
  let answer = settled.get(key);
  if (answer === void 0) {
    try {
      answer = execFileSync3(file, [...args], {
        ...ASK_OPTIONS,
        cwd: home,
        env,
        stdio: ["ignore", "pipe", "ignore"]
      }).toString("utf8");
    } catch {
      answer = "";
    }
    settled.set(key, answer);
  }
  return answer;
};
var askAsync = (home, env, file, args) => {
  const key = questionKey(home, env, file, args);
  const known = settled.get(key);
  if (known !== void 0) return Promise.resolve(known);
  let answer = pending.get(key);
  if (!answer) {
    answer = new Promise((resolve) => {
      const child = execFile4(
        file,
        [...args],
        { ...ASK_OPTIONS, cwd: home, env, encoding: "utf8" },
        (error, stdout) => {
          const text = error ? "" : stdout;
          if (!settled.has(key)) settled.set(key, text);
          pending.delete(key);
          resolve(settled.get(key) ?? text);
        }
      );
      child.stdin?.end();
    });
    pending.set(key, answer);
  }
  return answer;
};
var goEndpoints = (goEnv) => {
  const [proxy = "", sumdb = ""] = goEnv.split("\n").map((line) => line.trim());
  const proxies = proxy.split(/[,|]/).map((p) => p.trim()).filter((p) => p && p !== "direct" && p !== "off");
  const sum = sumdb && sumdb !== "off" ? [
    `https://${sumdb.split(/\s+/).at(-1)?.replace(/^https?:\/\//, "") ?? ""}`
  ] : [];
  return [...proxies, ...sum];
};
var gemSourceUrls = (listing) => listing.split("\n").map((line) => line.trim()).filter((line) => /^https?:\/\//.test(line));
var registryHostsOf = async (env) => {
  const home = homeOf(env);
  const settings = settingsOf(env);
  const pipList = pipConfigFromFiles(home, env);
  const [npmRegistry, goEnv, pipDefault, gemSources] = await Promise.all([
    askAsync(home, env, "npm", ["config", "get", "registry"]),
    askAsync(home, env, "go", ["env", "GOPROXY", "GOSUMDB"]),
    // pip's own default index and file host, as pip itself defines them: used unless the user set an index.
    askAsync(home, env, "python3", [
      "-I",
      "-c",
      "from pip._internal.models.index import PyPI; print(PyPI.simple_url); print('https://' + PyPI.file_storage_domain + '/')"
    ]),
    // RubyGems' sources (the operator's gemrc, else its default): a Gemfile's `source` is reachable when it is one of them.
    askAsync(home, env, "gem", ["sources", "--list"])
  ]);
  const pipConfigured = settings.pipIndexUrl !== void 0 || /^[^\S\n\r\u2028\u2029]*index-url\s*=/m.test(pipList.replace(/^[^=\n\r\u2028\u2029]*\./gm, ""));
  return userRegistryHosts({
    home,
    env,
    readText: readTextOrUndefined,
    effectiveUrls: [
      npmRegistry.trim(),
      ...(pipConfigured ? "" : pipDefault).split("\n").map((line) => line.trim()).filter(Boolean),
      ...goEndpoints(goEnv),
      ...gemSourceUrls(gemSources)
    ].filter(Boolean)
  });
};
var SYSTEM_CA_BUNDLES = [
  "/etc/ssl/certs/ca-certificates.crt",
  "/etc/pki/tls/certs/ca-bundle.crt"
];
var operatorCaBundles = (env, readText = readTextOrUndefined) => {
  const settings = settingsOf(env);
  const files = [
    ...[
      settings.sslCertFile,
      settings.requestsCaBundle,
      settings.curlCaBundle,
      settings.pipCert,
      settings.nodeExtraCaCerts
    ].filter((file) => typeof file === "string" && path18.isAbsolute(file)),
    ...SYSTEM_CA_BUNDLES
  ];
  return [...new Set(files)].map((file) => readText(file)).filter((text) => text !== void 0 && text.includes("BEGIN CERTIFICATE"));
};

// src/workspace/sandbox/policy.ts
var askOnce = (home, env, file, args) => () => ask(home, env, file, args).trim();
var toolchainEnv = (home, pathVariable) => {
  const found = {};
  const byDir = {
    ".pyenv": "PYENV_ROOT",
    ".nvm": "NVM_DIR",
    ".rustup": "RUSTUP_HOME",
    ".sdkman": "SDKMAN_DIR",
    ".volta": "VOLTA_HOME"
  };
  for (const root2 of toolchainRootsOnPath(pathVariable)) {
    const name = byDir[path19.basename(root2)];
    if (name) found[name] = root2;
  }
  const pairs = [
    ["PYENV_ROOT", ".pyenv"],
    ["NVM_DIR", ".nvm"],
    ["RUSTUP_HOME", ".rustup"],
    ["SDKMAN_DIR", ".sdkman"],
    ["VOLTA_HOME", ".volta"]
  ];
  for (const [name, dir] of pairs) {
    const full = path19.join(home, dir);
    if (existsSync8(full)) found[name] = full;
  }
  return found;
};
var commandLimitsFrom = (env) => ({
  processes: settingsOf(env).maxProcesses ?? DEFAULT_COMMAND_LIMITS.processes,
  memoryMb: settingsOf(env).maxMemoryMb ?? DEFAULT_COMMAND_LIMITS.memoryMb,
  diskMb: settingsOf(env).maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb
});
var holds = (outer, inner) => {
  const relative = path19.relative(outer, inner);
  return relative === "" || !relative.startsWith("..") && !path19.isAbsolute(relative);
};
var toolsFolder = (env, home, dataDir) => {
  const dir = path19.resolve(defaultToolsDir(env));
  if (holds(dir, home) || holds(dir, dataDir) || holds(dataDir, dir)) return [];
  try {
    mkdirSync6(dir, { recursive: true });
    return [realpathSync4(dir)];
  } catch {
    return [];
  }
};
var operatorNpmRegistry = (home, env) => operatorNpmRegistries(home, env, void 0, { scoped: false })[0];
var buildSandboxPolicy = (options) => {
  const tools = options.tools ?? [];
  const toolRegistries = tools.flatMap((tool) => tool.registries ?? []).map(registryEndpoint).filter((host) => host !== void 0);
  const aliases = registryAliases();
  let npmrcRead;
  const npmrcTexts = () => npmrcRead ??= npmConfigFromFiles(options.home, options.baseEnv);
  const caches = hostDependencyCaches({
    home: options.home,
    env: options.baseEnv,
    goProxy: askOnce(options.home, options.baseEnv, "go", ["env", "GOPROXY"]),
    pipConfig: () => pipConfigFromFiles(options.home, options.baseEnv),
    npmConfig: npmrcTexts,
    aliasOf: aliases.aliasOf
  });
  const registryVariables = aliasedRegistryVariables(
    { ...options.baseEnv, ...caches.env },
    aliases,
    operatorNpmRegistry(options.home, options.baseEnv)
  );
  return {
    workspace: options.workspace,
    privateDir: options.privateDir,
    ...options.privateDirOnVolume ? { privateDirOnVolume: true } : {},
    readable: [
      ...readableRoots({
        home: options.home,
        env: options.baseEnv,
        pathVariable: settingsOf(options.baseEnv).path,
        secretRoots: secretRoots(options.baseEnv, options.dataDir)
      }),
      ...caches.readable,
      ...tools.map((tool) => tool.root),
      ...toolsFolder(options.baseEnv, options.home, options.dataDir)
    ],
    hidden: secretRoots(options.baseEnv, options.dataDir),
    registryHosts: toolRegistries.length === 0 ? options.registryHosts : lazily(async () => [.../* @__PURE__ */ new Set([...await options.registryHosts, ...toolRegistries])]),
    limits: options.limits ?? commandLimitsFrom(options.baseEnv),
    baseEnv: {
      ...toolchainEnv(options.home, settingsOf(options.baseEnv).path),
      ...options.baseEnv,
      ...caches.env,
      ...registryVariables,
      ...tools.length > 0 ? {
        PATH: [...tools.map((tool) => tool.bin), settingsOf(options.baseEnv).path].filter(Boolean).join(":")
      } : {}
    },
    homeFiles: { ...gradleReportFiles(), ...caches.homeFiles },
    registries: aliases.list().map((registry) => {
      const authorization = npmAuthorizationFor(registry.upstream, npmrcTexts(), options.baseEnv);
      return authorization ? { ...registry, authorization } : registry;
    })
  };
};

// src/workspace/setup/detect.ts
import path21 from "node:path";

// src/workspace/setup/python-test-deps.ts
import path20 from "node:path";

// node_modules/smol-toml/dist/error.js
function getLineColFromPtr(string, ptr) {
  let lines = string.slice(0, ptr).split(/\r?\n/);
  return [lines.length, lines.pop().length + 1];
}
function makeCodeBlock(string, line, column) {
  let lines = string.split(/\r?\n/);
  let codeblock = "";
  let numberLen = (Math.log10(line + 1) | 0) + 1;
  for (let i = line - 1; i <= line + 1; i++) {
    let l = lines[i - 1];
    if (!l)
      continue;
    codeblock += i.toString().padEnd(numberLen, " ");
    codeblock += ":  ";
    codeblock += l;
    codeblock += "\n";
    if (i === line) {
      codeblock += " ".repeat(numberLen + column + 2);
      codeblock += "^\n";
    }
  }
  return codeblock;
}
var TomlError = class _TomlError extends Error {
  line;
  column;
  codeblock;
  constructor(message, options) {
    const [line, column] = getLineColFromPtr(options.toml, options.ptr);
    const codeblock = makeCodeBlock(options.toml, line, column);
    super(`Invalid TOML document: ${message}

${codeblock}`, options);
    this.line = line;
    this.column = column;
    this.codeblock = codeblock;
  }
  /** @internal */
  static x(message, ctx, ptr) {
    throw new _TomlError(message, { toml: ctx.s, ptr: ptr ?? ctx.p });
  }
};

// node_modules/smol-toml/dist/primitive.js
function parseString(ctx) {
  let startPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p++);
  let first = c;
  let isLiteral = c === 39;
  let isMultiline = c === ctx.s.charCodeAt(ctx.p) && c === ctx.s.charCodeAt(ctx.p + 1);
  if (isMultiline) {
    if ((c = ctx.s.charCodeAt(ctx.p += 2)) === 10)
      ctx.p++;
    else if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)
      ctx.p += 2;
  }
  let parsed = "";
  let sliceStart = ctx.p;
  let state = 0;
  for (; ctx.p < ctx.s.length; ctx.p++) {
    c = ctx.s.charCodeAt(ctx.p);
    if (isMultiline && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)) {
      state = state && 3;
    } else if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in strings", ctx);
    } else if ((!state || state === 3) && c === first && (!isMultiline || ctx.s.charCodeAt(ctx.p + 1) === first && ctx.s.charCodeAt(ctx.p + 2) === first)) {
      if (isMultiline) {
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
        if (ctx.s.charCodeAt(ctx.p + 3) === first)
          ctx.p++;
      }
      if (!state) {
        let s = ctx.s.slice(sliceStart, ctx.p);
        parsed = parsed ? parsed + s : s;
      }
      ctx.p += isMultiline ? 3 : 1;
      return parsed;
    } else if (!state) {
      if (!isLiteral && c === 92) {
        parsed += ctx.s.slice(sliceStart, sliceStart = ctx.p);
        state = 1;
      }
    } else if (state === 1) {
      if (c === 120 || c === 117 || c === 85) {
        let errPtr = ctx.p++ - 1;
        let value = 0;
        let len = c === 120 ? 2 : c === 117 ? 4 : 8;
        for (let j = 0; j < len; j++, ctx.p++) {
          let hex = ctx.s.charCodeAt(ctx.p);
          let digit = (
            /* 0-9 */
            hex >= 48 && hex <= 57 ? hex - 48 : (
              /* A-F */
              hex >= 65 && hex <= 70 ? hex - 65 + 10 : (
                /* a-f */
                hex >= 97 && hex <= 102 ? hex - 97 + 10 : -1
              )
            )
          );
          if (digit < 0)
            TomlError.x("invalid non-hex character in unicode escape", ctx);
          value = value << 4 | digit;
        }
        if (value < 0 || value > 1114111 || value >= 55296 && value <= 57343) {
          TomlError.x("invalid unicode escape", ctx, errPtr);
        }
        parsed += String.fromCodePoint(value);
        sliceStart = ctx.p--;
        state = 0;
      } else if (isMultiline && (c === 32 || c === 9)) {
        state = 2;
      } else {
        if (c === 98)
          parsed += "\b";
        else if (c === 116)
          parsed += "	";
        else if (c === 110)
          parsed += "\n";
        else if (c === 102)
          parsed += "\f";
        else if (c === 114)
          parsed += "\r";
        else if (c === 101)
          parsed += "\x1B";
        else if (c === 34)
          parsed += '"';
        else if (c === 92)
          parsed += "\\";
        else
          TomlError.x("unrecognised escape sequence", ctx);
        sliceStart = ctx.p + 1;
        state = 0;
      }
    } else if (c !== 32 && c !== 9) {
      if (state === 2)
        TomlError.x("invalid escape: only line-ending whitespace may be escaped", ctx, sliceStart);
      state = !isLiteral && c === 92 ? 1 : 0;
      sliceStart = ctx.p;
    }
  }
  TomlError.x("unfinished string", ctx, startPtr);
}

// node_modules/smol-toml/dist/date.js
var DATE_TIME_RE = /^(\d{4}-\d{2}-\d{2})?[Tt ]?(?:(\d{2}):\d{2}(?::\d{2}(?:\.\d+)?)?)?(Z|z|[-+]\d{2}:\d{2})?$/i;
var TomlDate = class _TomlDate extends Date {
  #hasDate = false;
  #hasTime = false;
  #offset = null;
  constructor(date, fasttype, unsafeDelim) {
    let hasDate = true;
    let hasTime = true;
    let offset = "Z";
    let c;
    if (typeof date === "string") {
      if (fasttype)
        prep: {
          if (fasttype < 3) {
            if (+date.slice(11, 13) > 23) {
              date = "";
              break prep;
            }
            if (fasttype === 2) {
              offset = null;
              date += "Z";
            } else if ((c = date.charCodeAt(date.length - 1)) !== 90 && c !== 122) {
              offset = date.slice(date.length - 6);
            }
            if (unsafeDelim)
              date = date.slice(0, 10) + "T" + date.slice(11);
          } else if (fasttype === 4) {
            date = +date.slice(0, 2) > 23 ? "" : `0000-01-01T${date}Z`;
          }
          hasDate = fasttype !== 4;
          hasTime = fasttype !== 3;
        }
      else {
        let match = date.match(DATE_TIME_RE);
        if (match) {
          if (!match[1]) {
            hasDate = false;
            date = `0000-01-01T${date}`;
          }
          hasTime = !!match[2];
          hasTime && date[10] === " " && (date = date.replace(" ", "T"));
          if (match[2] && +match[2] > 23) {
            date = "";
          } else {
            offset = match[3] || null;
            if (!offset && hasTime)
              date += "Z";
          }
        } else {
          date = "";
        }
      }
    }
    super(date);
    if (!isNaN(this.getTime())) {
      this.#hasDate = hasDate;
      this.#hasTime = hasTime;
      this.#offset = offset;
    }
  }
  isDateTime() {
    return this.#hasDate && this.#hasTime;
  }
  isLocal() {
    return !this.#hasDate || !this.#hasTime || !this.#offset;
  }
  isDate() {
    return this.#hasDate && !this.#hasTime;
  }
  isTime() {
    return this.#hasTime && !this.#hasDate;
  }
  isValid() {
    return this.#hasDate || this.#hasTime;
  }
  toISOString() {
    let iso = super.toISOString();
    if (this.isDate())
      return iso.slice(0, 10);
    if (this.isTime())
      return iso.slice(11, 23);
    if (this.#offset === null)
      return iso.slice(0, -1);
    if (this.#offset === "Z" || this.#offset === "z")
      return iso;
    let offset = +this.#offset.slice(1, 3) * 60 + +this.#offset.slice(4, 6);
    offset = this.#offset[0] === "-" ? offset : -offset;
    let offsetDate = new Date(this.getTime() - offset * 6e4);
    return offsetDate.toISOString().slice(0, -1) + this.#offset;
  }
  static wrapAsOffsetDateTime(jsDate, offset = "Z") {
    let date = new _TomlDate(jsDate);
    date.#offset = offset;
    return date;
  }
  static wrapAsLocalDateTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#offset = null;
    return date;
  }
  static wrapAsLocalDate(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasTime = false;
    date.#offset = null;
    return date;
  }
  static wrapAsLocalTime(jsDate) {
    let date = new _TomlDate(jsDate);
    date.#hasDate = false;
    date.#offset = null;
    return date;
  }
};

// node_modules/smol-toml/dist/extract.js
function isDigit(char, base = 10) {
  return base === 16 ? char > 47 && char < 58 || char > 64 && char < 71 || char > 96 && char < 103 : char > 47 && char < 48 + base;
}
function isEndOfValue(char, delim) {
  return char === 32 || char === 9 || char === 10 || char === 13 || // Structure end or next value delimiter
  delim && (char === delim || char === 44) || // Comment
  char === 35;
}
function extractValue(ctx, end) {
  let errPtr = ctx.p;
  let c = ctx.s.charCodeAt(ctx.p);
  if (c === 91 || c === 123) {
    ctx.d-- || TomlError.x("document contains excessively nested structures. aborting.", ctx);
    let value = c === 91 ? parseArray(ctx) : parseInlineTable(ctx);
    ctx.d++;
    return value;
  }
  if (c === 34 || c === 39) {
    return parseString(ctx);
  }
  if (c === 116) {
    if (ctx.s.charCodeAt(++ctx.p) !== 114 || ctx.s.charCodeAt(++ctx.p) !== 117 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, true;
  }
  if (c === 102) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 108 || ctx.s.charCodeAt(++ctx.p) !== 115 || ctx.s.charCodeAt(++ctx.p) !== 101)
      TomlError.x("invalid value", ctx, errPtr);
    return ctx.p++, false;
  }
  if (c === 43 || c === 45) {
    return parseNumber(ctx, ctx.p, ctx.s.charCodeAt(++ctx.p), 44 - c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 4) === 45 && ctx.s.charCodeAt(ctx.p + 7) === 45) {
    return parseDate(ctx, c, end);
  }
  if (ctx.s.charCodeAt(ctx.p + 2) === 58) {
    return parseTime(ctx, c, end);
  }
  return parseNumber(ctx, ctx.p, c, 0, end);
}
function parseNumber(ctx, startPtr, startChr, sign, endChr) {
  let c = startChr;
  let state = 0;
  let hasUnderscores = false;
  if (c === 105) {
    if (ctx.s.charCodeAt(++ctx.p) !== 110 || ctx.s.charCodeAt(++ctx.p) !== 102)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, (sign || 1) / 0;
  }
  if (c === 110) {
    if (ctx.s.charCodeAt(++ctx.p) !== 97 || ctx.s.charCodeAt(++ctx.p) !== 110)
      TomlError.x("invalid value", ctx, startPtr);
    return ctx.p++, NaN;
  }
  if (c === 48) {
    if (++ctx.p >= ctx.s.length || isEndOfValue(c = ctx.s.charCodeAt(ctx.p), endChr))
      return ctx.bi === true ? 0n : 0;
    if (!sign) {
      if (c === 120)
        return parseIntegerBaseN(ctx, startPtr, 16, endChr);
      else if (c === 98)
        return parseIntegerBaseN(ctx, startPtr, 2, endChr);
      else if (c === 111)
        return parseIntegerBaseN(ctx, startPtr, 8, endChr);
    }
    if (c === 46)
      state = 2;
    else if (c === 101 || c === 69)
      state = 4;
    else
      TomlError.x("illegal leading zero", ctx, startPtr);
  } else if (!isDigit(c))
    TomlError.x("invalid value", ctx, startPtr);
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (!state)
      state = 1;
    if (c === 95) {
      if (!(state & 1))
        TomlError.x("illegal underscore", ctx);
      state += 11;
      hasUnderscores = true;
    } else if (state === 1 && c === 46)
      state = 2;
    else if ((state === 1 || state === 3) && (c === 101 || c === 69))
      state = 4;
    else if (state === 4 && (c === 43 || c === 45)) {
      state = 6;
    } else if (!isDigit(c))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (state > 9)
      state -= 11;
    else if (!(state & 1))
      state++;
  }
  if (!state) {
    let val = (startChr - 48) * (sign || 1);
    return ctx.bi === true ? BigInt(val) : val;
  }
  if (!(state & 1))
    TomlError.x("unfinished numeric value", ctx, startPtr);
  let str = ctx.s.slice(startPtr, ctx.p);
  if (hasUnderscores)
    str = str.replaceAll("_", "");
  return state > 1 ? parseFloat(str) : parseInteger(ctx, str, 10, startPtr);
}
function parseIntegerBaseN(ctx, startPtr, base, endChr) {
  let c, underscore = 1;
  while (++ctx.p < ctx.s.length && (c = ctx.s.charCodeAt(ctx.p), !isEndOfValue(c, endChr))) {
    if (c === 95) {
      if (underscore & 1)
        TomlError.x("illegal underscore", ctx);
      underscore = 3;
    } else if (!isDigit(c, base))
      TomlError.x(`illegal character in numeric literal`, ctx);
    else if (underscore & 1)
      underscore--;
  }
  if (underscore & 1)
    TomlError.x("unfinished numeric value", ctx);
  let str = ctx.s.slice(startPtr + 2, ctx.p);
  if (underscore)
    str = str.replaceAll("_", "");
  return parseInteger(ctx, str, base, startPtr);
}
function parseInteger(ctx, str, base, startPtr) {
  if (ctx.bi !== true)
    int: {
      let val = parseInt(str, base);
      if (!Number.isSafeInteger(val)) {
        if (ctx.bi)
          break int;
        TomlError.x("integer value cannot be represented losslessly", ctx, startPtr);
      }
      return val;
    }
  return base === 10 ? BigInt(str) : BigInt((base === 2 ? "0b" : base === 8 ? "0o" : "0x") + str);
}
function parseDate(ctx, c, endChr) {
  let startPtr = ctx.p++, unsafeSeparator;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++)) || !isDigit(ctx.s.charCodeAt(ctx.p++))) {
    return parseNumber(ctx, ctx.p = startPtr, c, 0, endChr);
  }
  ctx.p += 5;
  if (!isDigit(ctx.s.charCodeAt(ctx.p++)))
    TomlError.x("invalid date-time: date part is malformed", ctx, startPtr);
  if (ctx.p >= ctx.s.length || ((c = ctx.s.charCodeAt(ctx.p)) !== 32 || (unsafeSeparator = true, !isDigit(ctx.s.charCodeAt(ctx.p + 1)))) && c !== 84 && c !== 116) {
    let t2 = ctx.s.slice(startPtr, ctx.p);
    return readDate(ctx, t2, 3, false, startPtr);
  }
  if (ctx.s.charCodeAt(ctx.p += 3) !== 58)
    TomlError.x("invalid date-time: time part is malformed", ctx, startPtr);
  if (ctx.s.charCodeAt(ctx.p += 3) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  if (c = ctx.s.charCodeAt(ctx.p)) {
    if (c === 90 || c === 122) {
      let t2 = ctx.s.slice(startPtr, ++ctx.p);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, "[+00:00]");
    }
    if (c === 43 || c === 45) {
      let t2 = ctx.s.slice(startPtr, ctx.p += 6);
      return readDate(ctx, t2, 1, unsafeSeparator, startPtr, !ctx.ld && "[" + ctx.s.slice(ctx.p - 6, ctx.p) + "]");
    }
  }
  let t = ctx.s.slice(startPtr, ctx.p);
  return readDate(ctx, t, 2, unsafeSeparator, startPtr);
}
function parseTime(ctx, c, endChr) {
  let start = ctx.p;
  if (!isDigit(c) || !isDigit(ctx.s.charCodeAt(++ctx.p))) {
    return parseNumber(ctx, --ctx.p, c, 0, endChr);
  }
  if (ctx.s.charCodeAt(ctx.p += 4) === 58)
    ctx.p += 3;
  if (ctx.s.charCodeAt(ctx.p) === 46)
    while (isDigit(ctx.s.charCodeAt(++ctx.p)))
      ;
  let t = ctx.s.slice(start, ctx.p);
  return readDate(ctx, t, 4, false, start);
}
function readDate(ctx, str, type, unsafeDelim, errPtr, temporalSuffix) {
  if (ctx.ld) {
    let date = new TomlDate(str, type, unsafeDelim);
    if (!date.isValid())
      TomlError.x("invalid date", ctx, errPtr);
    return date;
  }
  try {
    if (temporalSuffix)
      str += temporalSuffix;
    switch (type) {
      case 1:
        return Temporal.ZonedDateTime.from(str);
      case 2:
        return Temporal.PlainDateTime.from(str);
      case 3:
        return Temporal.PlainDate.from(str);
      case 4:
        return Temporal.PlainTime.from(str);
    }
  } catch (e) {
    TomlError.x(e instanceof Error ? e.message : "" + e, ctx, errPtr);
  }
}

// node_modules/smol-toml/dist/util.js
function skipComment(ctx) {
  for (; ctx.p < ctx.s.length; ctx.p++) {
    let c = ctx.s.charCodeAt(ctx.p);
    if (c === 10)
      break;
    if (c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10) {
      ctx.p++;
      break;
    }
    if (c < 32 && c !== 9 || c === 127) {
      TomlError.x("control characters are not allowed in comments", ctx);
    }
  }
}
function skipVoid(ctx, banNewLines, banComments) {
  let c;
  while (ctx.p < ctx.s.length) {
    while (ctx.p < ctx.s.length && ((c = ctx.s.charCodeAt(ctx.p)) === 32 || c === 9 || !banNewLines && (c === 10 || c === 13 && ctx.s.charCodeAt(ctx.p + 1) === 10)))
      ctx.p++;
    if (banComments || c !== 35)
      break;
    skipComment(ctx);
  }
}

// node_modules/smol-toml/dist/struct.js
function parseKey(ctx, end = 61) {
  let startPtr;
  let state = 0;
  let parsed = [];
  let sliceStart;
  let c = ctx.s.charCodeAt(startPtr = ctx.p);
  do {
    if (c === end) {
      if (!state)
        TomlError.x("unexpected end of key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      return ctx.p++, parsed;
    } else if (c === 46) {
      if (!state)
        TomlError.x("illegal empty bare key", ctx);
      if (state === 1)
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
      state = 0;
    } else if (!state && (c === 34 || c === 39)) {
      if (c === ctx.s.charCodeAt(ctx.p + 1) && c === ctx.s.charCodeAt(ctx.p + 2))
        TomlError.x("illegal quoted key: multiline strings are not allowed", ctx);
      parsed.push(parseString(ctx));
      state = 2;
      ctx.p--;
    } else if (c === 32 || c === 9) {
      if (state === 1) {
        parsed.push(ctx.s.slice(sliceStart, ctx.p));
        state = 2;
      }
    } else if (state === 2 || c < 48 && c !== 45 || c > 57 && c < 65 || c > 90 && c < 97 && c !== 95 || c > 122) {
      TomlError.x("illegal character in key", ctx);
    } else if (!state) {
      state = 1;
      sliceStart = ctx.p;
    }
  } while (c = ctx.s.charCodeAt(++ctx.p));
  TomlError.x("incomplete key-value: cannot find end of key", ctx, startPtr);
}
function parseInlineTable(ctx) {
  let startPtr = ctx.p++;
  let res = /* @__PURE__ */ Object.create(null);
  let seen = /* @__PURE__ */ new Set();
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 125) {
      ctx.p++;
      return res;
    }
    let k;
    let t = res;
    let hasOwn = false;
    let errPtr = ctx.p;
    let key = parseKey(ctx);
    for (let i = 0; i < key.length; i++) {
      if (i)
        t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      k = key[i];
      if ((hasOwn = Object.hasOwn(t, k)) && (typeof t[k] !== "object" || seen.has(t[k]))) {
        TomlError.x("trying to redefine an already defined value", ctx, errPtr);
      }
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor")) {
        t = ctx.uk !== 1 && TomlError.x("document contains an unsafe property", ctx, errPtr);
        break;
      }
      if (!hasOwn && unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
      }
    }
    if (hasOwn) {
      TomlError.x("trying to redefine an already defined value", ctx, errPtr);
    }
    skipVoid(ctx, true, true);
    let value = extractValue(
      ctx,
      125
      /* } */
    );
    if (t && typeof (t[k] = value) === "object")
      seen.add(value);
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 125) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished table", ctx, startPtr);
}
function parseArray(ctx) {
  let startPtr = ctx.p++;
  let res = [];
  let c;
  while (ctx.p < ctx.s.length) {
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p)) === 93) {
      ctx.p++;
      return res;
    }
    res.push(extractValue(
      ctx,
      93
      /* ] */
    ));
    skipVoid(ctx);
    if ((c = ctx.s.charCodeAt(ctx.p++)) === 93) {
      return res;
    }
    if (c !== 44)
      TomlError.x("expected comma or end of structure", ctx, ctx.p - 1);
  }
  TomlError.x("unfinished array", ctx, startPtr);
}

// node_modules/smol-toml/dist/parse.js
function peekTable(ctx, key, table, meta, type) {
  let t = table;
  let m = meta;
  let k;
  let hasOwn = false;
  let state;
  for (let i = 0; i < key.length; i++) {
    if (i) {
      t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
      m = (state = m[k]).c;
      if (type === 0 && (state.t === 1 || state.t === 2)) {
        return null;
      }
      if (state.t === 2) {
        let l = t.length - 1;
        t = t[l];
        m = m[l].c;
      }
    }
    k = key[i];
    if ((hasOwn = Object.hasOwn(t, k)) && m[k]?.t === 0 && m[k]?.d) {
      return null;
    }
    if (!hasOwn) {
      let unsafe = k === "__proto__";
      if (ctx.uk && (unsafe || k === "constructor"))
        return false;
      if (unsafe) {
        Object.defineProperty(t, k, { enumerable: true, configurable: true, writable: true });
        Object.defineProperty(m, k, { enumerable: true, configurable: true, writable: true });
      }
      m[k] = {
        t: i < key.length - 1 && type === 2 ? 3 : type,
        d: false,
        i: 0,
        c: /* @__PURE__ */ Object.create(null)
      };
    }
  }
  state = m[k];
  if (state.t !== type && !(type === 1 && state.t === 3)) {
    return null;
  }
  if (type === 2) {
    if (!state.d) {
      state.d = true;
      t[k] = [];
    }
    t[k].push(t = /* @__PURE__ */ Object.create(null));
    state.c[state.i++] = state = { t: 1, d: false, i: 0, c: /* @__PURE__ */ Object.create(null) };
  }
  if (state.d) {
    return null;
  }
  state.d = true;
  if (type === 1) {
    t = hasOwn ? t[k] : t[k] = /* @__PURE__ */ Object.create(null);
  } else if (type === 0 && hasOwn) {
    return null;
  }
  return [k, t, state.c];
}
function validateTablePeek(ctx, peek, ptr) {
  if (peek === null || ctx.uk === 2)
    TomlError.x(peek === null ? "trying to redefine an already defined table or value" : "document contains an unsafe property", ctx, ptr);
}
function parse(toml, options = {}) {
  let ctx = {
    s: toml,
    p: 0,
    d: options.maxDepth ?? 1e3,
    bi: options.integersAsBigInt ?? false,
    ld: options.useLegacyDate ?? true,
    uk: options.unsafeKeyBehaviour === "throw" ? 2 : options.unsafeKeyBehaviour === "drop" ? 1 : 0
  };
  let res = /* @__PURE__ */ Object.create(null);
  let meta = /* @__PURE__ */ Object.create(null);
  let tmp;
  let skipping = false;
  let tbl = res;
  let m = meta;
  if (toml.charCodeAt(0) === 65279)
    ctx.p++;
  skipVoid(ctx);
  while (ctx.p < toml.length) {
    if (toml.charCodeAt(ctx.p) === 91) {
      let isTableArray = toml.charCodeAt(++ctx.p) === 91;
      tmp = ctx.p += +isTableArray;
      skipping = false;
      let k = parseKey(
        ctx,
        93
        /* ] */
      );
      if (isTableArray) {
        if (toml.charCodeAt(ctx.p) !== 93) {
          TomlError.x("expected end of table array declaration", ctx);
        }
        ctx.p++;
      }
      let p = peekTable(
        ctx,
        k,
        res,
        meta,
        isTableArray ? 2 : 1
        /* Type.EXPLICIT */
      );
      if (!p) {
        validateTablePeek(ctx, p, tmp);
        skipping = true;
      } else {
        m = p[2];
        tbl = p[1];
      }
    } else {
      tmp = ctx.p;
      let k = parseKey(ctx);
      let p = peekTable(
        ctx,
        k,
        tbl,
        m,
        0
        /* Type.DOTTED */
      );
      if (!p && !skipping)
        validateTablePeek(ctx, p, tmp);
      skipVoid(ctx, true, true);
      let v = extractValue(ctx, void 0);
      if (p && !skipping)
        p[1][p[0]] = v;
    }
    skipVoid(ctx, true);
    if (ctx.p < toml.length && (tmp = toml.charCodeAt(ctx.p)) !== 10 && (tmp !== 13 || toml.charCodeAt(ctx.p + 1) !== 10)) {
      TomlError.x("each key-value declaration must be followed by an end-of-line", ctx);
    }
    skipVoid(ctx);
  }
  return res;
}

// node_modules/smol-toml/dist/stringify.js
var HAS_WELLFORMED = !!"".isWellFormed;

// src/util/pattern.ts
var escapeRegExp = (text) => text.replace(/[$()*+.?[\\\]^{|}/]/g, "\\$&").replaceAll("-", "\\x2d");
var pattern = (flags = "") => (strings3, ...parts) => new RegExp(
  strings3.raw.reduce((source, piece, i) => {
    const part = parts[i - 1];
    return `${source}${part instanceof RegExp ? part.source : escapeRegExp(part ?? "")}${piece}`;
  }),
  flags
);
var anyOf = (texts) => texts.length === 0 ? /(?!)/ : new RegExp(`(?:${texts.map(escapeRegExp).join("|")})`);

// src/workspace/setup/python-test-deps.ts
var read = (workspace, file) => readTextInside(workspace, path20.join(workspace, file)) ?? "";
var TEST_NAMES = ["test", "tests", "testing", "dev"];
var asRecord = (value) => value && typeof value === "object" && !Array.isArray(value) ? value : {};
var groupRequirements = (groups, name, seen = /* @__PURE__ */ new Set()) => {
  if (seen.has(name)) return [];
  seen.add(name);
  const entries2 = groups[name];
  if (!Array.isArray(entries2)) return [];
  return entries2.flatMap((entry) => {
    if (typeof entry === "string") return [entry];
    const included = asRecord(entry)["include-group"];
    return typeof included === "string" ? groupRequirements(groups, included, seen) : [];
  });
};
var setupPyExtras = (text) => {
  const body = /extras_require\s*=\s*(?:dict\s*\(([\s\S]*?)\)|\{([\s\S]*?)\})/.exec(text);
  const inner = body?.[1] ?? body?.[2] ?? "";
  return [
    ...[...inner.matchAll(/['"]([\w.-]+)['"]\s*:/g)].map((match) => match[1] ?? ""),
    ...[...inner.matchAll(/(?:^|[,(\s])([\w]+)\s*=/g)].map((match) => match[1] ?? "")
  ];
};
var iniValue2 = (text, section, key) => {
  const lines = text.split("\n");
  const values = [];
  let inSection = false;
  let inKey = false;
  for (const line of lines) {
    if (/^\s*\[/.test(line)) {
      inSection = section.test(line.trim());
      inKey = false;
      continue;
    }
    if (!inSection) continue;
    const start = pattern()`^${key}\s*[=:]\s*(.*)$`.exec(line);
    if (start) {
      inKey = true;
      if (start[1]?.trim()) values.push(start[1].trim());
      continue;
    }
    if (inKey && /^\s+\S/.test(line)) values.push(line.trim());
    else if (line.trim() !== "") inKey = false;
  }
  return values.filter((value) => !value.startsWith("#"));
};
var requirementList = (value) => Array.isArray(value) ? value.filter((entry) => typeof entry === "string") : [];
var tableRequirements = (table) => Object.entries(asRecord(table)).flatMap(([name, value]) => {
  if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || name.toLowerCase() === "python") return [];
  const constraint = typeof value === "string" ? value.trim() : "";
  return [/^(==|>=|<=|~=|!=|<|>)/.test(constraint) ? `${name}${constraint}` : name];
});
var toolGroups = (pyproject) => {
  const tool = asRecord(pyproject.tool);
  const poetry = asRecord(tool.poetry);
  const poetryGroups2 = asRecord(poetry.group);
  const poetryGroup = TEST_NAMES.find((name) => name in poetryGroups2);
  if (poetryGroup)
    return {
      packages: tableRequirements(asRecord(poetryGroups2[poetryGroup]).dependencies),
      source: `Poetry's group "${poetryGroup}"`
    };
  if ("dev-dependencies" in poetry)
    return {
      packages: tableRequirements(poetry["dev-dependencies"]),
      source: "Poetry's dev-dependencies"
    };
  const pdm = asRecord(asRecord(tool.pdm)["dev-dependencies"]);
  const pdmGroup = TEST_NAMES.find((name) => name in pdm);
  if (pdmGroup)
    return {
      packages: requirementList(pdm[pdmGroup]).filter((spec) => !spec.startsWith("-")),
      source: `PDM's dev-dependencies "${pdmGroup}"`
    };
  const uv = requirementList(asRecord(tool.uv)["dev-dependencies"]);
  if (uv.length > 0) return { packages: uv, source: "uv's dev-dependencies" };
  return void 0;
};
var pipfilePackages = (text) => {
  try {
    const pipfile = asRecord(parse(text));
    return [...tableRequirements(pipfile.packages), ...tableRequirements(pipfile["dev-packages"])];
  } catch {
    return [];
  }
};
var toxDefaultEnvDep = (line) => {
  const conditional = /^(!?[\w.]+(?:[-,]!?[\w.]+)*):\s+(\S.*)$/.exec(line);
  if (!conditional) return line;
  const [, condition = "", dep] = conditional;
  const applies = condition.split(",").some((alternative) => alternative.split("-").every((factor) => factor.startsWith("!")));
  return applies ? dep : void 0;
};
var pythonTestDeps = (workspace) => {
  const sources = [];
  const pyprojectText = read(workspace, "pyproject.toml");
  let pyproject = {};
  try {
    pyproject = pyprojectText ? asRecord(parse(pyprojectText)) : {};
  } catch {
    sources.push("pyproject.toml (not valid TOML: ignored)");
  }
  const setupPyText = readTextInside(workspace, path20.join(workspace, "setup.py"));
  const setupPy = setupPyText ?? "";
  const setupCfg = read(workspace, "setup.cfg");
  const installable = "build-system" in pyproject || "project" in pyproject || setupPyText !== void 0 || /^[^\S\n\r\u2028\u2029]*\[(metadata|options)\]/m.test(setupCfg);
  const optional = asRecord(asRecord(pyproject.project)["optional-dependencies"]);
  const cfgExtras = setupCfg ? TEST_NAMES.filter((name) => iniValue2(setupCfg, /^\[options\.extras_require\]$/, name).length) : [];
  const pyExtras = setupPyExtras(setupPy);
  const extra = installable ? TEST_NAMES.find(
    (name) => name in optional || cfgExtras.includes(name) || pyExtras.includes(name)
  ) : void 0;
  if (extra) sources.push(`the project's extra [${extra}]`);
  const groups = asRecord(pyproject["dependency-groups"]);
  const group = TEST_NAMES.find((name) => name in groups);
  const packages = [];
  const files = [];
  if (group) {
    packages.push(...groupRequirements(groups, group));
    sources.push(`pyproject.toml's dependency group "${group}"`);
  }
  const fromTool = group ? void 0 : toolGroups(pyproject);
  if (fromTool && fromTool.packages.length > 0) {
    packages.push(...fromTool.packages);
    sources.push(fromTool.source);
  }
  const pipfile = pipfilePackages(read(workspace, "Pipfile"));
  if (pipfile.length > 0) {
    packages.push(...pipfile);
    sources.push("Pipfile's [packages] and [dev-packages]");
  }
  const tox = read(workspace, "tox.ini");
  const toxDeps = tox ? iniValue2(tox, /^\[testenv\]$/, "deps") : [];
  if (toxDeps.length > 0) sources.push("tox.ini's [testenv] deps");
  for (const line of toxDeps) {
    const dep = toxDefaultEnvDep(line);
    if (dep === void 0) continue;
    const file = /^-r\s*(\S+)$/.exec(dep)?.[1];
    if (file) files.push(file);
    else if (!/[{}]/.test(dep) && !dep.startsWith("-") && !dep.startsWith(".")) packages.push(dep);
  }
  const project = asRecord(pyproject.project);
  const requirementsOf = requirementList;
  const declared = [
    ...requirementsOf(project.dependencies),
    ...Object.values(optional).flatMap(requirementsOf),
    ...Object.keys(groups).flatMap((name) => groupRequirements(groups, name)),
    ...packages,
    ...files.map((file) => read(workspace, file)).flatMap((text) => text.split("\n"))
  ];
  const declaresPytest = declared.some((requirement) => /^\s*pytest\b/i.test(requirement)) || /['"]pytest\b/.test(setupPy) || /^[^\S\n\r\u2028\u2029]+pytest\b/m.test(setupCfg);
  return { installable, extra, packages: [...new Set(packages)], files, sources, declaresPytest };
};

// src/workspace/setup/detect.ts
var read2 = (workspace, file) => readTextInside(workspace, path21.join(workspace, file)) ?? "";
var word = (text) => /^[\w./-]+$/.test(text) ? text : quote(text);
var REQUIREMENTS = [
  "requirements.txt",
  "requirements-dev.txt",
  "requirements_dev.txt",
  "dev-requirements.txt",
  "requirements-test.txt",
  "requirements_test.txt",
  "test-requirements.txt",
  "requirements/dev.txt",
  "requirements/test.txt",
  "requirements/tests.txt"
];
var TEST_FILE = /^test_.*\.py$|_test\.py$|^conftest\.py$/;
var TEST_DIRS = /* @__PURE__ */ new Set(["tests", "test", "testing"]);
var NOT_SOURCES = /* @__PURE__ */ new Set(["node_modules", "venv", "build", "dist", "docs", "site-packages"]);
var hasPythonTests = (workspace) => {
  const entries2 = (dir) => {
    try {
      return listInside(workspace, dir);
    } catch {
      return [];
    }
  };
  const holdsTests = (dir) => entries2(dir).some(
    (entry) => entry.isDirectory() ? TEST_DIRS.has(entry.name) : TEST_FILE.test(entry.name)
  );
  if (holdsTests(workspace)) return true;
  return entries2(workspace).some(
    (entry) => entry.isDirectory() && !entry.name.startsWith(".") && !NOT_SOURCES.has(entry.name) && holdsTests(path21.join(workspace, entry.name))
  );
};
var WEAKER_GUESS = "regreen: installing the project failed; a weaker guess follows: its test dependencies without it";
var pythonInstall = (workspace, runner) => {
  const has = (name) => existsInside(workspace, path21.join(workspace, name));
  const declared = pythonTestDeps(workspace);
  const guessed = {
    requirements: [.../* @__PURE__ */ new Set([...REQUIREMENTS.filter(has), ...declared.files.filter(has)])],
    packages: declared.packages,
    extras: declared.extra ? [declared.extra] : [],
    installable: declared.installable,
    declaresPytest: declared.declaresPytest
  };
  if (!runner) return guessed;
  const { env } = runner;
  const own = runner.command !== void 0;
  const requirements = [
    .../* @__PURE__ */ new Set([...own ? [] : guessed.requirements, ...env.files.filter(has)])
  ];
  const packages = [.../* @__PURE__ */ new Set([...own ? [] : guessed.packages, ...env.packages])].filter(
    (spec) => !spec.startsWith("-")
  );
  const extras = [.../* @__PURE__ */ new Set([...own ? [] : guessed.extras, ...env.extras])];
  const texts = [...packages, ...requirements.map((file) => read2(workspace, file))];
  return {
    requirements,
    packages,
    extras,
    installable: declared.installable && (env.installProject || !own),
    declaresPytest: texts.some((text) => /^[ \t]*pytest\b/im.test(text)) || extras.length > 0 && declared.declaresPytest
  };
};
var pythonSetup = (workspace, which, runner) => {
  const has = (name) => existsInside(workspace, path21.join(workspace, name));
  if (!runner?.command) {
    if (has("uv.lock") && which("uv")) return "uv sync --frozen --all-extras";
    if (has("poetry.lock") && which("poetry"))
      return `POETRY_VIRTUALENVS_IN_PROJECT=true poetry install --no-interaction${poetryGroups(workspace)}`;
    if (has("pdm.lock") && which("pdm")) return "pdm install --frozen-lockfile";
    if (has("Pipfile.lock") && which("pipenv"))
      return "PIPENV_VENV_IN_PROJECT=1 pipenv install --dev --deploy";
  }
  const { requirements, packages, extras, installable, declaresPytest } = pythonInstall(
    workspace,
    runner
  );
  if (requirements.length === 0 && !installable && packages.length === 0) return void 0;
  const inRequirementFiles = requirements.map((file) => read2(workspace, file)).some((text) => /^[^\S\n\r\u2028\u2029]*pytest\b/im.test(text));
  const runs = runner?.command ?? "";
  const runsPytest = runner?.command === void 0 || /\bpytest\b/.test(runs);
  const wantsRunner = runsPytest && hasPythonTests(workspace) && !declaresPytest && !inRequirementFiles;
  const dependencies = [
    ...requirements.map((file) => `-r ${word(file)}`),
    ...packages.map((spec) => word(spec)),
    ...wantsRunner ? ["pytest"] : []
  ];
  const venv = `${PROJECT_VENV}/bin/python`;
  const install = (targets) => `${venv} -m pip install ${targets.join(" ")}`;
  const project = installable ? [`-e ${extras.length > 0 ? quote(`.[${extras.join(",")}]`) : "."}`] : [];
  const guess = `python3 -m venv ${PROJECT_VENV} && ${install([...dependencies, ...project])}`;
  if (!installable || dependencies.length === 0) return guess;
  return `${guess} || { echo ${quote(WEAKER_GUESS)} >&2; ${install(dependencies)}; }`;
};
var poetryGroups = (workspace) => {
  const text = read2(workspace, "pyproject.toml");
  const optional = [];
  let group;
  for (const line of text.split("\n")) {
    const header = /^\[tool\.poetry\.group\.([\w-]+)\]\s*$/.exec(line.trim());
    if (header) group = header[1];
    else if (line.startsWith("[")) group = void 0;
    else if (group && /^optional\s*=\s*true\b/.test(line.trim())) optional.push(group);
  }
  const tests = optional.filter((name) => ["test", "tests", "testing", "dev"].includes(name));
  return tests.length > 0 ? ` --with ${tests.join(",")}` : "";
};
var detectSetupCommand = (workspace, which = () => void 0, runner) => {
  const has = (name) => existsInside(workspace, path21.join(workspace, name));
  const javascript = javascriptSetup(workspace);
  if (javascript) return javascript;
  const python = pythonSetup(workspace, which, runner);
  if (python) return python;
  if (has("go.mod")) return read2(workspace, "go.sum").trim() ? "go mod download" : void 0;
  if (has("Cargo.toml")) return has("Cargo.lock") ? "cargo fetch --locked" : "cargo fetch";
  if (has("Gemfile"))
    return `bundle config set --local path vendor/bundle && bundle install${has("Gemfile.lock") ? " --frozen" : ""}`;
  if (has("pom.xml")) return `${has("mvnw") ? "./mvnw" : "mvn"} -B -q -DskipTests test-compile`;
  if (has("build.gradle") || has("build.gradle.kts"))
    return `${has("gradlew") ? "./gradlew" : "gradle"} --no-daemon -q testClasses`;
  return void 0;
};
var javascriptSetup = (workspace) => {
  const has = (name) => existsInside(workspace, path21.join(workspace, name));
  if (has("bun.lock") || has("bun.lockb")) return "bun install --frozen-lockfile";
  if (has("pnpm-lock.yaml")) return "pnpm install --frozen-lockfile";
  if (has("yarn.lock")) {
    const berry = has(".yarnrc.yml") || /"packageManager"\s*:\s*"yarn@[2-9]/.test(read2(workspace, "package.json"));
    return `yarn install ${berry ? "--immutable" : "--frozen-lockfile"}`;
  }
  if (has("package-lock.json") || has("npm-shrinkwrap.json")) return "npm ci";
  if (has("package.json") && hasDependencies(read2(workspace, "package.json"))) return "npm install";
  return void 0;
};
var hasDependencies = (text) => {
  try {
    const manifest = JSON.parse(text);
    return ["dependencies", "devDependencies", "optionalDependencies"].some(
      (key) => typeof manifest[key] === "object" && manifest[key] !== null && Object.keys(manifest[key]).length > 0
    );
  } catch {
    return false;
  }
};
var javascriptTest = (workspace) => {
  try {
    const manifest = JSON.parse(read2(workspace, "package.json"));
    return typeof manifest.scripts?.test === "string" ? "npm test" : void 0;
  } catch {
    return void 0;
  }
};
var detectTestCommand = (workspace) => {
  const has = (name) => existsInside(workspace, path21.join(workspace, name));
  const javascript = javascriptTest(workspace);
  if (javascript) return javascript;
  const python = has("pyproject.toml") || has("setup.py") || has("setup.cfg") || REQUIREMENTS.some(has);
  if (python && hasPythonTests(workspace)) return "python3 -m pytest";
  if (has("go.mod")) return "go test ./...";
  if (has("Cargo.toml")) return "cargo test";
  if (has("pom.xml")) return `${has("mvnw") ? "./mvnw" : "mvn"} -B test`;
  if (has("build.gradle") || has("build.gradle.kts"))
    return `${has("gradlew") ? "./gradlew" : "gradle"} --no-daemon --offline test`;
  if (has("Gemfile")) {
    if (has("spec") || has(".rspec")) return "bundle exec rspec";
    if (has("Rakefile") && has("test")) return "bundle exec rake test";
  }
  const target = /^(test|check)\s*:/m.exec(read2(workspace, "Makefile"))?.[1];
  if (target) return `make ${target}`;
  if (/\benable_testing\s*\(/i.test(read2(workspace, "CMakeLists.txt")))
    return "cmake -S . -B build && cmake --build build && ctest --test-dir build --output-on-failure";
  return void 0;
};

// src/workspace/setup/task-runner.ts
import path22 from "node:path";

// src/util/shell-words.ts
var shellWords = (text, maxWords = 256) => {
  const words = [];
  let current = "";
  let inWord = false;
  let quote2;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (quote2 === "'") {
      if (char === "'") quote2 = void 0;
      else current += char;
      continue;
    }
    if (quote2 === '"') {
      if (char === '"') quote2 = void 0;
      else if (char === "\\" && i + 1 < text.length && '"\\$`'.includes(text.charAt(i + 1))) {
        i += 1;
        current += text.charAt(i);
      } else if (char === "$" || char === "`") return void 0;
      else current += char;
      continue;
    }
    if (char === "'" || char === '"') {
      quote2 = char;
      inWord = true;
    } else if (char === "\\" && i + 1 < text.length) {
      i += 1;
      current += text.charAt(i);
      inWord = true;
    } else if (char === " " || char === "	") {
      if (inWord) words.push(current);
      current = "";
      inWord = false;
      if (words.length > maxWords) return void 0;
    } else if ("&|;<>()`$\n".includes(char)) {
      return void 0;
    } else {
      current += char;
      inWord = true;
    }
  }
  if (quote2 !== void 0) return void 0;
  if (inWord) words.push(current);
  return words.length > maxWords ? void 0 : words;
};

// src/workspace/setup/hatch-pdm-env.ts
var asRecord2 = (value) => value && typeof value === "object" && !Array.isArray(value) ? value : {};
var strings = (value) => typeof value === "string" ? [value] : Array.isArray(value) ? value.filter((entry) => typeof entry === "string") : [];
var scriptCommands = (scripts, lines, args, notes, depth = 0) => {
  const commands = [];
  for (const line of lines.slice(0, 64)) {
    const words = shellWords(line.replaceAll("{args}", ""));
    if (!words || words.length === 0 || line.includes("{") !== line.includes("{args}")) {
      notes.push(`a script line regreen cannot read: ${line.slice(0, 80)}`);
      return void 0;
    }
    const [first = "", ...rest] = words;
    const named = depth < 3 && first in scripts ? strings(scripts[first]) : void 0;
    if (named && named.length > 0) {
      const inner = scriptCommands(scripts, named, rest, notes, depth + 1);
      if (!inner) return void 0;
      commands.push(...inner);
    } else commands.push({ words, ignoreExit: false });
  }
  const last = commands.pop();
  return last ? [...commands, { ...last, words: [...last.words, ...args] }] : commands;
};
var hatchConfig = (pyproject, hatchToml) => {
  const tool = asRecord2(asRecord2(pyproject.tool).hatch);
  return asRecord2(("envs" in tool ? tool : hatchToml).envs);
};
var hasHatch = (pyproject, hatchToml) => Object.keys(hatchConfig(pyproject, hatchToml)).length > 0 || "hatch" in asRecord2(pyproject.tool);
var hatchEnv = (pyproject, hatchToml, target, groups) => {
  const envs = hatchConfig(pyproject, hatchToml);
  const base = target.env.split(".")[0] ?? target.env;
  const own = asRecord2(envs[base]);
  const templateName = typeof own.template === "string" ? own.template : base === "default" ? base : "default";
  const template = base === "hatch-test" ? {} : asRecord2(envs[templateName]);
  const value = (key) => key in own ? own[key] : template[key];
  const notes = [];
  const testing = target.script === void 0;
  const dependencies = [
    ..."dependencies" in own || !testing ? strings(value("dependencies")) : ["pytest"],
    ...strings(own["extra-dependencies"])
  ];
  const scripts = { ...asRecord2(template.scripts), ...asRecord2(own.scripts) };
  const script = target.script;
  const commands = script === void 0 ? [{ words: ["python", "-m", "pytest", ...target.args], ignoreExit: false }] : script in scripts ? scriptCommands(scripts, strings(scripts[script]), target.args, notes) : [{ words: [script, ...target.args], ignoreExit: false }];
  return {
    runner: "hatch",
    env: target.env,
    packages: [...dependencies, ...strings(value("dependency-groups")).flatMap(groups)],
    files: [],
    extras: strings(value("features")),
    installProject: value("skip-install") !== true,
    commands,
    setenv: Object.entries(asRecord2(value("env-vars"))).flatMap(
      ([key, text]) => typeof text === "string" && !text.includes("{") ? [[key, text]] : []
    ),
    changedir: void 0,
    notes
  };
};
var pdmScript = (scripts, name, args, notes, depth = 0) => {
  const script = scripts[name];
  const table = asRecord2(script);
  if (typeof script === "string" || typeof table.cmd === "string") {
    const words = shellWords(typeof script === "string" ? script : table.cmd);
    return words ? [{ words: [...words, ...args], ignoreExit: false }] : void 0;
  }
  if (Array.isArray(table.cmd))
    return [{ words: [...strings(table.cmd), ...args], ignoreExit: false }];
  if (typeof table.shell === "string")
    return [{ words: ["bash", "-c", [table.shell, ...args].join(" ")], ignoreExit: false }];
  if (Array.isArray(table.composite) && depth < 3) {
    const commands = [];
    for (const entry of strings(table.composite)) {
      const words = shellWords(entry);
      const [first = "", ...rest] = words ?? [];
      const inner = first in scripts ? pdmScript(scripts, first, rest, notes, depth + 1) : words ? [{ words, ignoreExit: false }] : void 0;
      if (!inner) return void 0;
      commands.push(...inner);
    }
    return commands;
  }
  notes.push(`pdm's script "${name.slice(0, 40)}" is of a kind regreen does not run`);
  return void 0;
};
var pdmEnv = (pyproject, target, groups) => {
  const pdm = asRecord2(asRecord2(pyproject.tool).pdm);
  const dev = asRecord2(pdm["dev-dependencies"]);
  const notes = [];
  const scripts = asRecord2(pdm.scripts);
  const packages = [
    ...Object.values(dev).flatMap(strings).filter((spec) => !spec.startsWith("-")),
    ...Object.keys(asRecord2(pyproject["dependency-groups"])).flatMap(groups)
  ];
  return {
    runner: "pdm",
    env: "default",
    packages,
    files: [],
    extras: [],
    installProject: pdm.distribution !== false,
    commands: target.script in scripts ? pdmScript(scripts, target.script, target.args, notes) : [{ words: [target.script, ...target.args], ignoreExit: false }],
    setenv: [],
    changedir: void 0,
    notes
  };
};

// src/workspace/setup/runner-env.ts
var VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
var runnerShellCommand = (env) => {
  if (!env.commands || env.commands.length === 0) return void 0;
  const exports = env.setenv.filter(([name]) => VARIABLE.test(name)).map(([name, value]) => `export ${name}=${shellWord(value)}`);
  const into = env.changedir && env.changedir !== "." ? [`cd ${shellWord(env.changedir)}`] : [];
  const commands = env.commands.map((command) => {
    const line = command.words.map((word2) => shellWord(word2)).join(" ");
    return command.ignoreExit ? `{ ${line} || true; }` : line;
  });
  return [...exports, ...into, ...commands].join(" && ");
};
var describeRunnerEnv = (env) => {
  const parts = [
    env.files.length > 0 ? `requirements ${env.files.join(", ")}` : void 0,
    env.packages.length > 0 ? `${env.packages.length} dep(s)` : void 0,
    env.installProject ? `the project${env.extras.length > 0 ? ` with extras [${env.extras.join(",")}]` : ""}` : "not the project"
  ].filter(Boolean);
  return `${env.runner} env ${env.env} reproduced in .venv (${parts.join("; ")})`;
};
var afterDoubleDash = (words) => {
  const at = words.indexOf("--");
  return at === -1 ? void 0 : words.slice(at + 1);
};
var expandBraces = (text, limit = 64) => {
  let names = [""];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open === -1) {
      names = names.map((name) => name + text.slice(i));
      break;
    }
    const close = text.indexOf("}", open);
    if (close === -1) {
      names = names.map((name) => name + text.slice(i));
      break;
    }
    const prefix = text.slice(i, open);
    const choices = text.slice(open + 1, close).split(",");
    names = names.flatMap((name) => choices.map((choice) => name + prefix + choice.trim()));
    if (names.length > limit) return names.slice(0, limit);
    i = close + 1;
  }
  return names;
};
var requirementFile = (dep) => {
  const option = dep.startsWith("--requirement") ? "--requirement" : dep.startsWith("-r") ? "-r" : "";
  if (option === "") return void 0;
  let rest = dep.slice(option.length).trimStart();
  if (rest.startsWith("=")) rest = rest.slice(1).trimStart();
  return rest !== "" && !/\s/.test(rest) ? rest.replace(/^\.\//, "") : void 0;
};

// src/workspace/setup/ini-sections.ts
var MAX_TEXT = 256 * 1024;
var MAX_SECTIONS = 512;
var MAX_VALUE_LINES = 512;
var withoutComment = (line) => {
  for (const marker of [" #", "	#"]) {
    const at = line.indexOf(marker);
    if (at !== -1) line = line.slice(0, at);
  }
  return line.trimEnd();
};
var isComment = (line) => {
  const trimmed = line.trimStart();
  return trimmed.startsWith("#") || trimmed.startsWith(";");
};
var parseIni = (text) => {
  const sections = /* @__PURE__ */ new Map();
  let section;
  let value;
  let joinNext = false;
  for (const raw of text.slice(0, MAX_TEXT).split("\n")) {
    const line = raw.endsWith("\r") ? raw.slice(0, -1) : raw;
    if (joinNext && value) {
      const cleaned = withoutComment(line.trim());
      joinNext = cleaned.endsWith("\\");
      const last = value.length - 1;
      value[last] = `${value[last] ?? ""} ${joinNext ? cleaned.slice(0, -1).trim() : cleaned}`.trim();
      continue;
    }
    joinNext = false;
    if (line.trim() === "" || isComment(line)) continue;
    if (line.startsWith("[")) {
      const end = line.indexOf("]");
      value = void 0;
      if (end === -1 || sections.size >= MAX_SECTIONS) {
        section = void 0;
        continue;
      }
      const name = line.slice(1, end).trim();
      section = sections.get(name) ?? /* @__PURE__ */ new Map();
      sections.set(name, section);
      continue;
    }
    if (!section) continue;
    if (/^\s/.test(line)) {
      if (value && value.length < MAX_VALUE_LINES) {
        const cleaned = withoutComment(line.trim());
        joinNext = cleaned.endsWith("\\");
        value.push(joinNext ? cleaned.slice(0, -1).trim() : cleaned);
      }
      continue;
    }
    const equals = line.indexOf("=");
    if (equals === -1) {
      value = void 0;
      continue;
    }
    const key = line.slice(0, equals).trim().toLowerCase();
    const first = withoutComment(line.slice(equals + 1).trim());
    joinNext = first.endsWith("\\");
    value = [joinNext ? first.slice(0, -1).trim() : first];
    section.set(key, value);
  }
  for (const keys of sections.values())
    for (const [key, lines] of keys)
      keys.set(
        key,
        lines.filter((entry) => entry !== "" && !isComment(entry))
      );
  return sections;
};

// src/workspace/setup/tox-toml.ts
var asRecord3 = (value) => value && typeof value === "object" && !Array.isArray(value) ? value : {};
var strings2 = (value) => Array.isArray(value) ? value.filter((entry) => typeof entry === "string") : [];
var wordsOf = (value, posargs) => {
  if (!Array.isArray(value)) return void 0;
  const words = [];
  for (const entry of value.slice(0, 256)) {
    if (typeof entry === "string") {
      if (entry.includes("{")) return void 0;
      words.push(entry);
      continue;
    }
    const replace = asRecord3(entry);
    if (replace.replace !== "posargs") return void 0;
    words.push(...posargs ?? strings2(replace.default));
  }
  return words;
};
var toxTomlEnv = (pyproject, name, posargs, groups) => {
  const tox = asRecord3(asRecord3(pyproject.tool).tox);
  if (!("env_run_base" in tox) && !("env" in tox)) return void 0;
  const env = name ?? strings2(tox.env_list)[0] ?? "py";
  const base = asRecord3(tox.env_run_base);
  const own = asRecord3(asRecord3(tox.env)[env]);
  const value = (key) => key in own ? own[key] : base[key];
  const notes = [];
  const packages = [];
  const files = [];
  for (const dep of strings2(value("deps"))) {
    const file = requirementFile(dep);
    if (file) files.push(file.replace(/^\.\//, ""));
    else if (dep.includes("{") || dep.startsWith("-") || dep.startsWith("."))
      notes.push(`a dep left out: ${dep.slice(0, 80)}`);
    else packages.push(dep);
  }
  packages.push(...strings2(value("dependency_groups")).flatMap(groups));
  const lines = [
    ...Array.isArray(value("commands_pre")) ? value("commands_pre") : [],
    ...Array.isArray(value("commands")) ? value("commands") : []
  ];
  const commands = [];
  for (const line of lines.slice(0, 64)) {
    const words = wordsOf(line, posargs);
    if (words) commands.push({ words, ignoreExit: false });
    else notes.push("a command regreen cannot read");
  }
  const setenv = Object.entries(asRecord3(value("set_env"))).flatMap(
    ([key, text]) => typeof text === "string" && !text.includes("{") ? [[key, text]] : []
  );
  const changedir = value("change_dir");
  return {
    runner: "tox",
    env,
    packages,
    files,
    extras: strings2(value("extras")),
    installProject: value("skip_install") !== true && value("package") !== "skip",
    commands: lines.length > 0 && commands.length === lines.length ? commands : void 0,
    setenv,
    changedir: typeof changedir === "string" && !changedir.includes("{") ? changedir : void 0,
    notes
  };
};

// src/workspace/setup/tox-env.ts
var CONDITIONAL = /^(!?[\w.{}]+(?:[-,]!?[\w.{}]+)*):\s+(\S.*)$/;
var holds2 = (condition, factors) => expandBraces(condition).flatMap((text) => text.split(",")).some(
  (alternative) => alternative.split("-").every(
    (factor) => factor.startsWith("!") ? !factors.has(factor.slice(1)) : factors.has(factor)
  )
);
var envLines = (lines, factors, lookup, depth = 0) => lines.flatMap((line) => {
  const conditional = CONDITIONAL.exec(line);
  const text = conditional ? holds2(conditional[1] ?? "", factors) ? conditional[2] : "" : line;
  if (!text) return [];
  if (text.startsWith("{[") && text.endsWith("}") && text.indexOf("}") === text.length - 1) {
    const close = text.indexOf("]");
    if (close === -1 || depth >= 4) return [];
    return envLines(
      lookup(text.slice(2, close), text.slice(close + 1, -1)),
      factors,
      lookup,
      depth + 1
    );
  }
  return [text];
});
var substitute = (word2, env) => {
  let out = "";
  let i = 0;
  while (i < word2.length) {
    const open = word2.indexOf("{", i);
    if (open === -1) return out + word2.slice(i);
    const close = word2.indexOf("}", open);
    if (close === -1) return void 0;
    out += word2.slice(i, open);
    const inner = word2.slice(open + 1, close);
    const colon = inner.indexOf(":");
    const [name, fallback] = colon === -1 ? [inner, void 0] : [inner.slice(0, colon), inner.slice(colon + 1)];
    const known = {
      toxinidir: ".",
      tox_root: ".",
      toxworkdir: ".tox",
      envpython: "python",
      basepython: "python",
      envbindir: ".venv/bin",
      env_bin_dir: ".venv/bin",
      envdir: ".venv",
      env_dir: ".venv",
      envname: env,
      env_name: env,
      "/": "/",
      ":": ":"
    };
    if (name in known) out += known[name];
    else if (name === "env" && fallback !== void 0) {
      const second = fallback.indexOf(":");
      out += second === -1 ? "" : fallback.slice(second + 1);
    } else return void 0;
    i = close + 1;
  }
  return out;
};
var commandWords = (line, env, posargs) => {
  const ignoreExit = line.startsWith("- ") || line.startsWith("-	");
  const words = shellWords(ignoreExit ? line.slice(2) : line);
  if (!words) return void 0;
  const out = [];
  for (const word2 of words) {
    if (word2 === "{posargs}" || word2.startsWith("{posargs:")) {
      const fallback = word2 === "{posargs}" ? [] : shellWords(word2.slice(9, -1)) ?? [];
      out.push(...posargs ?? fallback);
      continue;
    }
    const made2 = substitute(word2, env);
    if (made2 === void 0) return void 0;
    out.push(made2);
  }
  return { words: out, ignoreExit };
};
var listOf = (lines) => {
  const entries2 = [];
  for (const line of lines) {
    let depth = 0;
    let current = "";
    for (const char of line) {
      if (char === "{") depth += 1;
      else if (char === "}") depth = Math.max(0, depth - 1);
      if (depth === 0 && (char === "," || char === " " || char === "	")) {
        if (current !== "") entries2.push(current);
        current = "";
      } else current += char;
    }
    if (current !== "") entries2.push(current);
  }
  return entries2;
};
var truthy = (lines) => /^(true|1|yes)$/i.test(lines[0] ?? "");
var iniOf = (sources) => {
  if (sources.toxIni) return { ini: parseIni(sources.toxIni), main: "tox" };
  const cfg = sources.setupCfg ? parseIni(sources.setupCfg) : void 0;
  if (cfg?.has("tox:tox")) return { ini: cfg, main: "tox:tox" };
  const tox = sources.pyproject.tool;
  const legacy = tox?.tox?.legacy_tox_ini;
  if (typeof legacy === "string") return { ini: parseIni(legacy), main: "tox" };
  return void 0;
};
var toxEnvNames = (sources) => {
  const found = iniOf(sources);
  if (!found) {
    const tox = sources.pyproject.tool?.tox;
    const list2 = tox?.env_list;
    return Array.isArray(list2) ? list2.filter((e) => typeof e === "string").slice(0, 64) : [];
  }
  const main = found.ini.get(found.main);
  return listOf(main?.get("envlist") ?? main?.get("env_list") ?? []).flatMap((entry) => expandBraces(entry)).slice(0, 64);
};
var hasTox = (sources) => iniOf(sources) !== void 0 || toxTomlEnv(sources.pyproject, "py", void 0, () => []) !== void 0;
var toxEnv = (sources, name, posargs, groups) => {
  const found = iniOf(sources);
  if (!found) return toxTomlEnv(sources.pyproject, name, posargs, groups);
  const { ini } = found;
  const env = name ?? toxEnvNames(sources)[0] ?? "py";
  const own = [...ini.keys()].find(
    (section) => section.startsWith("testenv:") && expandBraces(section.slice(8)).some((n) => n.trim() === env)
  );
  const lookup = (section, key) => ini.get(section)?.get(key.toLowerCase()) ?? [];
  const factors = new Set(env.split("-"));
  const value = (key) => envLines((own ? ini.get(own)?.get(key) : void 0) ?? lookup("testenv", key), factors, lookup);
  const notes = [];
  const packages = [];
  const files = [];
  for (const dep of value("deps")) {
    const file = requirementFile(dep);
    const made2 = substitute(file ?? dep, env);
    if (made2 === void 0) notes.push(`a dep regreen cannot read: ${dep.slice(0, 80)}`);
    else if (file) files.push(made2.replace(/^\.\//, ""));
    else if (dep.startsWith("-") || dep.startsWith("."))
      notes.push(`a dep left out: ${dep.slice(0, 80)}`);
    else packages.push(made2);
  }
  packages.push(...listOf(value("dependency_groups")).flatMap(groups));
  const skip = truthy(value("skip_install")) || (value("package")[0] ?? "") === "skip";
  const commandLines = [...value("commands_pre"), ...value("commands")];
  const commands = [];
  for (const line of commandLines) {
    const command = commandWords(line, env, posargs);
    if (command) commands.push(command);
    else notes.push(`a command regreen cannot read: ${line.slice(0, 80)}`);
  }
  const setenv = value("setenv").flatMap((line) => {
    const equals = line.indexOf("=");
    const made2 = equals === -1 ? void 0 : substitute(line.slice(equals + 1).trim(), env);
    return equals === -1 || made2 === void 0 ? [] : [[line.slice(0, equals).trim(), made2]];
  });
  const changedir = value("changedir")[0];
  return {
    runner: "tox",
    env,
    packages,
    files,
    extras: listOf(value("extras")),
    installProject: !skip,
    commands: commandLines.length > 0 && commands.length === commandLines.length ? commands : void 0,
    setenv,
    changedir: changedir === void 0 ? void 0 : substitute(changedir, env),
    notes
  };
};

// src/workspace/setup/nox-env.ts
var MAX_TEXT2 = 256 * 1024;
var stringAt = (text, at) => {
  let i = at;
  let raw = false;
  while (i < text.length && "rRbBuU".includes(text.charAt(i)) && i - at < 2) {
    if (text.charAt(i) === "r" || text.charAt(i) === "R") raw = true;
    i += 1;
  }
  const quote2 = text.charAt(i);
  if (quote2 !== '"' && quote2 !== "'") return void 0;
  let value = "";
  for (let j = i + 1; j < text.length; j += 1) {
    const char = text.charAt(j);
    if (char === "\\" && !raw && j + 1 < text.length) {
      j += 1;
      value += text.charAt(j);
    } else if (char === quote2) return { value, end: j + 1 };
    else if (char === "\n") return void 0;
    else value += char;
  }
  return void 0;
};
var callArguments = (text, open) => {
  const args = [];
  let depth = 0;
  let current = "";
  for (let i = open; i < text.length; i += 1) {
    const char = text.charAt(i);
    if (char === '"' || char === "'") {
      const found = stringAt(text, i);
      if (!found) return void 0;
      current += text.slice(i, found.end);
      i = found.end - 1;
      continue;
    }
    if (char === "#") {
      const newline = text.indexOf("\n", i);
      i = newline === -1 ? text.length : newline;
      continue;
    }
    if ("([{".includes(char)) depth += 1;
    else if (")]}".includes(char)) depth -= 1;
    if (depth === 0) {
      args.push(current);
      return args.map((arg) => arg.trim()).filter((arg) => arg !== "");
    }
    if (char === "," && depth === 1) {
      args.push(current);
      current = "";
    } else if (i > open) current += char;
  }
  return void 0;
};
var literal = (arg) => {
  const found = stringAt(arg, 0);
  return found && found.end === arg.length ? found.value : void 0;
};
var indentOf = (line) => line.length - line.trimStart().length;
var sessionBody = (text, name) => {
  const lines = text.slice(0, MAX_TEXT2).split("\n");
  let decorated;
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i] ?? "";
    const trimmed = line.trim();
    if (trimmed.startsWith("@nox.session") || trimmed.startsWith("@session")) {
      const at = trimmed.indexOf("name=");
      decorated = at === -1 ? "" : stringAt(trimmed, at + 5)?.value ?? "";
      continue;
    }
    if (decorated === void 0 || !trimmed.startsWith("def ")) continue;
    const fn = trimmed.slice(4, trimmed.indexOf("(") === -1 ? void 0 : trimmed.indexOf("("));
    const session = decorated || fn.trim();
    decorated = void 0;
    if (session !== name) continue;
    const indent = indentOf(line);
    const body = [];
    for (let j = i + 1; j < lines.length; j += 1) {
      const next = lines[j] ?? "";
      if (next.trim() !== "" && indentOf(next) <= indent) break;
      body.push(next);
    }
    return body.join("\n");
  }
  return void 0;
};
var calls = (body, method) => {
  const found = [];
  const needle = `session.${method}(`;
  let read3 = 0;
  for (let at = body.indexOf(needle); at !== -1 && read3 < 200; at = body.indexOf(needle, at + 1), read3 += 1) {
    const parsed = callArguments(body, at + needle.length - 1);
    if (parsed) found.push(parsed);
  }
  return found;
};
var noxEnv = (noxfile, session, posargs) => {
  const body = sessionBody(noxfile, session) ?? sessionBody(noxfile, session.replace(/-[\d.]+$/, ""));
  if (body === void 0) return void 0;
  const notes = [];
  const packages = [];
  const files = [];
  const extras = [];
  let installProject = false;
  for (const args of calls(body, "install")) {
    const words = args.filter((arg) => !arg.includes("="));
    for (let i = 0; i < words.length; i += 1) {
      const word2 = literal(words[i] ?? "");
      if (word2 === void 0) {
        notes.push(`an install argument regreen cannot read: ${(words[i] ?? "").slice(0, 60)}`);
        continue;
      }
      const next = literal(words[i + 1] ?? "");
      const file = word2 === "-r" ? next : requirementFile(word2);
      if (word2 === "-r" || word2 === "-c" || word2 === "-e") i += word2 === "-e" ? 0 : 1;
      if (file !== void 0) files.push(file);
      else if (word2 === "." || word2.startsWith(".[")) {
        installProject = true;
        if (word2.startsWith(".[")) extras.push(...word2.slice(2, -1).split(","));
      } else if (!word2.startsWith("-")) packages.push(word2);
    }
  }
  const commands = [];
  let readable = true;
  for (const args of calls(body, "run")) {
    const words = [];
    for (const arg of args.filter((entry) => !/^\w+\s*=/.test(entry))) {
      const word2 = literal(arg);
      if (word2 !== void 0) words.push(word2);
      else if (arg === "*session.posargs") words.push(...posargs ?? []);
      else readable = false;
    }
    if (words.length > 0) commands.push({ words, ignoreExit: false });
  }
  if (!readable) notes.push("a session.run argument regreen cannot read");
  return {
    runner: "nox",
    env: session,
    packages,
    files,
    extras: extras.map((extra) => extra.trim()).filter(Boolean),
    installProject,
    commands: readable && commands.length > 0 ? commands : void 0,
    setenv: [],
    changedir: void 0,
    notes
  };
};

// src/workspace/setup/task-runner.ts
var asRecord4 = (value) => value && typeof value === "object" && !Array.isArray(value) ? value : {};
var tomlOf = (text) => {
  try {
    return text ? asRecord4(parse(text)) : {};
  } catch {
    return {};
  }
};
var isPython = (word2) => {
  const name = path22.posix.basename(word2);
  return name === "py" || name === "python" || /^python3(\.\d{1,2})?$/.test(name);
};
var invoked = (words) => {
  const [first = "", second, third, ...rest] = words;
  if (isPython(first) && second === "-m" && third) return { tool: third, args: rest };
  return { tool: path22.posix.basename(first), args: words.slice(1) };
};
var TOX_VALUED = /* @__PURE__ */ new Set([
  "-c",
  "--conf",
  "--root",
  "--workdir",
  "-x",
  "--override",
  "--installpkg",
  "--result-json",
  "-p",
  "--parallel",
  "--hashseed",
  "--discover",
  "--runner"
]);
var toxTarget = (args) => {
  const posargs = afterDoubleDash(args);
  const options = posargs === void 0 ? args : args.slice(0, args.indexOf("--"));
  let env;
  for (let i = 0; i < options.length; i += 1) {
    const word2 = options[i] ?? "";
    if (word2 === "-e" || word2 === "--env") env = options[i += 1];
    else if (word2.startsWith("--env=")) env = word2.slice(6);
    else if (word2.startsWith("-e") && !word2.startsWith("--")) env = word2.slice(2);
    else if (TOX_VALUED.has(word2)) i += 1;
  }
  return { env: env?.split(",")[0]?.trim() || void 0, posargs };
};
var noxTarget = (args) => {
  const posargs = afterDoubleDash(args);
  const options = posargs === void 0 ? args : args.slice(0, args.indexOf("--"));
  for (let i = 0; i < options.length; i += 1) {
    const word2 = options[i] ?? "";
    if (["-s", "-e", "--session", "--sessions"].includes(word2) && options[i + 1])
      return { session: options[i + 1] ?? "", posargs };
    if (word2.startsWith("--session=")) return { session: word2.slice(10), posargs };
  }
  return void 0;
};
var hatchTarget = (args) => {
  let env = "default";
  let i = 0;
  while (i < args.length && (args[i] ?? "").startsWith("-")) {
    if (args[i] === "-e" || args[i] === "--env") env = args[i + 1] ?? env;
    i += args[i] === "-e" || args[i] === "--env" ? 2 : 1;
  }
  const verb = args[i];
  if (verb === "test") return { env: "hatch-test", script: void 0, args: args.slice(i + 1) };
  if (verb !== "run" || !args[i + 1]) return void 0;
  const named = args[i + 1] ?? "";
  const colon = named.indexOf(":");
  return colon > 0 ? { env: named.slice(0, colon), script: named.slice(colon + 1), args: args.slice(i + 2) } : { env, script: named, args: args.slice(i + 2) };
};
var plainToxEnv = (tox, words, groups) => {
  const call = words.length > 0 ? invoked(words) : void 0;
  const names = toxEnvNames(tox);
  const runs = (name2) => call !== void 0 && (toxEnv(tox, name2, void 0, groups)?.commands ?? []).some(
    (command) => command.words.some((word2) => path22.posix.basename(word2) === call.tool)
  );
  const name = names.find(runs) ?? names.find((entry) => /^py\d*(-|$)/.test(entry)) ?? "py";
  return toxEnv(tox, name, void 0, groups);
};
var runnerPlan = (workspace, command) => {
  const read3 = (file) => readTextInside(workspace, path22.join(workspace, file));
  const pyproject = tomlOf(read3("pyproject.toml"));
  const groups = (name) => groupRequirements(asRecord4(pyproject["dependency-groups"]), name);
  const tox = { toxIni: read3("tox.ini"), setupCfg: read3("setup.cfg"), pyproject };
  const hatchToml = tomlOf(read3("hatch.toml"));
  const words = command === void 0 ? void 0 : shellWords(command.trim());
  const call = words && words.length > 0 ? invoked(words) : void 0;
  let env;
  if (call?.tool === "tox") {
    const target = toxTarget(call.args);
    env = toxEnv(tox, target.env, target.posargs, groups);
  } else if (call?.tool === "hatch") {
    const target = hatchTarget(call.args);
    env = target ? hatchEnv(pyproject, hatchToml, target, groups) : void 0;
  } else if (call?.tool === "nox") {
    const target = noxTarget(call.args);
    const noxfile = read3("noxfile.py");
    env = target && noxfile ? noxEnv(noxfile, target.session, target.posargs) : void 0;
  } else if (call?.tool === "pdm" && call.args[0] === "run" && call.args[1]) {
    env = pdmEnv(pyproject, { script: call.args[1], args: call.args.slice(2) }, groups);
  }
  if (env) {
    const instead = runnerShellCommand(env);
    return {
      env,
      command: instead,
      note: instead ? `${describeRunnerEnv(env)}; its commands run there instead of ${call?.tool}: ${instead.slice(0, 200)}` : `${describeRunnerEnv(env)}; its commands could not be read (${env.notes[0] ?? "none"}): \`${command ?? ""}\` runs as it is`
    };
  }
  const plain = hasTox(tox) ? plainToxEnv(tox, words ?? [], groups) : hasHatch(pyproject, hatchToml) ? hatchEnv(pyproject, hatchToml, { env: "default", script: "true", args: [] }, groups) : void 0;
  if (!plain) return void 0;
  return {
    env: plain,
    command: void 0,
    note: `${describeRunnerEnv(plain)} for the command as it is`
  };
};
var withRunner = (workspace, commands, runner) => {
  const failingCommand = runner?.command ?? commands.failingCommand;
  const test = commands.testCommand;
  if (test === void 0) return { failingCommand, testCommand: void 0 };
  if (test === commands.failingCommand) return { failingCommand, testCommand: failingCommand };
  return { failingCommand, testCommand: runnerPlan(workspace, test)?.command ?? test };
};

// src/job/stages/replay.ts
import { existsSync as existsSync9 } from "node:fs";
import path26 from "node:path";

// src/intake/workflow-matrix.ts
var MAX_COMBINATIONS = 256;
var isRecord = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
var same = (a, b) => {
  if (a === b) return true;
  if ((typeof a === "number" || typeof a === "string") && typeof b === typeof a) return false;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
};
var agrees = (combination, entry, keys) => keys.every((key) => !(key in entry) || same(combination[key], entry[key]));
var entries = (value) => Array.isArray(value) ? value.filter(isRecord).map((entry) => ({ ...entry })) : [];
var expandMatrix = (matrix) => {
  if (matrix === void 0 || matrix === null) return [];
  if (!isRecord(matrix)) return void 0;
  const keys = Object.keys(matrix).filter((key) => key !== "include" && key !== "exclude");
  let product = [{}];
  for (const key of keys) {
    const values = matrix[key];
    if (!Array.isArray(values) || values.length > MAX_COMBINATIONS) return void 0;
    product = product.flatMap(
      (combination) => values.map((value) => ({ ...combination, [key]: value }))
    );
    if (product.length > MAX_COMBINATIONS) return void 0;
  }
  if (keys.length === 0) product = [];
  const excluded = entries(matrix.exclude);
  const kept = product.filter(
    (combination) => !excluded.some(
      (entry) => Object.keys(entry).every((key) => same(combination[key], entry[key]))
    )
  );
  const extended = kept.map((combination) => ({ ...combination }));
  const added = [];
  for (const entry of entries(matrix.include)) {
    const originals = Object.keys(entry).filter((key) => keys.includes(key));
    const matching = keys.length === 0 ? [] : extended.filter((combination) => agrees(combination, entry, originals));
    if (matching.length === 0) added.push(entry);
    for (const combination of matching) Object.assign(combination, entry);
  }
  const all = [...extended, ...added];
  return all.length > MAX_COMBINATIONS ? void 0 : all;
};
var shownValue = (value) => typeof value === "object" && value !== null ? JSON.stringify(value) : String(value);
var shownValues = (combination) => Object.values(combination).map(shownValue);
var describeCombination = (combination) => Object.entries(combination).map(([key, value]) => `${key}=${shownValue(value)}`).join(", ");

// src/intake/workflow.ts
import path23 from "node:path";
var EnvSchema = external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()])).optional();
var StepSchema = external_exports.object({
  name: external_exports.string().optional(),
  run: external_exports.string().optional(),
  uses: external_exports.string().optional(),
  if: external_exports.union([external_exports.string(), external_exports.boolean()]).optional(),
  with: external_exports.record(external_exports.string(), external_exports.union([external_exports.string(), external_exports.number(), external_exports.boolean()])).optional(),
  "working-directory": external_exports.string().optional(),
  shell: external_exports.string().optional(),
  env: EnvSchema
});
var JobSchema = external_exports.object({
  name: external_exports.string().optional(),
  steps: external_exports.array(StepSchema).default([]),
  env: EnvSchema,
  "runs-on": external_exports.unknown().optional(),
  strategy: external_exports.object({ matrix: external_exports.unknown().optional() }).optional(),
  defaults: external_exports.object({ run: external_exports.object({ "working-directory": external_exports.string().optional() }).optional() }).optional()
});
var WorkflowSchema = external_exports.object({
  on: external_exports.unknown().optional(),
  jobs: external_exports.record(external_exports.string(), JobSchema).default({}),
  env: EnvSchema
});
var toStrings = (env) => Object.fromEntries(Object.entries(env ?? {}).map(([k, v]) => [k, String(v)]));
var MAX_WORKFLOW_CHARS = 256 * 1024;
var readWorkflows = (workspace, what) => {
  const dir = path23.join(workspace, ".github", "workflows");
  let files;
  try {
    files = listInside(workspace, dir).filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name)).map((entry) => entry.name);
  } catch {
    throw new RegreenError("usage", `${what}: the repository has no .github/workflows folder`);
  }
  return files.sort().flatMap((file) => {
    let raw;
    let text;
    try {
      text = readTextInside(workspace, path23.join(dir, file));
    } catch {
      return [];
    }
    if (text === void 0) return [];
    if (text.length > MAX_WORKFLOW_CHARS)
      throw new RegreenError(
        "usage",
        `${what}: .github/workflows/${file} is ${Math.ceil(text.length / 1024)} KiB, over the ${MAX_WORKFLOW_CHARS / 1024} KiB a workflow read by regreen may be`
      );
    try {
      raw = parseYaml(text);
    } catch {
      return [];
    }
    const parsed = WorkflowSchema.safeParse(raw);
    return parsed.success ? [{ file, data: parsed.data }] : [];
  });
};
var substitute2 = (text, matrix, unresolved) => {
  const resolve = (whole, expr) => {
    const m = /^matrix\.([\w.-]+)$/.exec(expr);
    if (m?.[1] !== void 0 && matrix[m[1]] !== void 0) return matrix[m[1]];
    const envRef = /^env\.(\w+)$/.exec(expr);
    if (envRef?.[1]) return `\${${envRef[1]}}`;
    unresolved.add(expr);
    return whole;
  };
  let out = "";
  let done = 0;
  let close = -1;
  for (let open = text.indexOf("${{"); open >= 0; open = text.indexOf("${{", Math.max(open + 1, done))) {
    if (close < open + 3) close = text.indexOf("}", open + 3);
    if (close < 0) break;
    const inner = text.slice(open + 3, close);
    if (text[close + 1] !== "}" || inner === "") continue;
    out += text.slice(done, open) + resolve(text.slice(open, close + 2), inner.trim() || inner.slice(-1));
    done = close + 2;
  }
  return out + text.slice(done);
};
var stepTitle = (step) => step.name ?? (step.run ? `Run ${step.run.trim().split("\n")[0] ?? ""}` : step.uses ?? "");
var stepScript = (found, step) => {
  const unresolved = /* @__PURE__ */ new Set();
  const env = {};
  for (const [key, value] of Object.entries({
    ...found.workflowEnv,
    ...toStrings(found.job.env),
    ...toStrings(step.env)
  })) {
    const before = unresolved.size;
    const resolved = substitute2(value, found.matrix, unresolved);
    if (unresolved.size === before) env[key] = resolved;
    else unresolved.add(`env ${key}`);
  }
  const dirRaw = step["working-directory"] ?? found.job.defaults?.run?.["working-directory"];
  const workingDirectory = dirRaw ? substitute2(dirRaw, found.matrix, unresolved) : void 0;
  const script = substitute2((step.run ?? "").trim(), found.matrix, unresolved);
  const exports = Object.entries(env).map(([k, v]) => `export ${k}=${quote(v)}`);
  const body = workingDirectory ? `cd ${quote(workingDirectory)}
${script}` : script;
  return {
    command: [...exports, body].join("\n"),
    env,
    ...workingDirectory ? { workingDirectory } : {},
    unresolved: [...unresolved]
  };
};

// src/intake/workflow-find.ts
var fitsTemplate = (template, shown) => {
  const pieces = [];
  let from = 0;
  for (let open = template.indexOf("${{"); open >= 0; open = template.indexOf("${{", from)) {
    const close = template.indexOf("}}", open + 3);
    if (close < 0) break;
    pieces.push(template.slice(from, open));
    from = close + 2;
  }
  pieces.push(template.slice(from));
  const first = pieces[0] ?? "";
  const last = pieces[pieces.length - 1] ?? "";
  if (pieces.length === 1) return shown === first;
  if (!shown.startsWith(first)) return false;
  let at = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = shown.indexOf(piece, at + 1);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return shown.length - last.length >= at + 1 && shown.endsWith(last);
};
var flatMatrix = (combination) => {
  const out = {};
  const put = (prefix, value, depth) => {
    if (value !== null && typeof value === "object" && !Array.isArray(value) && depth < 4)
      for (const [key, inner] of Object.entries(value)) put(`${prefix}.${key}`, inner, depth + 1);
    out[prefix] = shownValue(value);
  };
  for (const [key, value] of Object.entries(combination)) put(key, value, 0);
  return out;
};
var runsOnLinux = (job, matrix) => {
  const raw = job["runs-on"];
  const labels = (Array.isArray(raw) ? raw : [raw]).map(
    (label2) => substitute2(typeof label2 === "string" ? label2 : "", matrix, /* @__PURE__ */ new Set())
  );
  return !labels.some((label2) => /windows|macos|\bmac\b|osx/i.test(label2));
};
var chooseCombination = (job, names, jobName2, usable) => {
  const combinations = expandMatrix(job.strategy?.matrix);
  if (combinations === void 0 || combinations.length === 0)
    return names.some(
      (name) => name === jobName2 || jobName2.startsWith(`${name} (`) && jobName2.endsWith(")")
    ) ? { of: 0 } : void 0;
  const of = combinations.length;
  const named = "the one the failing run names";
  for (const combination of combinations) {
    const matrix = flatMatrix(combination);
    const shown = shownValues(combination);
    for (const name of names) {
      const rendered = substitute2(name, matrix, /* @__PURE__ */ new Set());
      const full = rendered === name ? `${name} (${shown.join(", ")})` : rendered;
      if (full === jobName2) return { combination, why: named, of };
      const paren = rendered === name && jobName2.startsWith(`${name} (`) && jobName2.endsWith(")");
      const listed = paren ? jobName2.slice(name.length + 2, -1).split(", ") : [];
      if (paren && listed.length < shown.length && listed.every((v, i) => v === shown[i]))
        return { combination, why: named, of };
    }
  }
  if (!names.includes(jobName2)) return void 0;
  const linux = combinations.filter((c) => runsOnLinux(job, flatMatrix(c)));
  const usableOne = linux.find((c) => usable(job, flatMatrix(c)));
  if (usableOne)
    return {
      combination: usableOne,
      why: "the first Linux entry whose toolchains this machine has",
      of
    };
  const [first] = linux;
  if (first)
    return { combination: first, why: "the first Linux entry; its toolchains are not here", of };
  return { combination: combinations[0], why: "the first entry; none runs on Linux", of };
};
var foundJob = (file, id, job, data, chosen2) => ({
  file,
  id,
  job,
  workflowEnv: toStrings(data.env),
  matrix: chosen2.combination ? flatMatrix(chosen2.combination) : {},
  ...chosen2.combination ? {
    entry: describeCombination(chosen2.combination),
    matrixEntry: `matrix entry ${describeCombination(chosen2.combination)} (${chosen2.why}; ${chosen2.of} in all)`
  } : job.strategy?.matrix !== void 0 ? { matrixEntry: "the matrix is built by an expression: its values are not known here" } : {}
});
var findJob = (workspace, jobName2, what, usable = () => true) => {
  const known = [];
  const hits = [];
  for (const { file, data } of readWorkflows(workspace, what)) {
    for (const [id, job] of Object.entries(data.jobs)) {
      known.push(id);
      const names = [id, job.name].filter((n) => n !== void 0);
      const chosen2 = chooseCombination(job, names, jobName2, usable);
      if (chosen2) {
        hits.push(foundJob(file, id, job, data, chosen2));
        continue;
      }
      const open = (name) => {
        const exprs = /* @__PURE__ */ new Set();
        substitute2(name, {}, exprs);
        const known2 = (expandMatrix(job.strategy?.matrix) ?? []).length > 0;
        return [...exprs].some((expr) => !known2 || !expr.startsWith("matrix."));
      };
      if (names.some((name) => name.includes("${{") && open(name) && fitsTemplate(name, jobName2)))
        hits.push(
          foundJob(file, id, job, data, chooseCombination(job, [id], id, usable) ?? { of: 0 })
        );
    }
  }
  if (hits.length > 1)
    throw new RegreenError(
      "usage",
      `${what}: several workflow jobs are named "${jobName2}": ${hits.map((hit2) => `${hit2.file}: ${hit2.id}`).join(", ")}; name it as workflow-file:job-id`
    );
  const [hit] = hits;
  if (hit) return hit;
  const qualified = /^([^:]+\.ya?ml):(.+)$/.exec(jobName2);
  if (qualified?.[1] && qualified[2]) {
    const [, file, id] = qualified;
    const data = readWorkflows(workspace, what).find((w) => w.file === file)?.data;
    const job = data?.jobs[id];
    if (data && job)
      return foundJob(file, id, job, data, chooseCombination(job, [id], id, usable) ?? { of: 0 });
  }
  throw new RegreenError(
    "usage",
    `no workflow job named "${jobName2}"${known.length > 0 ? `; jobs: ${known.join(", ")}` : ""}`
  );
};

// src/intake/workflow-command.ts
var normalised = (command) => command.trim().replace(/\s+/g, " ");
var CHANGE_EVENTS = ["push", "pull_request", "pull_request_target", "merge_group"];
var isRecord2 = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
var eventsOf = (on) => {
  if (typeof on === "string") return /* @__PURE__ */ new Map([[on, {}]]);
  if (Array.isArray(on))
    return new Map(on.filter((e) => typeof e === "string").map((e) => [e, {}]));
  if (!isRecord2(on)) return /* @__PURE__ */ new Map();
  return new Map(
    Object.entries(on).map(([event, filters]) => [event, isRecord2(filters) ? filters : {}])
  );
};
var patterns = (value) => (Array.isArray(value) ? value : typeof value === "string" ? [value] : []).filter((p) => typeof p === "string").map((p) => p.slice(0, 200));
var globMatches = (pattern2, name) => {
  const memo = /* @__PURE__ */ new Map();
  const match = (p, n) => {
    const key = p * (name.length + 1) + n;
    const known = memo.get(key);
    if (known !== void 0) return known;
    let result;
    if (p === pattern2.length) result = n === name.length;
    else if (pattern2[p] === "*") {
      const deep = pattern2[p + 1] === "*";
      const next = deep ? p + 2 : p + 1;
      result = match(next, n);
      for (let i = n; !result && i < name.length && (deep || name[i] !== "/"); i += 1)
        result = match(next, i + 1);
    } else result = n < name.length && pattern2[p] === name[n] && match(p + 1, n + 1);
    memo.set(key, result);
    return result;
  };
  return match(0, 0);
};
var branchPasses = (filters, branch) => {
  const ignored = patterns(filters["branches-ignore"]);
  if (ignored.some((p) => globMatches(p, branch))) return false;
  const listed = patterns(filters.branches);
  if (listed.length === 0) return true;
  let passes = false;
  for (const p of listed)
    if (p.startsWith("!")) {
      if (globMatches(p.slice(1), branch)) passes = false;
    } else if (globMatches(p, branch)) passes = true;
  return passes;
};
var RELEASE_WORDS = /publish|release|deploy|docs|pages|nightly|benchmark|snapshot|artifact/i;
var reasons = (c, branch) => {
  const events2 = eventsOf(c.workflow.on);
  const change = CHANGE_EVENTS.filter((event) => {
    const filters = events2.get(event);
    return filters !== void 0 && !(event === "push" && filters.tags && !filters.branches);
  });
  const onBranch = branch === void 0 || change.some((event) => branchPasses(events2.get(event) ?? {}, branch));
  const trigger = change.length > 0 ? change.join("/") : [...events2.keys()].join("/") || "no trigger";
  const named = [c.file, c.id, c.job.name ?? ""].some((name) => RELEASE_WORDS.test(name));
  return {
    rank: [
      change.length > 0 ? 0 : 1,
      onBranch ? 0 : 1,
      named ? 1 : 0,
      runsOnLinux(c.job, {}) ? 0 : 1
    ],
    trigger
  };
};
var setupOf = (c) => JSON.stringify([
  c.workflow.env ?? {},
  c.job.env ?? {},
  c.job.defaults ?? {},
  c.job.strategy ?? {},
  c.job.steps.slice(0, c.at).map(({ name: _name, ...step }) => step),
  { ...c.step, name: void 0 }
]);
var label = (c) => `${c.file}: ${c.id}`;
var jobRunning = (workspace, command, branch) => {
  const wanted = normalised(command);
  const found = [];
  let workflows;
  try {
    workflows = readWorkflows(workspace, "the command");
  } catch {
    return void 0;
  }
  for (const { file, data } of workflows)
    for (const [id, job] of Object.entries(data.jobs)) {
      const at = job.steps.findIndex(
        (candidate) => candidate.run !== void 0 && (normalised(candidate.run) === wanted || candidate.run.split("\n").some((line) => normalised(line) === wanted))
      );
      const step = job.steps[at];
      if (step) found.push({ file, id, job, workflow: data, step, at });
    }
  const ranked = found.map((c) => ({ c, ...reasons(c, branch) })).sort((a, b) => {
    for (let i = 0; i < a.rank.length; i += 1)
      if (a.rank[i] !== b.rank[i]) return (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
    return 0;
  });
  const [best] = ranked;
  if (!best) return void 0;
  const tied = ranked.filter((r) => r.rank.join() === best.rank.join());
  const others = ranked.filter((r) => r !== best);
  if (tied.length > 1 && new Set(tied.map((r) => setupOf(r.c))).size > 1)
    throw new RegreenError(
      "usage",
      `\`${command}\` is run by several workflow jobs that nothing tells apart and whose set-ups differ: ${tied.map((r) => `${label(r.c)} (${r.trigger})`).join(", ")}; name one with --job (workflow-file:job-id)`
    );
  const note = others.length === 0 ? void 0 : tied.length === ranked.length ? `\`${command}\` is also run by ${others.map((r) => label(r.c)).join(", ")}, with the same set-up: ${label(best.c)} is replayed` : `\`${command}\` is run by several workflow jobs: ${label(best.c)} (${best.trigger}) is replayed; the others: ${others.map((r) => `${label(r.c)} (${r.trigger})`).join(", ")} (name one with --job to replay it)`;
  return {
    job: `${best.c.file}:${best.c.id}`,
    step: stepTitle(best.c.step),
    ...note ? { note } : {}
  };
};

// src/intake/workflow-replay.ts
import path24 from "node:path";
var SETUP_ACTIONS = {
  "actions/setup-node": { kind: "node", input: "node-version", file: "node-version-file" },
  "actions/setup-python": { kind: "python", input: "python-version", file: "python-version-file" },
  "actions/setup-go": { kind: "go", input: "go-version", file: "go-version-file" },
  "actions/setup-java": { kind: "java", input: "java-version", file: "java-version-file" }
};
var PRIVATE = {
  "actions/setup-node": "node",
  "actions/setup-python": "python",
  "actions/setup-go": "go",
  "actions/setup-java": "java",
  "astral-sh/setup-uv": "uv",
  "pnpm/action-setup": "pnpm",
  "dtolnay/rust-toolchain": "rust",
  "actions-rs/toolchain": "rust",
  "actions-rust-lang/setup-rust-toolchain": "rust"
};
var NOTHING_TO_DO = {
  "actions/checkout": "the workspace is the checkout",
  "actions/cache": "a cache: the setup fetches what it needs",
  "actions/upload-artifact": "an upload: nothing to reproduce",
  "actions/download-artifact": "an artifact of another job: not available here"
};
var MACHINE_TOOLS = {
  "astral-sh/setup-uv": "uv",
  "dtolnay/rust-toolchain": "cargo",
  "actions-rs/toolchain": "cargo",
  "actions-rust-lang/setup-rust-toolchain": "cargo",
  "ruby/setup-ruby": "ruby",
  "gradle/actions/setup-gradle": "java",
  "gradle/gradle-build-action": "java",
  "oven-sh/setup-bun": "bun",
  "denoland/setup-deno": "deno",
  "actions/setup-dotnet": "dotnet"
};
var COREPACK_ENABLE = /^([ \t]*)corepack\s+enable\b[^\n;&|]*$/gm;
var withoutCorepackEnable = (script) => script.replace(
  COREPACK_ENABLE,
  "$1echo 'regreen: corepack enable skipped: the pinned package manager is on PATH'"
);
var versionFromFile = (workspace, file) => {
  const text = readTextInside(workspace, path24.join(workspace, file));
  if (text === void 0) return void 0;
  if (path24.basename(file) === "go.mod") {
    return /^toolchain\s+go(\S+)/m.exec(text)?.[1] ?? /^go\s+(\d+(?:\.\d+)*)/m.exec(text)?.[1];
  }
  const first = text.slice(0, MAX_LINE_CHARS).split("\n")[0]?.trim();
  return first && first.length < MAX_LINE_CHARS ? first : void 0;
};
var skippedByCondition = (condition) => {
  if (condition === void 0 || condition === true) return void 0;
  if (condition === false) return "disabled (if: false)";
  if (/\b(failure|cancelled)\(\)/.test(condition)) return "runs only after a failure";
  if (/runner\.os\s*==\s*'(windows|macos)'/i.test(condition)) return "runs on another OS";
  return void 0;
};
var SYSTEM_INSTALL = /^[^\S\n\r\u2028\u2029]*(?:sudo\s|apt(?:-get)?\s|brew\s|choco\s|yum\s|dnf\s|snap\s)/m;
var actionName = (uses) => uses.split("@")[0]?.toLowerCase() ?? uses;
var shownTitle = (step, matrix) => substitute2(stepTitle(step), matrix, /* @__PURE__ */ new Set());
var wantedStep = (steps, stepName, matrix) => {
  const wanted = stepName.replace(/^Run /, "").trim();
  return steps.findIndex(
    (s) => s.run !== void 0 && (stepTitle(s) === stepName || shownTitle(s, matrix) === stepName || s.name === wanted || (s.run.trim().split("\n")[0] ?? "").trim() === wanted)
  );
};
var toolchainOf = (found, step, workspace, unresolved) => {
  const action = SETUP_ACTIONS[actionName(step.uses ?? "")];
  if (!action) return void 0;
  const inputs = step.with ?? {};
  const raw = inputs[action.input];
  const fromFile = inputs[action.file];
  const version = raw !== void 0 ? substitute2(String(raw), found.matrix, unresolved) : fromFile !== void 0 ? versionFromFile(workspace, String(fromFile)) : void 0;
  return version ? { kind: action.kind, version, step: shownTitle(step, found.matrix) } : void 0;
};
var replayJob = (workspace, jobName2, stepName, hasToolchain = () => true) => {
  const what = stepName ? `job "${jobName2}" step "${stepName}"` : `--job ${jobName2}`;
  const usable = (job, matrix) => job.steps.every((step) => {
    const request = toolchainOf({ matrix }, step, workspace, /* @__PURE__ */ new Set());
    return !request || hasToolchain(request.kind, request.version);
  });
  const found = findJob(workspace, jobName2, what, usable);
  const all = found.job.steps;
  const failingAt = stepName === void 0 ? -1 : wantedStep(all, stepName, found.matrix);
  const before = failingAt >= 0 ? all.slice(0, failingAt) : all;
  const unresolved = /* @__PURE__ */ new Set();
  const steps = [];
  const toolchains = [];
  const skipped = [];
  let packageManager;
  for (const step of before) {
    const title = shownTitle(step, found.matrix);
    const notNow = skippedByCondition(step.if);
    if (notNow) {
      skipped.push({ step: title, why: notNow });
      continue;
    }
    const own = step.uses === void 0 ? void 0 : PRIVATE[actionName(step.uses)];
    if (own) {
      const version = toolchainOf(found, step, workspace, /* @__PURE__ */ new Set())?.version;
      steps.push({ title, command: privateToolchainScript(own, version), toolchain: own });
    }
    if (actionName(step.uses ?? "") === "pnpm/action-setup") {
      const inputs = step.with ?? {};
      const version = inputs.version !== void 0 ? String(inputs.version) : void 0;
      if (version) packageManager = { name: "pnpm", version, step: title };
      if (inputs.run_install !== void 0 && !/^(false|)$/i.test(String(inputs.run_install).trim()))
        steps.push({ title: `${title} (run_install)`, command: "pnpm install" });
      continue;
    }
    if (step.uses !== void 0) {
      const toolchain = toolchainOf(found, step, workspace, unresolved);
      const needs = MACHINE_TOOLS[actionName(step.uses)];
      if (toolchain) toolchains.push(toolchain);
      else if (needs)
        skipped.push({
          step: title,
          why: `regreen uses this machine's ${needs}${own ? ", its installs in the job" : ""}`,
          needs
        });
      else if (!own)
        skipped.push({
          step: title,
          why: NOTHING_TO_DO[actionName(step.uses)] ?? `the action ${actionName(step.uses)} is not run by regreen`
        });
      continue;
    }
    if (step.run === void 0) continue;
    if (step.shell !== void 0 && !/^(bash|sh)\b/.test(step.shell)) {
      skipped.push({ step: title, why: `runs in ${step.shell}` });
      continue;
    }
    if (SYSTEM_INSTALL.test(step.run)) {
      skipped.push({
        step: title,
        why: "installs system packages (the sandbox cannot): regreen\u2019s machine must have them"
      });
      continue;
    }
    const built = stepScript(found, step);
    built.unresolved.forEach((expr) => unresolved.add(expr));
    steps.push({ title, command: withoutCorepackEnable(built.command), run: step.run.trim() });
  }
  const failingStep = failingAt >= 0 ? all[failingAt] : void 0;
  let failing;
  if (failingStep) {
    const built = stepScript(found, failingStep);
    built.unresolved.forEach((expr) => unresolved.add(expr));
    failing = {
      title: shownTitle(failingStep, found.matrix),
      command: withoutCorepackEnable(built.command),
      ...failingStep.run !== void 0 ? { run: failingStep.run.trim() } : {}
    };
  }
  return {
    file: found.file,
    job: found.id,
    steps,
    ...failing ? { failing } : {},
    toolchains,
    skipped,
    unresolved: [...unresolved],
    ...found.matrixEntry ? { matrixEntry: found.matrixEntry } : {},
    ...found.entry ? { entry: found.entry } : {},
    ...packageManager ? { packageManager } : {}
  };
};
var CARRIED = '"${TMPDIR:-/tmp}/regreen-replay-env.sh"';
var prelude = (fresh) => [
  "set -e",
  ...fresh ? [`rm -f ${CARRIED}`] : [],
  'export GITHUB_ENV="${TMPDIR:-/tmp}/regreen-github-env" GITHUB_PATH="${TMPDIR:-/tmp}/regreen-github-path"',
  'export GITHUB_OUTPUT="${TMPDIR:-/tmp}/regreen-github-output" GITHUB_STEP_SUMMARY="${TMPDIR:-/tmp}/regreen-github-summary"',
  `: > "$GITHUB_ENV"; : > "$GITHUB_PATH"; : >> "$GITHUB_OUTPUT"; : >> "$GITHUB_STEP_SUMMARY"; : >> ${CARRIED}`,
  "regreen_carry() {",
  `  while IFS= read -r line; do case "$line" in *"<<"*|"") ;; *=*) printf 'export %q\\n' "$line" >> ${CARRIED} ;; esac; done < "$GITHUB_ENV"`,
  `  while IFS= read -r dir; do [ -z "$dir" ] || printf 'PATH=%q:"$PATH"\\n' "$dir" >> ${CARRIED}; done < "$GITHUB_PATH"`,
  `  : > "$GITHUB_ENV"; : > "$GITHUB_PATH"; . ${CARRIED}`,
  "}",
  `. ${CARRIED}`
];
var replayScript = (steps, fresh = true) => [
  ...prelude(fresh),
  ...steps.flatMap((step) => [
    `echo ${quote(`[regreen] step: ${step.title}`)}`,
    `(
set -e
${step.command}
)`,
    "regreen_carry"
  ])
].join("\n");
var replayedStepCommand = (step) => `[ ! -f ${CARRIED} ] || . ${CARRIED}
${step.command}`;

// src/intake/setup-step.ts
var INSTALLS = [
  /^(?:python[\d.]*|py) -m pip install\b/,
  /^pip[\d.]* install\b/,
  /^pipx (?:install|inject)\b/,
  /^uv (?:sync|pip install|tool install|venv)\b/,
  /^(?:poetry|pdm|pipenv) (?:install|sync)\b/,
  /^python[\d.]* -m venv\b/,
  /^npm (?:ci|install|i)\b/,
  /^yarn(?: install)?(?: --?[\w=.-]+)*$/,
  /^pnpm (?:install|i)\b/,
  /^bun install\b/,
  /^corepack\b/,
  /^go (?:mod (?:download|tidy|vendor)|install|get)\b/,
  /^cargo (?:fetch|install)\b/,
  /^(?:bundle|gem|composer) install\b/,
  /^rustup\b/
];
var NEUTRAL = /^(?:$|#|echo\b|export\b|cd\b|set\b|source\b|\.\s)/;
var MAX_LINES = 200;
var isSetupStep = (script) => {
  const parts = script.split("\n", MAX_LINES).flatMap((line) => line.split("&&")).map((part) => part.trim().replace(/^sudo\s+/, "")).filter((part) => !NEUTRAL.test(part));
  return parts.length > 0 && parts.every((part) => INSTALLS.some((install) => install.test(part)));
};

// src/workspace/setup/toolchains.ts
import { readdirSync as readdirSync4 } from "node:fs";
import path25 from "node:path";
var list = (dir) => {
  try {
    return readdirSync4(dir);
  } catch {
    return [];
  }
};
var versionIn = (name) => /(?:^|[^\d])(\d+(?:\.\d+)*)/.exec(name.replace(/^v/, ""))?.[1];
var layouts = (home, toolCache) => {
  const cache = (tool) => toolCache ? [{ root: path25.join(toolCache, tool), bin: (name) => path25.join(name, "x64", "bin") }] : [];
  return {
    node: [
      { root: path25.join(home, ".nvm", "versions", "node"), bin: (name) => path25.join(name, "bin") },
      {
        root: path25.join(home, ".volta", "tools", "image", "node"),
        bin: (name) => path25.join(name, "bin")
      },
      {
        root: path25.join(home, ".asdf", "installs", "nodejs"),
        bin: (name) => path25.join(name, "bin")
      },
      {
        root: path25.join(home, ".local", "share", "mise", "installs", "node"),
        bin: (name) => path25.join(name, "bin")
      },
      ...cache("node")
    ],
    python: [
      { root: path25.join(home, ".pyenv", "versions"), bin: (name) => path25.join(name, "bin") },
      {
        root: path25.join(home, ".asdf", "installs", "python"),
        bin: (name) => path25.join(name, "bin")
      },
      {
        root: path25.join(home, ".local", "share", "mise", "installs", "python"),
        bin: (name) => path25.join(name, "bin")
      },
      ...toolCache ? [
        {
          root: path25.join(toolCache, "Python"),
          bin: (name) => path25.join(name, "x64", "bin")
        }
      ] : []
    ],
    go: [
      { root: path25.join(home, "sdk"), bin: (name) => path25.join(name, "bin") },
      { root: "/usr/lib", bin: (name) => path25.join(name, "bin") },
      { root: "/usr/local", bin: (name) => path25.join(name, "bin") },
      {
        root: path25.join(home, ".asdf", "installs", "golang"),
        bin: (name) => path25.join(name, "go", "bin")
      },
      ...cache("go")
    ],
    java: [
      { root: "/usr/lib/jvm", bin: (name) => path25.join(name, "bin") },
      {
        root: path25.join(home, ".sdkman", "candidates", "java"),
        bin: (name) => path25.join(name, "bin")
      },
      { root: path25.join(home, ".asdf", "installs", "java"), bin: (name) => path25.join(name, "bin") },
      ...toolCache ? [
        {
          root: path25.join(toolCache, "Java_Temurin-Hotspot_jdk"),
          bin: (name) => path25.join(name, "x64", "bin")
        }
      ] : []
    ]
  };
};
var PROGRAM = {
  node: "node",
  python: "python3",
  go: "go",
  java: "java"
};
var NAMED = {
  node: /^v?\d/,
  python: /^\d/,
  go: /^go[-\d]|^\d/,
  java: /\d/
};
var installedToolchains = (kind, options) => {
  const found = [];
  for (const layout of layouts(options.home, options.toolCache)[kind]) {
    for (const name of list(layout.root)) {
      if (!NAMED[kind].test(name)) continue;
      const version = versionIn(name);
      const bin = path25.join(layout.root, layout.bin(name));
      if (version && options.exists(path25.join(bin, PROGRAM[kind])))
        found.push({ kind, version, bin });
    }
  }
  return found.sort((a, b) => compareVersions(b.version, a.version));
};
var compareVersions = (a, b) => {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};
var satisfies = (asked, installed) => {
  const plain = asked.trim().replace(/^v/, "").replace(/(?<!\.x)(?:\.x)+$/i, "").replace(/^[~^]/, "");
  if (!/^\d+(\.\d+)*$/.test(plain)) return true;
  const want = plain.split(".");
  const have = installed.split(".");
  return want.every((part, i) => Number(part) === Number(have[i] ?? NaN));
};
var isPinned = (asked) => /^\d+(\.\d+)*$/.test(
  asked.trim().replace(/^v/, "").replace(/(?<!\.x)(?:\.x)+$/i, "").replace(/^[~^]/, "")
);
var matchToolchain = (request, installed) => {
  const toolchain = installed.find((candidate) => satisfies(request.version, candidate.version));
  return toolchain ? { found: true, toolchain, request } : { found: false, request, available: [...new Set(installed.map((t) => t.version))] };
};

// src/job/stages/replay.ts
var jobToolchains = /* @__PURE__ */ new WeakMap();
var useToolchains = (job, plan) => {
  if (plan && plan.bins.length > 0) jobToolchains.set(job, plan.bins);
};
var toolchainTools = (job) => (jobToolchains.get(job) ?? []).map((bin) => ({ bin, root: path26.dirname(bin) }));
var runningNode = () => ({
  kind: "node",
  version: process.version.replace(/^v/, ""),
  bin: path26.dirname(process.execPath)
});
var machineToolchains = (home, toolCache) => {
  const installed = /* @__PURE__ */ new Map();
  return (kind) => {
    let candidates = installed.get(kind);
    if (!candidates) {
      candidates = [
        ...kind === "node" ? [runningNode()] : [],
        ...installedToolchains(kind, {
          home,
          exists: existsSync9,
          ...toolCache ? { toolCache } : {}
        })
      ];
      installed.set(kind, candidates);
    }
    return candidates;
  };
};
var toolchainBins = (replay, installed) => {
  const bins = [];
  const notes = [];
  for (const request of replay.toolchains) {
    if (!isPinned(request.version)) {
      notes.push(
        `${request.kind} ${request.version} (${request.step}): not pinned, the machine's own is used`
      );
      continue;
    }
    const match = matchToolchain(request, installed(request.kind));
    if (match.found) {
      bins.push(match.toolchain.bin);
      notes.push(
        `${request.kind} ${request.version} (${request.step}): ${match.toolchain.version} at ${match.toolchain.bin}`
      );
    } else {
      notes.push(
        `toolchain ${request.kind} ${request.version} (${request.step}) is not available here${match.available.length > 0 ? ` (this machine has ${match.available.join(", ")})` : ""}: the machine's own is used`
      );
    }
  }
  return { bins: [...new Set(bins)], notes };
};
var planReplay = (report, workspace, home, env) => {
  const running = report.workflowStep === void 0 && report.workflowJob === void 0 && report.command ? jobRunning(workspace, report.command, report.branch) : void 0;
  const wanted = report.workflowStep ?? running;
  const job = wanted?.job ?? report.workflowJob;
  if (job === void 0) return {};
  const installed = machineToolchains(home, settingsOf(env).runnerToolCache);
  const onPath = whichIn(settingsOf(env).path);
  const has = (kind, version) => {
    if (!isPinned(version)) return true;
    if (matchToolchain({ kind, version, step: "" }, installed(kind)).found) return true;
    const suffix = kind === "python" ? pythonSuffix(version) : void 0;
    return suffix !== void 0 && onPath(`python${suffix}`) !== void 0;
  };
  let replay;
  try {
    replay = replayJob(workspace, job, wanted?.step, has);
  } catch (error) {
    if (report.workflowStep === void 0 && report.workflowJob !== void 0 && !running)
      throw error instanceof RegreenError ? error : new RegreenError("usage", `--job ${report.workflowJob}: ${describeError(error)}`);
    return { note: `the workflow could not be replayed: ${describeError(error)}` };
  }
  if (wanted && !replay.failing) {
    return {
      note: `the failing step "${wanted.step}" is not a run: step of ${replay.file}`
    };
  }
  const { bins, notes } = toolchainBins(replay, installed);
  return {
    plan: {
      replay,
      bins,
      fromCommand: running !== void 0,
      notes: [
        ...running ? [`the command is a step of ${running.job}: its set-up is replayed`] : [],
        ...running?.note ? [running.note] : [],
        `replayed from ${replay.file}, job ${replay.job}${replay.matrixEntry ? `, ${replay.matrixEntry}` : ""}: ${replay.steps.length} step(s)${replay.failing ? ` before "${replay.failing.title}"` : ""}`,
        ...notes,
        ...replay.skipped.map(
          (s) => s.needs && !whichIn(settingsOf(env).path)(s.needs) ? `"${s.step}" is not available here: ${s.needs} is not on this machine's PATH (install it where regreen runs)` : `skipped "${s.step}": ${s.why}`
        ),
        ...replay.unresolved.length > 0 ? [`left out (secrets or contexts): ${replay.unresolved.join(", ")}`] : []
      ]
    }
  };
};
var replaySetup = (plan, steps = plan.replay.steps) => steps.length > 0 ? replayScript(steps) : void 0;
var replayFailing = (plan, step) => carries(plan) ? replayedStepCommand(step) : step.command;
var carries = (plan) => plan.replay.steps.some(
  (step) => step.toolchain === void 0 && /\bGITHUB_(ENV|PATH)\b/.test(step.command)
);
var testStepAfter = (steps, from) => steps.slice(from).findLast((step) => !isSetupStep(step.run ?? step.command)) ?? steps.at(-1);
var findFailingStep = async (plan, run2, options = {}) => {
  const steps = plan.replay.steps;
  if (steps.length === 0)
    throw new RegreenError(
      "usage",
      `--job ${plan.replay.job} in ${plan.replay.file} has no run: steps`
    );
  const outputs = [];
  let durationMs = 0;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1 && !options.runLast;
    const result = last ? void 0 : await run2(replayScript([step], i === 0));
    if (result !== void 0 && result.exitCode === 0) {
      outputs.push(result.output);
      durationMs += result.durationMs;
      continue;
    }
    const setupStep = result && isSetupStep(step.run ?? step.command) ? step : void 0;
    const before = steps.slice(0, setupStep ? i + 1 : i);
    const setupCommand = replaySetup(plan, before);
    const failingStep = setupStep ? testStepAfter(steps, i + 1) ?? step : step;
    const setupResult = {
      exitCode: setupStep && result ? result.exitCode : 0,
      output: [...outputs, ...setupStep && result ? [result.output] : []].join("\n"),
      durationMs: durationMs + (setupStep && result ? result.durationMs : 0),
      timedOut: setupStep && result ? result.timedOut : false,
      droppedBytes: 0
    };
    return {
      ...setupCommand ? { setupCommand, setupResult } : {},
      failingCommand: replayFailing(plan, failingStep),
      failingStep,
      ...setupStep ? { setupStep } : {}
    };
  }
  return void 0;
};

// src/job/stages/job-commands.ts
var ownCommands = (report, workspace, config, plan) => {
  const detected = detectTestCommand(workspace);
  const failing = plan?.replay.failing;
  const replayed = plan && failing ? replayFailing(plan, failing) : void 0;
  const fromCi = plan?.fromCommand ? replayed ?? report.command : report.command ?? replayed;
  const failingCommand = fromCi ?? (plan ? void 0 : config.test_command ?? detected);
  const suite = config.test_command ?? (fromCi === void 0 && !plan ? detected : void 0);
  return {
    failingCommand,
    testCommand: suite
  };
};
var resolveCommands = (report, workspace, config, plan) => {
  const commands = ownCommands(report, workspace, config, plan);
  const runner = plan ? void 0 : runnerPlan(workspace, commands.failingCommand);
  return { resolved: withRunner(workspace, commands, runner), runner };
};

// src/workspace/setup/package-managers.ts
import { createHash as createHash5 } from "node:crypto";
import { existsSync as existsSync10, mkdirSync as mkdirSync7, readFileSync as readFileSync7 } from "node:fs";
import path27 from "node:path";
var managerRegistry = async (installed, home, env) => {
  if (installed.name !== "yarn") return void 0;
  const program = path27.join(installed.bin, "yarn");
  const args = ["config", "get", /^1\./.test(installed.version) ? "registry" : "npmRegistryServer"];
  const url = (answer) => {
    const last = answer.trim().split("\n").at(-1)?.trim() ?? "";
    return /^https?:\/\//.test(last) ? last : void 0;
  };
  const settings = Object.fromEntries(
    Object.entries(env).filter(([name]) => /^(?:PATH|HOME|yarn_.*|npm_config_.*)$/i.test(name))
  );
  const answered2 = url(await askAsync(home, settings, program, args));
  if (answered2 === void 0 || operatorNpmRegistries(home, env).length === 0) return answered2;
  const bare = path27.join(path27.dirname(installed.root), ".bare-home");
  mkdirSync7(bare, { recursive: true });
  const builtIn = url(await askAsync(bare, { PATH: settingsOf(env).path ?? "" }, program, args));
  return answered2 === builtIn ? void 0 : answered2;
};
var VERSION = /^\d+\.\d+\.\d+$/;
var RANGE = /^[~^]?\d+(?:\.(?:\d+|x|\*)){0,2}$/;
var parsePin = (pin) => {
  const match = /^(pnpm|yarn)@(\d+\.\d+\.\d+)(?:\+(sha1|sha224|sha256|sha384|sha512)\.([0-9a-f]+))?$/.exec(
    pin.trim()
  );
  if (!match) return void 0;
  const [, name, version, algorithm, hex] = match;
  return {
    name,
    version: version ?? "",
    ...algorithm && hex ? { hash: { algorithm, hex } } : {}
  };
};
var pnpmByLockfile = (lockfile) => {
  const version = /^lockfileVersion:\s*['"]?(\d+(?:\.\d+)?)/m.exec(lockfile)?.[1];
  if (version === void 0) return void 0;
  const number2 = Number(version);
  if (number2 >= 9) return "9";
  if (number2 >= 6) return "8";
  if (number2 >= 5.4) return "7";
  return "6";
};
var wantedPackageManager = (workspace, onPath, fromWorkflow) => {
  const read3 = (file) => readTextInside(workspace, path27.join(workspace, file));
  let pinned;
  try {
    pinned = JSON.parse(read3("package.json") ?? "{}").packageManager;
  } catch {
    pinned = void 0;
  }
  const pin = typeof pinned === "string" ? parsePin(pinned) : void 0;
  if (pin) return { ...pin, from: `package.json's packageManager (${String(pinned)})` };
  if (fromWorkflow && RANGE.test(fromWorkflow.version))
    return { name: fromWorkflow.name, version: fromWorkflow.version, from: fromWorkflow.step };
  const pnpmLock = read3("pnpm-lock.yaml");
  if (pnpmLock !== void 0 && !onPath("pnpm")) {
    const major = pnpmByLockfile(pnpmLock);
    if (major) return { name: "pnpm", version: major, from: "pnpm-lock.yaml\u2019s lockfileVersion" };
  }
  if (read3("yarn.lock") !== void 0 && !onPath("yarn"))
    return { name: "yarn", version: "1", from: "yarn.lock (Yarn 1, as CI runners carry it)" };
  return void 0;
};
var packageOf = (name, version) => name === "yarn" && !/^[~^]?1(\D|$)/.test(version) ? "@yarnpkg/cli-dist" : name;
var highest = (versions) => versions.filter((version) => VERSION.test(version)).sort((a, b) => {
  const [x, y] = [a.split(".").map(Number), b.split(".").map(Number)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}).at(-1);
var PIN_ALGORITHMS = ["sha1", "sha224", "sha256", "sha384", "sha512"];
var recordedHashes = (record) => Array.isArray(record.hashes) ? record.hashes.map(String) : [];
var installPackageManager = async (options) => {
  const { wanted, toolsDir, env } = options;
  const timeoutMs = options.timeoutMs ?? 18e4;
  mkdirSync7(toolsDir, { recursive: true });
  const pkg = packageOf(wanted.name, wanted.version);
  let version = wanted.version;
  if (!VERSION.test(version)) {
    if (!RANGE.test(version)) throw new Error(`"${version}" is not a version regreen can resolve`);
    const listed = JSON.parse(
      await runNpm(
        ["view", `${pkg}@${version}`, "version", "--json"],
        toolsDir,
        env,
        timeoutMs
      ) || "[]"
    );
    const found = highest(Array.isArray(listed) ? listed.map(String) : [String(listed)]);
    if (!found) throw new Error(`the registry has no ${pkg} matching ${version}`);
    version = found;
  }
  const before = installedNpmTool(toolsDir, pkg, version);
  if (before && wanted.hash && !recordedHashes(before.record).includes(`${wanted.hash.algorithm}.${wanted.hash.hex}`))
    throw new Error(
      `${pkg}@${version} in ${toolsDir} does not match the ${wanted.hash.algorithm} package.json pins (${wanted.hash.hex.slice(0, 16)}\u2026)`
    );
  const digest = (file, algorithm) => createHash5(algorithm).update(readFileSync7(file)).digest("hex");
  const installed = await installNpmTool({
    toolsDir,
    env,
    timeoutMs,
    packages: [{ name: pkg, version }],
    launchers: wanted.name,
    verify: (tarball, dir) => {
      const candidates = [tarball, path27.join(dir, "bin", "yarn.js")].filter(existsSync10);
      if (wanted.hash) {
        const { algorithm, hex } = wanted.hash;
        if (!candidates.some((file) => digest(file, algorithm) === hex))
          throw new Error(
            `${pkg}@${version} from the registry does not match the ${algorithm} package.json pins (${hex.slice(0, 16)}\u2026)`
          );
      }
      return {
        hashes: candidates.flatMap(
          (file) => PIN_ALGORITHMS.map((algorithm) => `${algorithm}.${digest(file, algorithm)}`)
        )
      };
    }
  });
  return { name: wanted.name, version, bin: installed.bin, root: installed.root };
};

// src/job/stages/package-manager.ts
var provided = /* @__PURE__ */ new WeakMap();
var providedManager = (job) => provided.get(job);
var provideManager = async (workspace, env, fromWorkflow) => {
  const which = whichIn(settingsOf(env).path);
  const wanted = wantedPackageManager(workspace, (name) => which(name) !== void 0, fromWorkflow);
  if (!wanted) return {};
  const toolsDir = defaultToolsDir(env);
  try {
    const installed = await installPackageManager({ wanted, toolsDir, env });
    const registry = await managerRegistry(installed, homeOf(env), env);
    return {
      manager: { ...installed, registries: registry ? [registry] : [] },
      note: `package manager: ${installed.name} ${installed.version} (${wanted.from}) is first on PATH`
    };
  } catch (error) {
    return {
      note: `package manager: ${wanted.name} ${wanted.version} (${wanted.from}) could not be installed from the npm registry: ${describeError(error)}`
    };
  }
};
var providePackageManager = async (job, workspace, plan) => {
  const { manager, note } = await provideManager(
    workspace,
    job.deps.env,
    plan?.replay.packageManager
  );
  if (manager) provided.set(job, manager);
  return note;
};

// src/workspace/sandbox/identity.ts
import { execFile as execFile5, execFileSync as execFileSync4, spawn as spawn3 } from "node:child_process";
import { closeSync as closeSync3, openSync as openSync2, statSync as statSync6, writeFileSync as writeFileSync5 } from "node:fs";
var INSIDE_ID = 1e3;
var DEFAULT_SANDBOX_UID = 64e3;
var NOBODY = 65534;
var sandboxUidOf = (value) => {
  if (value === void 0 || value.trim() === "") return DEFAULT_SANDBOX_UID;
  const uid = Number(value.trim());
  if (!Number.isInteger(uid) || uid <= 0 || uid === NOBODY || uid >= 4294967295) {
    throw new RegreenError(
      "usage",
      `REGREEN_SANDBOX_UID must be a host uid other than 0 and ${NOBODY} (nobody), not ${JSON.stringify(value)}`
    );
  }
  return uid;
};
var writeMap = (file, text) => {
  writeFileSync5(file, text, { flag: "r+" });
};
var makeUserNamespace = async (uid) => {
  const child = spawn3("unshare", ["--user", "/bin/sh", "-c", "echo ready; exec sleep 600"], {
    stdio: ["ignore", "pipe", "pipe"]
  });
  try {
    await new Promise((resolve, reject) => {
      let errors = "";
      child.stderr.on("data", (chunk) => errors += chunk.toString("utf8"));
      child.stdout.once("data", () => resolve());
      child.once("error", reject);
      child.once(
        "exit",
        (code) => reject(new Error(`unshare --user exited ${code ?? "on a signal"}: ${errors.trim()}`))
      );
    });
    const pid = child.pid;
    writeMap(`/proc/${pid}/uid_map`, `0 0 1
${INSIDE_ID} ${uid} 1
`);
    writeMap(`/proc/${pid}/gid_map`, `0 0 1
${INSIDE_ID} ${uid} 1
`);
    return openSync2(`/proc/${pid}/ns/user`, "r");
  } finally {
    child.kill("SIGKILL");
  }
};
var made;
var hostIdentity = (options) => {
  if (!options.isRoot) return void 0;
  made ??= (async () => {
    const uid = sandboxUidOf(options.uidSetting);
    const setpriv = options.which("setpriv");
    const unshare = options.which("unshare");
    if (!setpriv || !unshare) {
      throw new RegreenError(
        "sandbox-unavailable",
        `regreen runs as root, and its sandbox then runs commands as host uid ${uid}, which needs util-linux's setpriv and unshare (not found). On Debian/Ubuntu: apt-get install -y util-linux`
      );
    }
    try {
      return { uid, usernsFd: await makeUserNamespace(uid), setpriv };
    } catch (error) {
      throw new RegreenError(
        "sandbox-unavailable",
        `regreen runs as root and could not make the user namespace that runs sandboxed commands as host uid ${uid}: ${error.message}`
      );
    }
  })();
  made.catch(() => made = void 0);
  return made;
};
var handOver = (dirs, uid) => {
  if (dirs.length === 0) return;
  const [file, ...args] = handOverArgv(dirs, uid);
  execFileSync4(file, args, { stdio: ["ignore", "ignore", "pipe"] });
};
var handOverAsync = (dirs, uid) => new Promise((resolve, reject) => {
  if (dirs.length === 0) return resolve();
  const [file, ...args] = handOverArgv(dirs, uid);
  execFile5(
    file,
    args,
    (error, _stdout, stderr) => error ? reject(new Error(`${stderr}`.trim() || error.message)) : resolve()
  );
});
var handOverArgv = (dirs, uid) => [
  "chown",
  "-R",
  "-P",
  "--from=0",
  `${uid}:${uid}`,
  "--",
  ...dirs
];
var closedToSandbox = (roots, uid) => roots.filter((root2) => {
  let stats;
  try {
    stats = statSync6(root2);
  } catch {
    return false;
  }
  if (stats.uid === uid) return false;
  const need = stats.isDirectory() ? 5 : 4;
  return (stats.mode & need) !== need;
});
var closedRootsNote = (roots, uid) => {
  const closed = closedToSandbox(roots, uid);
  return closed.length === 0 ? void 0 : `shared read-only with the sandbox, but closed to its host uid ${uid} by their permissions: ${closed.join(", ")} \u2014 to share one, let others read it (chmod -R o+rX <dir>)`;
};

// src/workspace/sandbox/cgroups.ts
import { randomBytes as randomBytes2 } from "node:crypto";
import {
  existsSync as existsSync11,
  mkdirSync as mkdirSync8,
  readdirSync as readdirSync5,
  readFileSync as readFileSync8,
  rmdirSync as rmdirSync2,
  statSync as statSync7,
  writeFileSync as writeFileSync6
} from "node:fs";
import path28 from "node:path";
var ROOT = "/sys/fs/cgroup";
var ownPaths = () => {
  const paths = /* @__PURE__ */ new Map();
  try {
    for (const line of readFileSync8("/proc/self/cgroup", "utf8").split("\n")) {
      const [, controllers, where] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (controllers === void 0 || where === void 0) continue;
      for (const name of controllers === "" ? ["unified"] : controllers.split(","))
        paths.set(name, where);
    }
  } catch {
  }
  return paths;
};
var tryWrite = (file, value) => {
  try {
    writeFileSync6(file, value);
    return true;
  } catch {
    return false;
  }
};
var readNumber = (file, key) => {
  try {
    const line = readFileSync8(file, "utf8").split("\n").find((entry) => entry.startsWith(`${key} `));
    return Number(line?.split(/\s+/)[1] ?? 0);
  } catch {
    return 0;
  }
};
var makeV2 = (name, limits) => {
  if (!existsSync11(path28.join(ROOT, "cgroup.controllers"))) return [];
  const own = ownPaths().get("unified") ?? "/";
  const parent = path28.join(ROOT, own);
  const enabled = () => {
    try {
      return readFileSync8(path28.join(parent, "cgroup.subtree_control"), "utf8").trim().split(/\s+/);
    } catch {
      return [];
    }
  };
  if (!enabled().includes("pids") || !enabled().includes("memory"))
    tryWrite(path28.join(parent, "cgroup.subtree_control"), "+pids +memory");
  if (!enabled().includes("pids") || !enabled().includes("memory")) return [];
  const dir = path28.join(parent, name);
  try {
    mkdirSync8(dir);
  } catch {
    return [];
  }
  const ok = tryWrite(path28.join(dir, "pids.max"), String(limits.processes)) && tryWrite(path28.join(dir, "memory.max"), String(limits.memoryMb * 1024 * 1024));
  tryWrite(path28.join(dir, "memory.swap.max"), "0");
  if (!ok) {
    rmdirSync2(dir);
    return [];
  }
  return [
    { dir, kind: "pids", version: 2 },
    { dir, kind: "memory", version: 2 }
  ];
};
var makeV1 = (name, limits) => {
  const own = ownPaths();
  const made2 = [];
  for (const kind of ["pids", "memory"]) {
    const base = path28.join(ROOT, kind, own.get(kind) ?? "/");
    if (!existsSync11(base)) continue;
    const dir = path28.join(base, name);
    try {
      mkdirSync8(dir);
    } catch {
      continue;
    }
    const ok = kind === "pids" ? tryWrite(path28.join(dir, "pids.max"), String(limits.processes)) : tryWrite(path28.join(dir, "memory.limit_in_bytes"), String(limits.memoryMb * 1024 * 1024));
    if (kind === "memory")
      tryWrite(
        path28.join(dir, "memory.memsw.limit_in_bytes"),
        String(limits.memoryMb * 1024 * 1024)
      );
    if (ok) made2.push({ dir, kind, version: 1 });
    else rmdirSync2(dir);
  }
  return made2;
};
var unavailable = false;
var GROUP_NAME = /^regreen-(\d+)-[0-9a-f]{8}$/;
var STALE_MS = 6e4;
var alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code !== "ESRCH";
  }
};
var sweepStaleGroups = (parent, now = Date.now()) => {
  let removed = 0;
  let names;
  try {
    names = readdirSync5(parent);
  } catch {
    return 0;
  }
  for (const name of names) {
    const pid = Number(GROUP_NAME.exec(name)?.[1] ?? 0);
    if (pid === 0 || pid === process.pid || alive(pid)) continue;
    const dir = path28.join(parent, name);
    try {
      if (now - statSync7(dir).mtimeMs < STALE_MS) continue;
      rmdirSync2(dir);
      removed += 1;
    } catch {
    }
  }
  return removed;
};
var swept = /* @__PURE__ */ new Set();
var commandCgroup = (limits) => {
  if (unavailable || process.platform !== "linux") return void 0;
  const name = `regreen-${process.pid}-${randomBytes2(4).toString("hex")}`;
  const controllers = makeV2(name, limits);
  if (controllers.length === 0) controllers.push(...makeV1(name, limits));
  if (controllers.length === 0) {
    unavailable = true;
    return void 0;
  }
  const dirs = [...new Set(controllers.map((controller) => controller.dir))];
  for (const parent of new Set(dirs.map((dir) => path28.dirname(dir)))) {
    if (swept.has(parent)) continue;
    swept.add(parent);
    sweepStaleGroups(parent);
  }
  return {
    kinds: [...new Set(controllers.map((controller) => controller.kind))],
    enter: dirs.map((dir) => `echo $$ > ${quote(path28.join(dir, "cgroup.procs"))} || exit 125`).join("; "),
    reached: () => {
      for (const controller of controllers) {
        if (controller.kind === "pids" && readNumber(path28.join(controller.dir, "pids.events"), "max") > 0)
          return `it reached the sandbox's limit of ${limits.processes} processes (REGREEN_MAX_PROCESSES)`;
        if (controller.kind === "memory") {
          const hit = readNumber(
            path28.join(
              controller.dir,
              controller.version === 2 ? "memory.events" : "memory.oom_control"
            ),
            "oom_kill"
          ) > 0;
          if (hit)
            return `it reached the sandbox's memory limit of ${limits.memoryMb} MiB (REGREEN_MAX_MEMORY_MB)`;
        }
      }
      return void 0;
    },
    remove: () => {
      for (const dir of dirs) {
        for (let attempt = 0; attempt < 50; attempt += 1) {
          try {
            rmdirSync2(dir);
            break;
          } catch (error) {
            if (error.code !== "EBUSY") break;
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
          }
        }
      }
    }
  };
};

// src/workspace/sandbox/limit-enforcement.ts
var CGROUPS_FIX = "let regreen make cgroups: run it as a systemd service with Delegate=yes, or in a container with a writable cgroup v2 subtree";
var limitEnforcement = (host) => {
  const pids = host.cgroupKinds.includes("pids");
  const memory = host.cgroupKinds.includes("memory");
  return [
    pids ? { limit: "processes", enforced: true, by: "a pids cgroup per command" } : {
      limit: "processes",
      enforced: true,
      by: host.isRoot ? "RLIMIT_NPROC of the sandbox\u2019s unprivileged host uid (REGREEN_SANDBOX_UID), shared by the commands running at once" : "RLIMIT_NPROC (per user)"
    },
    memory ? { limit: "memory", enforced: true, by: "a memory cgroup per command (all its processes)" } : {
      limit: "memory",
      enforced: false,
      by: "RLIMIT_DATA, per process",
      gap: "no memory cgroup can be made here: a command\u2019s processes together can use the limit many times over",
      fix: CGROUPS_FIX
    },
    host.volumeUnavailable === void 0 ? {
      limit: "disk",
      enforced: true,
      by: "a volume of the limit\u2019s size per job (a loop-mounted ext4 image) holding its workspace, tmp and home together; RLIMIT_FSIZE per file; /tmp and /var/tmp as size-bounded tmpfs"
    } : {
      limit: "disk",
      enforced: false,
      by: "RLIMIT_FSIZE per file; /tmp and /var/tmp as size-bounded tmpfs",
      gap: `the workspace, home and tmp as a whole are watched every 2 s, not bounded by the kernel (${host.volumeUnavailable})`,
      fix: "run regreen as root where a loop device can be mounted (a VM, or a container with --privileged or /dev/loop* and CAP_SYS_ADMIN), with REGREEN_JOB_VOLUME unset"
    }
  ];
};
var probed;
var hostLimitEnforcement = (job) => {
  if (!probed) {
    const group = commandCgroup({ processes: 64, memoryMb: 64, diskMb: 64 });
    const kinds = group?.kinds ?? [];
    group?.remove();
    probed = { isRoot: process.geteuid?.() === 0, cgroupKinds: kinds };
  }
  const volume = job ? job.volumeUnavailable : volumeUnavailable();
  return limitEnforcement({
    ...probed,
    ...volume !== void 0 ? { volumeUnavailable: volume } : {}
  });
};
var unboundLimitsNote = (enforcement) => {
  const gaps = enforcement.filter((e) => !e.enforced);
  return gaps.length === 0 ? void 0 : `sandbox limits this host does not bind: ${gaps.map((e) => `${e.limit} (${e.gap ?? e.by})`).join("; ")}`;
};

// src/intake/workflow-triggers.ts
var TRIGGERS = /* @__PURE__ */ new Set(["push", "pull_request", "pull_request_target"]);
var events = (on) => {
  if (typeof on === "string") return [on];
  if (Array.isArray(on)) return on.filter((event) => typeof event === "string");
  return on !== null && typeof on === "object" ? Object.keys(on) : [];
};
var LINUX = /^(?:ubuntu-|linux\b|self-hosted$)/i;
var OTHER_OS = /^(?:windows|macos)-/i;
var onLinux = (runsOn) => {
  const labels = typeof runsOn === "string" ? [runsOn] : Array.isArray(runsOn) ? runsOn : runsOn !== null && typeof runsOn === "object" && "labels" in runsOn ? [runsOn.labels].flat() : [];
  const strings3 = labels.filter((label2) => typeof label2 === "string");
  if (strings3.some((label2) => label2.includes("${{"))) return true;
  return strings3.some((label2) => LINUX.test(label2)) && !strings3.some((l) => OTHER_OS.test(l));
};
var ciJobs = (workspace) => {
  let workflows;
  try {
    workflows = readWorkflows(workspace, "the workflow");
  } catch {
    return [];
  }
  return workflows.flatMap(
    ({ file, data }) => events(data.on).some((event) => TRIGGERS.has(event)) ? Object.entries(data.jobs).filter(
      ([, job]) => onLinux(job["runs-on"]) && job.steps.some((step) => step.run !== void 0)
    ).map(([id]) => ({ name: `${file}:${id}`, file, id })) : []
  );
};

// src/job/stages/job-steps.ts
var jobName = (plan) => `${plan.replay.file}:${plan.replay.job}`;
var stepsRun = (plan, found, tried) => ({
  ...found.setupCommand !== void 0 ? { setupCommand: found.setupCommand } : {},
  ...found.setupResult ? { setupResult: found.setupResult } : {},
  failingCommand: found.failingCommand,
  plan,
  replayed: {
    job: jobName(plan),
    steps: plan.replay.steps,
    failing: found.failingStep,
    ...found.setupStep ? { setupStep: found.setupStep } : {}
  },
  tried
});
var runNamedJob = async (plan, run2) => {
  const found = await findFailingStep(plan, run2);
  if (!found) throw new RegreenError("internal", "a job run without runLast ended at no step");
  return stepsRun(plan, found, []);
};
var runCiJobs = async (plans, run2) => {
  const tried = [];
  let last;
  for (const plan of plans) {
    if (plan.replay.steps.length === 0) {
      tried.push(`${jobName(plan)}: no run: step regreen can replay`);
      continue;
    }
    last = plan;
    const found = await findFailingStep(plan, run2, { runLast: true });
    if (found) {
      const step = found.setupStep ?? found.failingStep;
      tried.push(`${jobName(plan)}: step "${step.title}" failed`);
      return stepsRun(plan, found, tried);
    }
    tried.push(`${jobName(plan)}: all ${plan.replay.steps.length} run: step(s) passed`);
  }
  if (!last) return void 0;
  const final = last.replay.steps.at(-1);
  return {
    failingCommand: final?.command ?? "",
    plan: last,
    replayed: { job: jobName(last), steps: last.replay.steps },
    tried,
    passed: { exitCode: 0, output: "", durationMs: 0, timedOut: false, droppedBytes: 0 }
  };
};
var runWorkflowSteps = async (own, named, ciPlans, run2) => {
  const ownResult = own ? await run2(own) : void 0;
  if (own && ownResult && ownResult.exitCode !== 0)
    return { setupCommand: own, setupResult: ownResult, failingCommand: own };
  const steps = named ? await runNamedJob(named, run2) : await runCiJobs(ciPlans, run2);
  if (!steps) return {};
  const setupCommand = [own, steps.setupCommand].filter(Boolean).join("\n") || void 0;
  const setupResult = steps.setupResult ?? ownResult;
  return {
    ...setupCommand ? { setupCommand } : {},
    ...setupResult ? { setupResult } : {},
    failingCommand: steps.failingCommand,
    steps
  };
};
var commandSource = (options) => {
  const { replayed } = options;
  const step = replayed?.failing ? `step "${replayed.failing.title}" of ${replayed.job}` : "";
  if (options.ciStep) return `CI's failing step${step ? `: ${step}` : ""}`;
  if (options.given) return `the command given${step ? `, run as ${step}` : ""}`;
  if (options.testCommand) return "test_command in .github/regreen.yml";
  if (options.named) return `${step || "the job"} (--job), the first of its steps that failed`;
  if (replayed)
    return replayed.failing ? `${step}, the first step that failed of the workflow jobs a push or pull request runs` : `the workflow jobs a push or pull request runs, every step of which passed`;
  return "the project's default test command, detected from its files (no workflow job that a push or pull request runs on Linux was found)";
};
var ciPlansOf = (report, workspace, home, env) => ciJobs(workspace).flatMap(
  ({ name }) => planReplay({ ...report, workflowJob: name }, workspace, home, env).plan ?? []
);
var withAllToolchains = (plans) => {
  const [first] = plans;
  return first && { ...first, bins: [...new Set(plans.flatMap((plan) => plan.bins))] };
};
var howFound = (report, testCommand, plan, steps) => {
  const replayed = steps?.replayed ?? (plan && {
    job: jobName(plan),
    steps: plan.replay.steps,
    ...plan.replay.failing ? { failing: plan.replay.failing } : {}
  });
  return {
    ...replayed ? { replayed } : {},
    commandSource: commandSource({
      given: report.command !== void 0,
      ciStep: report.workflowStep !== void 0,
      testCommand: testCommand !== void 0,
      replayed,
      named: report.workflowJob !== void 0
    }),
    tried: steps?.tried ?? [],
    ...steps?.passed ? { passed: steps.passed } : {}
  };
};

// src/job/stages/prepare.ts
var setupHeadline = (command) => {
  const first = command.split("\n")[0] ?? "";
  const fallback = first.indexOf(" || {");
  const main = fallback === -1 ? first : first.slice(0, fallback);
  if (main.length > 100) return `${main.slice(0, 99)}\u2026`;
  return main === command ? main : `${main} \u2026`;
};
var preparedLine = (v) => {
  const steps = [...(v.setupCommand ?? "").matchAll(/^echo '\[regreen\] step: (.*)'$/gm)].map(
    (match) => match[1]
  );
  const setup = steps.length > 0 ? `replayed ${steps.length} step${steps.length === 1 ? "" : "s"} (${steps.join("; ")})${v.matrixEntry ? ` of matrix entry ${v.matrixEntry}` : ""}` : setupHeadline(v.setupCommand ?? "");
  return `${v.baseSha.slice(0, 12)}; setup: ${v.setupCommand ? `${setup} \u2192 exit ${v.setupResult?.exitCode ?? "killed"}` : "none"}${v.runnerNote ? `; ${v.runnerNote}` : ""}`;
};
var readRepoConfig = (workspace) => {
  const text = readTextInside(workspace, path29.join(workspace, CONFIG_PATH));
  return text === void 0 ? defaultRepoConfig() : parseRepoConfig(text);
};
var openSandbox = async (job, workspace, name, disposables = job.disposables, background = false) => {
  const privateDir = path29.join(job.scratch, `${name}-private`);
  mkdirSync9(privateDir, { recursive: true });
  const sandbox = await job.deps.sandbox(
    buildSandboxPolicy({
      workspace,
      privateDir,
      privateDirOnVolume: job.scratchOnVolume,
      home: job.deps.home,
      dataDir: job.deps.dataDir,
      registryHosts: job.deps.registryHosts,
      baseEnv: job.deps.env,
      tools: [
        ...[providedManager(job)].filter((tool) => tool !== void 0),
        ...toolchainTools(job)
      ]
    })
  );
  disposables.add(() => sandbox.dispose());
  const timed = timedRuns(sandbox, (run2) => job.trace.emit({ type: "run", ...run2 }));
  const progress = job.deps.progress;
  return progress ? withLiveOutput(
    timed,
    (line) => progress({ kind: "output", line, ...background ? { background } : {} })
  ) : timed;
};
var NO_COMMAND = 'no command to reproduce: pass --command, set test_command in .github/regreen.yml, add a "test" script to package.json, or name a workflow job with --job';
var ownSetups = /* @__PURE__ */ new WeakMap();
var runSetup = async (job, workspace, command, setup) => {
  const snapshot = settingsOf(job.deps.env).setupSnapshot ?? "cow";
  const outsideWorkspace = command.includes(PRIVATE_TOOLCHAINS);
  if (!job.deps.setupCache && snapshot === "off" || outsideWorkspace) {
    const { result, reads } = await withReads(workspace, setup);
    return reads ? { ...result, reads } : result;
  }
  let cache = job.deps.setupCache ?? ownSetups.get(job);
  if (!cache) {
    const dir = path29.join(job.scratch, "setup-snapshot");
    cache = createSetupCache(dir, { copyOnWriteOnly: snapshot === "cow" });
    ownSetups.set(job, cache);
    job.disposables.add(discardAtEnd(job, dir));
  }
  const manager = providedManager(job);
  const context = [
    toolchainStamp(settingsOf(job.deps.env).path),
    manager ? `${manager.name}@${manager.version}` : ""
  ].join("\n");
  return cache.run({ workspace, command, context, setup });
};
var cloneForJob = async (job, source, ref, dest, branch) => cloneWorkspace({
  source,
  ref,
  dest,
  ...branch !== void 0 ? { branch } : {},
  maxCheckoutBytes: (settingsOf(job.deps.env).maxDiskMb ?? DEFAULT_COMMAND_LIMITS.diskMb) * 1024 * 1024,
  ...job.deps.forge.gitAuth && !source.localRoot ? { auth: await job.deps.forge.gitAuth() } : {}
});
var prepare = async (job, intakeResult) => {
  const workspace = path29.join(job.scratch, "workspace");
  job.trace.emit({ type: "workspace", path: workspace });
  const cloned = await cloneForJob(
    job,
    intakeResult.source,
    intakeResult.report.ref,
    workspace,
    intakeResult.report.branch
  );
  job.disposables.add(() => keepChange(job, workspace, cloned.baseSha));
  const bounded = boundRepoConfig(
    readRepoConfig(workspace),
    operatorCeilings(job.deps.env, job.deps.budget)
  );
  for (const note2 of bounded.notes) job.trace.emit({ type: "note", message: `config: ${note2}` });
  const repoConfig = bounded.config;
  const config = {
    ...repoConfig,
    protected: [...repoConfig.protected, ...job.deps.protectedPaths ?? []],
    timeouts: {
      ...repoConfig.timeouts,
      ...job.deps.commandTimeoutSeconds ? { command_seconds: job.deps.commandTimeoutSeconds } : {}
    },
    tools: {
      ...repoConfig.tools,
      disabled: [...repoConfig.tools.disabled, ...job.deps.disabledTools ?? []]
    }
  };
  const model = jobModel(job, config, workspace);
  const context = readContextFile(workspace);
  const { report } = intakeResult;
  const { plan, note } = planReplay(report, workspace, job.deps.home, job.deps.env);
  const ciPlans = plan || report.command || report.task || config.test_command ? [] : ciPlansOf(report, workspace, job.deps.home, job.deps.env);
  const anyPlan = plan ?? ciPlans[0];
  useToolchains(job, plan ?? withAllToolchains(ciPlans));
  if (note) job.trace.emit({ type: "note", message: note });
  for (const line of plan?.notes ?? [])
    job.trace.emit({ type: "note", message: `replay: ${line}` });
  const { resolved, runner } = resolveCommands(intakeResult.report, workspace, config, anyPlan);
  if (runner) job.trace.emit({ type: "note", message: `setup: ${runner.note}` });
  if (!resolved.failingCommand && !(plan && report.workflowJob) && ciPlans.length === 0)
    throw new RegreenError("usage", NO_COMMAND);
  const managerNote = await providePackageManager(job, workspace, plan);
  if (managerNote) job.trace.emit({ type: "note", message: managerNote });
  const sandbox = await openSandbox(job, workspace, "job");
  const unbound = sandbox.kind === "bubblewrap" ? unboundLimitsNote(
    hostLimitEnforcement(
      job.scratch !== job.dir ? {} : { volumeUnavailable: "the job has none: see its disk note" }
    )
  ) : void 0;
  if (unbound) job.trace.emit({ type: "note", message: unbound });
  const closed = sandbox.kind === "bubblewrap" && process.geteuid?.() === 0 ? closedRootsNote(sandbox.policy.readable, sandboxUidOf(settingsOf(job.deps.env).sandboxUid)) : void 0;
  if (closed) job.trace.emit({ type: "note", message: closed });
  const runSetupCommand = (command) => {
    seedSetupCaches(job, sandbox, workspace);
    return sandbox.run({
      command,
      cwd: workspace,
      network: "setup",
      timeoutMs: config.timeouts.setup_seconds * 1e3,
      signal: job.signal
    });
  };
  let setupCommand = config.setup_command ?? (plan ? replaySetup(plan) : void 0) ?? detectSetupCommand(workspace, whichIn(settingsOf(job.deps.env).path), runner);
  let setupResult;
  let failingCommand = resolved.failingCommand;
  let steps;
  if (anyPlan && !failingCommand) {
    const ran = await runWorkflowSteps(config.setup_command, plan, ciPlans, runSetupCommand);
    ({ setupCommand, setupResult, failingCommand, steps } = ran);
    for (const line of plan ? [] : [...steps?.plan.notes ?? [], ...steps?.tried ?? []])
      job.trace.emit({ type: "note", message: `replay: ${line}` });
  } else if (setupCommand) {
    const command = setupCommand;
    setupResult = await runSetup(job, workspace, command, () => runSetupCommand(command));
  }
  if (setupCommand) keepSetupCaches(job, sandbox);
  if (setupCommand) await excludeSetupArtifacts(workspace);
  if (!failingCommand) throw new RegreenError("usage", NO_COMMAND);
  const testCommand = resolved.testCommand ?? failingCommand;
  return {
    intake: intakeResult,
    workspace,
    baseSha: cloned.baseSha,
    branch: cloned.branch,
    config,
    context,
    setupCommand,
    setupResult,
    failingCommand,
    testCommand,
    sandbox,
    replayNotes: [
      ...(steps?.plan ?? plan)?.notes ?? [],
      ...managerNote ? [managerNote] : [],
      ...runner ? [runner.note] : []
    ],
    ...plan?.replay.entry ? { matrixEntry: plan.replay.entry } : {},
    model,
    ...runner ? { runnerNote: runner.note } : {},
    ...howFound(report, config.test_command, plan, steps)
  };
};

// src/job/stages/counted-run.ts
import { randomBytes as randomBytes3 } from "node:crypto";
import path30 from "node:path";
var MAX_REPORT_BYTES = 64 * 1024 * 1024;
var joined = (...parts) => parts.filter((part) => part !== void 0 && part !== "").join(" ");
var countedRun = async (sandbox, request) => {
  const { tmp } = privateFolders(sandbox.policy);
  const junit = path30.join(tmp, `regreen-report-${randomBytes3(8).toString("hex")}.xml`);
  const goCache = path30.join(tmp, `regreen-gocache-${randomBytes3(8).toString("hex")}`);
  const declared = request.env ?? {};
  try {
    const result = await sandbox.run({
      ...request,
      env: {
        ...declared,
        PYTEST_ADDOPTS: joined(declared.PYTEST_ADDOPTS, quote(`--junit-xml=${junit}`)),
        // Every test runs (no result replayed from a cache), from a build cache of this run alone.
        GOFLAGS: joined(
          settingsOf(sandbox.policy.baseEnv).goFlags,
          declared.GOFLAGS,
          "-v",
          "-count=1"
        ),
        GOCACHE: goCache,
        [TEST_REPORT_VARIABLE]: junit
      }
    });
    let xml;
    try {
      xml = readFileInsideUpTo(tmp, junit, MAX_REPORT_BYTES)?.toString("utf8");
    } catch {
      xml = void 0;
    }
    const output = result.output.split("\n").filter((line) => !line.includes(junit)).join("\n");
    return { ...result, output, proof: { junit: xml, goVerbose: true } };
  } finally {
    try {
      removeTree(goCache);
    } catch {
    }
    try {
      removeFileInside(tmp, junit);
    } catch {
    }
  }
};

// src/intake/failure-report.ts
import { createHash as createHash6 } from "node:crypto";
var VOLATILE = [
  [/\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g, "<time>"],
  [/\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/g, "<time>"],
  [
    /(?:\/home\/runner\/work|\/Users\/runner\/work|\/home\/travis\/build|\/Users\/travis\/build|\/__w|[A-Za-z]:\\a)[/\\][^/\\\s]+[/\\][^/\\\s]+/g,
    "<repo>"
  ],
  [
    /(?:\/tmp|\/var\/folders|\/private\/var|[A-Za-z]:\\Users\\[^\\]+\\AppData\\Local\\Temp)[/\\][^\s:'")\]]+/g,
    "<tmp>"
  ],
  [/\b[0-9a-f]{8}-(?:[0-9a-f]{4}-){3}[0-9a-f]{12}\b/gi, "<uuid>"],
  [/\b[0-9a-f]{7,64}\b/gi, "<hex>"],
  [/\b\d+(?:[.,]\d+)?\s?(?:ns|µs|us|ms|s|sec|secs|seconds?|m|min|minutes?|h)\b/g, "<dur>"],
  [/\(\d+(?:\.\d+)?ms\)/g, ""],
  [/\b\d+(?:\.\d+)?\s?(?:B|KB|kB|KiB|MB|MiB|GB|GiB)\b/g, "<size>"],
  [/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?\b|\blocalhost:\d+\b|\[::1?\]:\d+/g, "<addr>"],
  [/\b\d{1,3}(?:,\d{3})+\b/g, "<n>"],
  [/[ \t]+/g, " "]
];
var withoutVolatile = (line) => VOLATILE.reduce((acc, [pattern2, replacement]) => acc.replace(pattern2, replacement), line).trim();
var normaliseErrorLines = (text) => stripAnsi(text).split("\n").map(withoutVolatile).filter((line) => line.length > 0);
var fingerprint = (parts) => {
  const hash = createHash6("sha256");
  hash.update(parts.command.trim());
  hash.update("\n");
  for (const line of parts.errorLines) hash.update(`${line}
`);
  return hash.digest("hex").slice(0, 12);
};

// src/intake/log-signals.ts
var NOT_AN_ERROR = [
  /\b(?:Failures|Errors|failed|errors|failures): 0\b(?!\.\d)(?:(?!Failures: [1-9]|Errors: [1-9]).)*$/i,
  /\b0 (?:failures?|errors?|failed)\b(?!.*\b[1-9]\d* (?:failures?|errors?|failed)\b)/i,
  /^\s*\[INFO\]/,
  /^\s*(?:Download(?:ing|ed)|Progress|Receiving objects|Resolving deltas|remote: )/,
  /^\s*npm (?:WARN|notice)\b/,
  /\b-W(?:error|no-error)\b|-Werror=|--fail-fast|--failfast|-DfailIfNoTests|fail_on|failOnError|continue-on-error/,
  /^\s*(?:ok|PASS|PASSED|passed|✓|√|✔|\[\+\])(?:\s|$)/,
  /\bPASSED\b|\bpassed\b(?!.*\bfailed\b)/,
  /^\s*\[(?:WARNING|WARN)\]/,
  /^\s*(?:Setting up|Unpacking|Selecting previously|Preparing to unpack|Get:\d+|Hit:\d+|Fetched )/,
  /^\s*(?:Compiling|Checking|Fresh|Installing|Collecting|Requirement already satisfied|Successfully installed)\b/,
  /^\s*(?:\$ |\+ )?(?:export |travis_|echo )/,
  /[/\\](?:errors?|failures?|exceptions?)[/\\.]|\b(?:error|failure|exception)s?\.(?:java|py|go|rs|js|ts|c|cc|cpp|h|rb|cs)\b/i
];
var MAVEN_FOOTER = /^\s*\[ERROR\]\s*(?:$|->\s*\[Help|To see the full stack trace|Re-run Maven|For more information about|\[Help \d+\]|After correcting the problems|mvn <goals>|Please refer to .* for the individual test results|See dump files)/;
var SIGNALS = [
  // Runner markers of a failed step or command.
  { pattern: /^##\[error\]/, score: 9 },
  { pattern: /The command ".*" (?:failed and )?exited with [1-9]\d*/, score: 6 },
  { pattern: /^(?:Build step .* marked build as failure|Finished: FAILURE)/, score: 3 },
  // Maven, surefire/failsafe, enforcer, dependency resolution. (Three patterns, not one: after
  // `\s*`, `.*` starts at the first non-blank and `\S+[.:]` at the first `.` or `:`, or each
  // blank and each dot is a place to backtrack from on a long line.)
  {
    pattern: /^\s*\[ERROR\]\s*(?:Failed to execute goal|COMPILATION ERROR|Failed tests:|Tests in error:|Tests run:.*(?:Failures|Errors): [1-9]|Could not resolve dependencies|Rule \d+:|Failed to collect dependencies|Errors?:|Failures?:)/,
    score: 10
  },
  {
    pattern: /^\s*\[ERROR\]\s*(?:\S.*)?(?:\.(?:java|kt|scala|groovy):\[?\d+|<<< (?:FAILURE|ERROR)!)/,
    score: 10
  },
  { pattern: /^\s*\[ERROR\]\s+\S[^\s.:]*[.:]\S+:\d+ /, score: 10 },
  { pattern: /^\s*\[ERROR\]/, score: 7 },
  { pattern: /<<< (?:FAILURE|ERROR)!/, score: 10 },
  { pattern: /^\s*(?:Failed tests|Tests in error|Tests with failures):/, score: 10 },
  { pattern: /Tests run:.*(?:Failures|Errors): [1-9]/, score: 8 },
  { pattern: /BUILD FAILURE|\[FATAL\]/, score: 6 },
  // Gradle and JUnit/TestNG.
  { pattern: /^\s*\* What went wrong:/, score: 10 },
  { pattern: /^\s*(?:FAILURE: Build failed|BUILD FAILED)/, score: 8 },
  { pattern: /^[\w.$]+ > \S.* FAILED\s*$/, score: 10 },
  // Karma and other browser runners: `Chrome 70.0 (Linux 0.0.0) suite should … FAILED`.
  { pattern: /^(?:[A-Z][\w-]* )+[\d.]+ \([^)]*\) .* FAILED\s*$/, score: 10 },
  { pattern: /\bFAILED\s*$/, score: 7 },
  { pattern: /^> Task \S+ FAILED/, score: 8 },
  { pattern: /^\s*(?:Exception in thread|Caused by:)/, score: 8 },
  { pattern: /^\s*(?:[a-z][\w$]*\.)+[A-Z][\w$]*(?:Exception|Error|Failure)\b(?::|$)/, score: 8 },
  // Python: pytest, unittest, tox/nox, tracebacks, flake8.
  { pattern: /^\s*Traceback \(most recent call last\)/, score: 9 },
  { pattern: /^E {2,}\S|^E\s+\w+(?:Error|Exception)\b/, score: 8 },
  { pattern: /^_{3,} (?:ERROR collecting|ERROR at|.+) _{3,}$/, score: 8 },
  { pattern: /^={3,} (?:FAILURES|ERRORS) ={3,}$/, score: 7 },
  { pattern: /^(?:FAILED|ERROR) \S+(?:::|\.py)/, score: 9 },
  { pattern: /^(?:FAIL|ERROR): \w+ \(/, score: 10 },
  { pattern: /^\w*(?:Error|Exception): /, score: 8 },
  {
    pattern: /^ERROR: .*(?:commands? failed|InvocationError|could not)|^\s*\w+: commands failed/,
    score: 8
  },
  { pattern: /^=+ .*\b(?:\d+ (?:failed|errors?))\b.* =+$/, score: 8 },
  { pattern: /^\S+\.py:\d+:\d+: [A-Z]\d{3} /, score: 9 },
  // Go: tests, build, vet, panics.
  { pattern: /^\s*--- FAIL: /, score: 10 },
  { pattern: /^\s*panic: |^fatal error: /, score: 10 },
  { pattern: /^FAIL\s+\S+/, score: 7 },
  { pattern: /^\s*\S+\.go:\d+(?::\d+)?: /, score: 9 },
  { pattern: /^# \S+$/, score: 4 },
  // Rust: rustc/cargo diagnostics, test failures, panics.
  { pattern: /^error(?:\[E\d{4}\])?: /, score: 10 },
  { pattern: /^\s*--> \S+:\d+:\d+/, score: 8 },
  { pattern: /^test \S+ \.\.\. FAILED/, score: 10 },
  { pattern: /panicked at /, score: 10 },
  { pattern: /^---- \S+ stdout ----/, score: 9 },
  { pattern: /^test result: FAILED/, score: 8 },
  // C/C++: gcc/clang, linkers, make, CMake.
  { pattern: /:\d+(?::\d+)?: (?:fatal )?error: /, score: 10 },
  {
    pattern: /undefined reference to|ld returned \d+ exit status|Undefined symbols? for architecture/,
    score: 10
  },
  { pattern: /^CMake Error\b/, score: 10 },
  { pattern: /^(?:g?make(?:\[\d+\])?|ninja): \*\*\*|^ninja: build stopped|^FAILED: /, score: 7 },
  { pattern: /^(?:fatal )?error: |^\s*collect2: error/, score: 9 },
  { pattern: /\bAssertion .* failed\b|\bSegmentation fault\b|\bAborted \(core dumped\)/, score: 9 },
  // JavaScript/TypeScript: tsc, eslint, jest, mocha, tap, npm.
  { pattern: /\(\d+,\d+\): error TS\d+|\berror TS\d+:/, score: 10 },
  { pattern: /^\s*\d+:\d+\s+(?:error|✖)\s/, score: 9 },
  { pattern: /^\s*✖ \d+ problems?/, score: 8 },
  { pattern: /^\s*● /, score: 10 },
  { pattern: /^\s*(?:FAIL|✕|×|✗|✘)\s+\S/, score: 8 },
  { pattern: /^\s*\d+\) \S/, score: 7 },
  { pattern: /^\s*\d+ failing\b/, score: 9 },
  { pattern: /^not ok \d+/, score: 9 },
  { pattern: /^\s*(?:Assertion|Type|Reference|Syntax|Range)Error\b/, score: 9 },
  {
    pattern: /^npm ERR! (?:code|errno|Failed at|Test failed|missing script|\S+ (?:ERESOLVE|E404|ETARGET))/,
    score: 8
  },
  { pattern: /^npm ERR!|^error Command failed|^ERR_PNPM_|^\s*ELIFECYCLE/, score: 6 },
  { pattern: /^\S+\.[cm]?[jt]sx?:\d+(?::\d+)? /, score: 8 },
  // .NET: msbuild (any tool's code: CS, MSB, NU, NETSDK, CA, IDE, SA…), xunit/nunit/mstest/vstest.
  { pattern: /\[FAIL\]\s*$/, score: 10 },
  { pattern: /\berror [A-Z]{2,8}\d{3,5}\b/, score: 10 },
  { pattern: /^\s*\d+\) (?:Failed|Error|Invalid|Test Failure|Test Error) : \S/, score: 10 },
  { pattern: /^\s*(?:Failed|X) \S+ \[[<\d]/, score: 9 },
  { pattern: /^\s*Failed!\s+-\s+Failed:\s+[1-9]/, score: 8 },
  { pattern: /^\s*Build FAILED\.|^\s*Test Run Failed\./, score: 8 },
  // PowerShell: Pester's failed tests, exceptions, error records (`At script.ps1:12 char:5`, `+ CategoryInfo`).
  { pattern: /^\s*\[-\] \S/, score: 10 },
  { pattern: /^At \S+\.ps[dm]?1:\d+|^\s*\+ (?:CategoryInfo|FullyQualifiedErrorId)\s*:/, score: 8 },
  { pattern: /^\s*(?:[A-Z]\w*)?(?:Exception|Error): \S/, score: 8 },
  // Ruby and others: rspec, minitest, rubocop, PHPUnit, Elixir, Haskell.
  { pattern: /^\s*(?:Failure|Error):\s*$|^\s*\d+\) (?:Failure|Error):/, score: 9 },
  { pattern: /^\s*(?:Failures|Errors|Failed tests?|Failing tests?):\s*$/, score: 8 },
  { pattern: /^rspec \.\/\S+:\d+/, score: 9 },
  { pattern: /^\d+ (?:examples?|tests?|runs?), \d+ (?:failures?|assertions)/, score: 7 },
  { pattern: /^There (?:was|were) \d+ (?:failures?|errors?):/, score: 10 },
  { pattern: /^\S+:\d+:\d+: [CEFW]: /, score: 8 },
  { pattern: /^\*\* \(\w+\)|^\s*\*\* \(\S+Error\)/, score: 9 },
  // The system and the shell.
  {
    pattern: /No space left on device|[Cc]ommand not found|Permission denied|Out of memory|Killed\b.*signal|[Ss]egmentation fault|Connection refused|cannot stat|No such file or directory|Cannot allocate memory|Too many open files/,
    score: 7
  },
  { pattern: /^(?:\/bin\/)?(?:ba|z|da)?sh: (?:line \d+: )?\S/, score: 7 },
  // Docker builds.
  { pattern: /^(?:ERROR: failed to solve|The command '.*' returned a non-zero code)/, score: 9 },
  // Anything that says it.
  { pattern: /\b(?:fatal|FATAL)\b/, score: 6 },
  { pattern: /\berror\b|\bERROR\b|\bError\b/, score: 5 },
  { pattern: /\b(?:fail(?:ed|ure|ing|s)?|FAIL(?:ED|URE)?|Fail(?:ed|ure)?)\b/, score: 5 },
  { pattern: /\bexception\b|\bException\b|\bpanic\b|\bTraceback\b/, score: 5 },
  { pattern: /\b(?:expected|Expected|actual|Actual|assert)\b/, score: 3 },
  { pattern: /\b(?:warning|Warning|WARNING)\b|\bnot found\b|\bcannot\b|\bunable to\b/i, score: 2 }
];
var lineSignal = (text) => {
  if (text.length === 0) return 0;
  if (MAVEN_FOOTER.test(text)) return 1;
  let best = 0;
  for (const signal of SIGNALS) {
    if (signal.score > best && signal.pattern.test(text)) best = signal.score;
  }
  if (best > 0 && best <= 5 && NOT_AN_ERROR.some((pattern2) => pattern2.test(text))) return 0;
  if (best > 5 && NOT_AN_ERROR.slice(0, 2).some((pattern2) => pattern2.test(text))) return 1;
  return best;
};
var continues = (previous, text) => {
  if (text.length === 0) return false;
  if (/^\s+\S/.test(text)) return true;
  if (/^(?:at |Caused by:|\.\.\. \d+ more|\|\s|\d+\s*\||=\s|\^|~+)/.test(text)) return true;
  const prefix = /^(\[ERROR\]|npm ERR!|E {2,}|E$|>|##\[error\]|error:|warning:|note:|help:)/.exec(
    previous
  )?.[1];
  return prefix !== void 0 && text.startsWith(prefix.trimEnd());
};
var opensBlock = (text) => /^(?:={3,}|_{3,}|-{3,} \S|\* What went wrong|[\w.$]+ > \S.* FAILED|Failures:|failures:|Tests in error:|Failed tests:)/.test(
  text
);

// src/intake/log-baseline.ts
var RUN_NOISE = [
  // Go's and others' compound durations: `1m2.5s`, `1h2m3s`, `0m0s`.
  [
    /\b\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|us|ns)(?:\d+(?:\.\d+)?(?:h|m(?!s)|s|ms|µs|us|ns))+\b/g,
    "<dur>"
  ],
  // Addresses and offsets: `0xc000123456`, `+0x1d`.
  [/\b0x[0-9a-f]+\b/gi, "<hex>"]
];
var runInvariant = (text) => withoutVolatile(RUN_NOISE.reduce((acc, [pattern2, to]) => acc.replace(pattern2, to), text)).replace(/\b\d[\d,._]*\b/g, "<n>").replace(/\s+/g, " ");
var baselineLines = (lines) => {
  const out = /* @__PURE__ */ new Set();
  for (const line of lines) {
    const key = runInvariant(line);
    if (key) out.add(key);
  }
  return out;
};

// src/intake/log-regions.ts
var FAILED_MARK = /^##\[error\]Process completed with exit code|The command ".*" (?:failed and )?exited with/;
var printedLines = (lines, region) => {
  let from = region.from + 1;
  if (/^##\[group\]/.test(lines[region.from]?.text ?? "")) {
    for (let i = region.from; i <= region.to; i += 1) {
      if (/^##\[endgroup\]/.test(lines[i]?.text ?? "")) {
        from = i + 1;
        break;
      }
    }
  }
  let printed = 0;
  for (let i = from; i <= region.to; i += 1) {
    const text = lines[i]?.text ?? "";
    if (text.trim() !== "" && !FAILED_MARK.test(text)) printed += 1;
  }
  return printed;
};
var MAVEN_FAILED = /^\[(?:INFO|ERROR)\] BUILD FAILURE\s*$/;
var MAVEN_EXECUTION = /^\[INFO\] --- [\w.-]+:[\w.-]+:[\w.-]+ /;
var MAVEN_ERROR = /^\[ERROR\]/;
var mavenFailure = (lines) => {
  let failed = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1)
    if (MAVEN_FAILED.test(lines[i]?.text ?? "")) {
      failed = i;
      break;
    }
  if (failed < 0) return void 0;
  let from = failed;
  while (from > 0 && !MAVEN_EXECUTION.test(lines[from]?.text ?? "")) from -= 1;
  let to = failed;
  let footer = false;
  for (let i = failed + 1; i < lines.length; i += 1) {
    const error = MAVEN_ERROR.test(lines[i]?.text ?? "");
    if (footer && !error) break;
    if (error) footer = true;
    to = i;
  }
  return { from, to: footer ? to : failed };
};

// src/intake/outline/types.ts
var spansOf = (indexes) => {
  const spans = [];
  for (const i of [...indexes].sort((a, b) => a - b)) {
    const last = spans.at(-1);
    if (last && last.to === i - 1) spans[spans.length - 1] = { from: last.from, to: i };
    else if (!last || last.to < i) spans.push({ from: i, to: i });
  }
  return spans;
};
var indentOf2 = (text) => /^\s*/.exec(text)?.[0].length ?? 0;

// src/intake/outline/dotnet.ts
var PASSED = /^\s*(?:Passed\s+(?:\S.*\s\[[<\d.\s]+(?:ms|s|m|h)\]|[\w.`<>+$]+(?:\(.*\))?)\s*$|Passed!\s+-\s|\[\+\]\s+\S)|\s\[PASS\]\s*$/;
var SKIPPED = /^\s*Skipped\s+\S.*\[[<\d.\s]+(?:ms|s|m|h)\]\s*$/;
var SECTION = /^\s*(?:Standard Output Messages|Standard Error Messages|Additional Info Messages|Error Message|Stack Trace):\s*$/;
var RESULT = /^\s*(?:Passed|Failed|Skipped|X)\s+\S/;
var dotnetTest = (lines) => {
  const passing = /* @__PURE__ */ new Set();
  let open;
  lines.forEach(({ text }, i) => {
    if (PASSED.test(text) || SKIPPED.test(text)) {
      passing.add(i);
      open = { depth: indentOf2(text), section: false };
    } else if (open && SECTION.test(text)) {
      passing.add(i);
      open = { ...open, section: true };
    } else if (open && text.trim() !== "" && !RESULT.test(text) && (open.section || indentOf2(text) > open.depth)) {
      passing.add(i);
    } else {
      open = void 0;
    }
  });
  return { passing, failing: [] };
};

// src/intake/outline/go.ts
var MARKER = /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s+(\S+)/;
var RESULT2 = /^(\s*)--- (PASS|FAIL|SKIP): (\S+)/;
var PACKAGE_PASSED = /^(?:ok\s+\S+\s+(?:\(cached\)|\d+(?:\.\d+)?s\b)|\?\s+\S+\s+\[no test files\]|PASS\s*$)/;
var FETCHING = /^go: (?:downloading|extracting|finding) \S+ v\S+\s*$/;
var PACKAGE_END = /^(?:PASS|FAIL|ok)(?:\s|$)/;
var goTest = (lines) => {
  const passing = /* @__PURE__ */ new Set();
  const owner = /* @__PURE__ */ new Map();
  const outcome = /* @__PURE__ */ new Map();
  let current;
  let reported;
  lines.forEach(({ text }, i) => {
    const marker = MARKER.exec(text);
    const result = RESULT2.exec(text);
    if (marker?.[1]) {
      current = marker[1];
      reported = void 0;
      owner.set(i, current);
    } else if (result?.[3]) {
      const name = result[3];
      if (outcome.get(name) !== "fail") outcome.set(name, result[2] === "FAIL" ? "fail" : "pass");
      owner.set(i, name);
      reported = { name, depth: result[1]?.length ?? 0 };
      current = void 0;
    } else if (FETCHING.test(text)) {
      passing.add(i);
    } else if (PACKAGE_PASSED.test(text)) {
      passing.add(i);
      current = void 0;
      reported = void 0;
    } else if (PACKAGE_END.test(text)) {
      current = void 0;
      reported = void 0;
    } else if (reported && (text.trim() === "" || indentOf2(text) > reported.depth)) {
      owner.set(i, reported.name);
    } else {
      reported = void 0;
      if (current !== void 0) owner.set(i, current);
    }
  });
  const failing = [];
  for (const [i, name] of owner) {
    if (outcome.get(name) === "pass") passing.add(i);
    else if (outcome.get(name) === "fail") failing.push(i);
  }
  return { passing, failing: spansOf(failing) };
};

// src/intake/outline/jvm.ts
var LEVEL = /(?:\[(?:INFO|WARNING|ERROR)\]\s+)?/;
var RUNNING = pattern()`^${LEVEL}Running ([\w.$]+)\s*$`;
var CLASS_SUMMARY = pattern()`^${LEVEL}Tests run: \d+, Failures: (\d+), Errors: (\d+), Skipped: \d+, Time elapsed: `;
var classSummary = (text) => {
  const head = CLASS_SUMMARY.exec(text);
  const rest = head ? text.slice(head[0].length).trimEnd() : "";
  if (!head || !/^.*$/.test(rest)) return void 0;
  return [head[1] ?? "", head[2] ?? "", /--? in ([\w.$]+)$/.exec(rest)?.[1]];
};
var GRADLE_PASSED = /^[\w.$]+ > .+ (?:PASSED|SKIPPED)\s*$/;
var surefire = (lines) => {
  const passing = /* @__PURE__ */ new Set();
  const failing = [];
  let open;
  lines.forEach(({ text }, i) => {
    if (GRADLE_PASSED.test(text)) {
      passing.add(i);
      return;
    }
    const running = RUNNING.exec(text);
    if (running?.[1]) {
      open = { name: running[1], from: i, alone: open === void 0 };
      return;
    }
    const summary = classSummary(text);
    if (!summary) return;
    const ended = open;
    open = void 0;
    if (!ended?.alone || summary[2] !== void 0 && summary[2] !== ended.name) return;
    const passed = summary[0] === "0" && summary[1] === "0";
    for (let k = ended.from; k <= i; k += 1) {
      if (passed) passing.add(k);
      else failing.push(k);
    }
  });
  return { passing, failing: spansOf(failing) };
};

// src/intake/outline/python.ts
var PASSED_STATUS = /(?:PASSED|SKIPPED|XFAIL|XPASS)/;
var VERBOSE = pattern()`^\S+\.py::\S.*?\s${PASSED_STATUS}(?:\s+\(.*\))?(?:\s+\[\s*\d+%\])?\s*$`;
var STATUS_FIRST = pattern()`^(?:\[gw\d+\]\s+(?:\[\s*\d+%\]\s+)?)?${PASSED_STATUS}\s+\S+\.py(?:::|:\d+|\s|$)`;
var PROGRESS = /^(?:\S+\.py [.sxX]+(?:\s+\[\s*\d+%\])?|[.sxX]+\s+\[\s*\d+%\])\s*$/;
var unittestPassed = (text) => {
  const head = /^\w+ \([\w.]+\)/.exec(text);
  const rest = head ? text.slice(head[0].length).trimEnd() : "";
  return head !== null && /^.*$/.test(rest) && (/^(?: \S.*)? \.\.\. (?:ok|expected failure)$/.test(rest) || /^(?: \S.*?)? \.\.\. skipped\b/.test(rest));
};
var SECTION2 = /^=+ (.+?) =+\s*$/;
var pytest = (lines) => {
  const passing = /* @__PURE__ */ new Set();
  let inPasses = false;
  lines.forEach(({ text }, i) => {
    const section = SECTION2.exec(text);
    if (section) inPasses = section[1] === "PASSES";
    if (inPasses || VERBOSE.test(text) || STATUS_FIRST.test(text) || PROGRESS.test(text) || unittestPassed(text))
      passing.add(i);
  });
  return { passing, failing: [] };
};

// src/intake/outline/index.ts
var OUTLINERS = [goTest, surefire, dotnetTest, pytest];
var isBlank = (line) => (line?.text.trim() ?? "") === "";
var passingHeadings = (lines, passing) => {
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const text = lines[i]?.text ?? "";
    if (passing.has(i) || text.trim() === "" || lineSignal(text) >= 5) continue;
    const depth = indentOf2(text);
    let children = 0;
    let all = true;
    for (let k = i + 1; k < lines.length; k += 1) {
      if (isBlank(lines[k])) continue;
      if (indentOf2(lines[k]?.text ?? "") <= depth) break;
      children += 1;
      if (!passing.has(k)) {
        all = false;
        break;
      }
    }
    if (children > 0 && all) passing.add(i);
  }
};
var testOutline = (lines) => {
  const passing = /* @__PURE__ */ new Set();
  const failing = [];
  for (const outline of OUTLINERS.map((outliner) => outliner(lines))) {
    for (const i of outline.passing) passing.add(i);
    failing.push(...outline.failing);
  }
  if (passing.size > 0) passingHeadings(lines, passing);
  return { passing, failing };
};

// src/intake/log-excerpt.ts
var MAX_BLOCK = 60;
var SHORT_REGION = 40;
var REGION_END = 12;
var STRONG_BLOCK = 3;
var REGION_FILL = 40;
var QUIET_REGION = 1;
var TEST_OUTPUT = 4;
var isBlank2 = (line) => (line?.text.trim() ?? "") === "";
var buildExcerpt = (input) => {
  const { regions, strict, baseline, maxLines } = input;
  const lines = terminalLines(input.lines);
  const regionOf = new Int32Array(lines.length).fill(-1);
  regions.forEach((region, r) => {
    for (let i = region.from; i <= region.to && i < lines.length; i += 1) regionOf[i] = r;
  });
  const inScope = (i) => !strict || regions.length === 0 || regionOf[i] !== -1;
  const outline = testOutline(lines);
  const passing = outline.passing;
  const shown = (i) => inScope(i) && !passing.has(i);
  const weight = (i) => regions.length === 0 || regionOf[i] !== -1 ? 1 : strict ? 0 : 0.5;
  const isNew = (i) => {
    const key = runInvariant(lines[i]?.text ?? "");
    return baseline !== void 0 && key !== "" && !baseline.has(key);
  };
  const mark = (i) => {
    const line = lines[i];
    return baseline === void 0 ? line : { line: line.line, text: line.text, new: isNew(i) };
  };
  const raw = lines.map((l) => lineSignal(l.text));
  for (const i of input.recognised) if (i >= 0 && i < raw.length) raw[i] = 10;
  const scored = raw.map((signal, i) => {
    if (signal === 0 || !shown(i)) return 0;
    let score = signal * weight(i);
    if (baseline !== void 0) score = isNew(i) ? score + 2 : score * 0.25;
    return score;
  });
  const blocks = [];
  let order = 0;
  for (let i = 0; i < lines.length; i += 1) {
    const score = scored[i] ?? 0;
    if (score <= 0) continue;
    blocks.push({ ...blockAround(lines, i, shown, (raw[i] ?? 0) >= 9), score, order: order++ });
  }
  for (const span of outline.failing) {
    if (!shown(span.to)) continue;
    const from = Math.max(span.from, span.to - SHORT_REGION + 1);
    blocks.push({ from, to: span.to, score: TEST_OUTPUT * weight(span.to), order: order++ });
  }
  for (const region of regions) {
    const length = region.to - region.from + 1;
    if (length <= SHORT_REGION)
      blocks.push({ from: region.from, to: region.to, score: 9.5, order: order++ });
    else
      blocks.push({ from: region.to - REGION_END + 1, to: region.to, score: 6.5, order: order++ });
  }
  if (blocks.length === 0) {
    const scope = lines.map((_, i) => i).filter(shown);
    const tail = scope.slice(-Math.min(maxLines, 40));
    return {
      lines: tail.map(mark),
      keyLines: [],
      strongest: 0,
      newLines: baseline ? tail.filter(isNew).length : 0
    };
  }
  blocks.sort((a, b) => b.score - a.score || a.order - b.order);
  const keep2 = /* @__PURE__ */ new Set();
  const seen = /* @__PURE__ */ new Set();
  const take = (block) => {
    const signature = runInvariant(
      lines.slice(block.from, Math.min(block.to, block.from + 3) + 1).map((l) => l.text).join("\n")
    );
    if (seen.has(signature) && block.to - block.from < 30) return;
    seen.add(signature);
    for (let i = block.from; i <= block.to && keep2.size < maxLines; i += 1) {
      if (shown(i)) keep2.add(i);
    }
  };
  const fillBack = (end, count2, floor = 0, visible = shown) => {
    let added = 0;
    for (let i = end; i >= floor && keep2.size < maxLines && added < count2; i -= 1) {
      if (visible(i) && !isBlank2(lines[i]) && !keep2.has(i)) {
        keep2.add(i);
        added += 1;
      }
    }
  };
  for (const block of blocks) if (block.score >= STRONG_BLOCK && keep2.size < maxLines) take(block);
  for (const region of regions) fillBack(region.to, REGION_FILL, region.from);
  for (const block of blocks) if (block.score < STRONG_BLOCK && keep2.size < maxLines) take(block);
  regions.forEach((region, r) => {
    fillBack(region.to, maxLines, region.from);
    if (printedLines(lines, region) <= QUIET_REGION)
      fillBack(region.from - 1, maxLines, (regions[r - 1]?.to ?? -1) + 1, (i) => !passing.has(i));
  });
  fillBack(lines.length - 1, maxLines, (regions.at(-1)?.to ?? -1) + 1);
  for (const i of [...keep2].sort((a, b) => a - b)) {
    let j = i + 1;
    while (j < lines.length && isBlank2(lines[j]) && shown(j)) j += 1;
    for (let k = i + 1; k < j && keep2.has(j) && keep2.size < maxLines; k += 1) keep2.add(k);
  }
  const chosen2 = [...keep2].sort((a, b) => a - b);
  const keyLines = [];
  let strongest = 0;
  for (let i = 0; i < lines.length; i += 1) {
    if (!inScope(i) || weight(i) !== 1) continue;
    strongest = Math.max(strongest, raw[i] ?? 0);
    if ((raw[i] ?? 0) >= 8 && keyLines.length < 20) keyLines.push(i);
  }
  return {
    lines: chosen2.map(mark),
    keyLines,
    strongest,
    newLines: baseline ? chosen2.filter(isNew).length : 0
  };
};
var blockAround = (lines, anchor, inScope, strong) => {
  let from = anchor;
  while (from > 0 && anchor - from < 10 && inScope(from - 1) && !isBlank2(lines[from - 1]) && continues(lines[from - 1]?.text ?? "", lines[from]?.text ?? ""))
    from -= 1;
  if (from > 0 && inScope(from - 1) && !isBlank2(lines[from - 1])) from -= 1;
  const section = opensBlock(lines[anchor]?.text ?? "");
  const paragraph = strong;
  let to = anchor;
  while (to + 1 < lines.length && to - anchor < MAX_BLOCK && inScope(to + 1)) {
    const next = lines[to + 1];
    const text = next?.text ?? "";
    if (section) {
      if (opensBlock(text) && to > anchor) break;
      if (isBlank2(next) && isBlank2(lines[to + 2])) break;
      to += 1;
      continue;
    }
    if (isBlank2(next)) {
      let ahead = to + 1;
      while (ahead < to + 3 && isBlank2(lines[ahead])) ahead += 1;
      const after = lines[ahead]?.text ?? "";
      if (!isBlank2(lines[ahead]) && inScope(ahead) && /^\s+\S/.test(after) && (paragraph || continues(lines[to]?.text ?? "", after))) {
        to = ahead;
        continue;
      }
      break;
    }
    if (paragraph ? opensBlock(text) : !continues(lines[to]?.text ?? "", text)) break;
    to += 1;
  }
  if (to + 1 < lines.length && inScope(to + 1) && !isBlank2(lines[to + 1]) && to - anchor < MAX_BLOCK)
    to += 1;
  return { from, to };
};

// src/intake/actions-log.ts
var DEFAULT_LIMITS = { maxLineChars: 500, maxExcerptLines: 120 };
var MAX_LOG_CHARS = 16 * 1024 * 1024;
var TIMESTAMP = /^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z ?/;
var TRAVIS_MARKER = /travis_(?:fold|time):(?:start|end):[^\u001b\r\n]*?(?=\u001b|\r|$)/g;
var ERROR_LINE = /(error|fail(?:ed|ure|ing)?\b|assert|expected|exception|panic|traceback|✖|×|✕|❯|●|not ok|\[warn\]|<<< )/i;
var NOISE = /^(?:##\[(?:group|endgroup|debug|command)\]|shell: |env:$|Post job cleanup|Cleaning up orphan|Complete job|Process completed with exit code)/;
var clip = (text, max) => text.length <= max ? text : `${text.slice(0, max)} [\u2026 ${text.length - max} chars cut]`;
var clean = (raw, maxChars) => {
  const budget = maxChars * 4;
  const cut = raw.length <= budget ? raw : raw.includes("\r") ? raw.slice(-budget) : raw.slice(0, budget);
  let text = stripAnsi(cut.replace(TIMESTAMP, "").replace(TRAVIS_MARKER, ""));
  if (text.includes("\r")) {
    const pieces = text.split("\r").filter((piece) => piece.trim() !== "");
    text = pieces.slice(-2).join(" \u23CE ");
  }
  return clip(text, maxChars);
};
var triageLog = (raw, options = {}) => {
  const { maxLineChars, maxExcerptLines } = { ...DEFAULT_LIMITS, ...options };
  const truncated = raw.length > MAX_LOG_CHARS;
  const text = truncated ? raw.slice(raw.length - MAX_LOG_CHARS) : raw;
  const rawLines = text.split("\n");
  const offset = truncated ? raw.slice(0, raw.length - MAX_LOG_CHARS).split("\n").length - 1 : 0;
  const lines = rawLines.map((line, index) => ({
    line: index + 1 + offset,
    text: clean(line, maxLineChars)
  }));
  if (lines.at(-1)?.text === "") lines.pop();
  const steps = findSteps(lines);
  const failingStep = steps.findLast((step) => step.failed);
  const indexOf = new Map(lines.map((l, i) => [l.line, i]));
  const regions = failingStep ? [
    {
      from: indexOf.get(failingStep.startLine) ?? 0,
      to: indexOf.get(failingStep.endLine) ?? lines.length - 1
    }
  ] : failingCommandsOrBuild(lines);
  const scope = failingStep ? lines.filter((l) => l.line >= failingStep.startLine && l.line <= failingStep.endLine) : lines;
  const body = scope.filter((l) => !NOISE.test(l.text.replace(/^##\[error\]/, "")));
  const failures = recogniseFailures(body);
  const excerpt = buildExcerpt({
    lines,
    regions,
    strict: failingStep !== void 0,
    recognised: verdictFailures(failures).map((f) => indexOf.get(f.logLine) ?? -1),
    ...options.baseline !== void 0 ? { baseline: baselineLines(options.baseline.split("\n").map((l) => clean(l, maxLineChars))) } : {},
    maxLines: maxExcerptLines
  });
  const keyText = excerpt.keyLines.map((i) => lines[i]?.text ?? "").filter((text2) => !NOISE.test(text2.replace(/^##\[error\]/, ""))).join("\n");
  const errorText = keyText || excerpt.lines.filter((l) => ERROR_LINE.test(l.text) && !NOISE.test(l.text.replace(/^##\[error\]/, ""))).map((l) => l.text).join("\n");
  const located = failingStep !== void 0 || regions.length > 0 || failures.length > 0 || excerpt.strongest >= 8;
  return {
    steps,
    ...failingStep ? { failingStep } : {},
    excerpt: excerpt.lines,
    failures,
    fingerprint: failureFingerprint(failures, failingStep?.title ?? "", errorText),
    totalLines: lines.at(-1)?.line ?? 0,
    truncated,
    verdict: located ? "located" : showsSuccess(lines, steps) ? "success" : "guessed",
    ...options.baseline !== void 0 ? { newLines: excerpt.newLines } : {}
  };
};
var verdictFailures = (failures) => failures.some((f) => f.format === "pester") ? failures.filter((f) => f.format !== "powershell") : failures;
var failingCommandsOrBuild = (lines) => {
  const commands = failingCommands(lines);
  if (commands.length > 0) return commands;
  const maven = mavenFailure(lines);
  return maven ? [maven] : [];
};
var failingCommands = (lines) => {
  const regions = [];
  lines.forEach((entry, index) => {
    if (!/The command ".*" (?:failed and )?exited with [1-9]\d*/.test(entry.text)) return;
    let from = index;
    const floor = regions.at(-1)?.to ?? -1;
    while (from > floor + 1 && !/(?:^|⏎ )\$ \S/.test(lines[from - 1]?.text ?? "")) from -= 1;
    regions.push({ from: from > floor + 1 ? from - 1 : from, to: index });
  });
  return regions;
};
var showsSuccess = (lines, steps) => {
  const text = (l) => l.text;
  if (lines.some((l) => /^##\[error\]/.test(text(l)))) return false;
  if (steps.length > 0) return steps.every((s) => !s.failed);
  return lines.slice(-50).some(
    (l) => /^(?:Done\. Your build exited with 0\.|Finished: SUCCESS|\[INFO\] BUILD SUCCESS|BUILD SUCCESSFUL\b)/.test(
      text(l)
    )
  );
};
var failureFingerprint = (failures, command, errorText) => failures.length > 0 ? fingerprint({
  command: "",
  errorLines: normaliseErrorLines(
    failures.map((f) => `${f.format} ${f.file ?? ""} ${f.test ?? ""} ${f.message ?? ""}`).join("\n")
  )
}) : fingerprint({ command, errorLines: normaliseErrorLines(errorText).slice(0, 60) });
var findSteps = (lines) => {
  const heads = [];
  lines.forEach((entry, index) => {
    const match = /^##\[group\](?:Run )?(.+)$/.exec(entry.text);
    if (match?.[1] && /^##\[group\]Run /.test(entry.text)) heads.push({ title: match[1], index });
  });
  return heads.map((head, i) => {
    let endIndex = (heads[i + 1]?.index ?? lines.length) - 1;
    let span = lines.slice(head.index, endIndex + 1);
    const exitAt = span.findIndex(
      (l) => /##\[error\]Process completed with exit code \d+\./.test(l.text)
    );
    if (exitAt >= 0) {
      endIndex = head.index + exitAt;
      span = span.slice(0, exitAt + 1);
    }
    const exit = exitAt >= 0 ? /##\[error\]Process completed with exit code (\d+)\./.exec(span[exitAt]?.text ?? "") : void 0;
    const failed = exit !== void 0 || span.some((l) => l.text.startsWith("##[error]"));
    return {
      title: head.title.trim(),
      startLine: lines[head.index]?.line ?? 0,
      endLine: lines[endIndex]?.line ?? 0,
      ...exit?.[1] ? { exitCode: Number(exit[1]) } : {},
      failed
    };
  });
};
var formatExcerpt = (excerpt, marked = false) => {
  const width = String(excerpt.at(-1)?.line ?? 0).length;
  const gutter = (entry) => !marked ? "" : entry.new === true ? "+ " : "  ";
  const out = [];
  let previous = -1;
  for (const entry of excerpt) {
    if (previous >= 0 && entry.line !== previous + 1) out.push(`${marked ? "  " : ""}\u2026`);
    out.push(`${gutter(entry)}${String(entry.line).padStart(width)}: ${entry.text}`);
    previous = entry.line;
  }
  return out.join("\n");
};

// src/observe/trace.ts
import { appendFileSync as appendFileSync2, mkdirSync as mkdirSync10 } from "node:fs";
import path31 from "node:path";
var fileTrace = (file, clock) => {
  mkdirSync10(path31.dirname(file), { recursive: true });
  return {
    path: file,
    // Every event is redacted as a whole: tool inputs, outputs and model text alike.
    emit: (event) => appendFileSync2(
      file,
      `${redactSecrets(JSON.stringify({ ts: new Date(clock.now()).toISOString(), ...event }))}
`
    )
  };
};
var workerTrace = (trace, worker) => ({
  path: trace.path,
  emit: (event) => trace.emit({ ...event, worker })
});

// checks/test-counts.ts
var GO_PACKAGE_LINE = /^(ok|FAIL)\s+\S+\s+(\(cached\)|[\d.]+s|\[)/m;
var number = (text) => text === void 0 ? 0 : Number(text);
var count = (line, word2) => {
  const match = pattern()`(\d+) ${word2}`.exec(line);
  return match ? Number(match[1]) : void 0;
};
var testCounts = (rawOutput, options = {}) => {
  const output = rawOutput.replace(/\x1b\[[0-9;]*m/g, "");
  const lines = output.split("\n");
  const last = (pattern2) => [...lines].reverse().find((line) => pattern2.test(line));
  const vitestTests = last(/^\s*Tests +\d+ \w+(?: \| \d+ \w+)* \(\d+\)/);
  if (vitestTests) {
    const broken = new Set(lines.flatMap((line) => /^\s*FAIL\s+(\S+)\s+\[/.exec(line)?.[1] ?? []));
    return {
      passed: count(vitestTests, /passed/) ?? 0,
      failed: count(vitestTests, /failed/) ?? 0,
      skipped: (count(vitestTests, /skipped/) ?? 0) + (count(vitestTests, /todo/) ?? 0),
      fileErrors: broken.size
    };
  }
  const jestTests = last(/^Tests:\s.*\d total\b/);
  if (jestTests) {
    const suites = last(/^Test Suites:\s+/) ?? "";
    const suiteErrors = (output.match(/Test suite failed to run/g) ?? []).length;
    return {
      passed: count(jestTests, /passed/) ?? 0,
      failed: count(jestTests, /failed/) ?? 0,
      skipped: (count(jestTests, /skipped/) ?? 0) + (count(jestTests, /todo/) ?? 0),
      fileErrors: suiteErrors || (count(jestTests, /failed/) ? 0 : count(suites, /failed/) ?? 0)
    };
  }
  const pytest2 = last(/^=+ .*\b(passed|failed|errors?|no tests ran)\b.* in [\d.]+s/);
  if (pytest2) {
    return {
      passed: count(pytest2, /passed/) ?? 0,
      failed: count(pytest2, /failed/) ?? 0,
      skipped: (count(pytest2, /skipped/) ?? 0) + (count(pytest2, /xfailed/) ?? 0),
      fileErrors: count(pytest2, /errors?/) ?? 0
    };
  }
  const cargo = lines.filter(
    (line) => /^test result: (ok|FAILED)\. \d+ passed; \d+ failed/.test(line)
  );
  if (cargo.length > 0) {
    const sum = (word2) => cargo.reduce((total, line) => total + (count(line, word2) ?? 0), 0);
    return {
      passed: sum(/passed/),
      failed: sum(/failed/),
      skipped: sum(/ignored/),
      fileErrors: (output.match(/^error(\[E\d+\])?: could not compile/gm) ?? []).length
    };
  }
  const passing = last(/^\s+\d+ passing\b/);
  if (passing) {
    return {
      passed: count(passing, /passing/) ?? 0,
      failed: count(last(/^\s+\d+ failing\b/) ?? "", /failing/) ?? 0,
      skipped: count(last(/^\s+\d+ pending\b/) ?? "", /pending/) ?? 0,
      fileErrors: 0
    };
  }
  const tapPass = last(/^[#ℹ] pass \d+/);
  if (tapPass) {
    const value = (word2) => number(pattern()`^[#ℹ] ${word2} (\d+)`.exec(last(pattern()`^[#ℹ] ${word2} \d+`) ?? "")?.[1]);
    return {
      passed: value("pass"),
      failed: value("fail") + value("cancelled"),
      skipped: value("skipped") + value("todo"),
      fileErrors: 0
    };
  }
  const goPackages = lines.filter((line) => /^(ok|FAIL|\?)\s+\S+/.test(line));
  if (goPackages.some((line) => GO_PACKAGE_LINE.test(line))) {
    const okPackages = goPackages.filter((line) => /^ok\s/.test(line)).length;
    const broken = goPackages.filter((line) => /\[(build|setup) failed\]/.test(line)).length;
    const failedTests = lines.filter((line) => /^\s*--- FAIL: /.test(line)).length;
    const passedTests = lines.filter((line) => /^\s*--- PASS: /.test(line)).length;
    const failedPackages = goPackages.filter((line) => /^FAIL\s/.test(line)).length - broken;
    return {
      // Without -v go names no passing test: a package that is ok counts as one. With -v a
      // package that printed `ok` and named no test ran none (a TestMain or init that exits 0).
      passed: options.goVerbose ? passedTests : passedTests || okPackages,
      failed: failedTests || failedPackages,
      skipped: lines.filter((line) => /^\s*--- SKIP: /.test(line)).length,
      fileErrors: broken
    };
  }
  const ran = last(/^Ran \d+ tests? in [\d.]+s$/);
  if (ran) {
    const verdict = last(/^(?:OK|FAILED)(?: \(|$)/) ?? "";
    const field = (name) => number(pattern()`\b${name}=(\d+)`.exec(verdict)?.[1]);
    const failed = field("failures") + field("unexpected successes");
    const errors = field("errors");
    const skipped = field("skipped");
    return {
      passed: Math.max(0, (count(ran, /tests?/) ?? 0) - failed - errors - skipped),
      failed: failed + errors,
      skipped,
      fileErrors: 0
    };
  }
  const minitest = last(/^\d+ runs, \d+ assertions, \d+ failures, \d+ errors, \d+ skips$/);
  if (minitest) {
    const runs = count(minitest, /runs/) ?? 0;
    const failed = (count(minitest, /failures/) ?? 0) + (count(minitest, /errors/) ?? 0);
    const skipped = count(minitest, /skips/) ?? 0;
    return { passed: Math.max(0, runs - failed - skipped), failed, skipped, fileErrors: 0 };
  }
  const rspec = last(/^\d+ examples?, \d+ failures?/);
  if (rspec) {
    const examples = count(rspec, /examples?/) ?? 0;
    const failed = count(rspec, /failures?/) ?? 0;
    const skipped = count(rspec, /pending/) ?? 0;
    return {
      passed: Math.max(0, examples - failed - skipped),
      failed,
      skipped,
      fileErrors: count(rspec, /errors? occurred outside of examples/) ?? 0
    };
  }
  return void 0;
};
var describeCounts = (counts) => `${counts.passed} passed, ${counts.failed} failed${counts.skipped ? `, ${counts.skipped} skipped` : ""}${counts.fileErrors ? `, ${counts.fileErrors} file(s) that failed whole` : ""}`;

// checks/test-reports.ts
var parseTap = (text) => {
  const results = /* @__PURE__ */ new Map();
  for (const line of text.split("\n")) {
    const match = /^\s*(not ok|ok) +\d+(\D.*)?$/i.exec(line);
    if (!match) continue;
    const rest = match[2] ?? "";
    const hash = rest.indexOf("#");
    const name = (hash === -1 ? rest : rest.slice(0, hash)).replace(/^ *-? */, "").trim();
    if (!name) continue;
    const skipped = hash !== -1 && /^#\s*(?:SKIP|TODO)\b/i.test(rest.slice(hash));
    const status = skipped ? "skip" : match[1]?.toLowerCase() === "ok" ? "pass" : "fail";
    if (results.get(name) !== "fail") results.set(name, status);
  }
  return results;
};
var attribute = (tag, name) => {
  const match = pattern()`\b${name}\s*=\s*"([^"]*)"`.exec(tag);
  return match?.[1]?.replaceAll("&quot;", '"').replaceAll("&apos;", "'").replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&");
};
var testcaseTags = (xml) => {
  const found = [];
  let closable = true;
  for (let at = xml.indexOf("<testcase"); at !== -1; at = xml.indexOf("<testcase", at + 1)) {
    const after = xml[at + 9] ?? "";
    if (!/[\s/>]/.test(after)) continue;
    const end = xml.indexOf(">", at);
    if (end === -1) break;
    const tag = xml.slice(at + 9, end);
    if (tag.endsWith("/")) {
      found.push({ tag: tag.slice(0, -1), body: "" });
      at = end;
      continue;
    }
    const close = closable ? xml.indexOf("</testcase>", end) : -1;
    if (close === -1) {
      closable = false;
      at = end;
      continue;
    }
    found.push({ tag, body: xml.slice(end + 1, close) });
    at = close;
  }
  return found;
};
var openingTags = (xml, element) => {
  const tags = [];
  const open = `<${element}`;
  for (let at = xml.indexOf(open); at !== -1; at = xml.indexOf(open, at + 1)) {
    if (!/[\s/>]/.test(xml[at + open.length] ?? "")) continue;
    const end = xml.indexOf(">", at);
    if (end === -1) break;
    tags.push(xml.slice(at + open.length, end));
    at = end;
  }
  return tags;
};
var junitCases = (xml) => testcaseTags(xml).map(({ tag, body }) => ({
  name: attribute(tag, "name"),
  classname: attribute(tag, "classname"),
  status: /<(failure|error)\b/.test(body) ? "fail" : /<skipped\b/.test(body) ? "skip" : "pass",
  collection: openingTags(body, "error").some(
    (error) => error.includes('message="collection failure"')
  )
}));
var junitCounts = (xml) => {
  const counted = {
    passed: 0,
    failed: 0,
    skipped: 0,
    errors: 0,
    failing: /* @__PURE__ */ new Set(),
    outcomes: /* @__PURE__ */ new Map()
  };
  for (const testcase of junitCases(xml)) {
    const name = `${testcase.classname ?? ""}::${testcase.name ?? ""}`;
    if (testcase.collection) {
      counted.errors += 1;
    } else if (testcase.status === "fail") {
      counted.failed += 1;
      counted.failing.add(name);
      counted.outcomes.set(name, "fail");
    } else if (testcase.status === "skip") {
      counted.skipped += 1;
      if (counted.outcomes.get(name) !== "fail") counted.outcomes.set(name, "skip");
    } else {
      counted.passed += 1;
      if (!counted.outcomes.has(name)) counted.outcomes.set(name, "pass");
    }
  }
  for (const suite of openingTags(xml, "testsuite")) {
    const errors = Number(attribute(suite, "errors") ?? 0);
    const tests = Number(attribute(suite, "tests") ?? 0);
    if (tests === 0 && errors > 0) counted.errors += errors;
  }
  return counted;
};

// checks/run-counts.ts
var PYTEST_SUMMARY = /^=+ .*\b(passed|failed|errors?|no tests ran)\b.* in [\d.]+s/m;
var PYTEST_CLOSING = /^=* ?((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|rerun)(?:, )?)+) in [\d.]+s(?: \(\S+\))? ?=*$/gm;
var pytestPrintedFailures = (output) => {
  const last = [...output.matchAll(PYTEST_CLOSING)].at(-1)?.[1];
  if (last === void 0) return void 0;
  const count2 = (word2) => Number(pattern()`(\d+) ${word2}`.exec(last)?.[1] ?? 0);
  return count2(/failed/) + count2(/errors?/);
};
var readRun = (run2) => {
  if (run2.proof?.junit !== void 0) {
    const counted = junitCounts(run2.proof.junit);
    const printed = pytestPrintedFailures(stripAnsi(run2.output));
    const reported = counted.failed + counted.errors;
    const contradicted = printed !== void 0 && printed !== reported ? `the runner's report counts ${reported} failing, but it printed ${printed} failing as it ran: the report was not the runner's alone` : void 0;
    return {
      ...contradicted ? { contradicted } : {},
      closed: printed !== void 0,
      counts: {
        passed: counted.passed,
        failed: counted.failed,
        skipped: counted.skipped,
        fileErrors: counted.errors
      },
      failing: counted.failing,
      reported: true,
      proof: "the runner's JUnit report, written to a path made for the run"
    };
  }
  const output = stripAnsi(run2.output);
  const goVerbose = run2.proof?.goVerbose === true;
  const counts = testCounts(run2.output, { goVerbose });
  const isGo = counts !== void 0 && GO_PACKAGE_LINE.test(output) && !PYTEST_SUMMARY.test(output);
  return {
    counts,
    failing: failingTestNames(output),
    reported: false,
    proof: counts === void 0 ? "the exit code (no runner summary found)" : isGo && goVerbose ? "go test's line per test (-v)" : "the runner's printed summary, under the base's harness"
  };
};
var closingMissing = (before, after) => before.closed === true && after.reported && after.closed !== true;
var reportMissing = (before, after) => before.reported && !after.reported;

export {
  budgetFlags,
  PROXY_PORT,
  registryHostsOf,
  operatorCaBundles,
  lazily,
  hostGitObjectSync,
  indexGitlinks,
  stageChange,
  diffsOfStaged,
  workspaceDiff,
  workspaceDiffs,
  ChangeTooLargeError,
  commitTree,
  INSIDE_ID,
  NOBODY,
  hostIdentity,
  handOver,
  handOverAsync,
  handOverArgv,
  SYSTEM_DIRS,
  isAncestorOrSame,
  forgetEtcMasks,
  etcMounts,
  systemMounts,
  secretMasks,
  commandCgroup,
  parseEndpoints,
  startSetupProxy,
  refusedLine,
  removeTree,
  findSecrets,
  redactSecrets,
  httpAuthEnv,
  gitRemote,
  require_picomatch2 as require_picomatch,
  normaliseErrorLines,
  fingerprint,
  lineSignal,
  pattern,
  anyOf,
  triageLog,
  failureFingerprint,
  formatExcerpt,
  fileTrace,
  workerTrace,
  runStage,
  resolveRepoSource,
  openScratch,
  discardAtEnd,
  reproduceEnd,
  recipesEnd,
  agentEnd,
  checksEnd,
  excludeSetupArtifacts,
  touchesReads,
  leftTrackedAlone,
  refuseUnpriced,
  describeBudget,
  jobBudget,
  keepSetupCaches,
  handOnSetupCaches,
  preparedLine,
  openSandbox,
  runSetup,
  cloneForJob,
  prepare,
  countedRun,
  describeCounts,
  parseTap,
  junitCounts,
  readRun,
  closingMissing,
  reportMissing,
  sandboxKindOf,
  whereRan,
  nextSteps,
  summariseFailure,
  toolsUsed,
  shownCommand,
  setupFailed
};
