import path from 'node:path';
import { readTextInside } from '../workspace/repo/confined-fs.ts';
import { MAX_LINE_CHARS, quote } from '../util/text.ts';
import type { ToolchainKind, ToolchainRequest } from '../workspace/setup/toolchains.ts';
import {
  privateToolchainScript,
  type PrivateToolchain,
} from '../workspace/setup/private-toolchains.ts';
import { findJob } from './workflow-find.ts';
import {
  stepScript,
  stepTitle,
  substitute,
  type FoundJob,
  type Job,
  type Step,
} from './workflow.ts';

/**
 * A failing CI job, replayed as CI ran it: its `run:` steps before the
 * failing one are the setup (with their environment, matrix values and
 * working directories), `uses:` steps are honoured where regreen can
 * (`actions/setup-node|python|go|java` become toolchain requests) and listed
 * as skipped otherwise, and the failing step is the command.
 */
export interface ReplayedStep {
  readonly title: string;
  readonly command: string;
  /** A setup action's toolchain: every later command of the sandbox has it (`privateToolchainEnv`). */
  readonly toolchain?: PrivateToolchain;
  /** The step's own `run:` text, as the workflow writes it (for a person: never the replay's wrapper). */
  readonly run?: string;
}

export interface SkippedStep {
  readonly step: string;
  readonly why: string;
  /** The program of this machine the step's action would have installed, when regreen relies on it. */
  readonly needs?: string;
}

export interface JobReplay {
  readonly file: string;
  readonly job: string;
  /** The `run:` steps before the failing one (every `run:` step when the failing one is not known). */
  readonly steps: readonly ReplayedStep[];
  /** The failing step, when CI named it. */
  readonly failing?: ReplayedStep;
  readonly toolchains: readonly ToolchainRequest[];
  readonly skipped: readonly SkippedStep[];
  /** Expressions (secrets, contexts) left unresolved. */
  readonly unresolved: readonly string[];
  /** Which matrix combination was replayed and why, for a job with a matrix. */
  readonly matrixEntry?: string;
  /** The replayed combination's values, in a few words. */
  readonly entry?: string;
  /** The package manager a setup action asked for (`pnpm/action-setup`'s `version`). */
  readonly packageManager?: {
    readonly name: 'pnpm';
    readonly version: string;
    readonly step: string;
  };
}

const SETUP_ACTIONS: Record<string, { kind: ToolchainKind; input: string; file: string }> = {
  'actions/setup-node': { kind: 'node', input: 'node-version', file: 'node-version-file' },
  'actions/setup-python': { kind: 'python', input: 'python-version', file: 'python-version-file' },
  'actions/setup-go': { kind: 'go', input: 'go-version', file: 'go-version-file' },
  'actions/setup-java': { kind: 'java', input: 'java-version', file: 'java-version-file' },
};

/** The toolchain each setup action gives a job to install into (`private-toolchains.ts`). */
const PRIVATE: Record<string, PrivateToolchain> = {
  'actions/setup-node': 'node',
  'actions/setup-python': 'python',
  'actions/setup-go': 'go',
  'actions/setup-java': 'java',
  'astral-sh/setup-uv': 'uv',
  'pnpm/action-setup': 'pnpm',
  'dtolnay/rust-toolchain': 'rust',
  'actions-rs/toolchain': 'rust',
  'actions-rust-lang/setup-rust-toolchain': 'rust',
};

/** Actions whose work the sandbox already has, or that have nothing to give a replay. */
const NOTHING_TO_DO: Record<string, string> = {
  'actions/checkout': 'the workspace is the checkout',
  'actions/cache': 'a cache: the setup fetches what it needs',
  'actions/upload-artifact': 'an upload: nothing to reproduce',
  'actions/download-artifact': 'an artifact of another job: not available here',
};

/** Actions that install a tool regreen takes from its own machine (by the program it needs). */
const MACHINE_TOOLS: Record<string, string> = {
  'astral-sh/setup-uv': 'uv',
  'dtolnay/rust-toolchain': 'cargo',
  'actions-rs/toolchain': 'cargo',
  'actions-rust-lang/setup-rust-toolchain': 'cargo',
  'ruby/setup-ruby': 'ruby',
  'gradle/actions/setup-gradle': 'java',
  'gradle/gradle-build-action': 'java',
  'oven-sh/setup-bun': 'bun',
  'denoland/setup-deno': 'deno',
  'actions/setup-dotnet': 'dotnet',
};

/**
 * `corepack enable` writes its shims beside node, which the sandbox keeps
 * read-only; regreen puts the pinned manager first on PATH instead, so the
 * line becomes a no-op that says so.
 */
const COREPACK_ENABLE = /^([ \t]*)corepack\s+enable\b[^\n;&|]*$/gm;
const withoutCorepackEnable = (script: string): string =>
  script.replace(
    COREPACK_ENABLE,
    "$1echo 'regreen: corepack enable skipped: the pinned package manager is on PATH'",
  );

/** The version a version file names: `.nvmrc`, `.python-version`, go.mod's `toolchain`/`go`, `.java-version`. */
const versionFromFile = (workspace: string, file: string): string | undefined => {
  const text = readTextInside(workspace, path.join(workspace, file));
  if (text === undefined) return undefined;
  if (path.basename(file) === 'go.mod') {
    return /^toolchain\s+go(\S+)/m.exec(text)?.[1] ?? /^go\s+(\d+(?:\.\d+)*)/m.exec(text)?.[1];
  }
  // A version is a short word: a first line past the bound is no version.
  const first = text.slice(0, MAX_LINE_CHARS).split('\n')[0]?.trim();
  return first && first.length < MAX_LINE_CHARS ? first : undefined;
};

/** Why a step whose `if:` CI evaluated does not run in a replay, when it would not have run. */
const skippedByCondition = (condition: Step['if']): string | undefined => {
  if (condition === undefined || condition === true) return undefined;
  if (condition === false) return 'disabled (if: false)';
  if (/\b(failure|cancelled)\(\)/.test(condition)) return 'runs only after a failure';
  if (/runner\.os\s*==\s*'(windows|macos)'/i.test(condition)) return 'runs on another OS';
  return undefined;
};

/** A step that changes the runner itself: root, the system's package managers. */
const SYSTEM_INSTALL =
  /^[^\S\n\r\u2028\u2029]*(?:sudo\s|apt(?:-get)?\s|brew\s|choco\s|yum\s|dnf\s|snap\s)/m;

const actionName = (uses: string): string => uses.split('@')[0]?.toLowerCase() ?? uses;

/** A step's name as CI shows it: its matrix values in place. */
const shownTitle = (step: Step, matrix: Readonly<Record<string, string>>): string =>
  substitute(stepTitle(step), matrix, new Set());

const wantedStep = (
  steps: readonly Step[],
  stepName: string,
  matrix: Readonly<Record<string, string>>,
): number => {
  const wanted = stepName.replace(/^Run /, '').trim();
  return steps.findIndex(
    (s) =>
      s.run !== undefined &&
      (stepTitle(s) === stepName ||
        shownTitle(s, matrix) === stepName ||
        s.name === wanted ||
        (s.run.trim().split('\n')[0] ?? '').trim() === wanted),
  );
};

const toolchainOf = (
  found: Pick<FoundJob, 'matrix'>,
  step: Step,
  workspace: string,
  unresolved: Set<string>,
): ToolchainRequest | undefined => {
  const action = SETUP_ACTIONS[actionName(step.uses ?? '')];
  if (!action) return undefined;
  const inputs = step.with ?? {};
  const raw = inputs[action.input];
  const fromFile = inputs[action.file];
  const version =
    raw !== undefined
      ? substitute(String(raw), found.matrix, unresolved)
      : fromFile !== undefined
        ? versionFromFile(workspace, String(fromFile))
        : undefined;
  return version ? { kind: action.kind, version, step: shownTitle(step, found.matrix) } : undefined;
};

/**
 * The replay of a job (by the name CI shows) up to a failing step (by the
 * name CI shows); without a step, every `run:` step is in `steps` and the
 * caller finds the failing one by running them.
 */
export const replayJob = (
  workspace: string,
  jobName: string,
  stepName?: string,
  /** Whether this machine has a toolchain: a matrix entry whose toolchains it has is replayed first. */
  hasToolchain: (kind: ToolchainKind, version: string) => boolean = () => true,
): JobReplay => {
  const what = stepName ? `job "${jobName}" step "${stepName}"` : `--job ${jobName}`;
  const usable = (job: Job, matrix: Readonly<Record<string, string>>): boolean =>
    job.steps.every((step) => {
      const request = toolchainOf({ matrix }, step, workspace, new Set());
      return !request || hasToolchain(request.kind, request.version);
    });
  const found = findJob(workspace, jobName, what, usable);
  const all = found.job.steps;
  const failingAt = stepName === undefined ? -1 : wantedStep(all, stepName, found.matrix);
  const before = failingAt >= 0 ? all.slice(0, failingAt) : all;
  const unresolved = new Set<string>();
  const steps: ReplayedStep[] = [];
  const toolchains: ToolchainRequest[] = [];
  const skipped: SkippedStep[] = [];
  let packageManager: JobReplay['packageManager'];
  for (const step of before) {
    const title = shownTitle(step, found.matrix);
    const notNow = skippedByCondition(step.if);
    if (notNow) {
      skipped.push({ step: title, why: notNow });
      continue;
    }
    const own = step.uses === undefined ? undefined : PRIVATE[actionName(step.uses)];
    // What the action gives the job to install into, in the job's own folders.
    if (own) {
      const version = toolchainOf(found, step, workspace, new Set())?.version;
      steps.push({ title, command: privateToolchainScript(own, version), toolchain: own });
    }
    if (actionName(step.uses ?? '') === 'pnpm/action-setup') {
      const inputs = step.with ?? {};
      const version = inputs.version !== undefined ? String(inputs.version) : undefined;
      if (version) packageManager = { name: 'pnpm', version, step: title };
      // Its `run_install` runs the install itself, as the next step would.
      if (
        inputs.run_install !== undefined &&
        !/^(false|)$/i.test(String(inputs.run_install).trim())
      )
        steps.push({ title: `${title} (run_install)`, command: 'pnpm install' });
      continue;
    }
    if (step.uses !== undefined) {
      const toolchain = toolchainOf(found, step, workspace, unresolved);
      const needs = MACHINE_TOOLS[actionName(step.uses)];
      if (toolchain) toolchains.push(toolchain);
      else if (needs)
        skipped.push({
          step: title,
          why: `regreen uses this machine's ${needs}${own ? ', its installs in the job' : ''}`,
          needs,
        });
      else if (!own)
        skipped.push({
          step: title,
          why:
            NOTHING_TO_DO[actionName(step.uses)] ??
            `the action ${actionName(step.uses)} is not run by regreen`,
        });
      continue;
    }
    if (step.run === undefined) continue;
    if (step.shell !== undefined && !/^(bash|sh)\b/.test(step.shell)) {
      skipped.push({ step: title, why: `runs in ${step.shell}` });
      continue;
    }
    if (SYSTEM_INSTALL.test(step.run)) {
      skipped.push({
        step: title,
        why: 'installs system packages (the sandbox cannot): regreen’s machine must have them',
      });
      continue;
    }
    const built = stepScript(found, step);
    built.unresolved.forEach((expr) => unresolved.add(expr));
    steps.push({ title, command: withoutCorepackEnable(built.command), run: step.run.trim() });
  }
  const failingStep = failingAt >= 0 ? all[failingAt] : undefined;
  let failing: ReplayedStep | undefined;
  if (failingStep) {
    const built = stepScript(found, failingStep);
    built.unresolved.forEach((expr) => unresolved.add(expr));
    failing = {
      title: shownTitle(failingStep, found.matrix),
      command: withoutCorepackEnable(built.command),
      ...(failingStep.run !== undefined ? { run: failingStep.run.trim() } : {}),
    };
  }
  return {
    file: found.file,
    job: found.id,
    steps,
    ...(failing ? { failing } : {}),
    toolchains,
    skipped,
    unresolved: [...unresolved],
    ...(found.matrixEntry ? { matrixEntry: found.matrixEntry } : {}),
    ...(found.entry ? { entry: found.entry } : {}),
    ...(packageManager ? { packageManager } : {}),
  };
};

/** Where a replay keeps what steps carry to later ones, as lines bash sources. */
const CARRIED = '"${TMPDIR:-/tmp}/regreen-replay-env.sh"';

/**
 * The shell prelude of a replay: the files a step may write for later steps
 * (`$GITHUB_ENV`, `$GITHUB_PATH`, `$GITHUB_OUTPUT`, the summary) in the
 * private tmp, and a function that carries `$GITHUB_ENV` and `$GITHUB_PATH`
 * into the next steps as the runner does (kept in a file the failing step
 * sources too). A fresh replay starts with nothing carried.
 */
const prelude = (fresh: boolean): string[] => [
  'set -e',
  ...(fresh ? [`rm -f ${CARRIED}`] : []),
  'export GITHUB_ENV="${TMPDIR:-/tmp}/regreen-github-env" GITHUB_PATH="${TMPDIR:-/tmp}/regreen-github-path"',
  'export GITHUB_OUTPUT="${TMPDIR:-/tmp}/regreen-github-output" GITHUB_STEP_SUMMARY="${TMPDIR:-/tmp}/regreen-github-summary"',
  `: > "$GITHUB_ENV"; : > "$GITHUB_PATH"; : >> "$GITHUB_OUTPUT"; : >> "$GITHUB_STEP_SUMMARY"; : >> ${CARRIED}`,
  'regreen_carry() {',
  `  while IFS= read -r line; do case "$line" in *"<<"*|"") ;; *=*) printf 'export %q\\n' "$line" >> ${CARRIED} ;; esac; done < "$GITHUB_ENV"`,
  `  while IFS= read -r dir; do [ -z "$dir" ] || printf 'PATH=%q:"$PATH"\\n' "$dir" >> ${CARRIED}; done < "$GITHUB_PATH"`,
  `  : > "$GITHUB_ENV"; : > "$GITHUB_PATH"; . ${CARRIED}`,
  '}',
  `. ${CARRIED}`,
];

/**
 * Steps as one script: each in its own shell (`set -e`, as the runner runs
 * it), stopping at the first failure; `fresh` forgets what earlier replays
 * of the same sandbox carried.
 */
export const replayScript = (steps: readonly ReplayedStep[], fresh = true): string =>
  [
    ...prelude(fresh),
    ...steps.flatMap((step) => [
      `echo ${quote(`[regreen] step: ${step.title}`)}`,
      `(\nset -e\n${step.command}\n)`,
      'regreen_carry',
    ]),
  ].join('\n');

/** A replayed step as its own command, with what the steps before it carried. */
export const replayedStepCommand = (step: ReplayedStep): string =>
  `[ ! -f ${CARRIED} ] || . ${CARRIED}\n${step.command}`;
