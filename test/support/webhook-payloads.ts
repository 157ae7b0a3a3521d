import examples from '@octokit/webhooks-examples';

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
  payload.installation = {
    id: installationId,
    node_id: 'MDIzOkludGVncmF0aW9uSW5zdGFsbGF0aW9uNzc=',
  };
  return payload;
};
