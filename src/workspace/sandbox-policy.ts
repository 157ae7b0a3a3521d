import path from 'node:path';
import type { SandboxPolicy } from './sandbox.ts';

/** Places under the home folder where credentials live. */
const HOME_CREDENTIAL_PLACES = [
  '.ssh',
  '.aws',
  '.azure',
  '.kube',
  '.docker',
  '.gnupg',
  '.netrc',
  '.npmrc',
  '.pypirc',
  '.yarnrc',
  '.yarnrc.yml',
  '.git-credentials',
  '.gitconfig',
  '.config/gh',
  '.config/git',
  '.config/gcloud',
  '.config/hub',
  '.config/regreen',
  '.cargo/credentials',
  '.cargo/credentials.toml',
  '.local/share/keyrings',
];

/** The read-deny list of a job: credential places under home, and regreen's data dir. */
export const credentialDenyList = (home: string, dataDir: string): string[] => [
  ...HOME_CREDENTIAL_PLACES.map((place) => path.join(home, place)),
  '/etc/gitconfig',
  dataDir,
];

export const buildSandboxPolicy = (options: {
  workspace: string;
  privateDir: string;
  home: string;
  dataDir: string;
  registryHosts: readonly string[];
  baseEnv: Readonly<Record<string, string | undefined>>;
}): SandboxPolicy => ({
  workspace: options.workspace,
  privateDir: options.privateDir,
  denyRead: credentialDenyList(options.home, options.dataDir),
  registryHosts: options.registryHosts,
  baseEnv: options.baseEnv,
});
