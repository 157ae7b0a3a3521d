import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { trajectory } from '../../fixtures/build.ts';
import { Ledger } from '../../src/agent/ledger.ts';
import { boundRepoConfig, operatorCeilings } from '../../src/config/operator-bounds.ts';
import { parseRepoConfig } from '../../src/config/repo-config.ts';
import { effectivePrices, operatorPrices, repositoryModel } from '../../src/model/index.ts';
import { estimatePerToken, priceFor } from '../../src/model/prices.ts';
import { resultOf, worthRetrying } from '../../src/github/processor.ts';
import { cappedProcessor, spendCap } from '../../src/store/spend.ts';
import { runCli, runJson } from '../support/cli.ts';
import { offByOneWithConfig } from '../support/config-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';

const clock = () => {
  let now = 0;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};
const budget = {
  maxTurns: 50,
  maxInputTokens: 1e9,
  maxOutputTokens: 1e6,
  maxCostUsd: 1,
  maxMs: 60_000,
};

/** The operator's limits bind the repository, and the ledger holds with concurrent agents. */
describe('money and limits', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  describe("the repository's config cannot raise what the operator set", () => {
    const hostile = parseRepoConfig(
      [
        'budget: { max_cost_usd: 1000, max_turns: 10000, max_minutes: 10000 }',
        'timeouts: { setup_seconds: 86400, command_seconds: 86400 }',
        'diff_limits: { max_files: 1000, max_lines: 100000, max_kib: 1000000 }',
        'workers: { enabled: true, max_live: 16 }',
        "prices: { 'claude-': { input: 0, output: 0 }, 'my-free-model': { input: 0, output: 0 } }",
      ].join('\n'),
    );

    it('caps budgets, timeouts, diff limits and workers at the operator ceilings', () => {
      const { config, notes } = boundRepoConfig(hostile, operatorCeilings({}));
      expect(config.budget).toMatchObject({ max_cost_usd: 2, max_turns: 40, max_minutes: 20 });
      expect(config.timeouts).toEqual({ setup_seconds: 900, command_seconds: 600 });
      expect(config.diff_limits).toEqual({ max_files: 10, max_lines: 400, max_kib: 256 });
      expect(config.workers.max_live).toBe(3);
      expect(notes.join('\n')).toMatch(/budget.max_cost_usd 1000 is above the operator's 2/);
    });

    it("lets the repository choose below the operator's ceiling, and the operator raise it", () => {
      const modest = parseRepoConfig('budget: { max_cost_usd: 0.5 }');
      expect(
        boundRepoConfig(modest, operatorCeilings({}, { maxCostUsd: 10 })).config.budget
          .max_cost_usd,
      ).toBe(0.5);
      const silent = parseRepoConfig('');
      expect(
        boundRepoConfig(silent, operatorCeilings({ REGREEN_MAX_COST_USD: '7' })).config.budget
          .max_cost_usd,
      ).toBe(7);
    });

    it('a repository whose checkout would outgrow the disk limit is refused before a byte of it is written', async () => {
      // 3 MiB of one byte: a pack of a few KiB, a checkout of 3 MiB, against a 2 MiB limit.
      const repo = path.join(temp.dir, 'inflating');
      mkdirSync(repo, { recursive: true });
      writeFileSync(path.join(repo, 'big.txt'), 'a'.repeat(3 * 1024 * 1024));
      writeFileSync(path.join(repo, 'test.sh'), 'exit 1\n');
      for (const args of [
        ['init', '-q'],
        ['add', '-A'],
        ['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'x'],
      ])
        execFileSync('git', args, { cwd: repo });
      const data = path.join(temp.dir, 'inflating-data');
      const run = await runCli(
        ['fix', '--repo', repo, '--command', 'sh test.sh', '--model', 'none', '--data-dir', data],
        { REGREEN_MAX_DISK_MB: '2', REGREEN_JOB_VOLUME: 'off' },
      );
      expect(run.stdout).toMatch(
        /the checkout of HEAD would write 3\.0 MiB, more than the job's disk limit of 2 MiB/,
      );
      const written = execFileSync('find', [data, '-name', 'big.txt'], { encoding: 'utf8' });
      expect(written).toBe('');
    }, 120_000);

    it('cannot turn off the approval of exec-level tools the operator requires', () => {
      const off = parseRepoConfig('ask_user: { approve_exec: false }');
      const required = boundRepoConfig(off, operatorCeilings({ REGREEN_APPROVE_EXEC: 'always' }));
      expect(required.config.ask_user.approve_exec).toBe(true);
      expect(required.notes.join('\n')).toMatch(
        /the operator requires it \(REGREEN_APPROVE_EXEC=always\)/,
      );
      // Without the operator's word, the repository's choice stands.
      expect(boundRepoConfig(off, operatorCeilings({})).config.ask_user.approve_exec).toBe(false);
      const on = parseRepoConfig('ask_user: { approve_exec: true }');
      expect(boundRepoConfig(on, operatorCeilings({})).config.ask_user.approve_exec).toBe(true);
    });

    it('cannot price a model at zero, nor price one the operator did not', () => {
      const table = effectivePrices(operatorPrices({}), {
        'claude-': { input: 0, output: 0 },
        'my-free-model': { input: 0, output: 0 },
      });
      expect(priceFor('claude-sonnet-4-6', table)?.input).toBe(3);
      expect(priceFor('my-free-model', table)).toBeUndefined();
      const raised = effectivePrices(operatorPrices({}), {
        'claude-sonnet-': { input: 30, output: 150 },
      });
      expect(priceFor('claude-sonnet-4-6', raised)?.output).toBe(150);
      const operator = operatorPrices({
        REGREEN_PRICES: '{"my-free-model":{"input":0,"output":0}}',
      });
      expect(priceFor('my-free-model', operator)).toEqual({ input: 0, output: 0 });
    });

    it('cannot name a program on the host as a model', () => {
      expect(() => repositoryModel('script:/tmp/evil.json', undefined, {})).toThrow(/script model/);
      expect(() => repositoryModel(undefined, 'script:/tmp/evil.json', {})).toThrow(/script model/);
    });

    it('a script model in .github/regreen.yml is refused through the pipeline', async () => {
      const evil = path.join(temp.dir, 'evil.json');
      writeFileSync(evil, '{"turns":[]}');
      const repo = offByOneWithConfig(
        path.join(temp.dir, 'script-repo'),
        `model: "script:${evil}"\n`,
      );
      const result = await runCli(
        ['fix', '--repo', repo, '--data-dir', path.join(temp.dir, 'data')],
        {
          ANTHROPIC_API_KEY: '',
        },
      );
      expect(result.code).toBe(2);
      // The stage line names the error's kind; the outcome says it, once.
      expect(`${result.stdout}${result.stderr}`).toMatch(
        /a repository may choose anthropic or openai models only/,
      );
    });

    it("a repository's worker tier does not override the operator's --model", async () => {
      const repo = offByOneWithConfig(
        path.join(temp.dir, 'worker-repo'),
        `workers: { enabled: true, fast: "script:${path.join(temp.dir, 'evil.json')}" }\n`,
      );
      const { json } = await runJson([
        'fix',
        '--repo',
        repo,
        '--model',
        `script:${trajectory('off-by-one-fix')}`,
        '--data-dir',
        path.join(temp.dir, 'data'),
      ]);
      expect(json.status).toBe('proposed');
    });
  });

  describe('the ledger', () => {
    it('admits concurrent calls against what the others may still spend', () => {
      const ledger = new Ledger(budget, clock());
      const price = { inputPrice: 10e-6, outputPrice: 10e-6 };
      // Each call could cost 40k input + 8192 output at $10/M ≈ $0.48.
      const main = ledger.admit({ inputTokens: 40_000, ...price });
      const worker = ledger.admit({ inputTokens: 40_000, ...price });
      const third = ledger.admit({ inputTokens: 40_000, ...price });
      expect(main.ok && worker.ok).toBe(true);
      expect(third.ok).toBe(false);
      if (!third.ok) expect(third.reason).toMatch(/held by calls in flight/);
    });

    it('prices the input of a call as cache writes, the dearest way it is billed', () => {
      expect(estimatePerToken({ input: 3, output: 15 }).input).toBeCloseTo(3.75e-6);
    });

    it('counts the time workers call the model while a question waits', () => {
      const time = clock();
      const ledger = new Ledger(budget, time);
      ledger.pause();
      time.advance(10_000);
      const call = ledger.admit({ inputTokens: 1, inputPrice: 0, outputPrice: 0 });
      time.advance(20_000);
      if (call.ok)
        ledger.record(
          { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
          0,
          call.reservation,
        );
      time.advance(5_000);
      ledger.resume();
      expect(ledger.spend().elapsedMs).toBe(20_000);
    });

    it('refuses a model with no known price rather than count it as free', async () => {
      const repo = offByOneWithConfig(path.join(temp.dir, 'unpriced'), 'test_command: npm test\n');
      const result = await runCli(
        [
          'fix',
          '--repo',
          repo,
          '--model',
          'openai:my-unpriced-model',
          '--data-dir',
          path.join(temp.dir, 'data'),
        ],
        { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      );
      expect(result.code).toBe(2);
      // The stage line names the error's kind; the outcome says it, once.
      expect(`${result.stdout}${result.stderr}`).toMatch(
        /no price is known for openai:my-unpriced-model/,
      );
    });
  });
});

describe('the spend cap', () => {
  const spend = {
    turns: 3,
    inputTokens: 1,
    outputTokens: 1,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    costUsd: 0.7,
    elapsedMs: 1,
  };

  it('an outage after the agent ran is reported with its spend, not run again', () => {
    expect(worthRetrying({ status: 'error', code: 'model', reason: 'API down', spend })).toBe(
      false,
    );
    expect(
      resultOf({
        kind: 'ran',
        outcome: { status: 'error', code: 'model', reason: 'API down', spend },
      } as never).costUsd,
    ).toBe(0.7);
    expect(worthRetrying({ status: 'error', code: 'model', reason: 'API down' })).toBe(true);
  });

  it('a person who pushed to the branch is not retried into the same refusal', () => {
    expect(
      worthRetrying({ status: 'error', code: 'forge-refused', reason: 'a person has pushed' }),
    ).toBe(false);
  });

  it('what a job spent is counted even when it ends in an error', async () => {
    const added: number[] = [];
    const cap = spendCap({
      counter: {
        spent: () => Promise.resolve(0),
        add: (_repo, _month, usd) => Promise.resolve(added.push(usd)),
      },
      capUsd: 10,
      now: () => 0,
    });
    const processor = cappedProcessor(
      () => Promise.resolve({ status: 'error', summary: 'model: API down', costUsd: 0.7 }),
      cap,
    );
    await processor({ kind: 'fix', target: { owner: 'o', repo: 'r' } } as never, {} as never);
    expect(added).toEqual([0.7]);
  });
});
