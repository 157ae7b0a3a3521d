import { RegreenError } from '../errors.ts';
import { createScriptModel } from './script.ts';
import type { Model } from './types.ts';

/** `none` means recipes only. */
export type ModelSpec = { kind: 'none' } | { kind: 'script'; file: string };

export const parseModelSpec = (value: string | undefined): ModelSpec => {
  if (value === undefined || value === 'none') return { kind: 'none' };
  const [kind, ...rest] = value.split(':');
  const arg = rest.join(':');
  if (kind === 'script' && arg) return { kind: 'script', file: arg };
  throw new RegreenError('usage', `unknown model "${value}": use script:FILE or none`);
};

/** The registry of model adapters. The workspace is known only once the job has cloned. */
export const createModel = (spec: ModelSpec, workspace: () => string): Model | undefined => {
  switch (spec.kind) {
    case 'none':
      return undefined;
    case 'script':
      return createScriptModel({ file: spec.file, workspace });
  }
};
