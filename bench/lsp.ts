/**
 * `npm run bench:lsp [-- QUERIES]`: the language-server path of the `lsp` tool
 * on a real project of a few hundred files (a copy of zod's TypeScript
 * sources), through the tool as the agent calls it, with the server in the
 * bubblewrap sandbox. Cold start (server start, project load, first hover),
 * then QUERIES (default 120) distinct places of the project — every exported
 * declaration, spread over the files — each asked for hover, definition and
 * references once, with an edit to the queried file before every fifth
 * (what the agent does: the `write` tool, which waits for the file's new
 * diagnostics, so the server has the new text before the next question).
 * The baseline, in the same run once regreen's server has stopped: the same
 * server bare (`lsp-bare.ts`: on the host, no sandbox, no tool) over a second
 * copy of the project, sent the same edits as an editor sends them. Prints
 * p50 and p95 per action for both, regreen's against the 200 ms p95 target
 * and against the bare server, and writes them to `bench/results/lsp.txt`
 * (`--no-record`: not).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ToolRegistry } from '../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../src/config/repo-config.ts';
import { silentLogger } from '../src/logger.ts';
import { sandboxFactory } from '../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../src/workspace/sandbox/policy.ts';
import { writeTool } from '../tools/files/write.ts';
import { lspFamily } from '../tools/lsp/index.ts';
import { resultText } from '../tools/types.ts';
import { startBareServer } from './lsp-bare.ts';
import { median, recordResult } from './results.ts';

const wanted = Number(process.argv.slice(2).find((arg) => /^\d+$/.test(arg)) ?? 120);
const require = createRequire(import.meta.url);
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-lsp-'));
const ws = path.join(root, 'ws');
/** The bare server's own copy: the same project, edited the same way. */
const bareWs = path.join(root, 'bare');
cpSync(path.join(path.dirname(require.resolve('zod/package.json')), 'src'), path.join(ws, 'src'), {
  recursive: true,
});
writeFileSync(
  path.join(ws, 'tsconfig.json'),
  JSON.stringify({
    compilerOptions: {
      strict: true,
      target: 'ES2022',
      module: 'ESNext',
      moduleResolution: 'Bundler',
      noEmit: true,
      skipLibCheck: true,
    },
    include: ['src'],
  }),
);
execFileSync('git', ['init', '-q'], { cwd: ws });
cpSync(ws, bareWs, { recursive: true });
const files = execFileSync('git', ['ls-files', '--others', '--', 'src'], {
  cwd: ws,
  encoding: 'utf8',
})
  .trim()
  .split('\n').length;

// Every exported declaration of the project, by file and line; then an even spread of them.
interface Place {
  readonly file: string;
  readonly line: number;
  readonly symbol: string;
}
const declarations: Place[] = execFileSync('git', ['ls-files', '--others', '--', 'src'], {
  cwd: ws,
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .filter((file) => file.endsWith('.ts') && !file.includes('/tests/'))
  .sort()
  .flatMap((file) =>
    readFileSync(path.join(ws, file), 'utf8')
      .split('\n')
      .flatMap((text, index) => {
        const symbol =
          /^export (?:declare )?(?:abstract )?(?:function|class|const|interface|type) ([A-Za-z_$][\w$]*)/.exec(
            text,
          )?.[1];
        return symbol ? [{ file: path.join(ws, file), line: index + 1, symbol }] : [];
      }),
  );
const step = Math.max(1, Math.floor(declarations.length / wanted));
const places = declarations.filter((_, index) => index % step === 0).slice(0, wanted);
if (places.length < Math.min(wanted, 100))
  throw new Error(`only ${places.length} distinct places found in the project`);
const first = places[0];
if (!first) throw new Error('no exported declaration found');

const sandbox = await sandboxFactory(
  'bubblewrap',
  silentLogger(),
)(
  buildSandboxPolicy({
    workspace: ws,
    privateDir: path.join(root, 'private'),
    home: path.join(root, 'home'),
    dataDir: path.join(root, 'data'),
    registryHosts: [],
    baseEnv: { PATH: process.env.PATH },
  }),
);
const lsp = lspFamily({
  workspace: ws,
  sandbox,
  logger: silentLogger(),
  path: process.env.PATH,
  node: process.execPath,
});
const registry = new ToolRegistry([...lsp.tools, ...lsp.wrapWrites([writeTool])]);
const bareRoute = lsp.supervisor.route(first.file);
if (!bareRoute.ok) throw new Error(bareRoute.reason);
const inBare = (file: string): string => path.join(bareWs, path.relative(ws, file));
const ctx = {
  workspace: ws,
  sandbox,
  logger: silentLogger(),
  testCommand: 'true',
  commandTimeoutMs: 60_000,
};
const call = async (input: unknown, tool = 'lsp'): Promise<[number, string]> => {
  const started = process.hrtime.bigint();
  const result = await registry.call(tool, input, ctx, new AbortController().signal, {
    levels: TOOL_LEVELS,
  });
  if (result.isError) throw new Error(resultText(result));
  return [Number(process.hrtime.bigint() - started) / 1e6, resultText(result)];
};

try {
  const [cold] = await call({
    action: 'hover',
    file: first.file,
    line: first.line,
    symbol: first.symbol,
  });
  const actions = ['hover', 'definition', 'references'] as const;
  const timings = Object.fromEntries(actions.map((action) => [action, [] as number[]])) as Record<
    (typeof actions)[number],
    number[]
  >;
  const bareTimings = Object.fromEntries(
    actions.map((action) => [action, [] as number[]]),
  ) as Record<(typeof actions)[number], number[]>;
  const editTimes: number[] = [];
  let answered = 0;
  for (const [index, place] of places.entries()) {
    if (index % 5 === 4) {
      const content = `${readFileSync(place.file, 'utf8')}\nexport const benchEdit${index} = ${index};\n`;
      const [ms] = await call({ path: place.file, content }, 'write');
      editTimes.push(ms);
    }
    for (const action of actions) {
      const [ms, text] = await call({
        action,
        file: place.file,
        line: place.line,
        symbol: place.symbol,
      });
      timings[action].push(ms);
      if (!/^no (hover information|definition found|references found) for /.test(text))
        answered += 1;
    }
  }
  await lsp.dispose();
  // The bare server after regreen's has gone: two at once would slow each other with their background checks.
  const bare = await startBareServer({
    argv: bareRoute.argv,
    root: bareWs,
    initializationOptions: bareRoute.spec.initializationOptions?.(bareWs),
  });
  const bareCold = await bare.ask('hover', { ...first, file: inBare(first.file) });
  try {
    for (const [index, place] of places.entries()) {
      if (index % 5 === 4) {
        const file = inBare(place.file);
        writeFileSync(
          file,
          `${readFileSync(file, 'utf8')}\nexport const benchEdit${index} = ${index};\n`,
        );
        await bare.changed(file);
      }
      for (const action of actions)
        bareTimings[action].push(await bare.ask(action, { ...place, file: inBare(place.file) }));
    }
  } finally {
    await bare.dispose();
  }
  const at = (values: readonly number[], q: number): number => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  };
  const TARGET_MS = 200;
  const lines = [
    `bench:lsp, zod's sources (${files} files): ${places.length} distinct exported declarations over the project, each asked hover, definition and references once; an edit to the queried file before every fifth (${editTimes.length} edits, through the write tool)`,
    `baseline, same run, after regreen's server has stopped: the same server bare (spawned on the host, no sandbox, no tool; a minimal client that sends each edit as the whole text and does not wait for diagnostics) over its own copy of the project`,
    `(left out: a model's think time between calls (none here: each query follows the last at once); the OS's file cache is warm after the copy)`,
    `cold start (server start + project load + first hover): regreen ${cold.toFixed(0)} ms, bare ${bareCold.toFixed(0)} ms (the bare server's first hover is answered before its project is loaded)`,
    ...actions.flatMap((action) => {
      const p95 = at(timings[action], 0.95);
      const bareP95 = at(bareTimings[action], 0.95);
      return [
        `${action.padEnd(11)} p50 ${at(timings[action], 0.5).toFixed(0)} ms   p95 ${p95.toFixed(0)} ms   (target p95 ≤ ${TARGET_MS} ms: ${p95 <= TARGET_MS ? 'met' : 'NOT met'}; ${(p95 / TARGET_MS).toFixed(2)}× the target)   max ${Math.max(...timings[action]).toFixed(0)} ms`,
        `${'  bare'.padEnd(11)} p50 ${at(bareTimings[action], 0.5).toFixed(0)} ms   p95 ${bareP95.toFixed(0)} ms   regreen/bare at p95 ${(p95 / bareP95).toFixed(2)}×   max ${Math.max(...bareTimings[action]).toFixed(0)} ms`,
      ];
    }),
    `edit (the write tool, which waits for the file's diagnostics to settle: 400 ms quiet): median ${median(editTimes).toFixed(0)} ms, max ${Math.max(...editTimes).toFixed(0)} ms (the bare client only sends the text)`,
    `answers with a result: ${answered} of ${places.length * actions.length} queries`,
  ];
  for (const line of lines) console.log(line);
  if (!process.argv.includes('--no-record'))
    console.log(`written to ${path.relative(process.cwd(), recordResult('lsp', lines))}`);
} finally {
  await lsp.dispose();
  await sandbox.dispose();
  rmSync(root, { recursive: true, force: true });
}
