import path from 'node:path';
import { hostGitSync } from './git.ts';

/** A full object id: it names one object whatever the repository's refs say (replace refs are off). */
const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;
export const isFullObjectId = (id: string): boolean => FULL_ID.test(id);
const MAX_OBJECT_ANSWER_BYTES = 32 * 1024 * 1024;
const objectAnswers = new Map<string, Buffer>();
let objectAnswerBytes = 0;

/**
 * `hostGitSync` for a read whose answer the object `id` fixes (a commit's
 * tree listed, a file of a commit shown): asked of git once per repository
 * and remembered — a job reads the base's files in several stages, and every
 * git process costs a fork of regreen's. Up to 32 MiB of answers, the oldest
 * forgotten first; an id that is not a full one (a branch, `HEAD`) is asked
 * every time, and so is a read that failed.
 */
export const hostGitObjectSync = (
  args: readonly string[],
  id: string,
  options: { cwd: string },
): Buffer => {
  if (!isFullObjectId(id) || !args.some((arg) => arg === id || arg.startsWith(`${id}:`)))
    return hostGitSync(args, options);
  const key = `${path.resolve(options.cwd)}\0${args.join('\0')}`;
  const known = objectAnswers.get(key);
  if (known) return known;
  const answer = hostGitSync(args, options);
  if (answer.length <= MAX_OBJECT_ANSWER_BYTES) {
    objectAnswers.set(key, answer);
    objectAnswerBytes += answer.length;
    for (const [oldest, value] of objectAnswers) {
      if (objectAnswerBytes <= MAX_OBJECT_ANSWER_BYTES) break;
      objectAnswers.delete(oldest);
      objectAnswerBytes -= value.length;
    }
  }
  return answer;
};
