import type { FailureSummary } from './failure-summary.ts';
import type { SuspendedAgent } from '../agent/suspend.ts';
import type { PendingQuestion } from '../questions/pending.ts';
import type { CheckResult } from '../../checks/types.ts';
import type { Spend } from '../agent/ledger.ts';
import type { ErrorCode } from '../errors.ts';

export type DiagnosisReason =
  'checks-failed' | 'budget' | 'loop' | 'nothing-found' | 'reproduced-differently' | 'setup-failed';

/** How a job ended. Every front door turns this into its own output. */
export type Outcome =
  | {
      readonly status: 'proposed';
      readonly branch: string;
      readonly title: string;
      readonly prText: string;
      readonly prTextPath?: string;
      readonly url?: string;
      readonly updated: boolean;
      readonly fixedBy: string;
      readonly fingerprint: string;
      readonly checks: readonly CheckResult[];
      /**
       * A draft: the checks would not propose it alone, a person must confirm
       * these (a test expectation it corrects, code that acts by who runs it).
       */
      readonly needsPerson?: readonly string[];
      readonly tracePath?: string;
      /** What the agent spent, when it ran. */
      readonly spend?: Spend;
      /** How the reproduction compared with CI's log, when there was one (`different` never proposes). */
      readonly reproduction?: 'same' | 'unknown';
      /** The files the fix changes and its lines added and removed. */
      readonly changed?: {
        readonly files: readonly string[];
        readonly added: number;
        readonly removed: number;
      };
      /** The commit the fix starts from. */
      readonly baseSha?: string;
      /** The fix as a patch, and the local repository its branch is in (local forge). */
      readonly patchPath?: string;
      readonly repository?: string;
      /** A dry run: no branch was written; the patch is here, not in a file. */
      readonly dryRun?: boolean;
      readonly patch?: string;
    }
  | {
      readonly status: 'diagnosis';
      readonly reason: string;
      readonly category: DiagnosisReason;
      readonly fingerprint?: string;
      /** Where the forge reported it (a comment's address, or a file). */
      readonly reportedAt?: string;
      readonly checks: readonly CheckResult[];
      readonly tracePath?: string;
      /** What the agent spent, when it ran. */
      readonly spend?: Spend;
      /** What failed and what was tried, for the person who reads the diagnosis. */
      readonly failure?: FailureSummary;
    }
  | {
      readonly status: 'not-reproduced';
      readonly reason: string;
      readonly command: string;
      /** What ran and passed: the command and where it came from, or each workflow job run. */
      readonly tried?: readonly string[];
      readonly tracePath?: string;
      /** What the agent spent, when it ran. */
      readonly spend?: Spend;
    }
  | {
      /** Waiting for a person's answer: `state` resumes the job (the App keeps it in its store). */
      readonly status: 'suspended';
      readonly reason: string;
      readonly fingerprint: string;
      readonly pending: PendingQuestion;
      readonly state: SuspendedAgent & { readonly diff: string };
      readonly tracePath?: string;
      readonly spend?: Spend;
    }
  | {
      readonly status: 'error';
      readonly reason: string;
      readonly code: ErrorCode;
      readonly tracePath?: string;
      /** What the agent spent, when it ran. */
      readonly spend?: Spend;
    };

export type OutcomeStatus = Outcome['status'];

/** The checks in one line, for every front door: how many passed, and each that failed by name. */
export const checksLine = (checks: readonly CheckResult[]): string => {
  const failed = checks.filter((check) => !check.ok);
  if (checks.length === 0) return 'checks: none ran';
  if (failed.length === 0) return `checks: all ${checks.length} passed`;
  return `checks: ${checks.length - failed.length} of ${checks.length} passed; failed: ${failed
    .map((check) => `${check.name} (${check.detail.split('\n')[0] ?? ''})`)
    .join('; ')}`;
};
