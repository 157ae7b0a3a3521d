import { icon } from './icons.ts';
import { toolInputView } from './tool-input.ts';
import type { TraceStep } from './trace-read.ts';

const EDITS = new Set(['edit', 'write', 'apply_patch', 'ast_edit']);

/** The edits that succeeded in a trajectory, each as its tool showed it: file, then diff. */
export const agentEditsHtml = (steps: readonly TraceStep[], workspace?: string): string =>
  steps
    .flatMap((step) => (step.kind === 'turn' ? step.calls : []))
    .filter((call) => EDITS.has(call.name) && !call.isError)
    .map((call) => {
      const view = toolInputView(call.name, call.input, workspace);
      return `<div class="edit">${icon('pass', 'applied')}<code>${call.name}</code> ${view.line}${view.blocks}</div>`;
    })
    .join('');
