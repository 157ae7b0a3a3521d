import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * A simple-git handle that never runs the repository's hooks or fsmonitor
 * command (hostile repositories are expected input).
 */
export const git = (dir: string): SimpleGit =>
  simpleGit({
    baseDir: dir,
    config: ['core.hooksPath=/dev/null', 'core.fsmonitor=false'],
    unsafe: { allowUnsafeHooksPath: true, allowUnsafeFsMonitor: true },
  });

/** Host-side git never runs a repository's hooks or fsmonitor command. */
export const SAFE_GIT_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

export const IDENTITY = [
  '-c',
  'user.name=regreen',
  '-c',
  'user.email=regreen@users.noreply.invalid',
];
