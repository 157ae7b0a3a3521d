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
  /**
   * Set on a failed check that a person may overrule: the change is not
   * proposed as a fix, but may be as a draft that says what they must look
   * at (each entry one thing). Absent: the refusal stands.
   */
  readonly needsPerson?: readonly string[];
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
  readonly failingBefore: CheckedRun;
  /** The failing command run in a fresh sandbox on a clean clone with only the diff applied. */
  readonly freshFailing: CheckedRun;
  /** The runs were made with no sandbox (`--sandbox none`): a detail never says they were in one. */
  readonly unsandboxed?: boolean;
  /** The full test command on the base and after the change (same as the failing run when the commands match). */
  readonly testsBefore: CheckedRun;
  readonly testsAfter: CheckedRun;
  /** Globs the config protects, on top of the defaults. */
  readonly protectedGlobs: readonly string[];
  /** Protected files a recipe changed (the lockfile sync), with the content it left: allowed exactly as the recipe left them. */
  readonly allowedProtected: readonly AllowedChange[];
  /** Default-protected globs the repository's config relaxes (`unprotected:`); the check says so. */
  readonly unprotectedGlobs: readonly string[];
  readonly limits: {
    readonly maxFiles: number;
    readonly maxLines: number;
    /** The bytes of the changed lines (a line may be of any length). */
    readonly maxBytes: number;
  };
  /** The symlinks of the changed tree as git commits it (path → target); undefined: not a link. */
  readonly linkIn: (file: string) => string | undefined;
  /** The change cut for the judging run: what was judged, what ran after, what is harness. */
  readonly split: SplitChange;
  /**
   * New top-level Python modules of the product that take the import name of a module the
   * standard library, the runner or an installed package provides; a string when that could
   * not be told (the check then fails).
   */
  readonly shadowing: readonly string[] | string;
  /** The test command with the change's own tests (and prose) applied after the verdict; undefined when it has none. */
  readonly changeTests: CheckedRun | undefined;
  /** Tracked files of the base's tests and harness the judging runs changed, and whether they were held unwritable. */
  readonly heldStill: {
    /** Tracked files of the base's the judging runs changed the content of. */
    readonly changed: readonly string[];
    /** Those files, and the folders holding them, that are no longer the ones lstat saw before the runs. */
    readonly replaced: readonly string[];
    readonly enforced: boolean;
  };
}

export type Check = (ctx: CheckContext) => CheckResult;

/**
 * How a run was made to prove that its runner ran: each judged run has a
 * report path made for it alone, outside the workspace (pytest writes its
 * JUnit XML there through `PYTEST_ADDOPTS`), and go test is asked through
 * `GOFLAGS` to name every test it runs (`-v`).
 */
export interface RunProof {
  /** The JUnit XML the runner wrote to that path; undefined when it wrote none. */
  readonly junit: string | undefined;
  /** go test named every test: a package's `ok` is never counted as a test. */
  readonly goVerbose: boolean;
}

/** A run the checks count: its result, and how it proved what ran (absent: printed output only). */
export type CheckedRun = CommandResult & { readonly proof?: RunProof };

/**
 * What a changed path is to the verdict, decided fail-closed:
 * - `source`: the product the project builds or imports — applied in the judging run;
 * - `test`: tests, their data and fixtures — not in the judging run (the base's tests judge),
 *   run afterwards and reported;
 * - `docs`: prose no runner reads as code — not in the judging run either;
 * - `harness`: anything a runner, build tool or package manager reads — refused.
 * A path that is none of the first three by a positive rule is harness: a
 * config spelling nobody listed is still not product source.
 */
export type ChangeKind = 'source' | 'test' | 'docs' | 'harness';

/** The change cut by what the judging run does with each part. */
export interface SplitChange {
  /** Applied in the judging run: product source (and protected files a recipe or the config allows). */
  readonly judged: string;
  /** Tests and prose: in the PR, run after the verdict, never part of it. */
  readonly unjudged: string;
  /** Paths of each kind, for the trace and the checks. */
  readonly paths: Readonly<Record<ChangeKind, readonly string[]>>;
}
