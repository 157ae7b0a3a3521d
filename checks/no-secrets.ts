import { findSecrets } from '../src/util/secrets.ts';
import type { Check } from './types.ts';

/** No secret in the diff: token-shaped strings and private keys in added lines. */
export const noSecrets: Check = (ctx) => {
  const found = ctx.diff.files.flatMap((file) =>
    file.added.flatMap((line) => findSecrets(line).map((kind) => `${kind} in ${file.path}`)),
  );
  return found.length === 0
    ? { name: 'no-secrets', ok: true, detail: 'no secret-shaped string added' }
    : { name: 'no-secrets', ok: false, detail: [...new Set(found)].join('; ') };
};
