/**
 * Whether a workflow's `run:` step sets the job up rather than tests it: every
 * command it runs installs something (a package manager's install, a tool
 * install, corepack). Such a step failing is the environment's outcome, never
 * the failure to fix; and a job's own test step is its last step that is not
 * one. Read line by line (and `&&` by `&&`) with anchored patterns; lines
 * that only prepare the shell (`echo`, `export`, `cd`, `set`, comments) do
 * not count either way.
 */

/** A command that installs: the package managers and tool installers CI jobs run before their tests. */
const INSTALLS: readonly RegExp[] = [
  /^(?:python[\d.]*|py) -m pip install\b/,
  /^pip[\d.]* install\b/,
  /^pipx (?:install|inject)\b/,
  /^uv (?:sync|pip install|tool install|venv)\b/,
  /^(?:poetry|pdm|pipenv) (?:install|sync)\b/,
  /^python[\d.]* -m venv\b/,
  /^npm (?:ci|install|i)\b/,
  /^yarn(?: install)?(?: --?[\w=.-]+)*$/,
  /^pnpm (?:install|i)\b/,
  /^bun install\b/,
  /^corepack\b/,
  /^go (?:mod (?:download|tidy|vendor)|install|get)\b/,
  /^cargo (?:fetch|install)\b/,
  /^(?:bundle|gem|composer) install\b/,
  /^rustup\b/,
];

/** Lines that only prepare the shell, and regreen's own no-op for `corepack enable`. */
const NEUTRAL = /^(?:$|#|echo\b|export\b|cd\b|set\b|source\b|\.\s)/;

const MAX_LINES = 200;

/** Whether every command of the step installs (and at least one does). */
export const isSetupStep = (script: string): boolean => {
  const parts = script
    .split('\n', MAX_LINES)
    .flatMap((line) => line.split('&&'))
    .map((part) => part.trim().replace(/^sudo\s+/, ''))
    .filter((part) => !NEUTRAL.test(part));
  return parts.length > 0 && parts.every((part) => INSTALLS.some((install) => install.test(part)));
};
