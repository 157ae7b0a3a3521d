import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRepo, trajectory } from '../../fixtures/build.ts';
import { exitCodeOfError } from '../../src/cli/output.ts';
import { runnerCommands } from '../github/runner-commands.ts';
import { runGitHubAction } from '../support/actions-runner.ts';
import { startEmulatedGitHub, type EmulatedGitHub } from '../support/emulated-github.ts';
import { addRedRun, buildRedRepo, git } from '../support/github-fixture.ts';
import { expectNoSecretWritten } from '../support/no-secret.ts';
import { makeTempDir } from '../support/tmp.ts';
import { emulatedPayload, workflowRunPayload } from '../support/webhook-payloads.ts';
import type { ScriptedTurn } from '../support/emulated-anthropic.ts';
import { EmulatedOpenAI } from '../support/emulated-openai.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The workflow commands the runner would act on in the action's log: its groups and the rest. */
const commandsOf = (stderr: string) => {
  const acted = runnerCommands(stderr);
  return {
    groups: acted.filter((c) => c.name === 'group').map((c) => c.data),
    ends: acted.filter((c) => c.name === 'endgroup').length,
    others: [
      ...new Set(
        acted
          .map((c) => c.name)
          .filter((name) => !['group', 'endgroup', 'stop-commands', 'resume'].includes(name)),
      ),
    ],
    annotation: (level: string) => acted.find((c) => c.name === level)?.data ?? '',
  };
};

/**
 * The action as a workflow gets it: the repository at a ref, where only the
 * committed build runs — no node_modules at its root, no sources, no tsx.
 */
const checkoutOfAction = (dir: string): string => {
  if (!existsSync(path.join(ROOT, 'action', 'index.mjs')))
    throw new Error('action/index.mjs is missing: npm run build:action');
  for (const entry of ['action.yml', 'package.json', 'action'])
    cpSync(path.join(ROOT, entry), path.join(dir, entry), { recursive: true });
  return dir;
};

describe('the GitHub Action, started the way the runner starts it', () => {
  const temp = makeTempDir();
  let gh: EmulatedGitHub;
  let ACTION_PATH = '';

  /** The runner's environment for one run of the action. */
  const runnerEnv = (
    name: string,
    eventName: string,
    payload: unknown,
    sha: string,
    repository = 'acme/range',
  ): Record<string, string | undefined> => {
    const eventPath = path.join(temp.dir, `${name}-event.json`);
    writeFileSync(eventPath, JSON.stringify(payload));
    return {
      PATH: process.env.PATH,
      HOME: path.join(temp.dir, `${name}-home`),
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: eventName,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_REPOSITORY: repository,
      GITHUB_SHA: sha,
      GITHUB_REF_NAME: 'main',
      GITHUB_API_URL: gh.apiUrl,
      GITHUB_SERVER_URL: gh.url,
      GITHUB_STEP_SUMMARY: path.join(temp.dir, `${name}-summary.md`),
      GITHUB_WORKSPACE: path.join(temp.dir, `${name}-workspace`),
    };
  };

  beforeAll(async () => {
    gh = await startEmulatedGitHub(path.join(temp.dir, 'github'));
    ACTION_PATH = checkoutOfAction(path.join(temp.dir, 'action-checkout'));
  });
  afterAll(async () => {
    await gh?.close();
    temp.cleanup();
  });

  it('in a workflow_run workflow: reads the logs, pushes the fix, opens the PR, sets outputs', async () => {
    const red = buildRedRepo(path.join(temp.dir, 'range'));
    gh.addRepo({ owner: 'acme', name: 'range', source: path.join(temp.dir, 'range') });
    const run = addRedRun(gh, 'acme/range', red);
    const payload = workflowRunPayload(gh, 'acme/range', run);
    const env = runnerEnv('wr', 'workflow_run', payload, red.sha);
    const token = gh.workflowToken();
    const result = await runGitHubAction({
      actionPath: ACTION_PATH,
      // The model from the step's `env:`, as the configuration reference says (a new user's W4).
      with: {},
      github: { token },
      env: {
        ...env,
        REGREEN_MODEL: `script:${trajectory('off-by-one-fix')}`,
        // The data dir as everywhere (a new user's R14).
        REGREEN_DATA_DIR: path.join(temp.dir, 'wr-data'),
      },
      runnerTemp: path.join(temp.dir, 'wr-runner-temp'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.outputs.outcome, result.stderr).toBe('proposed');
    expect(result.outputs.fingerprint).toMatch(/^[0-9a-f]{12}$/);
    expect(readdirSync(path.join(temp.dir, 'wr-data', 'jobs'))).toHaveLength(1);
    const repo = gh.repo('acme/range');
    expect(repo.pulls).toHaveLength(1);
    const pr = repo.pulls[0];
    expect(result.outputs['pr-url']).toBe(`${gh.url}/acme/range/pull/${pr?.number}`);
    expect(pr?.user.login).toBe('github-actions[bot]');
    expect(pr?.head).toBe(`regreen/${result.outputs.fingerprint}`);
    const head = gh.branchSha('acme/range', pr?.head ?? '') ?? '';
    expect(git(repo.bare, 'show', `${head}:src/range.js`)).toMatch(/i < n;/);
    const summary = readFileSync(env.GITHUB_STEP_SUMMARY ?? '', 'utf8');
    expect(summary).toMatch(/## regreen/);
    expect(summary).toMatch(/\| proposed \|/);
    expect(pr?.body ?? '').not.toContain(token);
    expect(summary).not.toContain(token);
    // Nor in the data dir (the store, the trace, names), the step's log or its outputs (issue 61).
    expectNoSecretWritten(
      path.join(temp.dir, 'wr-data'),
      [token],
      [result.stderr, JSON.stringify(result.outputs)],
    );
    // The log: a group per stage, then the outcome with its link and what to do next.
    const url = result.outputs['pr-url'] ?? '';
    const log = commandsOf(result.stderr);
    expect(log.groups).toEqual(
      ['intake', 'prepare', 'reproduce', 'recipes', 'agent', 'checks', 'propose'].map(
        (stage) => `regreen: ${stage}`,
      ),
    );
    expect(log.ends).toBe(log.groups.length);
    expect(log.others).toEqual(['notice']);
    expect(log.annotation('notice')).toBe(`regreen proposed a fix: ${url}`);
    expect(result.stderr).toMatch(/^\[regreen\] proposed: .+$/m);
    expect(result.stderr).toContain(`  pull request: ${url} (branch ${pr?.head}, created)`);
    expect(result.stderr).toMatch(/^ {2}checks: all \d+ passed$/m);
    expect(result.stderr).toContain(`  next: Review and merge ${url}\n`);
    expect(summary).toContain(`### Next steps\n\n- Review and merge ${url}\n`);
  });

  it('takes an OpenAI-compatible model from its inputs: the key and the server, never into the log', async () => {
    const turns = (
      JSON.parse(readFileSync(trajectory('off-by-one-fix'), 'utf8')) as { turns: ScriptedTurn[] }
    ).turns;
    const server = await new EmulatedOpenAI(turns).start();
    try {
      const red = buildRedRepo(path.join(temp.dir, 'range-openai'));
      gh.addRepo({
        owner: 'acme',
        name: 'range-openai',
        source: path.join(temp.dir, 'range-openai'),
      });
      const run = addRedRun(gh, 'acme/range-openai', red);
      const payload = workflowRunPayload(gh, 'acme/range-openai', run);
      const env = runnerEnv('oa', 'workflow_run', payload, red.sha);
      const key = 'sk-test-input-key-0123456789';
      const result = await runGitHubAction({
        actionPath: ACTION_PATH,
        with: { model: 'openai:gpt-4.1', 'openai-api-key': key, 'openai-base-url': server.url },
        github: { token: gh.workflowToken() },
        env,
        runnerTemp: path.join(temp.dir, 'oa-runner-temp'),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.outputs.outcome, result.stderr).toBe('proposed');
      expect(server.requests.length).toBeGreaterThan(0);
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
      expect(result.stderr).not.toContain(key);
    } finally {
      await server.stop();
    }
  });

  it('as a step after a failing step on a PR: one diagnosis comment, updated in place on the next run', async () => {
    const repo = gh.repo('acme/range');
    // A person's PR whose head is the buggy commit.
    const main = gh.branchSha('acme/range', 'main') ?? '';
    git(repo.bare, 'update-ref', 'refs/heads/feature', main);
    const pull = gh.addPull('acme/range', {
      head: 'feature',
      base: 'main',
      title: 'feature work',
      login: 'acme',
    });
    const payload = emulatedPayload(gh, 'acme/range', 'pull_request', 'opened');
    Object.assign(payload.pull_request as Record<string, unknown>, {
      number: pull.number,
      head: { ref: 'feature', sha: main },
      base: { ref: 'main', sha: main },
    });
    const runOnce = async (name: string) =>
      runGitHubAction({
        actionPath: ACTION_PATH,
        // No model: recipes only, and no recipe fixes an off-by-one.
        with: { model: 'none', 'test-command': 'npm test' },
        github: { token: gh.workflowToken() },
        env: runnerEnv(name, 'pull_request', payload, 'f'.repeat(40)),
        runnerTemp: path.join(temp.dir, `${name}-runner-temp`),
      });
    const first = await runOnce('pr1');
    expect(first.code, first.stderr).toBe(0);
    expect(first.outputs.outcome, first.stderr).toBe('diagnosis');
    const comments = () => repo.comments.filter((c) => c.on === `issue:${pull.number}`);
    expect(comments()).toHaveLength(1);
    // The log says where the diagnosis is and how to let a model try: an input from a secret.
    const log = commandsOf(first.stderr);
    expect(log.groups).toContain('regreen: report');
    expect(log.others).toEqual(['warning']);
    const diagnosisUrl = /^ {2}diagnosis: (\S+)$/m.exec(first.stderr)?.[1] ?? '';
    expect(diagnosisUrl).toBe(
      `${gh.url}/acme/range/issue/${pull.number}#comment-${comments()[0]?.id}`,
    );
    expect(log.annotation('warning')).toContain(diagnosisUrl);
    expect(first.stderr).toContain(`  next: Read the diagnosis: ${diagnosisUrl}\n`);
    expect(first.stderr).toMatch(/^ {2}next: .*`anthropic-api-key` input.*secrets\./m);
    expect(first.stderr).not.toMatch(/--model|--max-/);
    const firstSummary = readFileSync(path.join(temp.dir, 'pr1-summary.md'), 'utf8');
    expect(firstSummary).toMatch(/^- .*`anthropic-api-key` input/m);
    expect(comments()[0]?.body).toMatch(/no fix found/);
    expect(comments()[0]?.body).toMatch(/attempts=1 -->/);
    const second = await runOnce('pr2');
    expect(second.outputs.outcome, second.stderr).toBe('diagnosis');
    expect(comments()).toHaveLength(1);
    expect(comments()[0]?.body).toMatch(/attempts=2 -->/);
    expect(repo.pulls.filter((p) => p.head.startsWith('regreen/'))).toHaveLength(1);
  });

  it("a repository's output cannot act as a workflow command: it is in the log, inside stop-commands", async () => {
    // Lines a hostile test suite prints, one at a time (each its own line of live output).
    const hostile = [
      '::add-mask::hunter2',
      '::set-output name=pr-url::https://evil.example',
      '##[set-output name=outcome;]proposed',
      '::error title=planted::by the repository',
      '::endgroup::',
    ];
    const dir = makeRepo(path.join(temp.dir, 'hostile'), {
      'package.json': `${JSON.stringify({ name: 'hostile', private: true, scripts: { test: 'node test.js' } })}\n`,
      'test.js': `const lines = ${JSON.stringify(hostile)};\nlet i = 0;\nconst next = () => {\n  if (i === lines.length) return void (process.exitCode = 1);\n  console.log(lines[i++]);\n  setTimeout(next, 200);\n};\nnext();\n`,
    });
    gh.addRepo({ owner: 'acme', name: 'hostile', source: dir });
    const sha = git(dir, 'rev-parse', 'HEAD');
    const result = await runGitHubAction({
      actionPath: ACTION_PATH,
      with: { model: 'none', 'test-command': 'npm test' },
      github: { token: gh.workflowToken() },
      env: runnerEnv('hostile', 'push', {}, sha, 'acme/hostile'),
      runnerTemp: path.join(temp.dir, 'hostile-runner-temp'),
    });
    expect(result.code, result.stderr).toBe(0);
    expect(result.outputs.outcome, result.stderr).toBe('diagnosis');
    const lines = result.stderr.split('\n');
    const group = lines.indexOf('::group::regreen: reproduce');
    const reproduce = lines.slice(group, lines.indexOf('::endgroup::', group + 1));
    // Each hostile line reached the log, inside the reproduce stage's group…
    for (const line of hostile) expect(reproduce).toContain(`  ${line}`);
    // …and the runner acts on none of them: only regreen's groups and its warning.
    const log = commandsOf(result.stderr);
    expect(log.others).toEqual(['warning']);
    expect(log.groups).toContain('regreen: reproduce');
    expect(log.ends).toBe(log.groups.length);
  });

  it("a job that ends in an error exits with the code the CLI gives it (4), not a diagnosis's 1", async () => {
    // A repository the forge knows but cannot serve: the clone fails, as a new user's did (#37).
    const red = buildRedRepo(path.join(temp.dir, 'ghost'));
    gh.addRepo({ owner: 'acme', name: 'ghost', source: path.join(temp.dir, 'ghost') });
    const run = addRedRun(gh, 'acme/ghost', red);
    rmSync(path.join(temp.dir, 'github', 'acme', 'ghost.git', 'objects'), {
      recursive: true,
      force: true,
    });
    const result = await runGitHubAction({
      actionPath: ACTION_PATH,
      with: { model: 'none' },
      github: { token: gh.workflowToken() },
      env: runnerEnv(
        'ghost',
        'workflow_run',
        workflowRunPayload(gh, 'acme/ghost', run),
        red.sha,
        'acme/ghost',
      ),
      runnerTemp: path.join(temp.dir, 'ghost-runner-temp'),
    });
    expect(result.stderr).toMatch(/^\[regreen\] error \(clone-failed\): cannot clone/m);
    // The CLI's table: `regreen fix` exits 4 for this error, and 1 means a diagnosis.
    expect(result.code, result.stderr).toBe(exitCodeOfError('clone-failed'));
  });
});
