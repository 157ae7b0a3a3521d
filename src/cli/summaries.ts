/**
 * What each command of `regreen` does, in one line: its description, and the
 * top-level help's list, which is printed from here without loading any
 * command (`regreen --help` loads no command's module).
 */
export const SUMMARIES = {
  fix: 'reproduce a failure in a sandbox, fix it, prove the fix, and propose it on a new branch',
  serve:
    'run the GitHub App: APP_ID, PRIVATE_KEY and WEBHOOK_SECRET from the environment (see app.yml)',
  worker: 'run queued jobs from Redis (REDIS_URL); start any number, on any machine',
  eval: 'measure regreen on fixes people already made',
  action: 'run as the GitHub Action (inputs from INPUT_*, the event from GITHUB_EVENT_PATH)',
  triage:
    'explain a red build: the failing step, the recognised failures, an excerpt and the fingerprint of a CI log',
  trace: "a job's trace",
  jobs: 'the jobs that ran here, and what they left',
  tools: "the agent's tools",
  sandbox: 'the sandbox commands run in',
  doctor: 'what this machine lacks for each front door, with the command that fixes each',
  completion: 'print a shell completion script: bash, zsh or fish',
} as const;

export type CommandName = keyof typeof SUMMARIES;
