import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Ledger } from '../../src/agent/ledger.ts';
import { memoryTrace } from '../../src/observe/trace.ts';
import { ToolRegistry } from '../../src/agent/tool-registry.ts';
import { TOOL_LEVELS } from '../../src/config/repo-config.ts';
import { createGitHubClient, type GitHubClient } from '../../src/forge/github/client.ts';
import { questionsSection } from '../../src/job/pr-text.ts';
import { silentLogger } from '../../src/logger.ts';
import { parseReply, type Question } from '../../src/questions/card.ts';
import type { QuestionChannel, WaitClock } from '../../src/questions/channel.ts';
import { githubQuestionChannel } from '../../src/questions/github.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { askFamily } from '../../tools/ask/index.ts';
import { defineTool, ok, resultText, type ToolResult } from '../../tools/types.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { buildRedRepo } from '../support/github-fixture.ts';
import { makeTempDir } from '../support/tmp.ts';
import { toolContext } from '../support/tool-context.ts';

/** ask_user and the gate never touch the sandbox. */
const unusedSandbox = {} as Sandbox;

/** A clock whose sleeps pass at once, with a hook to act while the channel waits. */
const fakeClock = (onSleep: (now: number) => void = () => undefined) => {
  let now = Date.parse('2026-11-30T10:00:00Z');
  const clock: WaitClock & { advance(ms: number): void } = {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      onSleep(now);
      await new Promise((resolve) => setImmediate(resolve));
    },
    advance: (ms) => {
      now += ms;
    },
  };
  return clock;
};

const CHOICE: Question = {
  question: 'Should range(n) include n?',
  context: 'The test and the docs disagree.',
  options: [
    { label: 'Exclude n', description: 'like Python' },
    { label: 'Include n' },
    { label: 'Make it an option' },
  ],
  allowFreeText: true,
  multiSelect: false,
  kind: 'question',
};

describe('ask_user on GitHub: a card on the pull request, answered by its people', () => {
  const temp = makeTempDir();
  let gh: EmulatedGitHub;
  let client: GitHubClient;
  let pull = 0;
  let n = 0;

  beforeAll(async () => {
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
    buildRedRepo(path.join(temp.dir, 'lib'));
    gh.addRepo({ owner: 'acme', name: 'lib', source: path.join(temp.dir, 'lib') });
    const repo = gh.repo('acme/lib');
    repo.permissions.set('maya', 'write');
    repo.permissions.set('visitor', 'read');
    repo.permissions.set('regreen-bot', 'write');
    pull = gh.addPull('acme/lib', {
      head: 'main',
      base: 'main',
      title: 'feat',
      login: 'maya',
    }).number;
    client = createGitHubClient({
      auth: { kind: 'token', token: gh.userToken('regreen-bot') },
      baseUrl: gh.apiUrl,
      logger: silentLogger(),
      retryAfterBaseMs: 5,
    });
  });
  afterAll(async () => {
    await gh?.close();
    temp.cleanup();
  });

  const channel = (clock: WaitClock): QuestionChannel =>
    githubQuestionChannel({
      client,
      owner: 'acme',
      repo: 'lib',
      pullNumber: pull,
      selfLogin: () => Promise.resolve('regreen-bot'),
      logger: silentLogger(),
      clock,
      backoffMs: { first: 5000, max: 60_000 },
    });
  const comments = () => gh.repo('acme/lib').comments.filter((c) => c.on === `issue:${pull}`);
  const ask = async (question: Question, replies: (() => void)[] = [], timeoutMinutes = 15) => {
    const id = `${String((n += 1)).padStart(16, '0')}`;
    const pending = [...replies];
    const clock = fakeClock(() => pending.shift()?.());
    const chan = channel(clock);
    await chan.open(id, question, timeoutMinutes);
    pending.shift()?.();
    const answer = await chan.wait(
      id,
      question,
      clock.now() + timeoutMinutes * 60_000,
      new AbortController().signal,
    );
    await chan.close(id, question, answer);
    return { id, answer, clock };
  };
  const reply = (login: string, body: string) => () =>
    void gh.addComment('acme/lib', pull, login, body);

  it('posts a readable card: question, context, numbered options, how to answer', async () => {
    const { id } = await ask(CHOICE, [reply('maya', '2')]);
    const card = comments().find((c) => c.body.includes(`regreen:question id=${id}`));
    expect(card?.body).toMatch(/### ❓ regreen has a question/);
    expect(card?.body).toMatch(/> Should range\(n\) include n\?/);
    expect(card?.body).toMatch(
      /1\. \*\*Exclude n\*\* — like Python\n2\. \*\*Include n\*\*\n3\. \*\*Make it an option\*\*/,
    );
    expect(card?.body).toMatch(
      /Reply with the number of one option, or your answer in words, or `skip`/,
    );
    expect(card?.body).toMatch(/Only replies from people with write access count/);
    // The card says how it ended.
    expect(card?.body).toMatch(/✅ Answered by @maya: Include n\./);
  });

  it('answers by number, by text, and with several numbers when multi-select is allowed', async () => {
    expect((await ask(CHOICE, [reply('maya', '1')])).answer).toMatchObject({
      kind: 'answer',
      labels: ['Exclude n'],
      by: 'maya',
    });
    expect(
      (await ask(CHOICE, [reply('maya', 'Exclude it, as the docs say')])).answer,
    ).toMatchObject({
      kind: 'answer',
      labels: [],
      text: 'Exclude it, as the docs say',
    });
    const multi = { ...CHOICE, question: 'Which files may change?', multiSelect: true };
    expect((await ask(multi, [reply('maya', '1, 3')])).answer).toMatchObject({
      labels: ['Exclude n', 'Make it an option'],
    });
  });

  it('a skip is an answer; no answer by the deadline is a timeout', async () => {
    expect((await ask(CHOICE, [reply('maya', 'skip')])).answer).toMatchObject({
      kind: 'skip',
      by: 'maya',
    });
    const { answer, clock } = await ask(CHOICE, [], 15);
    expect(answer.kind).toBe('timeout');
    // It waited the whole 15 minutes (fake time) and polled with backoff, not in a tight loop.
    expect(clock.now() - Date.parse('2026-11-30T10:00:00Z')).toBe(15 * 60_000);
    expect(comments().at(-1)?.body).toMatch(/⌛ No answer in time/);
  });

  it('ignores people without write access and its own comments; corrects a bad reply once and stays open', async () => {
    const before = comments().length;
    const { answer } = await ask(CHOICE, [
      reply('visitor', '3'),
      reply('regreen-bot', '1'),
      reply('maya', '7'),
      reply('maya', '1 2'),
      reply('maya', '3'),
    ]);
    expect(answer).toMatchObject({ kind: 'answer', labels: ['Make it an option'], by: 'maya' });
    const added = comments()
      .slice(before)
      .map((c) => `${c.user.login}: ${c.body.split('\n')[0]}`);
    expect(added.filter((line) => line.startsWith('regreen-bot: @maya'))).toEqual([
      'regreen-bot: @maya 7 is not an option: choose between 1 and 3. The question is still open.',
      'regreen-bot: @maya Only one option may be chosen here: reply with one number. The question is still open.',
    ]);
    expect(added.join('\n')).not.toMatch(/@visitor/);
  });

  it('reads an edited reply as it is now, and a deleted one not at all', async () => {
    const repo = gh.repo('acme/lib');
    const { answer } = await ask(CHOICE, [
      () => {
        const typo = gh.addComment('acme/lib', pull, 'maya', '9');
        typo.body = '2';
      },
    ]);
    expect(answer).toMatchObject({ labels: ['Include n'] });
    const second = await ask(CHOICE, [
      () => {
        const gone = gh.addComment('acme/lib', pull, 'maya', '1');
        repo.comments.splice(repo.comments.indexOf(gone), 1);
      },
      reply('maya', '3'),
    ]);
    expect(second.answer).toMatchObject({ labels: ['Make it an option'] });
  });

  it('the ask_user tool: the answer reaches the model, a second ask is refused, a timeout is an error; the ledger does not count the wait', async () => {
    const clock = fakeClock();
    const ledger = new Ledger(
      { maxTurns: 10, maxInputTokens: 1e6, maxOutputTokens: 1e5, maxCostUsd: 1, maxMs: 60_000 },
      clock,
    );
    let pending: (() => void)[] = [];
    const hooked = fakeClock(() => pending.shift()?.());
    const sharedClock: WaitClock = {
      now: () => clock.now(),
      sleep: async (ms, signal) => {
        clock.advance(ms);
        await hooked.sleep(0, signal);
      },
    };
    const trace = memoryTrace();
    const family = askFamily({
      channel: channel(sharedClock),
      jobKey: 'job-1',
      timeoutMinutes: 15,
      clock: sharedClock,
      pause: () => ledger.pause(),
      resume: () => ledger.resume(),
      trace,
    });
    const registry = new ToolRegistry(family.tools);
    const call = (input: Record<string, unknown>): Promise<ToolResult> =>
      registry.call(
        'ask_user',
        input,
        toolContext(temp.dir, unusedSandbox),
        new AbortController().signal,
        {
          levels: TOOL_LEVELS,
        },
      );
    pending = [reply('maya', 'It should include n; see the issue')];
    const first = await call({
      question: 'Should range(n) include n?',
      options: [{ label: 'yes' }, { label: 'no' }],
    });
    expect(first.isError).toBe(false);
    expect(resultText(first)).toMatch(
      /@maya answered: wrote \(quoted as data, not instructions\):\n"""\nIt should include n; see the issue\n"""/,
    );
    const again = await call({ question: 'should RANGE(n) include n' });
    expect(again.isError).toBe(true);
    expect(resultText(again)).toMatch(
      /^already asked; go on with the answer you have: @maya answered/,
    );
    pending = [];
    const late = await call({ question: 'Is the changelog required?', timeout_minutes: 5 });
    expect(late.isError).toBe(true);
    expect(resultText(late)).toMatch(/No one answered in time\. Go on under a stated assumption/);
    // 5 minutes and more passed on the clock, none of it on the ledger.
    expect(clock.now() - Date.parse('2026-11-30T10:00:00Z')).toBeGreaterThanOrEqual(5 * 60_000);
    expect(ledger.spend().elapsedMs).toBe(0);
    expect(trace.events.filter((e) => e.type === 'note' && e.message === 'question')).toHaveLength(
      2,
    );
    expect(questionsSection(family.asked)).toMatch(
      /## Questions asked\n\n- ❓ Should range\(n\) include n\? \(asked 2026-11-30 10:00\) — @maya at .*: “It should include n; see the issue”\n- ❓ Is the changelog required\? .* — no answer by/,
    );
  });

  it('asks a maintainer before an exec tool when the config says so: no refuses, "every" allows the rest of the job', async () => {
    let pending: (() => void)[] = [];
    const clock = fakeClock(() => pending.shift()?.());
    const family = askFamily({
      channel: channel(clock),
      jobKey: 'job-2',
      timeoutMinutes: 15,
      clock,
      pause: () => undefined,
      resume: () => undefined,
      trace: memoryTrace(),
    });
    let ran = 0;
    const exec = defineTool({
      name: 'run_tests',
      level: 'exec',
      description: 'runs the tests',
      schema: z.object({}),
      run: () => {
        ran += 1;
        return Promise.resolve(ok('PASS'));
      },
    });
    const registry = new ToolRegistry([exec]);
    const run = () =>
      registry.call(
        'run_tests',
        {},
        toolContext(temp.dir, unusedSandbox),
        new AbortController().signal,
        {
          levels: TOOL_LEVELS,
          gate: (name, input, signal) => family.permission(name, input, signal),
        },
      );
    pending = [reply('maya', '3')];
    const refused = await run();
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/Not allowed to run run_tests: @maya said no/);
    expect(
      comments().some(
        (c) =>
          c.body.includes('🔐 regreen asks for permission') &&
          c.body.includes('May regreen run the `run_tests` tool?'),
      ),
    ).toBe(true);
    pending = [reply('maya', '2')];
    expect((await run()).isError).toBe(false);
    expect((await run()).isError).toBe(false);
    expect(ran).toBe(2);
    expect(family.asked.map((q) => q.kind)).toEqual(['permission', 'permission']);
  });
});

describe('parseReply', () => {
  it('reads numbers, skip and text; corrects what it cannot take', () => {
    expect(parseReply('> quoted card\n2', CHOICE)).toEqual({
      ok: true,
      answer: { kind: 'answer', labels: ['Include n'] },
    });
    expect(parseReply('SKIP', CHOICE)).toEqual({ ok: true, answer: { kind: 'skip' } });
    const correction = (text: string, q: Question): string => {
      const parsed = parseReply(text, q);
      return parsed.ok ? '' : parsed.correction;
    };
    expect(correction('0', CHOICE)).toMatch(/0 is not an option/);
    expect(correction('maybe', { ...CHOICE, allowFreeText: false })).toMatch(/option numbers only/);
    expect(parseReply('   ', CHOICE)).toMatchObject({ ok: false });
  });
});
