import { diffLimits } from './diff-limits.ts';
import { baseHarness, baseTestsIntact, changeTestsPass, noShadowing } from './judged-by-base.ts';
import { failingCommandPasses } from './failing-command-passes.ts';
import { noRegression } from './no-regression.ts';
import { noEscapingLinks } from './no-escaping-links.ts';
import { noNestedRepository } from './no-nested-repository.ts';
import { noRunnerTampering } from './no-runner-tampering.ts';
import { noRunDependence } from './run-dependence.ts';
import { noSecrets } from './no-secrets.ts';
import { noWeakenedTests } from './no-weakened-tests.ts';
import { protectedFiles } from './protected-files.ts';
import { readableDiff } from './readable-diff.ts';
import type { Check, CheckContext, CheckResult } from './types.ts';

/** Every check, always run, in this order. */
export const CHECKS: readonly Check[] = [
  failingCommandPasses,
  noRegression,
  baseHarness,
  baseTestsIntact,
  noShadowing,
  noRunnerTampering,
  noRunDependence,
  changeTestsPass,
  protectedFiles,
  noNestedRepository,
  noEscapingLinks,
  readableDiff,
  diffLimits,
  noWeakenedTests,
  noSecrets,
];

export const runChecks = (ctx: CheckContext): CheckResult[] => CHECKS.map((check) => check(ctx));
