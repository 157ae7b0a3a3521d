/**
 * What the stages with a verdict of their own say when they end: the line
 * the trace and the front doors show, and whether the stage went as it
 * should — which is not always a pass (the reproduce stage succeeds when
 * the command fails as it did in CI). The pages read the verdict from the
 * trace instead of guessing it from the line.
 */
import type { StageEnd } from './context.ts';

export const reproduceEnd = (
  v:
    | {
        readonly failed: true;
        readonly result: { readonly exitCode: number | null };
        readonly fingerprint: string;
      }
    | { readonly failed: false },
): StageEnd =>
  v.failed
    ? {
        outcome: `failed (exit ${v.result.exitCode ?? 'killed'}), fingerprint ${v.fingerprint}`,
        status: 'pass',
        verdict: 'reproduced',
      }
    : { outcome: 'passed: not reproduced', status: 'warn', verdict: 'not reproduced' };

export const recipesEnd = (v: {
  readonly fixedBy: string | undefined;
  readonly applied: readonly string[];
}): StageEnd =>
  v.fixedBy
    ? `fixed by ${v.fixedBy}`
    : v.applied.length > 0
      ? { outcome: `applied ${v.applied.length}, still failing`, status: 'info' }
      : { outcome: 'none applied', status: 'skip' };

export const agentEnd = (
  v:
    | { readonly ran: true; readonly result: { readonly status: string; readonly reason?: string } }
    | { readonly ran: false; readonly why: string },
): StageEnd => {
  if (!v.ran) return { outcome: `skipped: ${v.why}`, status: 'skip' };
  const { status, reason } = v.result;
  const outcome = `${status}${status === 'done' ? '' : `: ${reason ?? ''}`}`;
  if (status === 'done') return outcome;
  if (status === 'suspended') return { outcome, status: 'info', verdict: 'waiting' };
  return { outcome, status: status === 'error' ? 'fail' : 'warn' };
};

export const checksEnd = (v: {
  readonly diff: { readonly files: readonly unknown[] };
  readonly results: readonly { readonly ok: boolean }[];
}): StageEnd => {
  if (v.diff.files.length === 0) return { outcome: 'no change to check', status: 'skip' };
  const passed = v.results.filter((r) => r.ok).length;
  const outcome = `${passed}/${v.results.length} passed`;
  return passed === v.results.length ? outcome : { outcome, status: 'fail' };
};
