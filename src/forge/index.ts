import { createLocalForge } from './local.ts';
import type { Forge } from './types.ts';

export type ForgeSpec = {
  kind: 'local';
  target: string;
  localRoot: string | undefined;
  dataDir: string;
};

/** The registry of forge adapters. */
export const createForge = (spec: ForgeSpec): Forge => {
  switch (spec.kind) {
    case 'local':
      return createLocalForge(spec);
  }
};
