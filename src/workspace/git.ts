import { simpleGit, type SimpleGit } from 'simple-git';

/**
 * A simple-git handle that never asks for credentials interactively and does
 * not run the repository's hooks or fsmonitor (hostile repos are expected).
 */
export const git = (dir: string): SimpleGit =>
  simpleGit({ baseDir: dir, config: ['core.hooksPath=/dev/null', 'core.fsmonitor=false'] }).env({
    ...Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined)) as Record<string, string>,
    GIT_TERMINAL_PROMPT: '0',
  });

/** Host-side git never runs a repository's hooks or fsmonitor command. */
export const SAFE_GIT_CONFIG = ['-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

export const IDENTITY = ['-c', 'user.name=regreen', '-c', 'user.email=regreen@users.noreply.invalid'];
