/**
 * `npm run bench:lsp`: the language-server path of the `lsp` tool on a real
 * project of a few hundred files (a copy of zod's TypeScript sources): cold
 * start (first hover after the server starts), the first call of each query
 * (what the server builds once), then warm query latency (median, p95) over N
 * runs for hover, definition and references, through the tool as the agent
 * calls it, with the server in the bubblewrap sandbox. Prints the references p95
 * against its 500 ms target.
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
import { lspFamily } from '../tools/lsp/index.ts';
import { resultText } from '../tools/types.ts';

const runs = Number(process.argv[2] ?? 20);
const require = createRequire(import.meta.url);
const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-lsp-'));
const ws = path.join(root, 'ws');
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
const files = execFileSync('git', ['ls-files', '--others', '--', 'src'], {
  cwd: ws,
  encoding: 'utf8',
})
  .trim()
  .split('\n').length;

const target = path.join(ws, 'src', 'v4', 'classic', 'schemas.ts');
const lines = readFileSync(target, 'utf8').split('\n');
const lineOf = (needle: string): number => lines.findIndex((line) => line.includes(needle)) + 1;
const stringLine = lineOf(
  'export function string(params?: string | core.$ZodStringParams): ZodString {',
);

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
const registry = new ToolRegistry(lsp.tools);
const ctx = {
  workspace: ws,
  sandbox,
  logger: silentLogger(),
  testCommand: 'true',
  commandTimeoutMs: 60_000,
};
const call = async (input: unknown): Promise<[number, string]> => {
  const started = process.hrtime.bigint();
  const result = await registry.call('lsp', input, ctx, new AbortController().signal, {
    levels: TOOL_LEVELS,
  });
  if (result.isError) throw new Error(resultText(result));
  return [Number(process.hrtime.bigint() - started) / 1e6, resultText(result)];
};
const stats = (values: number[]): string => {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
};

try {
  const [cold] = await call({ action: 'hover', file: target, line: stringLine, symbol: 'string' });
  const queries = {
    hover: { action: 'hover', file: target, line: stringLine, symbol: 'ZodString' },
    definition: { action: 'definition', file: target, line: stringLine, symbol: 'ZodString' },
    references: { action: 'references', file: target, line: stringLine, symbol: 'string' },
  };
  const timings: Record<string, number[]> = { hover: [], definition: [], references: [] };
  // Warm-up: the first call of each kind pays for what the server builds once (references: every file's syntax and binding).
  const first: Record<string, number> = {};
  for (const [name, input] of Object.entries(queries)) [first[name]] = await call(input);
  let referencesFound = '';
  for (let i = 0; i < runs; i += 1) {
    for (const [name, input] of Object.entries(queries)) {
      const [ms, text] = await call(input);
      timings[name]?.push(ms);
      if (name === 'references') referencesFound = text.split('\n').at(-1) ?? '';
    }
  }
  console.log(`project: zod sources, ${files} files; ${runs} warm runs per query`);
  console.log(`cold start (server start + project load + first hover): ${cold.toFixed(0)} ms`);
  for (const [name, values] of Object.entries(timings))
    console.log(
      `${name.padEnd(11)} first call ${(first[name] ?? 0).toFixed(0)} ms; warm ${stats(values)}`,
    );
  const p95 = (values: number[]): number =>
    [...values].sort((a, b) => a - b)[
      Math.min(values.length - 1, Math.floor(0.95 * values.length))
    ] ?? 0;
  const references = p95(timings.references ?? []);
  console.log(
    `ratio references p95 / 500 ms target: ${(references / 500).toFixed(2)} (${references <= 500 ? 'met' : 'not met'})`,
  );
  console.log(`references found: ${referencesFound}`);
} finally {
  await lsp.dispose();
  await sandbox.dispose();
  rmSync(root, { recursive: true, force: true });
}
