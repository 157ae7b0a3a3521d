import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

/** What real bash completes for a line, with the script regreen prints loaded. */
const complete = (script: string, line: readonly string[]): string[] =>
  execFileSync(
    '/bin/bash',
    [
      '--norc',
      '-c',
      `eval "$SCRIPT"; COMP_WORDS=(${line.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${line.length - 1}; _regreen; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: 'utf8', env: { ...process.env, SCRIPT: script } },
  )
    .split('\n')
    .filter(Boolean);

describe('regreen completion', () => {
  it('bash completes commands, subcommands and each command’s own options, read from their registrations', async () => {
    const printed = await runCli(['completion', 'bash']);
    expect(printed.code, printed.stderr).toBe(0);
    const script = printed.stdout;
    expect(complete(script, ['regreen', 'fi'])).toEqual(['fix']);
    expect(complete(script, ['regreen', 'fix', '--re'])).toEqual(['--repo', '--ref']);
    expect(complete(script, ['regreen', 'jobs', 'p'])).toEqual(['prune']);
    expect(complete(script, ['regreen', 'jobs', 'prune', '--o'])).toEqual(['--older-than']);
    expect(complete(script, ['regreen', 'trace', 'show', '--d'])).toEqual(['--data-dir']);
    expect(complete(script, ['regreen', '--ver'])).toEqual(['--verbose', '--version']);
    // Completion itself, and help with the command it is for (a new user's R15).
    expect(complete(script, ['regreen', 'comp'])).toEqual(['completion']);
    expect(complete(script, ['regreen', 'he'])).toEqual(['help']);
    expect(complete(script, ['regreen', 'help', 'tr']).sort()).toEqual(['trace', 'triage']);
  });

  it('zsh loads the bash script through bashcompinit; fish gets each word with its description', async () => {
    const zsh = await runCli(['completion', 'zsh']);
    expect(zsh.stdout).toMatch(/bashcompinit/);
    expect(zsh.stdout).toMatch(/complete -o default -F _regreen regreen/);
    const fish = await runCli(['completion', 'fish']);
    expect(fish.stdout).toMatch(
      /complete -c regreen -n __fish_use_subcommand -a fix -d 'reproduce a failure/,
    );
    expect(fish.stdout).toMatch(/__fish_seen_subcommand_from prune' -l older-than/);
  });

  it('another shell is a usage error', async () => {
    const other = await runCli(['completion', 'tcsh']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^regreen: completion is for bash, zsh or fish, not "tcsh"/m);
  });
});
