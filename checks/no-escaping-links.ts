import path from 'node:path';
import type { Check } from './types.ts';

const SYMLINK = '120000';

/**
 * No symlink the change adds or rewrites points outside the repository (an
 * absolute target, or one that climbs out with `..`): once merged, such a link
 * would have a maintainer's tools, or CI's, read or write outside the tree.
 */
export const noEscapingLinks: Check = (ctx) => {
  const escaping = ctx.diff.files.flatMap((file) => {
    if (!file.modes.includes(SYMLINK) || file.status === 'deleted') return [];
    const target = file.added.join('');
    const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), target));
    return target.startsWith('/') || resolved === '..' || resolved.startsWith('../')
      ? [`${file.path} -> ${target}`]
      : [];
  });
  return {
    name: 'no-escaping-links',
    ok: escaping.length === 0,
    detail:
      escaping.length === 0
        ? 'no symlink points outside the repository'
        : `symlinks that point outside the repository: ${escaping.join(', ')}`,
  };
};
