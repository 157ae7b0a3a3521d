import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';

/**
 * Asserts that no secret is in any file under `dir` (its name or its bytes: the store, traces,
 * proposals, a kept workspace's `.git/config`) nor in any of `texts` (output, logs); a secret's
 * Basic-auth forms are looked for too. Returns how many files were read.
 */
export const expectNoSecretWritten = (
  dir: string,
  secrets: Iterable<string>,
  texts: readonly string[] = [],
): number => {
  const forms = [...secrets].flatMap((secret) => [
    secret,
    Buffer.from(secret).toString('base64'),
    Buffer.from(`x-access-token:${secret}`).toString('base64'),
  ]);
  expect(forms.length).toBeGreaterThan(0);
  const entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  let files = 0;
  for (const entry of entries) {
    const name = path.join(entry.parentPath, entry.name);
    const bytes = entry.isFile() ? readFileSync(name) : Buffer.alloc(0);
    if (entry.isFile()) files += 1;
    for (const form of forms) {
      expect(name, 'a file name holds a secret').not.toContain(form);
      expect(bytes.includes(form), `${name} holds a secret`).toBe(false);
    }
  }
  for (const text of texts) for (const form of forms) expect(text).not.toContain(form);
  return files;
};
