import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCli } from '../support/cli.ts';

/**
 * The README's quick starts are what a person copies: each is short, pins the
 * version this package is, names only commands and options the CLI has and
 * only inputs the Action declares.
 */
const ROOT = path.join(import.meta.dirname, '..', '..');
const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const version = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const actionInputs = Object.keys(
  (parse(readFileSync(path.join(ROOT, 'action.yml'), 'utf8')) as { inputs: object }).inputs,
);

/** The text of `### heading` under `## Quick start`, up to the next heading. */
const quickStart = (heading: string): string => {
  const section = readme.split(/^## Quick start$/m)[1]?.split(/^## /m)[0] ?? '';
  const part = section.split(/^### /m).find((p) => p.startsWith(`${heading}\n`));
  if (part === undefined) throw new Error(`README: no "### ${heading}" under "## Quick start"`);
  return part.trimEnd();
};

const fences = (text: string, lang: string): string[] =>
  [...text.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1] ?? '');

/** Each `regreen <command> --option…` of a shell block, the version pin removed. */
const invocations = (text: string): { command: string; options: string[]; line: string }[] =>
  fences(text, 'sh')
    .flatMap((block) => block.split('\n'))
    .map((line) => line.replace(/#.*$/, ''))
    .flatMap((line) => {
      const match = /(?:npx )?regreen(?:@([\w.-]+))?\s+([a-z]+)(.*)$/.exec(line);
      if (!match || /npm install/.test(line)) return [];
      if (match[1] !== undefined) expect(match[1], line).toBe(version);
      return [
        {
          command: match[2] ?? '',
          options: [...(match[3] ?? '').matchAll(/(--[a-z-]+)/g)].map((m) => m[1] ?? ''),
          line,
        },
      ];
    });

describe("the README's quick starts", () => {
  it.each(['The CLI', 'The Action', 'The App'])('%s fits in thirty lines', (heading) => {
    expect(quickStart(heading).split('\n').length).toBeLessThanOrEqual(30);
  });

  it('every install and npx line pins this package version, and every Action use the matching tag', () => {
    for (const [, pinned] of readme.matchAll(/(?<![/\w])regreen@(\S+?)[\s`]/g))
      expect(pinned).toBe(version);
    for (const [, packed] of readme.matchAll(/regreen-(\d\S*?)\.tgz/g))
      expect(packed).toBe(version);
    const uses = [...readme.matchAll(/uses: regreen\/regreen@(\S+)/g)].map((m) => m[1]);
    expect(uses.length).toBeGreaterThan(0);
    for (const tag of uses) expect(tag).toBe(`v${version}`);
  });

  it("the Action's snippet is a workflow whose inputs the Action declares", () => {
    const [snippet] = fences(quickStart('The Action'), 'yaml');
    const workflow = parse(snippet ?? '') as {
      on: unknown;
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, string> }[] }>;
    };
    const steps = Object.values(workflow.jobs).flatMap((job) => job.steps);
    const step = steps.find((s) => s.uses?.startsWith('regreen/regreen@'));
    expect(step).toBeDefined();
    for (const input of Object.keys(step?.with ?? {})) expect(actionInputs).toContain(input);
  });

  it.each(['The CLI', 'The App'])(
    '%s names only commands and options the CLI has',
    async (heading) => {
      const calls = invocations(quickStart(heading));
      expect(calls.length).toBeGreaterThan(0);
      for (const call of calls) {
        const help = await runCli([call.command, '--help']);
        expect(help.code, `${call.line}\n${help.stderr}`).toBe(0);
        for (const option of call.options) expect(help.stdout, call.line).toContain(option);
      }
    },
  );
});
