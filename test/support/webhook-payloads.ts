import examples from '@octokit/webhooks-examples';
import type { EmulatedGitHub, RunRecord } from './emulated-github.ts';

type Json = Record<string, unknown>;

/** A deep copy of a real example payload from @octokit/webhooks-examples. */
export const examplePayload = (event: string, action: string): Json => {
  const entry = (examples as unknown as { name: string; examples: Json[] }[]).find(
    (e) => e.name === event,
  );
  const example = entry?.examples.find((e) => e.action === action);
  if (!example) throw new Error(`no example payload for ${event}.${action}`);
  return structuredClone(example);
};

/** The example's repository pointed at a repository of the emulated GitHub. */
export const adaptRepository = (
  payload: Json,
  repo: { owner: string; name: string; cloneUrl: string },
  installationId: number,
): Json => {
  const repository = payload.repository as Json;
  repository.name = repo.name;
  repository.full_name = `${repo.owner}/${repo.name}`;
  repository.clone_url = repo.cloneUrl;
  repository.default_branch = 'main';
  (repository.owner as Json).login = repo.owner;
  // A run of the repository's own branch: its head repository is the repository (a fork's is not).
  const head = (payload.workflow_run as Json | undefined)?.head_repository as Json | undefined;
  if (head) {
    head.name = repo.name;
    head.full_name = `${repo.owner}/${repo.name}`;
  }
  payload.installation = {
    id: installationId,
    node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=',
  };
  return payload;
};

/** An example payload of `event.action` for a repository of the emulated GitHub. */
export const emulatedPayload = (
  gh: Pick<EmulatedGitHub, 'url' | 'installationId'>,
  fullName: string,
  event: string,
  action: string,
): Json => {
  const [owner = '', name = ''] = fullName.split('/');
  return adaptRepository(
    examplePayload(event, action),
    { owner, name, cloneUrl: `${gh.url}/${fullName}.git` },
    gh.installationId,
  );
};

/** The `workflow_run.completed` delivery of a run of the emulated GitHub. */
export const workflowRunPayload = (
  gh: Pick<EmulatedGitHub, 'url' | 'installationId'>,
  fullName: string,
  run: RunRecord,
): Json => {
  const payload = emulatedPayload(gh, fullName, 'workflow_run', 'completed');
  Object.assign(payload.workflow_run as Json, {
    id: run.id,
    status: 'completed',
    conclusion: run.conclusion,
    head_sha: run.head_sha,
    head_branch: run.head_branch,
    pull_requests: run.pull_requests,
  });
  return payload;
};

/** An `issue_comment.created` delivery: a person's comment on a pull request of the emulated GitHub. */
export const pullCommentPayload = (
  gh: Pick<EmulatedGitHub, 'url' | 'apiUrl' | 'installationId'>,
  fullName: string,
  pullNumber: number,
  comment: { id: number; body: string; login: string },
): Json => {
  const payload = emulatedPayload(gh, fullName, 'issue_comment', 'created');
  Object.assign(payload.issue as Json, {
    number: pullNumber,
    pull_request: { url: `${gh.apiUrl}/repos/${fullName}/pulls/${pullNumber}` },
  });
  Object.assign(payload.comment as Json, {
    id: comment.id,
    body: comment.body,
    user: { login: comment.login, id: comment.id, type: 'User' },
  });
  return payload;
};
