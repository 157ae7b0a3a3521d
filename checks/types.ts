import type { CommandResult } from '../src/workspace/run-process.ts';
import type { ParsedDiff } from './diff.ts';

export interface AllowedChange {
  readonly path: string;
  readonly content: string;
}

export interface CheckResult {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** Everything a check may look at; checks are pure functions of it. */
export interface CheckContext {
  readonly diff: ParsedDiff;
  /** Files tracked at the base commit (to tell existing test files from new ones). */
  readonly baseFiles: readonly string[];
  /** Content of a file at the base commit, when it existed. */
  readonly baseContent: (file: string) => string | undefined;
  /** Content of a file after the change, when it exists. */
  readonly newContent: (file: string) => string | undefined;
  readonly failingCommand: string;
  readonly testCommand: string;
  /** The failing command as it failed on the base (what ran then). */
  readonly failingBefore: CommandResult;
  /** The failing command run in a fresh sandbox on a clean clone with only the diff applied. */
  readonly freshFailing: CommandResult;
  /** The full test command on the base and after the change (same as the failing run when the commands match). */
  readonly testsBefore: CommandResult;
  readonly testsAfter: CommandResult;
  /** Globs the config protects, on top of the defaults. */
  readonly protectedGlobs: readonly string[];
  /** Protected files a recipe changed (the lockfile sync), with the content it left: allowed exactly as the recipe left them. */
  readonly allowedProtected: readonly AllowedChange[];
  /** Default-protected globs the repository's config relaxes (`unprotected:`); the check says so. */
  readonly unprotectedGlobs: readonly string[];
  readonly limits: { readonly maxFiles: number; readonly maxLines: number };
}

export type Check = (ctx: CheckContext) => CheckResult;
