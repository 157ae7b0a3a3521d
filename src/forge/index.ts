import { createGitHubForge, type GitHubForgeOptions } from './github/forge.ts';
import { createLocalForge } from './local.ts';
import type { RepoCredential } from '../workspace/repo/repo-url.ts';
import type { Forge } from './types.ts';

export type ForgeSpec =
  | {
      kind: 'local';
      target: string;
      localRoot: string | undefined;
      dataDir: string;
      credential?: RepoCredential;
    }
  | ({ kind: 'github' } & GitHubForgeOptions);

/** The registry of forge adapters: one file (or folder) per forge, chosen here by kind. */
export const createForge = (spec: ForgeSpec): Forge => {
  switch (spec.kind) {
    case 'local':
      return createLocalForge(spec);
    case 'github':
      return createGitHubForge(spec);
  }
};
