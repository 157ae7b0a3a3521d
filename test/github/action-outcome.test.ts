import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  actionAnnotation,
  actionNextSteps,
  actionOutcomeLines,
  actionSummary,
} from '../../src/github/action-outcome.ts';
import type { FailureResult } from '../../src/github/run-failure.ts';
import type { FailureSummary } from '../../src/job/failure-summary.ts';
import type { Outcome } from '../../src/job/outcome.ts';

const ROOT = path.join(import.meta.dirname, '..', '..');
const INPUTS = Object.keys(
  (parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: object }).inputs,
);

const URL = 'https://github.com/acme/range/pull/7';
const COMMENT = 'https://github.com/acme/range/pull/3#issuecomment-9';
const ran = (outcome: Outcome): FailureResult => ({ kind: 'ran', outcome });
const failure = (noModel: boolean): FailureSummary => ({
  command: 'npm test',
  where: 'here',
  exitCode: 1,
  tests: [],
  locations: [],
  excerpt: '',
  tried: [],
  reproduce: 'regreen fix --repo x --ref y --command z',
  noModel,
});
const diagnosis = (
  category: Extract<Outcome, { status: 'diagnosis' }>['category'],
  noModel = false,
): FailureResult =>
  ran({
    status: 'diagnosis',
    category,
    reason: `no fix found (${category})\nsecond line`,
    fingerprint: 'abcdef123456',
    reportedAt: COMMENT,
    checks:
      category === 'checks-failed'
        ? [
            { name: 'fresh-tests', ok: true, detail: 'passed' },
            { name: 'protected-paths', ok: false, detail: 'touched .github/workflows/ci.yml' },
          ]
        : [],
    failure: failure(noModel),
  });

const PROPOSED = ran({
  status: 'proposed',
  branch: 'regreen/abcdef123456',
  title: 'fix: range stops one short',
  prText: '',
  url: URL,
  updated: false,
  fixedBy: 'agent',
  fingerprint: 'abcdef123456',
  checks: [
    { name: 'fresh-tests', ok: true, detail: 'passed' },
    { name: 'diff-limits', ok: true, detail: '1 file' },
  ],
});

const EVERY: [string, FailureResult][] = [
  ['proposed', PROPOSED],
  ['diagnosis without a model', diagnosis('nothing-found', true)],
  ['diagnosis, budget', diagnosis('budget')],
  ['diagnosis, loop', diagnosis('loop')],
  ['diagnosis, checks failed', diagnosis('checks-failed')],
  ['diagnosis, set-up failed', diagnosis('setup-failed')],
  ['diagnosis, reproduced differently', diagnosis('reproduced-differently')],
  ['not reproduced', ran({ status: 'not-reproduced', reason: 'passed', command: 'npm test' })],
  ['model error', ran({ status: 'error', code: 'model', reason: '401', tracePath: '/t/trace' })],
  ['sandbox error', ran({ status: 'error', code: 'sandbox-unavailable', reason: 'no bwrap' })],
  ['internal error', ran({ status: 'error', code: 'internal', reason: 'boom' })],
];

describe("the Action's outcome", () => {
  it.each(EVERY)('%s: next steps a workflow can take, naming only real inputs', (_, result) => {
    const steps = actionNextSteps(result);
    expect(steps.length).toBeGreaterThan(0);
    const text = steps.join('\n');
    // No command line: no flags, no `regreen …` to type.
    expect(text).not.toMatch(/(^|[\s`(])--[a-z]/);
    expect(text).not.toMatch(/`regreen /);
    // `name` input, and every kebab-case name in backquotes, is one of action.yml's inputs.
    const named = [
      ...[...text.matchAll(/`([a-z-]+)` input/g)].map((m) => m[1]),
      ...[...text.matchAll(/`([a-z]+(?:-[a-z]+)+)`/g)].map((m) => m[1]),
    ];
    for (const name of named) expect(INPUTS).toContain(name);
  });

  it('proposed: the pull request, the checks, "review and merge", a notice', () => {
    const lines = actionOutcomeLines(PROPOSED);
    expect(lines[0]).toBe('[regreen] proposed: fix: range stops one short');
    expect(lines).toContain(`  pull request: ${URL} (branch regreen/abcdef123456, created)`);
    expect(lines).toContain('  checks: all 2 passed');
    expect(lines).toContain(`  next: Review and merge ${URL}`);
    expect(actionAnnotation(PROPOSED)).toEqual({
      level: 'notice',
      message: `regreen proposed a fix: ${URL}`,
    });
  });

  it('a diagnosis without a model: its link, and how to give the Action a key from a secret', () => {
    const result = diagnosis('nothing-found', true);
    const lines = actionOutcomeLines(result);
    expect(lines[0]).toBe('[regreen] diagnosis (nothing-found): no fix found (nothing-found)');
    expect(lines).toContain(`  diagnosis: ${COMMENT}`);
    const next = lines.filter((line) => line.startsWith('  next: ')).join('\n');
    expect(next).toContain(`Read the diagnosis: ${COMMENT}`);
    expect(next).toContain('`anthropic-api-key: ${{ secrets.ANTHROPIC_API_KEY }}`');
    expect(actionAnnotation(result)?.level).toBe('warning');
  });

  it('checks that refused the change are named in the log and the next steps', () => {
    const result = diagnosis('checks-failed');
    expect(actionOutcomeLines(result)).toContain(
      '  checks: 1 of 2 passed; failed: protected-paths (touched .github/workflows/ci.yml)',
    );
    expect(actionNextSteps(result).join('\n')).toContain('`protected-paths`');
  });

  it('an error is an error annotation; a skip is a line without one', () => {
    const error = ran({ status: 'error', code: 'internal', reason: 'boom\nstack' });
    expect(actionAnnotation(error)).toEqual({
      level: 'error',
      message: 'regreen failed to run: boom',
    });
    const skipped: FailureResult = { kind: 'skipped', why: 'no failed job in the run' };
    expect(actionOutcomeLines(skipped)).toEqual(['[regreen] skipped: no failed job in the run']);
    expect(actionAnnotation(skipped)).toBeUndefined();
  });

  it('the job summary carries the same next steps, once each', () => {
    const results = [PROPOSED, diagnosis('nothing-found', true), diagnosis('budget')];
    const { outputs, markdown } = actionSummary(results);
    expect(outputs).toEqual({ outcome: 'proposed', 'pr-url': URL, fingerprint: 'abcdef123456' });
    expect(markdown).toMatch(/\| proposed \| \[fix: range stops one short\]\(https:/);
    const section = markdown.slice(markdown.indexOf('### Next steps'));
    expect(section).not.toBe('');
    for (const step of results.flatMap(actionNextSteps)) {
      expect(section).toContain(`- ${step}`);
      expect(section.split(`- ${step}`)).toHaveLength(2);
    }
  });
});
