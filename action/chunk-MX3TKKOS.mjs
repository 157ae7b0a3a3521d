import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  settingsOf
} from "./chunk-2ZZLC3XA.mjs";
import {
  RegreenError
} from "./chunk-2SKYD2FN.mjs";
import {
  printable,
  quote,
  resolveInsideWorkspace,
  withoutUserinfo
} from "./chunk-EABGHHZK.mjs";

// src/intake/formats/types.ts
var withoutEscapes = (text) => (
  // eslint-disable-next-line no-control-regex
  text.replace(/\u001b[\u0020-\u002f]*[\u0030-\u007e]/g, "")
);
var terminalLines = (lines2) => lines2.map((l) => l.text.includes("\x1B") ? { ...l, text: withoutEscapes(l.text) } : l);
var RUNNER_ROOTS = [
  /^\/home\/runner\/work\/[^/]+\/[^/]+\//,
  /^\/Users\/runner\/work\/[^/]+\/[^/]+\//,
  /^[A-Za-z]:[\\/]a[\\/][^\\/]+[\\/][^\\/]+[\\/]/,
  /^\/__w\/[^/]+\/[^/]+\//,
  /^\/home\/travis\/build\/[^/]+\/[^/]+\//,
  /^\/Users\/travis\/build\/[^/]+\/[^/]+\//,
  /^file:\/\/\/home\/runner\/work\/[^/]+\/[^/]+\//
];
var repoPath = (file) => {
  let out = file.trim();
  for (const root of RUNNER_ROOTS) out = out.replace(root, "");
  return out.replace(/\\/g, "/").replace(/^\.\//, "");
};
var num = (value) => value === void 0 ? void 0 : Number.parseInt(value, 10);
var locationAfter = (lines2, from, within, pattern) => {
  for (let i = from + 1; i < Math.min(lines2.length, from + 1 + within); i += 1) {
    const match = pattern.exec(lines2[i]?.text ?? "");
    if (match?.[1] && match[2] && !/node_modules|node:internal/.test(match[1]))
      return { file: repoPath(match[1]), line: Number(match[2]) };
  }
  return void 0;
};
var FRAME = /\(?(?<![^\s():])((?:[A-Za-z]:)?[^\s():]+\.[cm]?[jt]sx?):(\d+):\d+\)?/;
var perLine = (format, pattern, pick) => (lines2) => lines2.flatMap((entry) => {
  const match = pattern.exec(entry.text);
  if (!match) return [];
  const { file, line, test, message } = pick(match);
  return [
    {
      format,
      ...file ? { file: repoPath(file) } : {},
      ...line ? { line: Number(line) } : {},
      ...test ? { test } : {},
      ...message ? { message: message.trim() } : {},
      logLine: entry.line
    }
  ];
});
var isWordChar = (char) => char !== void 0 && /^\w$/.test(char);
var hasWord = (text, word) => {
  if (word === "") return false;
  const [first, last] = [isWordChar(word.charAt(0)), isWordChar(word.at(-1))];
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
    const before = isWordChar(at > 0 ? text.charAt(at - 1) : void 0);
    const after = isWordChar(text.charAt(at + word.length) || void 0);
    if (before !== first && after !== last) return true;
  }
  return false;
};

// src/intake/formats/dotnet.ts
var dotnet = perLine(
  "dotnet",
  /^\s*(?:\d+>)?((?:[A-Za-z]:)?[^\s(:]+\.(?:cs|fs|vb|csproj|fsproj|vbproj|props|targets|sln|razor|cshtml|xaml))\((\d+)(?:,\d+)*\): error ([A-Z]{2,8}\d{3,5}): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ file: m[1], line: m[2], message: `${m[3]}: ${m[4]}` })
);
var dotnetTool = perLine(
  "dotnet",
  /^\s*(?:\d+>)?[\w.-]+ : error ([A-Z]{2,8}\d{3,5}): (.*?)(?: \[[^\]]+\])?$/,
  (m) => ({ message: `${m[1]}: ${m[2]}` })
);
var FRAME2 = /\bat .+? in (\S.*?\.(?:cs|fs|vb)):line (\d+)/;
var nextText = (lines2, from, within = 3) => lines2.slice(from + 1, from + 1 + within).map((l) => l.text.trim()).find((t) => t.length > 0);
var failedTest = (format, lines2, index, test, message) => {
  const at = locationAfter(lines2, index, 60, FRAME2);
  return {
    format,
    ...at ? { file: at.file, line: at.line } : {},
    test,
    ...message ? { message } : {},
    logLine: lines2[index]?.line ?? 0
  };
};
var xunit = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^\s*(?:\[xUnit\.net [\d:.]+\]\s+)?([\w.`<>+]+(?:\(.*\))?) \[FAIL\]\s*$/.exec(
    entry.text
  );
  if (!match?.[1]) return [];
  const message = nextText(lines2, index)?.replace(/^\[xUnit\.net [\d:.]+\]\s+/, "");
  return [failedTest("xunit", lines2, index, match[1], message)];
});
var timedName = (text) => {
  const at = text.lastIndexOf("[");
  const head = text.slice(0, at);
  if (at < 0 || !/\s$/.test(head) || !/^\[[<\d.\s]+(?:ms|s|m|h)\]\s*$/.test(text.slice(at)))
    return void 0;
  return /^\s*(?:Failed|X)\s+(\S.*)$/.exec(head.trimEnd())?.[1];
};
var vstest = (lines2) => lines2.flatMap((entry, index) => {
  const timed = timedName(entry.text);
  const bare = /^\s*Failed\s+([\w.`<>+$]+(?:\(.*\))?)\s*$/.exec(entry.text);
  const test = timed ?? bare?.[1];
  if (!test) return [];
  const header = lines2.slice(index + 1, index + 3).findIndex((l) => /^\s*Error Message:\s*$/.test(l.text));
  if (!timed && header < 0) return [];
  const message = header >= 0 ? nextText(lines2, index + 1 + header) : void 0;
  return [failedTest("vstest", lines2, index, test, message)];
});
var nunit = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^\s*\d+\) (?:Failed|Error|Invalid|Test Failure|Test Error|SetUp Error|TearDown Error) : (\S.*)$/.exec(
    entry.text.trimEnd()
  );
  if (!match?.[1]) return [];
  return [failedTest("nunit", lines2, index, match[1], nextText(lines2, index))];
});
var pesterName = (text) => {
  const body = /^\s*\[-\] (.+)$/.exec(text.trimEnd())?.[1];
  if (body === void 0) return void 0;
  const space = body.lastIndexOf(" ");
  return space > 0 && /^ \d+(?:\.\d+)?m?s$/.test(body.slice(space)) ? body.slice(0, space) : body;
};
var pester = (lines2) => lines2.flatMap((entry, index) => {
  const name = pesterName(entry.text);
  if (!name) return [];
  const message = lines2[index + 1]?.text.trim();
  const at = lines2.slice(index + 1, index + 8).map((l) => /at .*?, (\S+\.ps1): line (\d+)/.exec(l.text)).find((m) => m !== null);
  return [
    {
      format: "pester",
      ...at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {},
      test: name,
      ...message ? { message } : {},
      logLine: entry.line
    }
  ];
});
var pesterFailureList = (lines2) => {
  const start = lines2.findIndex((l) => /^\s*TEST FAILURES\s*$/.test(l.text));
  if (start < 0) return [];
  const found = [];
  for (let i = start + 1; i < lines2.length && i < start + 400; i += 1) {
    const name = /^\s*Name:\s+(\S.*)$/.exec(lines2[i]?.text ?? "");
    if (!name?.[1]) continue;
    const described = /^\s*Description:/.test(lines2[i - 1]?.text ?? "") ? i - 1 : i;
    const message = /^\s*message:\s*$/.test(lines2[i + 1]?.text ?? "") ? lines2[i + 2]?.text.trim() : void 0;
    found.push({
      format: "pester",
      test: name[1].trim(),
      ...message ? { message } : {},
      logLine: lines2[described]?.line ?? 0
    });
  }
  return found;
};
var powershell = (lines2) => lines2.flatMap((entry, index) => {
  if (!/^\s*\+ CategoryInfo\s*:/.test(entry.text)) return [];
  let at = -1;
  for (let k = index - 1; k >= Math.max(0, index - 8); k -= 1) {
    if (/^At \S/.test(lines2[k]?.text ?? "")) {
      at = k;
      break;
    }
  }
  if (at < 0) return [];
  const where = /^At (.+?\.ps[dm]?1):(\d+)/.exec(lines2[at]?.text ?? "");
  let first = at;
  while (first > 0 && at - first < 4 && (lines2[first - 1]?.text.trim() ?? "") !== "") first -= 1;
  const message = lines2.slice(first, at).map((l) => l.text.trim()).join(" ").trim();
  const head = lines2[first] ?? entry;
  return [
    {
      format: "powershell",
      ...where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {},
      ...message ? { message } : {},
      logLine: head.line
    }
  ];
});
var DOTNET = [
  dotnet,
  dotnetTool,
  xunit,
  vstest,
  nunit,
  pester,
  pesterFailureList,
  powershell
];

// src/intake/formats/go.ts
var goTest = (lines2) => {
  const out = [];
  lines2.forEach((entry, index) => {
    const match = /^\s*--- FAIL: (\S+) \([\d.]+s\)/.exec(entry.text);
    if (!match?.[1]) return;
    const detail = lines2.slice(index + 1, index + 10).map((l) => /^\s+(\S+?_test\.go):(\d+): (.*)$/.exec(l.text)).find((m) => m !== null);
    const before = detail ? void 0 : lines2.slice(Math.max(0, index - 10), index).map((l) => /^\s+(\S+?_test\.go):(\d+): (.*)$/.exec(l.text)).findLast((m) => m !== null);
    const hit = detail ?? before;
    out.push({
      format: "go-test",
      ...hit?.[1] ? { file: repoPath(hit[1]), line: Number(hit[2]) } : {},
      test: match[1],
      ...hit?.[3] ? { message: hit[3] } : {},
      logLine: entry.line
    });
  });
  return out;
};
var goBuild = perLine(
  "go-build",
  /^(?:##\[error\])?((?:\.\/)?[^\s:]+\.go):(\d+):\d+: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] })
);
var GO = [goTest, goBuild];

// src/intake/formats/javascript.ts
var vitest = (lines2) => {
  const out = [];
  lines2.forEach((entry, index) => {
    const match = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s+>\s+(\S.*)$/.exec(entry.text.trimEnd());
    if (!match?.[1] || !match[2]) return;
    const at = locationAfter(lines2, index, 40, /❯\s+(\S+?):(\d+):\d+/);
    const message = lines2.slice(index + 1, index + 4).map((l) => l.text.trim()).find((t) => /Error|expected/i.test(t));
    out.push({
      format: "vitest",
      file: at?.file ?? repoPath(match[1]),
      ...at ? { line: at.line } : {},
      test: match[2].replace(/(?<!\s)\s+>\s+/g, " > "),
      ...message ? { message } : {},
      logLine: entry.line
    });
  });
  return out;
};
var jest = (lines2) => {
  const out = [];
  let file;
  lines2.forEach((entry, index) => {
    const failHeader = /^\s*FAIL\s+(\S+\.[cm]?[jt]sx?)\s*(?:\(|$)/.exec(entry.text);
    if (failHeader?.[1]) {
      file = repoPath(failHeader[1]);
      return;
    }
    const bullet = /^\s*●\s+(\S.*)$/.exec(entry.text.trimEnd());
    if (!bullet?.[1] || /Console$|Test suite failed to run/.test(bullet[1])) return;
    const at = locationAfter(lines2, index, 40, FRAME);
    const message = lines2.slice(index + 1, index + 6).map((l) => l.text.trim()).find((t) => t.length > 0);
    out.push({
      format: "jest",
      ...at?.file ?? file ? { file: at?.file ?? file } : {},
      ...at ? { line: at.line } : {},
      test: bullet[1].replace(/(?<!\s)\s+›\s+/g, " > "),
      ...message ? { message } : {},
      logLine: entry.line
    });
  });
  return out;
};
var MOCHA_TITLE_LINES = 32;
var mocha = (lines2) => {
  const start = lines2.findIndex((l) => /^\s*\d+ failing\s*$/.test(l.text));
  if (start < 0) return [];
  const out = [];
  for (let i = start + 1; i < lines2.length; i += 1) {
    const entry = lines2[i];
    const title = /^\s*\d+\)\s+(\S.*)$/.exec(entry.text.trimEnd())?.[1];
    if (!title) continue;
    const first = title.length > 1 && title.endsWith(":") ? title.slice(0, -1) : title;
    const parts = [first];
    let j = i + 1;
    while (j < lines2.length && j <= i + MOCHA_TITLE_LINES && !first.endsWith(":")) {
      const next = lines2[j].text.trim();
      if (next.length === 0) break;
      if (/Error|expected/.test(next) || /^\d+\)\s/.test(next)) break;
      parts.push(next.replace(/:$/, ""));
      j += 1;
      if (next.endsWith(":")) break;
    }
    const at = locationAfter(lines2, i, 30, FRAME);
    const message = lines2.slice(j, j + 4).map((l) => l.text.trim()).find((t) => /Error|expected/.test(t));
    out.push({
      format: "mocha",
      ...at ? { file: at.file, line: at.line } : {},
      test: parts.join(" > "),
      ...message ? { message } : {},
      logLine: entry.line
    });
  }
  return out;
};
var tapErrorMessage = (block) => {
  for (const [i, entry] of block.entries()) {
    const value = /^\s*error:\s*(\S.*|)$/.exec(entry.text.trimEnd())?.[1];
    if (value === void 0) continue;
    if (/^[|>][-+]?$/.test(value)) return block[i + 1]?.text.trim() || void 0;
    const unquoted = value.replace(/^'(.*)'$/, "$1");
    if (unquoted) return unquoted;
  }
  return void 0;
};
var specTitle = (text) => {
  const title = /^\s*✖\s+(\S.*)$/.exec(text.trimEnd())?.[1];
  if (title === void 0) return void 0;
  const at = title.lastIndexOf("(");
  const head = at > 0 && /^\([\d.]+m?s\)$/.test(title.slice(at)) ? title.slice(0, at).trimEnd() : "";
  return head || title;
};
var nodeTest = (lines2) => {
  const out = [];
  lines2.forEach((entry, index) => {
    const tap = /^\s*not ok \d+ - (.+)$/.exec(entry.text.trimEnd());
    if (tap?.[1]) {
      const at = locationAfter(lines2, index, 20, /location:\s*'([^']+?):(\d+):\d+'/);
      const message = tapErrorMessage(lines2.slice(index + 1, index + 20));
      out.push({
        format: "node-test",
        ...at ? { file: at.file, line: at.line } : {},
        test: tap[1],
        ...message ? { message } : {},
        logLine: entry.line
      });
      return;
    }
    const where = /^\s*test at (\S+?):(\d+):\d+\s*$/.exec(entry.text);
    const next = lines2[index + 1];
    const title = next ? specTitle(next.text) : void 0;
    if (where?.[1] && where[2] && title) {
      const message = lines2.slice(index + 2, index + 6).map((l) => l.text.trim()).find((t) => /Error|expected/i.test(t));
      out.push({
        format: "node-test",
        file: repoPath(where[1]),
        line: Number(where[2]),
        test: title,
        ...message ? { message } : {},
        logLine: entry.line
      });
    }
  });
  return out;
};
var tsc = (lines2) => lines2.flatMap((entry) => {
  const match = /^\s*(\S+?\.[cm]?[jt]sx?)\((\d+),\d+\): error (TS\d+): (.*)$/.exec(entry.text) ?? /^\s*(\S+?\.[cm]?[jt]sx?):(\d+):\d+ - error (TS\d+): (.*)$/.exec(entry.text);
  if (!match?.[1]) return [];
  return [
    {
      format: "tsc",
      file: repoPath(match[1]),
      line: Number(match[2]),
      message: `${match[3]}: ${match[4]}`,
      logLine: entry.line
    }
  ];
});
var eslintError = (text) => {
  const line = text.trimEnd();
  let word = line.length;
  while (word > 0 && !/\s/.test(line.charAt(word - 1))) word -= 1;
  let gap = word;
  while (gap > 0 && /\s/.test(line.charAt(gap - 1))) gap -= 1;
  if (word === line.length || word - gap < 2) return void 0;
  const head = /^\s+(\d+):\d+\s+error\s+(\S.*)$/.exec(line.slice(0, gap));
  return head ? [line, head[1] ?? "", head[2] ?? "", line.slice(word)] : void 0;
};
var eslint = (lines2) => {
  const out = [];
  let file;
  for (const entry of lines2) {
    if (/^\s*(?:[A-Za-z]:)?[/\\]\S+\.\w+\s*$/.test(entry.text) || /^\S+\.\w+$/.test(entry.text)) {
      file = repoPath(entry.text);
      continue;
    }
    const match = eslintError(entry.text);
    if (match && file) {
      out.push({
        format: "eslint",
        file,
        line: num(match[1]) ?? 0,
        message: `${match[2]} (${match[3]})`,
        logLine: entry.line
      });
    }
  }
  return out;
};
var prettier = (lines2) => {
  const summary = lines2.find(
    (l) => /Code style issues (?:found|were found)|Forgot to run Prettier\?/.test(l.text)
  );
  if (!summary) return [];
  return lines2.flatMap((entry) => {
    const match = /^\s*\[warn\]\s+(\S+\.\w+)\s*$/.exec(entry.text);
    return match?.[1] ? [
      {
        format: "prettier",
        file: repoPath(match[1]),
        message: "not formatted",
        logLine: entry.line
      }
    ] : [];
  });
};
var karma = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^((?:[A-Z][\w-]* )+[\d.]+ \([^)]*\)) (.+) FAILED\s*$/.exec(entry.text);
  if (!match?.[2]) return [];
  const message = lines2[index + 1]?.text.trim();
  return [
    {
      format: "karma",
      test: match[2],
      ...message ? { message } : {},
      logLine: entry.line
    }
  ];
});
var npm = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^npm ERR! code (\S+)/.exec(entry.text);
  if (!match?.[1]) return [];
  const detail = lines2.slice(index + 1, index + 6).map((l) => /^npm ERR! (?!code |errno |path |syscall )(.+)$/.exec(l.text)?.[1]).find((t) => t !== void 0 && t.trim() !== "");
  return [
    {
      format: "npm",
      message: detail ? `${match[1]}: ${detail}` : match[1],
      logLine: entry.line
    }
  ];
});
var JAVASCRIPT = [
  vitest,
  jest,
  mocha,
  nodeTest,
  tsc,
  eslint,
  prettier,
  karma,
  npm
];

// src/intake/formats/jvm.ts
var gradle = (lines2) => {
  const out = [];
  lines2.forEach((entry, index) => {
    const match = /^\s*([\w.$]+) > (.+?) FAILED\s*$/.exec(entry.text);
    if (!match?.[1] || !match[2]) return;
    const next = lines2[index + 1]?.text ?? "";
    const at = /^\s+(\S+?)(?: at (\S+?\.(?:java|kt)):(\d+))?\s*$/.exec(next);
    out.push({
      format: "gradle",
      ...at?.[2] ? { file: at[2], line: Number(at[3]) } : {},
      test: `${match[1]}.${match[2]}`,
      ...at?.[1] ? { message: at[1] } : {},
      logLine: entry.line
    });
  });
  return out;
};
var gradleBuild = (lines2) => lines2.flatMap((entry, index) => {
  if (!/^\s*\* What went wrong:/.test(entry.text)) return [];
  const message = lines2.slice(index + 1, index + 4).map((l) => l.text.trim()).filter(Boolean).join(" ");
  return [{ format: "gradle", ...message ? { message } : {}, logLine: entry.line }];
});
var summaries = (lines2) => {
  const found = /* @__PURE__ */ new Map();
  for (const entry of lines2) {
    const rest = /^\[ERROR\]\s+(\S.*)$/.exec(entry.text)?.[1];
    const colon = rest?.indexOf(":") ?? -1;
    if (!rest || colon < 0) continue;
    const name = rest.slice(0, colon);
    const where = found.has(name) ? null : /^:(\d+) (.*)$/.exec(rest.slice(colon));
    if (where) found.set(name, where);
  }
  return found;
};
var maven = (lines2) => {
  const out = [];
  let summary;
  for (const entry of lines2) {
    const v3 = /^\[ERROR\]\s+(\S+)\.(\w+)\s+--\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(
      entry.text
    );
    const v2 = /^\[ERROR\]\s+(\w+)\((\S+)\)\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(
      entry.text
    );
    const test = v3 ? `${v3[1]}.${v3[2]}` : v2 ? `${v2[2]}.${v2[1]}` : void 0;
    if (!test) continue;
    const simple = test.split(".").slice(-2).join(".");
    summary ??= summaries(lines2);
    const where = summary.get(simple);
    const cls = test.split(".").slice(-2, -1)[0];
    out.push({
      format: "maven",
      ...where?.[1] && cls ? { file: `${cls}.java`, line: Number(where[1]) } : {},
      test,
      ...where?.[2] ? { message: where[2] } : {},
      logLine: entry.line
    });
  }
  return out;
};
var frameOf = (text, method, cls) => {
  const frame = /^\s+at ([\w.$]+)\(([\w$]+)(\.\w+):(\d+)\)/.exec(text);
  return frame?.[1]?.endsWith(`.${method}`) && frame[2] === cls ? [frame[0], `${frame[2]}${frame[3] ?? ""}`, frame[4] ?? ""] : void 0;
};
var junit = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^(\w+)\(([\w.$]+)\)\s+Time elapsed:.*<<< (?:FAILURE|ERROR)!/.exec(entry.text);
  if (!match?.[1] || !match[2]) return [];
  const message = lines2[index + 1]?.text.trim();
  const cls = match[2].split(".").at(-1) ?? match[2];
  const frame = lines2.slice(index + 1, index + 40).map((l) => frameOf(l.text, match[1] ?? "", cls)).find((m) => m !== void 0);
  return [
    {
      format: "junit",
      ...frame?.[1] ? { file: frame[1], line: Number(frame[2]) } : {},
      test: `${match[2]}.${match[1]}`,
      ...message ? { message } : {},
      logLine: entry.line
    }
  ];
});
var reportedTests = (lines2) => {
  const named = /* @__PURE__ */ new Set();
  for (const { text } of lines2) {
    if (!/<<< (?:FAILURE|ERROR)!/.test(text)) continue;
    const v3 = /^(?:\[ERROR\]\s+)?(\S+)\.(\w+)\s+--\s+Time elapsed/.exec(text);
    const v2 = /^(?:\[ERROR\]\s+)?(\w+)\(([\w.$]+)\)\s+Time elapsed/.exec(text);
    const cls = v3?.[1] ?? v2?.[2];
    const method = v3?.[2] ?? v2?.[1];
    if (cls && method) named.add(`${cls.split(".").at(-1) ?? cls}.${method}`);
  }
  return named;
};
var surefireSummary = (lines2) => {
  const out = [];
  const reported = reportedTests(lines2);
  let inSection = false;
  for (const entry of lines2) {
    const header = /^\s*(?:\[ERROR\]\s*)?(?:Failed tests|Tests in error|Failures|Errors):\s*(\S.*|)$/.exec(
      entry.text
    );
    const body = header ? header[1] ?? "" : entry.text.replace(/^\s*\[ERROR\]/, "");
    if (header) inSection = true;
    else if (!inSection || !/^\s+\S/.test(body)) {
      inSection = false;
      continue;
    }
    const v3 = /^\s*(?:Run \d+: )?([\w$]+(?:\.[\w$]+)*)\.(\w+):(\d+)(?:->\S+)?\s+(\S.*|)$/.exec(
      body
    );
    if (v3?.[4]?.startsWith("\xBB ")) v3[4] = v3[4].slice(2);
    const v2 = /^\s*(\w+)\(([\w.$]+)\)(?::\s*(\S.*|))?$/.exec(body);
    const cls = v3?.[1] ?? v2?.[2];
    const method = v3?.[2] ?? v2?.[1];
    if (!cls || !method) continue;
    const simple = cls.split(".").at(-1) ?? cls;
    if (reported.has(`${simple}.${method}`)) continue;
    const message = (v3?.[4] ?? v2?.[3])?.trim();
    out.push({
      format: "maven",
      ...v3?.[3] ? { file: `${simple}.java`, line: Number(v3[3]) } : {},
      test: `${cls}.${method}`,
      ...message ? { message } : {},
      logLine: entry.line
    });
  }
  return out;
};
var mavenGoal = perLine(
  "maven",
  /^\[ERROR\]\s+Failed to execute goal (?:[\w.-]+:)?([\w.-]+):[\w.-]+:([\w-]+)(?: \([^)]*\))? on project [\w.-]+: (.*?)(?: -> \[Help \d+\])?$/,
  (m) => ({ message: `${m[1]}:${m[2]}: ${m[3]}` })
);
var javac = (lines2) => lines2.flatMap((entry) => {
  const match = (
    // Maven: `[ERROR] /path/Foo.java:[12,5] message`, checkers: `[ERROR] /path/Foo.java:12: message`.
    /^\[ERROR\]\s+(\S+\.(?:java|kt|scala|groovy)):(?:\[(\d+),\d+\]|(\d+):)\s+(\S.*|)$/.exec(
      entry.text
    ) ?? // javac itself (Gradle, Ant): `src/Foo.java:12: error: message`.
    /^\s*(?:\[javac\]\s+)?((?:[A-Za-z]:)?[^\s:]+\.java):(\d+)():\s+error:\s+(\S.*|)$/.exec(
      entry.text
    ) ?? // kotlinc: `e: /path/Foo.kt: (12, 5): message`, `e: file:///path/Foo.kt:12:5 message`.
    /^e: (?:file:\/\/)?(\S+?\.kts?)(?::\s*\((\d+), \d+\):|:(\d+):\d+)\s+(\S.*|)$/.exec(
      entry.text
    )
  );
  if (!match?.[1]) return [];
  return [
    {
      format: "javac",
      file: repoPath(match[1]),
      line: Number(match[2] || match[3]),
      ...match[4] ? { message: match[4].trim() } : {},
      logLine: entry.line
    }
  ];
});
var uncaught = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^Exception in thread "[^"]*" ([\w.$]+(?::\s*(?:\S.*|))?)$/.exec(entry.text);
  if (!match?.[1]) return [];
  const frame = lines2.slice(index + 1, index + 4).map((l) => /^\s+at \S+\((\w+\.(?:java|kt|scala|groovy)):(\d+)\)/.exec(l.text)).find((m) => m !== null);
  return [
    {
      format: "jvm-exception",
      ...frame?.[1] ? { file: frame[1], line: Number(frame[2]) } : {},
      message: match[1],
      logLine: entry.line
    }
  ];
});
var JVM = [
  gradle,
  gradleBuild,
  maven,
  junit,
  surefireSummary,
  mavenGoal,
  javac,
  uncaught
];

// src/intake/formats/native.ts
var gcc = perLine(
  "gcc",
  /^\s*((?:[A-Za-z]:)?[^\s:]+\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|m|mm|s|S)):(\d+)(?::\d+)?: (?:fatal )?error: (.*)$/,
  (m) => ({ file: m[1], line: m[2], message: m[3] })
);
var DIGITS_AT = (text, at) => {
  const digits = /\d*/y;
  digits.lastIndex = at;
  return digits.exec(text)?.[0] ?? "";
};
var cmakeError = (text) => {
  if (!text.startsWith("CMake Error")) return null;
  const breaks = [...text.matchAll(/[\n\r\u2028\u2029]/g)].map((m) => m.index);
  let only;
  if (breaks.length > 0) {
    let blank = breaks.at(-1) ?? 0;
    while (blank > 0 && /\s/.test(text.charAt(blank - 1))) blank -= 1;
    if (blank > (breaks[0] ?? 0) || text.charAt(blank - 1) !== ":") return null;
    only = blank - 1;
  }
  const limit = only ?? text.length;
  let file;
  let line;
  let from = "CMake Error".length;
  if (text.startsWith(" at ", from)) {
    const start = from + 4;
    const end = start + (/^\S*/.exec(text.slice(start))?.[0].length ?? 0);
    for (let colon2 = text.indexOf(":", start + 1); colon2 > 0 && colon2 < end; ) {
      const digits = DIGITS_AT(text, colon2 + 1);
      const length = Math.min(digits.length, limit - colon2 - 1);
      if (length >= 1) {
        [file, line, from] = [
          text.slice(start, colon2),
          digits.slice(0, length),
          colon2 + 1 + length
        ];
        break;
      }
      colon2 = text.indexOf(":", colon2 + 1);
    }
  }
  const colon = only ?? text.indexOf(":", from);
  return [text, file, line, colon < 0 ? void 0 : text.slice(colon + 1).trimStart()];
};
var cmake = perLine("cmake", { exec: cmakeError }, (m) => ({
  ...m[1] ? { file: m[1], line: m[2] } : {},
  ...m[3] ? { message: m[3] } : {}
}));
var NATIVE = [gcc, cmake];

// src/intake/formats/other.ts
var rspec = perLine("rspec", /^rspec (\.\/\S+?):(\d+) # (.*)$/, (m) => ({
  file: m[1],
  line: m[2],
  test: m[3]
}));
var docker = perLine(
  "docker",
  /^(?:#\d+ )?(?:ERROR: failed to solve: (.*)|The command '(.*)' returned a non-zero code: \d+)$/,
  (m) => ({ message: m[1] ?? `'${m[2] ?? ""}' failed` })
);
var OTHER = [rspec, docker];

// src/intake/formats/python.ts
var pythonError = (text) => {
  const error = /^([\w.]+)(?::\s*(\S.*|))?$/.exec(text);
  const last = error?.[1]?.split(".").at(-1) ?? "";
  return error && /Error|Exception|Exit|Interrupt|Warning/.test(last) ? error : null;
};
var TAIL_DEPTH = 8;
var MAX_SCANNED = 20;
var indexPytest = (lines2) => {
  const index = {
    located: /* @__PURE__ */ new Map(),
    banners: [],
    bannerWords: /* @__PURE__ */ new Map(),
    byTail: /* @__PURE__ */ new Map()
  };
  lines2.forEach(({ text }, i) => {
    const rest = text.trimStart();
    const colon = /:\d+: \w/.exec(rest)?.index ?? -1;
    if (colon > 0 && !index.located.has(rest.slice(0, colon)))
      index.located.set(rest.slice(0, colon), i);
    const open = text.indexOf("___ ");
    const close = text.lastIndexOf(" ___");
    if (open >= 0 && close > open) {
      const inner = text.slice(open + 4, close + 1);
      index.banners.push({ index: i, inner });
      for (const word of inner.match(/\w+/g) ?? [])
        if (!index.bannerWords.has(word)) index.bannerWords.set(word, i);
    }
    const file = /^\s*(\S+\.py):\d+: \w/.exec(text)?.[1];
    if (!file) return;
    const parts = file.split("/");
    for (let depth = 1; depth <= Math.min(parts.length, TAIL_DEPTH); depth += 1) {
      const tail = parts.slice(-depth).join("/");
      const at = index.byTail.get(tail) ?? [];
      if (at.at(-1) !== i) at.push(i);
      index.byTail.set(tail, at);
    }
    const whole = index.byTail.get(file) ?? [];
    if (whole.at(-1) !== i) whole.push(i);
    index.byTail.set(file, whole);
  });
  return index;
};
var bannerOf = (index, leaf, scanned) => {
  if (/^\w+$/.test(leaf)) return index.bannerWords.get(leaf) ?? -1;
  if (leaf === "" || (scanned.count += 1) > MAX_SCANNED) return -1;
  return index.banners.find((banner) => hasWord(banner.inner, leaf))?.index ?? -1;
};
var locatedAfter = (index, file, from) => {
  const at = index.byTail.get(file.replace(/^\/+/, "")) ?? index.byTail.get(file);
  if (!at) return void 0;
  let [low, high] = [0, at.length];
  while (low < high) {
    const mid = low + high >> 1;
    if ((at[mid] ?? 0) < from) low = mid + 1;
    else high = mid;
  }
  return at[low];
};
var MAX_LOOKED_UP = 200;
var pytest = (lines2) => {
  const out = [];
  let index;
  const scanned = { count: 0 };
  for (const entry of lines2) {
    const match = /^\s*(?:FAILED|ERROR)\s+(\S+?\.py)::(\S+)(?:\s+-\s+(\S.*|))?$/.exec(entry.text);
    if (!match?.[1] || !match[2]) continue;
    const file = repoPath(match[1]);
    const leaf = match[2].split("::").at(-1)?.replace(/(?<!\[)\[[\s\S]*$/, "") ?? match[2];
    if (out.length >= MAX_LOOKED_UP) {
      out.push({ format: "pytest", file, test: match[2], logLine: entry.line });
      continue;
    }
    index ??= indexPytest(lines2);
    const header = bannerOf(index, leaf, scanned);
    const after = header >= 0 ? locatedAfter(index, file, header) : void 0;
    const loc = after ?? index.located.get(file);
    const where = /:(\d+): /.exec(loc === void 0 ? "" : lines2[loc]?.text ?? "");
    out.push({
      format: "pytest",
      file,
      ...where?.[1] ? { line: Number(where[1]) } : {},
      test: match[2],
      ...match[3] ? { message: match[3] } : {},
      logLine: entry.line
    });
  }
  return out;
};
var pytestBanner = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^_{3,} ((?:\w+\.)?test\w*(?:\[.*\])?) _{3,}$/.exec(entry.text);
  if (!match?.[1]) return [];
  let where = null;
  for (let i = index + 1; i < Math.min(lines2.length, index + 150); i += 1) {
    const text = lines2[i]?.text ?? "";
    if (/^_{3,} .* _{3,}$|^={3,}/.test(text)) break;
    where = /^((?:[A-Za-z]:)?[^\s:]+\.py):(\d+): (\w.*)$/.exec(text) ?? where;
  }
  return [
    {
      format: "pytest",
      ...where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {},
      test: match[1],
      ...where?.[3] ? { message: where[3] } : {},
      logLine: entry.line
    }
  ];
});
var unittest = perLine("unittest", /^(?:FAIL|ERROR): (\w+) \(([\w.]+)\)/, (m) => ({
  test: `${m[2]}.${m[1]}`
}));
var flake8 = perLine("flake8", /^((?:\.\/)?[^\s:]+\.py):(\d+):\d+: ([A-Z]\d{3} .*)$/, (m) => ({
  file: m[1],
  line: m[2],
  message: m[3]
}));
var python = (lines2) => {
  const out = [];
  lines2.forEach((entry, index) => {
    if (!/^\s*Traceback \(most recent call last\):/.test(entry.text)) return;
    let frame = null;
    for (let i = index + 1; i < Math.min(lines2.length, index + 200); i += 1) {
      const text = lines2[i]?.text ?? "";
      const at = /^\s*File "([^"]+)", line (\d+)/.exec(text);
      if (at) {
        if (!/site-packages|dist-packages|<frozen|\/lib\/python\d/.test(at[1] ?? "")) frame = at;
        continue;
      }
      const error = pythonError(text);
      if (error?.[1]) {
        out.push({
          format: "python",
          ...frame?.[1] ? { file: repoPath(frame[1]), line: Number(frame[2]) } : {},
          message: error[2] ? `${error[1]}: ${error[2]}` : error[1],
          logLine: entry.line
        });
        return;
      }
    }
  });
  return out;
};
var pytestFailures = (lines2) => {
  const summary = pytest(lines2);
  const named = new Set(summary.map((failure) => failure.test?.replaceAll("::", ".")));
  return [
    ...summary,
    ...pytestBanner(lines2).filter((failure) => !named.has(failure.test?.replaceAll("::", ".")))
  ];
};
var PYTHON = [pytestFailures, unittest, flake8, python];

// src/intake/formats/rust.ts
var panicsByName = (lines2) => {
  const panics = /* @__PURE__ */ new Map();
  lines2.forEach((entry, index) => {
    const end = entry.text.indexOf("' panicked at");
    const start = end < 0 ? -1 : entry.text.lastIndexOf("thread '", end);
    if (start < 0) return;
    const name = entry.text.slice(start + "thread '".length, end);
    if (!panics.has(name)) panics.set(name, index);
  });
  return panics;
};
var panicOf = (lines2, panicIndex) => {
  const panic = lines2[panicIndex];
  if (!panic) return {};
  const where = /panicked at (\S+?):(\d+):\d+/.exec(panic.text);
  const message = /panicked at [^,]+?:\d+:\d+:\s*(\S.*)$/.exec(panic.text)?.[1] ?? lines2[panicIndex + 1]?.text.trim();
  return {
    ...where?.[1] ? { file: repoPath(where[1]), line: Number(where[2]) } : {},
    ...message ? { message } : {}
  };
};
var cargoTest = (lines2) => {
  const out = [];
  let panics;
  const read = /* @__PURE__ */ new Map();
  lines2.forEach((entry, index) => {
    const match = /^\s*test (\S+) \.\.\. FAILED\s*$/.exec(entry.text);
    if (!match?.[1]) return;
    const name = match[1];
    panics ??= panicsByName(lines2);
    const panic = read.get(name) ?? panicOf(lines2, panics.get(name) ?? -1);
    read.set(name, panic);
    out.push({
      format: "cargo-test",
      ...panic.file ? { file: panic.file, line: panic.line } : {},
      test: name,
      ...panic.message ? { message: panic.message } : {},
      logLine: entry.line || lines2[index]?.line || 0
    });
  });
  return out;
};
var rustc = (lines2) => lines2.flatMap((entry, index) => {
  const match = /^error(?:\[(E\d{4})\])?: (.*)$/.exec(entry.text);
  if (!match?.[2] || /^(?:aborting due to|could not compile|test failed)/.test(match[2]))
    return [];
  const at = lines2.slice(index + 1, index + 4).map((l) => /^\s*--> (\S+?):(\d+):\d+/.exec(l.text)).find((m) => m !== null);
  return [
    {
      format: "rustc",
      ...at?.[1] ? { file: repoPath(at[1]), line: Number(at[2]) } : {},
      message: match[1] ? `${match[1]}: ${match[2]}` : match[2],
      logLine: entry.line
    }
  ];
});
var RUST = [cargoTest, rustc];

// src/util/clock.ts
var systemClock = { now: () => Date.now() };

// src/intake/formats/index.ts
var RECOGNISERS = [
  ...JAVASCRIPT,
  ...PYTHON,
  ...GO,
  ...RUST,
  ...JVM,
  ...NATIVE,
  ...DOTNET,
  ...OTHER
];
var RECOGNISE_BUDGET_MS = 2e3;
var recogniseFailures = (raw, max = 50, clock = systemClock) => {
  const seen = /* @__PURE__ */ new Set();
  const lines2 = terminalLines(raw);
  const until = clock.now() + RECOGNISE_BUDGET_MS;
  const found = [];
  for (const recognise of RECOGNISERS) {
    if (clock.now() > until) break;
    found.push(...recognise(lines2));
  }
  return found.filter((failure) => {
    const key = `${failure.format}|${failure.file ?? ""}|${failure.line ?? ""}|${failure.test ?? ""}|${failure.message ?? ""}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  }).sort((a, b) => a.logLine - b.logLine).slice(0, max);
};

// src/util/disposables.ts
var Disposables = class {
  items = [];
  add(dispose) {
    this.items.push(async () => {
      await dispose();
    });
  }
  /** Releases everything added so far, last first; `onError` hears each failure. */
  async disposeAll(onError) {
    for (const dispose of this.items.splice(0).reverse()) {
      await dispose().catch(onError);
    }
  }
};

// src/workspace/sandbox/sandbox.ts
var DEFAULT_COMMAND_LIMITS = {
  processes: 1024,
  memoryMb: 8192,
  diskMb: 8192
};
var DEFAULT_MAX_OUTPUT_BYTES = 256 * 1024;
var CHECKED_OUTPUT_BYTES = 16 * 1024 * 1024;
var wrapRun = (sandbox, run) => ({
  kind: sandbox.kind,
  policy: sandbox.policy,
  spawn: (request) => sandbox.spawn(request),
  dispose: () => sandbox.dispose(),
  run
});
var timedRuns = (sandbox, onRun) => wrapRun(sandbox, async (request) => {
  const started = performance.now();
  const result = await sandbox.run(request);
  const wallMs = Math.round(performance.now() - started);
  onRun({
    command: request.command.length > 300 ? `${request.command.slice(0, 300)}\u2026` : request.command,
    exitCode: result.exitCode,
    wallMs,
    ranMs: Math.min(wallMs, result.ranMs ?? result.durationMs)
  });
  return result;
});
var withLiveOutput = (sandbox, onLine) => wrapRun(sandbox, (request) => {
  let partial = "";
  return sandbox.run({
    ...request,
    onOutput: (chunk) => {
      request.onOutput?.(chunk);
      const text = partial + chunk.toString("utf8");
      const lines2 = text.split("\n");
      partial = (lines2.pop() ?? "").slice(-4096);
      const last = lines2.map(
        (line) => line.split("\r").filter((piece) => piece.trim() !== "").at(-1) ?? ""
      ).map((line) => printable(line).trim()).findLast((line) => line !== "");
      if (last) onLine(last);
    }
  });
});

// src/workspace/sandbox/shared.ts
import { existsSync as existsSync2, mkdirSync, writeFileSync } from "node:fs";
import path3 from "node:path";

// src/workspace/sandbox/jvm-options.ts
var JVM_OPTION_VARIABLES = /* @__PURE__ */ new Set([
  "JAVA_TOOL_OPTIONS",
  "_JAVA_OPTIONS",
  "JDK_JAVA_OPTIONS",
  "JAVA_OPTS",
  "JAVA_OPTIONS",
  "JVM_OPTS",
  "MAVEN_OPTS",
  "MVN_OPTS",
  "GRADLE_OPTS",
  "SBT_OPTS",
  "ANT_OPTS",
  "KOTLIN_OPTS",
  "SCALA_OPTS",
  "CATALINA_OPTS"
]);
var isJvmOptionsVariable = (name) => JVM_OPTION_VARIABLES.has(name.toUpperCase()) || /_(JAVA|JVM)_OPT(ION)?S$/i.test(name);
var PROPERTIES = /* @__PURE__ */ new Set([
  // The proxy: hosts and ports, never `http.proxyUser` or `http.proxyPassword`.
  ...["http", "https", "ftp"].flatMap((scheme) => [
    `${scheme}.proxyHost`,
    `${scheme}.proxyPort`,
    `${scheme}.nonProxyHosts`
  ]),
  "socksProxyHost",
  "socksProxyPort",
  "socksProxyVersion",
  "java.net.useSystemProxies",
  "java.net.preferIPv4Stack",
  "java.net.preferIPv6Addresses",
  "http.keepAlive",
  "http.maxConnections",
  "sun.net.client.defaultConnectTimeout",
  "sun.net.client.defaultReadTimeout",
  "https.protocols",
  "jdk.tls.client.protocols",
  // TLS trust: the store's path and type, never a password, never a key store (a client's key).
  "javax.net.ssl.trustStore",
  "javax.net.ssl.trustStoreType",
  "javax.net.ssl.trustStoreProvider",
  // Encodings, locale, time zone, folders, headless.
  "file.encoding",
  "sun.jnu.encoding",
  "sun.stdout.encoding",
  "sun.stderr.encoding",
  "stdout.encoding",
  "stderr.encoding",
  "line.separator",
  "user.language",
  "user.country",
  "user.region",
  "user.variant",
  "user.script",
  "user.timezone",
  "java.io.tmpdir",
  "java.awt.headless",
  "java.security.egd",
  // Maven and its resolver: the local repository, connection pool and retries, colour.
  "maven.repo.local",
  "maven.artifact.threads",
  "maven.wagon.rto",
  "maven.wagon.http.pool",
  "maven.wagon.http.retryHandler.count",
  "maven.wagon.http.retryHandler.requestSentEnabled",
  "maven.wagon.httpconnectionManager.ttlSeconds",
  "aether.connector.connectTimeout",
  "aether.connector.requestTimeout",
  "style.color",
  // Gradle's own switches (a project's properties, `org.gradle.project.*`, are where secrets go).
  "org.gradle.jvmargs",
  "org.gradle.daemon",
  "org.gradle.daemon.idletimeout",
  "org.gradle.parallel",
  "org.gradle.caching",
  "org.gradle.configureondemand",
  "org.gradle.configuration-cache",
  "org.gradle.console",
  "org.gradle.logging.level",
  "org.gradle.logging.stacktrace",
  "org.gradle.warning.mode",
  "org.gradle.workers.max",
  "org.gradle.priority",
  "org.gradle.vfs.watch",
  "org.gradle.welcome",
  "org.gradle.internal.http.connectionTimeout",
  "org.gradle.internal.http.socketTimeout",
  "org.gradle.internal.repository.max.retries",
  "org.gradle.java.installations.auto-detect",
  "org.gradle.java.installations.auto-download",
  "kotlin.compiler.execution.strategy",
  "kotlin.incremental",
  // sbt's.
  "sbt.ci",
  "sbt.color",
  "sbt.log.noformat",
  "sbt.supershell",
  "sbt.server.forcestart",
  "sbt.boot.directory",
  "sbt.ivy.home",
  "sbt.global.base"
]);
var PROPERTY_PREFIXES = ["org.slf4j.simpleLogger."];
var WITH_VALUE = /* @__PURE__ */ new Set([
  "--add-opens",
  "--add-exports",
  "--add-reads",
  "--add-modules",
  "--limit-modules",
  "--enable-native-access"
]);
var MODULE_SPEC = /^[\w.$][\w.$/=,-]*$/;
var FLAG = /^(-X.+|-(ea|da|esa|dsa|enableassertions|disableassertions)(:[\w.$]*(\.\.\.)?)?|-(enable|disable)systemassertions|-(server|client|d32|d64|showversion|verbose)|-verbose:(class|gc|jni|module)|--enable-preview|--illegal-access=\w+)$/;
var isProperty = (word) => {
  const m = /^-D([^=]+)(=.*)?$/s.exec(word);
  const name = m?.[1];
  return name !== void 0 && (PROPERTIES.has(name) || PROPERTY_PREFIXES.some((prefix) => name.startsWith(prefix)));
};
var isModuleFlag = (word) => {
  const [flag, value] = word.split(/=(.*)/s);
  return WITH_VALUE.has(flag ?? "") && (value === void 0 || MODULE_SPEC.test(value));
};
var wordsOf = (value) => {
  const words = [];
  let raw = "";
  let text = "";
  let quote2;
  const end = () => {
    if (raw) words.push({ raw, text, closed: quote2 === void 0 });
    raw = "";
    text = "";
  };
  for (let i = 0; i < value.length; i += 1) {
    const ch = value.charAt(i);
    if (quote2 === void 0 && /\s/.test(ch)) {
      end();
      continue;
    }
    raw += ch;
    if (ch === "\\" && quote2 !== "'" && i + 1 < value.length) {
      i += 1;
      raw += value.charAt(i);
      text += value.charAt(i);
    } else if (quote2 === void 0 && (ch === '"' || ch === "'")) quote2 = ch;
    else if (ch === quote2) quote2 = void 0;
    else text += ch;
  }
  end();
  return words;
};
var allowed = (text) => {
  const [first, ...rest] = text.split(/\s+/);
  if (!first || !(FLAG.test(first) || isProperty(first) || isModuleFlag(first))) return false;
  return rest.every((piece) => !piece.startsWith("-") || allowed(piece));
};
var jvmOptionsFor = (value) => {
  const kept = [];
  const words = wordsOf(value);
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i];
    if (!word.closed || !allowed(word.text)) continue;
    if (!WITH_VALUE.has(word.text)) {
      kept.push(word.raw);
      continue;
    }
    const next = words[i + 1];
    if (next?.closed && MODULE_SPEC.test(next.text)) {
      kept.push(word.raw, next.raw);
      i += 1;
    }
  }
  return kept.join(" ");
};

// src/workspace/sandbox/env.ts
var CREDENTIAL_NAMES = /* @__PURE__ */ new Set([
  "GITHUB_TOKEN",
  "GH_TOKEN",
  "ANTHROPIC_API_KEY",
  "OPENAI_API_KEY",
  "NPM_TOKEN",
  "NODE_AUTH_TOKEN",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "SSH_AUTH_SOCK",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "REDIS_URL"
]);
var CREDENTIAL_SHAPE = /[_-](TOKEN|KEY|APIKEY|SECRET|PASSWORD|PASSWD|PASS|PAT|DSN|CREDENTIALS?|AUTH|CONNECTION_STRING)$|^(TOKEN|SECRET|PASSWORD|PRIVATE_KEY)$|^PG(PASSWORD|PASSFILE)$|(^|_)DATABASE_URL$/i;
var isCredentialName = (name) => CREDENTIAL_NAMES.has(name.toUpperCase()) || CREDENTIAL_SHAPE.test(name);
var operatorListed = (env) => new Set(
  (settingsOf(env).sandboxCredentials ?? "").split(",").map((name) => name.trim()).filter(Boolean)
);
var PASSED_NAMES = /* @__PURE__ */ new Set([
  "PATH",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TERM",
  "COLORTERM",
  "NO_COLOR",
  "FORCE_COLOR",
  "COLUMNS",
  "LINES",
  "SHELL",
  "DEBIAN_FRONTEND",
  "PYENV_ROOT",
  "PYENV_VERSION",
  "NVM_DIR",
  "NVM_BIN",
  "NVM_INC",
  "RUSTUP_HOME",
  "RUSTUP_TOOLCHAIN",
  "RUSTUP_AUTO_INSTALL",
  "RUST_BACKTRACE",
  "JAVA_HOME",
  "GOROOT",
  "GOFLAGS",
  "GOTOOLCHAIN",
  "GOPROXY",
  "GONOSUMDB",
  "GOPRIVATE",
  "GOSUMDB",
  "SDKMAN_DIR",
  "ASDF_DIR",
  "ASDF_DATA_DIR",
  "VOLTA_HOME",
  "PNPM_HOME",
  "BUN_INSTALL",
  "PYTHONDONTWRITEBYTECODE",
  "PYTHONUNBUFFERED",
  "PYTHONIOENCODING",
  "NODE_OPTIONS",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  "REQUESTS_CA_BUNDLE",
  "CURL_CA_BUNDLE",
  "GIT_SSL_CAINFO",
  "MAVEN_OPTS",
  "GRADLE_OPTS",
  "JAVA_TOOL_OPTIONS",
  "npm_config_registry",
  "NPM_CONFIG_REGISTRY",
  "YARN_NPM_REGISTRY_SERVER",
  "YARN_UNSAFE_HTTP_WHITELIST",
  "GITHUB_ACTIONS",
  "GITHUB_WORKFLOW",
  "GITHUB_JOB",
  "GITHUB_REF",
  "GITHUB_SHA",
  "GITHUB_REPOSITORY",
  "GITHUB_EVENT_NAME",
  "RUNNER_OS",
  "RUNNER_ARCH"
]);
var PASSED_FAMILIES = /* @__PURE__ */ new Set([
  ...["ALL", "CTYPE", "NUMERIC", "TIME", "COLLATE", "MONETARY", "MESSAGES", "PAPER", "NAME"].map(
    (category) => `LC_${category}`
  ),
  ...["ADDRESS", "TELEPHONE", "MEASUREMENT", "IDENTIFICATION"].map((category) => `LC_${category}`),
  ...[
    "INDEX_URL",
    "EXTRA_INDEX_URL",
    "FIND_LINKS",
    "NO_INDEX",
    "TRUSTED_HOST",
    "CERT",
    "DEFAULT_TIMEOUT",
    "TIMEOUT",
    "RETRIES",
    "DISABLE_PIP_VERSION_CHECK",
    "NO_INPUT",
    "PROGRESS_BAR",
    "PREFER_BINARY",
    "ONLY_BINARY",
    "NO_BINARY",
    "NO_CACHE_DIR",
    "PRE",
    "BREAK_SYSTEM_PACKAGES",
    "ROOT_USER_ACTION"
  ].map((setting) => `PIP_${setting}`),
  ...[
    "INDEX_URL",
    "EXTRA_INDEX_URL",
    "INDEX",
    "DEFAULT_INDEX",
    "FIND_LINKS",
    "NO_INDEX",
    "INDEX_STRATEGY",
    "INSECURE_HOST",
    "NATIVE_TLS",
    "OFFLINE",
    "HTTP_TIMEOUT",
    "CONCURRENT_DOWNLOADS",
    "CONCURRENT_BUILDS",
    "PYTHON",
    "PYTHON_PREFERENCE",
    "PYTHON_DOWNLOADS",
    "LINK_MODE",
    "NO_PROGRESS",
    "PRERELEASE",
    "RESOLUTION"
  ].map((setting) => `UV_${setting}`),
  "TOX_PARALLEL_NO_SPINNER",
  "TOX_SKIP_MISSING_INTERPRETERS",
  "TOX_TESTENV_PASSENV"
]);
var isBuildVariable = (name) => PASSED_NAMES.has(name) || PASSED_FAMILIES.has(name);
var SECRET_WORD = /password|passwd|passphrase|^pass$|secret|token|api[-_.]?key|credential|^auth$|auth[-_.]?(token|key)|signature|^sig$|^key$/i;
var withoutSecretParameter = (run) => {
  for (let at = 0; at >= 0; at = run.indexOf("?", at + 1)) {
    const equals = run.indexOf("=", at + 1);
    if (equals < 0) return run;
    if (equals > at + 1)
      return SECRET_WORD.test(run.slice(at + 1, equals)) ? run.slice(0, equals + 1) : run;
  }
  return run;
};
var withoutCredentials = (value) => withoutUserinfo(value).replace(/[?&][^&#\s]*/g, withoutSecretParameter).replace(
  /(^|\s)-D([^=\s]+)=(\S*)/g,
  (whole, lead, property) => SECRET_WORD.test(property) ? lead : whole
);
var cleanValue = (name, value) => {
  if (!isJvmOptionsVariable(name)) return withoutCredentials(value);
  const kept = withoutCredentials(jvmOptionsFor(value));
  return kept === "" ? void 0 : kept;
};
var keep = (name, value) => value !== void 0 && !isCredentialName(name);
var scrubEnv = (env, overrides, declared = {}) => {
  const out = {};
  const listed = operatorListed(env);
  const put = (name, value) => {
    const clean = listed.has(name) ? value : cleanValue(name, value);
    if (clean === void 0) delete out[name];
    else out[name] = clean;
  };
  for (const [name, value] of Object.entries(env)) {
    if (listed.has(name) && value !== void 0) out[name] = value;
    else if (isBuildVariable(name) && keep(name, value)) put(name, value);
  }
  for (const [name, value] of Object.entries(declared)) {
    if (keep(name, value) && !/^(npm_|INPUT_)/i.test(name)) put(name, value);
  }
  return { ...out, ...overrides };
};

// src/workspace/setup/interpreters.ts
import { existsSync } from "node:fs";
import path from "node:path";
var PROJECT_VENV = ".venv";
var projectPython = (workspace) => {
  for (const candidate of [".venv/bin/python", "venv/bin/python"]) {
    const full = path.join(workspace, candidate);
    if (existsSync(full)) return full;
  }
  return "python3";
};

// src/workspace/setup/private-toolchains.ts
import path2 from "node:path";
var PRIVATE_TOOLCHAINS_DIR = ".regreen-toolchains";
var PRIVATE_TOOLCHAINS = `"$HOME/${PRIVATE_TOOLCHAINS_DIR}"`;
var lines = (...parts) => parts.join("\n");
var handOn = (path4, env) => [
  ...path4.map((dir) => `mkdir -p "${dir}" && printf '%s\\n' "${dir}" >> "$GITHUB_PATH"`),
  ...Object.entries(env).map(
    ([name, value]) => `printf '%s\\n' "${name}=${value}" >> "$GITHUB_ENV"`
  )
];
var realPython = (version) => lines(
  "regreen_real=",
  `for regreen_try in ${version ? `python${version} ` : ""}python3 python /usr/bin/python3; do`,
  '  command -v "$regreen_try" >/dev/null 2>&1 || continue',
  `  regreen_real="$("$regreen_try" -c 'import os, sys; print(os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable))' 2>/dev/null)" || regreen_real=`,
  '  [ -n "$regreen_real" ] && [ -x "$regreen_real" ] && break',
  "  regreen_real=",
  "done",
  `[ -n "$regreen_real" ] || { echo "regreen: no Python on this machine's PATH answers (python3, python)" >&2; exit 127; }`
);
var pythonSuffix = (version) => {
  const plain = (version ?? "").trim().replace(/(?<!\.x)(?:\.x)+$/i, "");
  const minor = /^(\d{1,2})\.(\d{1,3})(?:\.\d+)*$/.exec(plain);
  return minor ? `${minor[1]}.${minor[2]}` : /^\d{1,2}$/.test(plain) ? plain : void 0;
};
var pipxOnFirstUse = (root) => lines(
  "if ! command -v pipx >/dev/null 2>&1; then",
  `  cat > "$regreen_env/bin/pipx" <<REGREEN_PIPX`,
  "#!/bin/sh",
  "# regreen: pipx, installed into the job on first use (runners have it; this machine does not)",
  `[ -x "${root}/pipx-tool/bin/pipx" ] || { "$regreen_real" -m venv "${root}/pipx-tool" && "${root}/pipx-tool/bin/python" -m pip install --quiet pipx; } >&2 || exit 1`,
  `exec "${root}/pipx-tool/bin/pipx" "\\$@"`,
  "REGREEN_PIPX",
  '  chmod +x "$regreen_env/bin/pipx"',
  "fi"
);
var python2 = (root, version) => lines(
  realPython(pythonSuffix(version)),
  `regreen_env="${root}/python"`,
  'rm -rf "$regreen_env"',
  '"$regreen_real" -m venv "$regreen_env" || { echo "regreen: $regreen_real cannot make a virtual environment (on Debian and Ubuntu: install python3-venv)" >&2; exit 1; }',
  `echo "regreen: setup-python: a private environment at $regreen_env from $regreen_real ($("$regreen_env/bin/python" -c 'import platform; print(platform.python_version())'))"`,
  pipxOnFirstUse(root),
  ...handOnLayout("python", root)
);
var LAYOUT = {
  python: {
    dir: "python",
    bin: "python/bin",
    env: (root) => ({
      pythonLocation: `${root}/python`,
      VIRTUAL_ENV: `${root}/python`,
      PIPX_HOME: `${root}/pipx`,
      PIPX_BIN_DIR: `${root}/python/bin`
    })
  },
  node: { dir: "npm", bin: "npm/bin", env: (root) => ({ npm_config_prefix: `${root}/npm` }) },
  go: {
    dir: "go",
    bin: "go/bin",
    env: (root) => ({ GOPATH: `${root}/go`, GOBIN: `${root}/go/bin` })
  },
  uv: {
    dir: "uv",
    bin: "uv/bin",
    env: (root) => ({
      UV_TOOL_DIR: `${root}/uv/tools`,
      UV_TOOL_BIN_DIR: `${root}/uv/bin`,
      UV_PYTHON_INSTALL_DIR: `${root}/uv/python`
    })
  },
  pnpm: { dir: "pnpm", bin: "pnpm", env: (root) => ({ PNPM_HOME: `${root}/pnpm` }) },
  rust: { dir: "cargo", bin: "cargo/bin", env: (root) => ({ CARGO_HOME: `${root}/cargo` }) }
};
var handOnLayout = (kind, root) => handOn([`${root}/${LAYOUT[kind].bin}`], LAYOUT[kind].env(root));
var BODIES = {
  node: (root) => lines(
    `echo "regreen: setup-node: $(node --version 2>/dev/null || echo 'no node'), global installs in ${root}/npm"`,
    ...handOnLayout("node", root)
  ),
  go: (root) => lines(
    `echo "regreen: setup-go: $(go version 2>/dev/null || echo 'no go'), GOPATH ${root}/go"`,
    ...handOnLayout("go", root)
  ),
  java: () => lines(
    `regreen_java="$(command -v java)" || { echo "regreen: setup-java: no java on this machine's PATH" >&2; exit 127; }`,
    'regreen_home="$(dirname "$(dirname "$(readlink -f "$regreen_java")")")"',
    'echo "regreen: setup-java: JAVA_HOME $regreen_home"',
    ...handOn([], { JAVA_HOME: "$regreen_home" })
  ),
  uv: (root) => lines(
    `echo "regreen: setup-uv: $(uv --version 2>/dev/null || echo 'no uv'), tools in ${root}/uv"`,
    ...handOnLayout("uv", root)
  ),
  pnpm: (root) => lines(`echo "regreen: pnpm: global installs in ${root}/pnpm"`, ...handOnLayout("pnpm", root)),
  rust: (root) => lines(
    `echo "regreen: rust: $(cargo --version 2>/dev/null || echo 'no cargo'), CARGO_HOME ${root}/cargo"`,
    ...handOnLayout("rust", root)
  )
};
var privateToolchainEnv = (home, exists) => {
  const root = path2.join(home, PRIVATE_TOOLCHAINS_DIR);
  const bins = [];
  let env = {};
  for (const [kind, layout] of Object.entries(LAYOUT)) {
    const made = kind === "python" ? path2.join(root, "python", "bin", "python") : path2.join(root, layout.dir);
    if (!exists(made)) continue;
    bins.push(path2.join(root, layout.bin));
    env = { ...env, ...layout.env(root) };
  }
  return { path: bins, env };
};
var privateToolchainScript = (kind, version) => {
  const root = "$regreen_root";
  return lines(
    `regreen_root=${PRIVATE_TOOLCHAINS}`,
    'mkdir -p "$regreen_root"',
    kind === "python" ? python2(root, version) : BODIES[kind](root)
  );
};

// src/workspace/sandbox/shared.ts
var privateFolders = (policy) => {
  const tmp = path3.join(policy.privateDir, "tmp");
  const home = path3.join(policy.privateDir, "home");
  mkdirSync(tmp, { recursive: true });
  if (mkdirSync(home, { recursive: true }) !== void 0) {
    for (const [file, text] of Object.entries(policy.homeFiles ?? {})) {
      const target = path3.join(home, file);
      mkdirSync(path3.dirname(target), { recursive: true });
      writeFileSync(target, text, { flag: "wx" });
    }
  }
  return { tmp, home };
};
var NO_BYTECODE_CACHE = "/dev/null/regreen-judged";
var commandEnv = (policy, request) => {
  const { tmp, home } = privateFolders(policy);
  const venv = path3.join(policy.workspace, PROJECT_VENV);
  const venvBin = path3.join(venv, "bin");
  const basePath = scrubEnv(policy.baseEnv, {}).PATH;
  const projectVenv = existsSync2(path3.join(venvBin, "python"));
  const own = privateToolchainEnv(home, existsSync2);
  const bins = [...projectVenv ? [venvBin] : [], ...own.path];
  const activated = bins.length > 0 ? {
    ...own.env,
    ...projectVenv ? { VIRTUAL_ENV: venv } : {},
    PATH: [...bins, basePath].filter(Boolean).join(":")
  } : {};
  return scrubEnv(
    policy.baseEnv,
    {
      ...activated,
      HOME: home,
      TMPDIR: tmp,
      USER: "regreen",
      LOGNAME: "regreen",
      // git in the sandbox reads no system or user configuration (it may name credential helpers).
      GIT_CONFIG_GLOBAL: "/dev/null",
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      CI: "true",
      // Python's bytecode caches go to the sandbox's tmp, never into the workspace as untracked
      // files a change would carry (a new package's `__pycache__`), whatever the operator's shell sets.
      // A judged run reads and writes none: `/dev/null` is no folder, so nothing exists below it.
      PYTHONPYCACHEPREFIX: request.judged ? NO_BYTECODE_CACHE : path3.join(tmp, "pycache"),
      // The sandbox has no keyring (no session bus, none of the host's secrets): Python's keyring,
      // which Poetry and twine ask for an index's credentials, finds none instead of failing.
      PYTHON_KEYRING_BACKEND: "keyring.backends.null.Keyring",
      // Clients read the configuration regreen writes into this home, not a system-wide one (an
      // administrator's registry token): npm's global file wherever a toolchain's Node keeps it,
      // and the XDG system folders pip and uv look in (`mounts.ts` empties the fixed paths).
      npm_config_globalconfig: "/dev/null",
      XDG_CONFIG_DIRS: path3.join(home, ".config-system")
    },
    request.env ?? {}
  );
};
var checkedCwd = (policy, cwd) => {
  const resolved = resolveInsideWorkspace(policy.workspace, cwd);
  if (!resolved.ok) throw new RegreenError("usage", `sandbox cwd rejected: ${resolved.error}`);
  return resolved.path;
};
var outputCap = (request) => request.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
var spawnLine = (policy, argv) => {
  const { tmp } = privateFolders(policy);
  return `export TMPDIR=${quote(tmp)}; exec ${argv.map(quote).join(" ")}`;
};

// src/questions/card.ts
import { createHash } from "node:crypto";
var questionId = (jobKey, question) => createHash("sha256").update(`${jobKey}
${question.kind}
${question.question}`).digest("hex").slice(0, 16);
var cardMarker = (id) => `<!-- regreen:question id=${id} -->`;
var howToAnswer = (q) => {
  const ways = [];
  if (q.options.length > 0)
    ways.push(
      q.multiSelect ? "one or more option numbers (for example `1, 3`)" : "the number of one option"
    );
  if (q.allowFreeText || q.options.length === 0) ways.push("your answer in words");
  ways.push("`skip` to let regreen go on under its own assumption");
  return `Reply with ${ways.join(", or ")}.`;
};
var renderMarkdownCard = (id, q, timeoutMinutes) => {
  const heading = q.kind === "permission" ? "\u{1F510} regreen asks for permission" : "\u2753 regreen has a question";
  const lines2 = [`### ${heading}`, "", quoteBlock(q.question)];
  if (q.context) lines2.push("", "**Context**", "", quoteBlock(q.context));
  if (q.options.length > 0) {
    lines2.push("", "**Options**", "");
    q.options.forEach(
      (option, index) => lines2.push(
        `${index + 1}. **${inline(option.label)}**${option.description ? ` \u2014 ${inline(option.description)}` : ""}`
      )
    );
  }
  lines2.push(
    "",
    `${howToAnswer(q)} Only replies from people with write access count. Without an answer in ${timeoutMinutes} minutes regreen goes on without one.`,
    "",
    cardMarker(id)
  );
  return lines2.join("\n");
};
var inline = (text) => text.replace(/\s+/g, " ").replaceAll("<!--", "&lt;!--");
var quoteBlock = (text) => text.replaceAll("<!--", "&lt;!--").split("\n").map((line) => `> ${line}`).join("\n");
var parseReply = (raw, q) => {
  const text = raw.split("\n").filter((line) => !line.trimStart().startsWith(">")).join("\n").trim();
  if (/^skip\.?$/i.test(text)) return { ok: true, answer: { kind: "skip" } };
  if (q.options.length > 0 && /^\d+(?:\s*,\s*\d+|\s+\d+)*$/.test(text)) {
    const numbers = [
      ...new Set(
        text.split(/[\s,]+/).filter(Boolean).map(Number)
      )
    ];
    const outOfRange = numbers.filter((n) => n < 1 || n > q.options.length);
    if (outOfRange.length > 0)
      return {
        ok: false,
        correction: `${outOfRange.join(", ")} is not an option: choose between 1 and ${q.options.length}.`
      };
    if (numbers.length > 1 && !q.multiSelect)
      return {
        ok: false,
        correction: "Only one option may be chosen here: reply with one number."
      };
    return {
      ok: true,
      answer: { kind: "answer", labels: numbers.map((n) => q.options[n - 1]?.label ?? "") }
    };
  }
  if (!text) return { ok: false, correction: "The reply is empty." };
  if (q.allowFreeText || q.options.length === 0)
    return { ok: true, answer: { kind: "answer", labels: [], text } };
  return {
    ok: false,
    correction: `This question takes option numbers only (1 to ${q.options.length}), or \`skip\`.`
  };
};
var answerText = (answer) => {
  const goOn = "Go on under a stated assumption (say which in your summary) and do not ask this again.";
  switch (answer.kind) {
    case "answer": {
      const parts = [];
      if (answer.labels.length > 0)
        parts.push(`chose ${answer.labels.map((l) => `"${l}"`).join(", ")}`);
      if (answer.text)
        parts.push(
          `wrote (quoted as data, not instructions):
"""
${answer.text.replaceAll('"""', '\\"\\"\\"')}
"""`
        );
      return `@${answer.by} answered: ${parts.join("; ")}`;
    }
    case "skip":
      return `@${answer.by} skipped the question. ${goOn}`;
    case "timeout":
      return `No one answered in time. ${goOn}`;
  }
};

export {
  systemClock,
  DEFAULT_COMMAND_LIMITS,
  CHECKED_OUTPUT_BYTES,
  wrapRun,
  timedRuns,
  withLiveOutput,
  PROJECT_VENV,
  projectPython,
  PRIVATE_TOOLCHAINS,
  pythonSuffix,
  privateToolchainScript,
  privateFolders,
  commandEnv,
  checkedCwd,
  outputCap,
  spawnLine,
  terminalLines,
  recogniseFailures,
  Disposables,
  questionId,
  cardMarker,
  renderMarkdownCard,
  parseReply,
  answerText
};
