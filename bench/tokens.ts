/**
 * `npm run bench:tokens`: what prompt caching and context clearing save.
 * Replays a recorded trajectory of 34 turns (reads, searches, listings, then
 * an edit) through the real Anthropic SDK against the emulated Messages API,
 * with the default caching and clearing, with clearing at a fixed window of
 * 60k characters (for scale: the cache is rewritten every few turns), with
 * caching alone (for scale: every turn reads the whole previous prompt from
 * the cache, so the share is high and the bill too), and with both off; prints
 * the input tokens billed, the share read from the cache, the cost, and the
 * ratios of the defaults to the others (both off is the baseline). That
 * trajectory is synthetic; the end-to-end tests' recorded one
 * (`fixtures/trajectories/off-by-one-fix.json`, on the fixture it was
 * recorded on) is replayed too, with the defaults and with both off. Left out:
 * a real model (the emulator counts about four characters a token and caches
 * as the API documents; the answers are the recorded ones) and latency.
 * Writes what it printed to `bench/results/tokens.txt`, which
 * docs/benchmarks.md quotes (`--no-record`: print only).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { DEFAULT_CLEARING, type ClearingPolicy } from '../src/agent/context-window.ts';
import { Ledger } from '../src/agent/ledger.ts';
import { runAgentLoop } from '../src/agent/loop.ts';
import { ToolRegistry } from '../src/agent/tool-registry.ts';
import { memoryTrace } from '../src/observe/trace.ts';
import { silentLogger } from '../src/logger.ts';
import { createAnthropicModel } from '../src/model/anthropic.ts';
import { costOf, DEFAULT_PRICES, priceFor } from '../src/model/prices.ts';
import { sandboxFactory } from '../src/workspace/sandbox/registry.ts';
import { buildSandboxPolicy } from '../src/workspace/sandbox/policy.ts';
import { coreTools } from '../tools/index.ts';
import { EmulatedAnthropic, type ScriptedTurn } from '../test/support/emulated-anthropic.ts';
import { buildOffByOneFixture } from '../fixtures/build.ts';
import { ROOT, recordResult } from './results.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'regreen-bench-tokens-'));
const ws = path.join(root, 'ws');
mkdirSync(path.join(ws, 'src'), { recursive: true });
const FILES = 10;
for (let i = 0; i < FILES; i += 1) {
  const body = Array.from(
    { length: 180 },
    (_, line) => `export const value${i}_${line} = compute(${line}, '${'z'.repeat(30)}');`,
  ).join('\n');
  writeFileSync(path.join(ws, 'src', `module${i}.ts`), `${body}\n`);
}

const turns: ScriptedTurn[] = [
  {
    content: [
      {
        type: 'text',
        text: 'Plan: survey src/, find the failing value, fix it, re-read to verify.',
      },
      { type: 'tool_use', id: 'l0', name: 'list', input: { path: '$WORKSPACE/src' } },
    ],
  },
];
for (let pass = 0; pass < 3; pass += 1) {
  for (let i = 0; i < FILES; i += 1) {
    const id = `r${pass}-${i}`;
    const input =
      pass === 1
        ? { pattern: `value${i}_1\\d\\d`, path: `$WORKSPACE/src/module${i}.ts` }
        : { path: `$WORKSPACE/src/module${i}.ts`, from: 1 + pass * 60, to: 180 };
    turns.push({
      content: [{ type: 'tool_use', id, name: pass === 1 ? 'search' : 'read', input }],
    });
  }
}
turns.push({
  content: [
    {
      type: 'tool_use',
      id: 'e',
      name: 'edit',
      input: { path: '$WORKSPACE/src/module3.ts', old: 'compute(7,', new: 'compute(8,' },
    },
  ],
});
turns.push({
  content: [
    {
      type: 'tool_use',
      id: 'v',
      name: 'read',
      input: { path: '$WORKSPACE/src/module3.ts', from: 5, to: 10 },
    },
  ],
});
turns.push({ content: [{ type: 'text', text: 'Fixed the off-by-one in module3.' }] });

/** A trajectory replayed on its workspace, which `reset` puts back as it was before each run. */
interface Replay {
  readonly turns: readonly ScriptedTurn[];
  readonly ws: string;
  readonly reset: () => void;
  readonly testCommand: string;
}

const synthetic: Replay = {
  turns,
  ws,
  reset: () =>
    writeFileSync(
      path.join(ws, 'src', 'module3.ts'),
      readFileSync(path.join(ws, 'src', 'module3.ts'), 'utf8').replace('compute(8,', 'compute(7,'),
    ),
  testCommand: 'true',
};

/** The end-to-end tests' recorded trajectory (`off-by-one-fix`) on the off-by-one fixture it was recorded on. */
const recorded: Replay = (() => {
  const fixture = path.join(root, 'off-by-one');
  const script = JSON.parse(
    readFileSync(path.join(ROOT, 'fixtures', 'trajectories', 'off-by-one-fix.json'), 'utf8'),
  ) as { turns: ScriptedTurn[] };
  return {
    turns: script.turns,
    ws: fixture,
    reset: () => {
      rmSync(fixture, { recursive: true, force: true });
      buildOffByOneFixture(fixture);
    },
    testCommand: 'npm test',
  };
})();

const run = async (
  label: string,
  caching: boolean,
  clearing: ClearingPolicy,
  replay: Replay = synthetic,
) => {
  replay.reset();
  const { ws } = replay;
  const server = await new EmulatedAnthropic([...replay.turns]).start();
  const sandbox = await sandboxFactory(
    'bubblewrap',
    silentLogger(),
  )(
    buildSandboxPolicy({
      workspace: ws,
      privateDir: path.join(root, `private-${label}`),
      home: path.join(root, 'home'),
      dataDir: path.join(root, 'data'),
      registryHosts: [],
      baseEnv: { PATH: process.env.PATH },
    }),
  );
  try {
    const model = createAnthropicModel({
      apiKey: 'bench',
      baseURL: server.url,
      model: 'claude-sonnet-4-6',
      timeoutMs: 60_000,
      prices: DEFAULT_PRICES,
      retry: { maxAttempts: 1, baseDelayMs: 1, maxDelayMs: 1, sleep: () => Promise.resolve() },
      logger: silentLogger(),
      caching,
    });
    const result = await runAgentLoop({
      model,
      registry: new ToolRegistry(coreTools()),
      filter: { levels: ['read', 'write', 'exec'] },
      ctx: {
        workspace: ws,
        sandbox,
        logger: silentLogger(),
        testCommand: replay.testCommand,
        commandTimeoutMs: 60_000,
      },
      system: `You are regreen. The repository is checked out at ${ws} . Fix the failing value.`,
      task: 'module3 computes the wrong value.',
      ledger: new Ledger(
        {
          maxTurns: 100,
          maxInputTokens: 1e9,
          maxOutputTokens: 1e7,
          maxCostUsd: 1e6,
          maxMs: 600_000,
        },
        { now: () => Date.now() },
      ),
      trace: memoryTrace(),
      logger: silentLogger(),
      signal: new AbortController().signal,
      clearing,
    });
    if (result.status !== 'done') throw new Error(`${label}: ${result.status}`);
    const s = result.spend;
    const billed = s.inputTokens + s.cacheReadTokens + s.cacheWriteTokens;
    const cost = costOf(s, priceFor('claude-sonnet-4-6', DEFAULT_PRICES));
    return {
      label,
      turns: s.turns,
      billed,
      cacheShare: billed > 0 ? s.cacheReadTokens / billed : 0,
      cost,
    };
  } finally {
    await sandbox.dispose();
    await server.stop();
  }
};

const on = await run('defaults (caching, clearing when it pays)', true, DEFAULT_CLEARING);
// For scale: clearing whenever the conversation passes a fixed window rewrites the cache often.
const windowed = await run('caching, clearing past 60k', true, {
  ...DEFAULT_CLEARING,
  maxChars: 60_000,
  minChars: 60_000,
});
const NO_CLEARING = {
  maxChars: Number.POSITIVE_INFINITY,
  minChars: Number.POSITIVE_INFINITY,
  keepRecent: 0,
};
// For scale: caching alone reads more of what it bills from the cache, but bills far more.
const cachingOnly = await run('caching, no clearing', true, NO_CLEARING);
const off = await run('caching+clearing off', false, NO_CLEARING);
const recordedOn = await run('defaults', true, DEFAULT_CLEARING, recorded);
const recordedOff = await run('caching+clearing off', false, NO_CLEARING, recorded);
rmSync(root, { recursive: true, force: true });
const lines = [
  `bench:tokens, one recorded trajectory of ${turns.length} turns (synthetic: ${FILES} generated files listed, read and searched, then one edit) through the Anthropic SDK against the emulated Messages API, priced as claude-sonnet-4-6`,
  `baseline, same run: caching and clearing both off; for scale, clearing past a fixed 60k characters, and caching alone`,
  `(left out: a real model and its tokenizer, the emulator counts about four characters a token and caches as the API documents; latency; output tokens beyond the recorded answers)`,
  ...[on, windowed, cachingOnly, off].map(
    (r) =>
      `${r.label.padEnd(42)} turns ${r.turns}  input tokens billed ${String(r.billed).padStart(8)}  read from cache ${(100 * r.cacheShare).toFixed(1).padStart(5)}%  input+output cost $${r.cost.toFixed(4)}`,
  ),
  `ratio defaults/off: input tokens ${(on.billed / off.billed).toFixed(2)}×, cost ${(on.cost / off.cost).toFixed(2)}×; cost against the fixed window ${(on.cost / windowed.cost).toFixed(2)}×, against caching alone ${(on.cost / cachingOnly.cost).toFixed(2)}×`,
  `the end-to-end tests' recorded trajectory (fixtures/trajectories/off-by-one-fix.json: read, edit, run_tests on the off-by-one fixture):`,
  ...[recordedOn, recordedOff].map(
    (r) =>
      `  ${r.label.padEnd(40)} turns ${r.turns}  input tokens billed ${String(r.billed).padStart(8)}  read from cache ${(100 * r.cacheShare).toFixed(1).padStart(5)}%  input+output cost $${r.cost.toFixed(4)}`,
  ),
  `  ratio defaults/off: input tokens ${(recordedOn.billed / recordedOff.billed).toFixed(2)}×, cost ${(recordedOn.cost / recordedOff.cost).toFixed(2)}×`,
];
for (const line of lines) console.log(line);
if (!process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(process.cwd(), recordResult('tokens', lines))}`);
