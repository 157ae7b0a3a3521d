import { existsSync } from 'node:fs';
import path from 'node:path';

/** `https://github.com/owner/name` → `DIR/owner+name/repo` when that mirror exists (the library's snapshots). */
export const localMirror = (repo: string, mirrors: string | undefined): string => {
  if (!mirrors) return repo;
  const m = /github\.com[/:]([^/]+)\/([^/.]+?)(?:\.git)?\/?$/.exec(repo);
  if (!m) return repo;
  const candidate = path.join(mirrors, `${m[1]}+${m[2]}`, 'repo');
  return existsSync(candidate) ? candidate : repo;
};
