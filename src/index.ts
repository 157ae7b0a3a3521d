/**
 * regreen as a library: run the one pipeline with dependencies of your own,
 * or use its log triage. The CLI, the Action and the App are built on these.
 */
export { runJob } from './job/run-job.ts';
export { buildJobDeps } from './job/compose.ts';
export type { JobDeps, Progress, ProgressEvent } from './job/deps.ts';
export type { Outcome } from './job/outcome.ts';
export type { FailureReport } from './intake/failure-report.ts';
export { triageLog, formatExcerpt, type Triage, type TriageOptions } from './intake/actions-log.ts';
export { createForge, type ForgeSpec } from './forge/index.ts';
export type { Forge } from './forge/types.ts';
export type { Model } from './model/types.ts';
export { settingsOf, type Env, type Settings } from './config/env.ts';
