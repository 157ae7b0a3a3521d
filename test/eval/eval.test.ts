import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEvalFixture, buildMiningFixture } from '../../fixtures/eval-tasks.ts';
import type { EvalReport } from '../../src/eval/types.ts';
import { loadTasks } from '../../src/eval/tasks.ts';
import { parseJunit, parseTap } from '../../checks/test-reports.ts';
import { screenshot, visibleIcons, withChromium } from '../support/browser.ts';
import { runCli } from '../support/cli.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('regreen eval run', () => {
  const temp = makeTempDir('regreen-eval-');
  let fixture: ReturnType<typeof buildEvalFixture>;
  beforeAll(() => {
    fixture = buildEvalFixture(temp.dir);
  });
  afterAll(temp.cleanup);

  const run = async (policy: string, out: string, extra: string[] = []) => {
    const result = await runCli([
      'eval',
      'run',
      '--tasks',
      fixture.tasksFile,
      '--policy',
      policy,
      '--out',
      path.join(temp.dir, out),
      '--concurrency',
      '2',
      '--json',
      ...extra,
    ]);
    return { ...result, report: JSON.parse(result.stdout || '{}') as EvalReport };
  };

  it('oracle resolves every task through the pipeline; the protected manifest is reported', async () => {
    const { code, report, stderr } = await run('oracle', 'oracle');
    expect(code, stderr).toBe(0);
    const byId = Object.fromEntries(report.tasks.map((t) => [t.id, t]));
    expect(byId['range-ci']).toMatchObject({
      resolved: true,
      outcome: 'proposed',
      falseFix: false,
    });
    expect(byId['range-ci']?.diffLines).toBe(byId['range-ci']?.goldLines);
    expect(byId['range-ci']?.outsideGold).toEqual([]);
    expect(byId['sum-hidden']).toMatchObject({ resolved: true, outcome: 'proposed' });
    // The gold patch touches package.json: the checks refuse it, the tests would pass.
    expect(byId['engines-protected']).toMatchObject({ resolved: true, outcome: 'diagnosis' });
    expect(byId['engines-protected']?.checksFired).toContain('protected-files');
    expect(report.summary).toMatchObject({ total: 3, resolved: 3, errors: 0 });
    expect(stderr).toMatch(/\[eval\] 3\/3/);
    const markdown = readFileSync(path.join(temp.dir, 'oracle', 'report.md'), 'utf8');
    const html = readFileSync(path.join(temp.dir, 'oracle', 'report.html'), 'utf8');
    expect(html).toMatch(/Resolved <b>3<\/b> of 3/);
    expect(html).toMatch(/<section id="range-ci">[\s\S]*i &lt; n; i \+= 1/);
    expect(html).toMatch(/<svg [^>]*aria-label="outcomes"/);
    // --resume skips what report.json already holds.
    const again = await run('oracle', 'oracle', ['--resume']);
    expect(again.report.summary).toMatchObject({ total: 3, resolved: 3 });
    expect(again.stderr).not.toMatch(/\[eval\] \d\/3/);
    expect(markdown).toMatch(/Resolved 3 of 3/);
    expect(markdown).toMatch(
      /\| engines-protected \| ci \| ✅ resolved \| diagnosis \| {2}\| failing-command-passes, no-regression, base-harness, protected-files \|/,
    );
  }, 240_000);

  it('empty resolves none', async () => {
    const { code, report } = await run('empty', 'empty');
    expect(code, JSON.stringify(report.tasks.map((t) => t.error))).toBe(0);
    expect(report.summary).toMatchObject({ total: 3, resolved: 0, errors: 0 });
    for (const task of report.tasks) {
      expect(task.diffLines).toBe(0);
      expect(task.failToPass.some((c) => !c.ok)).toBe(true);
    }
  }, 240_000);

  it('eval compare: oracle against empty loses every task (exit 1), empty against oracle gains them', async () => {
    const oracle = path.join(temp.dir, 'oracle');
    const empty = path.join(temp.dir, 'empty');
    const page = path.join(temp.dir, 'compare.html');
    const worse = await runCli(['eval', 'compare', oracle, empty, '--html', page]);
    expect(worse.code, worse.stderr).toBe(1);
    expect(worse.stdout).toMatch(
      /^compare: 0 newly resolved, 3 newly failing, 0 still resolved, 0 still failing; resolved 3 → 0; cost [±+−][\d.]+ USD; turns [±+−]\d+$/m,
    );
    expect(worse.stdout).toMatch(/^range-ci +newly failing/m);
    const better = await runCli([
      'eval',
      'compare',
      empty,
      path.join(oracle, 'report.json'),
      '--json',
    ]);
    expect(better.code).toBe(0);
    const json = JSON.parse(better.stdout) as {
      counts: Record<string, number>;
      regressed: boolean;
    };
    expect(json.counts['newly resolved']).toBe(3);
    expect(json.regressed).toBe(false);
    const bad = await runCli(['eval', 'compare', oracle, path.join(temp.dir, 'nowhere')]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /cannot read the eval report .*nowhere\/report\.json: ENOENT|cannot read the eval report .*nowhere: ENOENT/,
    );

    // What a person sees, in Chromium: the report's icons, charts and collapsed sections; the comparison.
    await withChromium(async (browser) => {
      const report = await browser.newPage();
      await report.goto(pathToFileURL(path.join(oracle, 'report.html')).href);
      expect(await report.locator('h1').textContent()).toMatch(/policy oracle/);
      expect(await report.locator('svg[aria-label="cost per task"]').count()).toBe(1);
      expect(await report.locator('svg[aria-label="turns per task"]').count()).toBe(1);
      expect(await visibleIcons(report)).toBeGreaterThanOrEqual(3);
      const section = report.locator('section#range-ci');
      const gold = section.locator('.sides h4', { hasText: "the person's fix" });
      expect(await gold.isVisible()).toBe(false);
      await section.locator('summary', { hasText: 'changes' }).click();
      expect(await gold.isVisible()).toBe(true);
      expect(await section.locator('.sides .add').first().isVisible()).toBe(true);
      // Its trajectory: reproducing the failure is the step's success; the oracle's patch a diff.
      await section.locator('summary', { hasText: /^trajectory/ }).click();
      const reproduce = section.locator('p.stage', { hasText: 'stage reproduce' });
      expect(await reproduce.getAttribute('data-status')).toBe('pass');
      const turn = section.locator('details.turn', { has: report.locator('details.call') });
      await turn.locator(':scope > summary').click();
      const call = turn.locator('details.call', { hasText: 'apply_patch' });
      await call.locator(':scope > summary').click();
      expect(await call.locator('.diff .add').first().isVisible()).toBe(true);
      expect(await call.textContent()).not.toMatch(/"patch"|\\n/);
      await screenshot(report, 'eval-report');
      const compare = await browser.newPage();
      await compare.goto(pathToFileURL(page).href);
      expect(await compare.locator('#summary').textContent()).toMatch(/3 newly failing/);
      expect(await compare.locator('#changes tr[data-change="newly failing"]').count()).toBe(3);
      expect(await visibleIcons(compare)).toBeGreaterThanOrEqual(9);
      await screenshot(compare, 'eval-compare');
    });
  }, 180_000);

  it('names a broken line of the task file; --keep-going runs the rest; a bad base is a task error', async () => {
    const broken = path.join(temp.dir, 'broken.jsonl');
    const good = readFileSync(fixture.tasksFile, 'utf8').split('\n')[0] ?? '';
    const badBase = JSON.stringify({
      ...JSON.parse(good),
      id: 'bad-base',
      base_commit: 'deadbeef0000',
    });
    const hang = JSON.stringify({
      ...JSON.parse(good),
      id: 'hangs',
      test_command: 'sleep 60',
      fail_to_pass: ['sleep 60'],
      pass_to_pass: [],
      timeout_s: 2,
    });
    writeFileSync(broken, `${good}\n{"id": "x", "repo": 3}\nnot json\n`);
    appendFileSync(broken, `${badBase}\n${hang}\n`);
    const errors = loadTasks(broken).errors;
    expect(errors.map((e) => e.line)).toEqual([2, 3]);
    expect(errors[0]?.message).toMatch(/^repo: /);
    expect(errors[1]?.message).toMatch(/^not JSON/);
    const refused = await runCli([
      'eval',
      'run',
      '--tasks',
      broken,
      '--policy',
      'empty',
      '--out',
      path.join(temp.dir, 'b1'),
    ]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/broken\.jsonl:2: repo: /);
    const kept = await runCli([
      'eval',
      'run',
      '--tasks',
      broken,
      '--policy',
      'empty',
      '--out',
      path.join(temp.dir, 'b2'),
      '--keep-going',
      '--json',
    ]);
    const report = JSON.parse(kept.stdout) as EvalReport;
    expect(report.summary.total).toBe(3);
    const hung = report.tasks.find((t) => t.id === 'hangs');
    expect(hung?.resolved).toBe(false);
    expect(hung?.failToPass[0]?.exitCode).toBeNull();
    expect(report.tasks.find((t) => t.id === 'bad-base')?.error).toMatch(/deadbeef0000/);
    expect(kept.code).toBe(1);
  }, 240_000);
});

describe('regreen eval validate and mine', () => {
  const temp = makeTempDir('regreen-mine-');
  afterAll(temp.cleanup);

  it('validates the fixture tasks and marks a flaky one invalid', async () => {
    const fixture = buildEvalFixture(path.join(temp.dir, 'v'));
    const first = JSON.parse(
      readFileSync(fixture.tasksFile, 'utf8').split('\n')[0] ?? '{}',
    ) as Record<string, unknown>;
    // Its result depends on where it runs: different between two runs of the same commands.
    const flaky = {
      ...first,
      id: 'flaky',
      fail_to_pass: ['node -e "process.exit(process.cwd().endsWith(\'-1\') ? 1 : 0)"'],
    };
    const file = path.join(temp.dir, 'validate.jsonl');
    writeFileSync(file, `${readFileSync(fixture.tasksFile, 'utf8')}${JSON.stringify(flaky)}\n`);
    const result = await runCli(['eval', 'validate', '--tasks', file, '--json']);
    const validations = JSON.parse(result.stdout) as {
      id: string;
      valid: boolean;
      reason?: string;
    }[];
    expect(validations.filter((v) => v.valid).map((v) => v.id)).toEqual([
      'range-ci',
      'sum-hidden',
      'engines-protected',
    ]);
    expect(validations.find((v) => v.id === 'flaky')?.reason).toMatch(/^flaky/);
    expect(result.code).toBe(1);
  }, 300_000);

  it("a task's setup reaches the registry of the user's npm configuration, as a job's does", async () => {
    const fixture = buildEvalFixture(path.join(temp.dir, 'r'));
    const first = JSON.parse(
      readFileSync(fixture.tasksFile, 'utf8').split('\n')[0] ?? '{}',
    ) as Record<string, unknown>;
    const needsRegistry = {
      ...first,
      id: 'registry',
      setup:
        'npm install --no-save --no-audit --no-fund --ignore-scripts --fetch-retries=0 is-number@7.0.0 && node -e "require(\'is-number\')"',
    };
    const file = path.join(temp.dir, 'registry.jsonl');
    writeFileSync(file, `${JSON.stringify(needsRegistry)}\n`);
    const result = await runCli(['eval', 'validate', '--tasks', file, '--json']);
    const [validation] = JSON.parse(result.stdout) as { valid: boolean; reason?: string }[];
    expect(validation?.valid, validation?.reason).toBe(true);
    // A setup that fails makes the task invalid for its environment: tests judged without it judge nothing.
    writeFileSync(file, `${JSON.stringify({ ...needsRegistry, setup: 'exit 7' })}\n`);
    const broken = await runCli(['eval', 'validate', '--tasks', file, '--json']);
    const [invalid] = JSON.parse(broken.stdout) as { valid: boolean; reason?: string }[];
    expect(invalid?.valid).toBe(false);
    expect(invalid?.reason).toMatch(/^environment: the setup failed: `exit 7` exit 7/);
  }, 300_000);

  it('mines exactly the two fixes from a history with a non-fix commit', async () => {
    const { repo, fixes } = buildMiningFixture(path.join(temp.dir, 'm'));
    const out = path.join(temp.dir, 'mined.jsonl');
    const result = await runCli(['eval', 'mine', '--repo', repo, '--out', out]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^2 valid task\(s\) written/);
    const { tasks, errors } = loadTasks(out);
    expect(errors).toEqual([]);
    expect(tasks.map((t) => t.id).sort()).toEqual(
      fixes.map((sha) => `calc-${sha.slice(0, 10)}`).sort(),
    );
    const range = tasks.find((t) => t.gold_patch.includes('src/range.js'));
    expect(range?.fail_to_pass).toEqual(['node --test test/range.test.js']);
    expect(range?.test_patch).toMatch(/range\(3\) yields 0 to 2/);
    expect(range?.gold_patch).not.toMatch(/test\//);
  }, 300_000);
});

describe('test names from a reporter', () => {
  const temp = makeTempDir('regreen-reporter-');
  afterAll(temp.cleanup);

  it('parses TAP and JUnit results by name', () => {
    const tap = parseTap(
      'TAP version 13\n# Subtest: a\nok 1 - a\nnot ok 2 - b\n  ---\nok 3 - c # SKIP later\n    not ok 1 - nested\n',
    );
    expect(Object.fromEntries(tap)).toEqual({ a: 'pass', b: 'fail', c: 'skip', nested: 'fail' });
    const junit = parseJunit(
      '<testsuite><testcase classname="calc.Range" name="yields &quot;0..2&quot;"/><testcase classname="calc.Sum" name="adds"><failure message="x"/></testcase><testcase name="later"><skipped/></testcase></testsuite>',
    );
    expect(junit.get('yields "0..2"')).toBe('pass');
    expect(junit.get('calc.Sum.adds')).toBe('fail');
    expect(junit.get('later')).toBe('skip');
  });

  it('judges a task whose fail_to_pass are TAP test names', async () => {
    const fixture = buildEvalFixture(path.join(temp.dir, 'f'));
    const [range] = fixture.tasks;
    const task = {
      ...range,
      id: 'range-tap',
      test_reporter: 'tap',
      test_command: 'node --test --test-reporter=tap test/',
      fail_to_pass: ['range(3) yields 0 to 2'],
      pass_to_pass: ['sum adds', 'range(0) is empty'],
    };
    const file = path.join(temp.dir, 'tap.jsonl');
    writeFileSync(file, `${JSON.stringify(task)}\n`);
    const oracle = await runCli([
      'eval',
      'run',
      '--tasks',
      file,
      '--policy',
      'oracle',
      '--out',
      path.join(temp.dir, 'o'),
      '--json',
    ]);
    const resolved = JSON.parse(oracle.stdout) as EvalReport;
    expect(resolved.tasks[0]).toMatchObject({ resolved: true });
    expect(resolved.tasks[0]?.failToPass[0]).toMatchObject({
      command: 'range(3) yields 0 to 2',
      ok: true,
    });
    const empty = await runCli([
      'eval',
      'run',
      '--tasks',
      file,
      '--policy',
      'empty',
      '--out',
      path.join(temp.dir, 'e'),
      '--json',
    ]);
    const unresolved = JSON.parse(empty.stdout) as EvalReport;
    expect(unresolved.tasks[0]?.resolved).toBe(false);
    expect(unresolved.tasks[0]?.failToPass[0]).toMatchObject({ ok: false, exitCode: 1 });
    expect(unresolved.tasks[0]?.passToPass.every((c) => c.ok)).toBe(true);
  }, 240_000);
});
