import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { EvalTask } from './tasks.ts';

import type { Policy } from './types.ts';

/** The model spec of a policy: the gold patch through apply_patch, nothing at all, or the agent's model. */
export const policyModel = (
  policy: Policy,
  task: EvalTask,
  dir: string,
  model: string | undefined,
): string | undefined => {
  if (policy === 'agent') return model;
  const file = path.join(dir, `${policy}-script.json`);
  const turns =
    policy === 'oracle'
      ? [
          {
            content: [
              { type: 'text', text: 'Oracle: apply the person’s fix.' },
              {
                type: 'tool_use',
                id: 'oracle-1',
                name: 'apply_patch',
                input: { patch: task.gold_patch },
              },
            ],
          },
        ]
      : [];
  writeFileSync(file, JSON.stringify({ turns }));
  return `script:${file}`;
};
