import type { Check } from './types.ts';

const SYMLINK = '120000';
/** More hops than this is a loop (the kernel's own limit is 40). */
const MAX_HOPS = 40;

/**
 * Where a link ends, walked through the changed tree hop by hop: every
 * segment that is itself a link (one of the base's or one the change adds) is
 * replaced by its target, as the kernel would. Undefined when it stays
 * inside; else why it does not.
 */
export const linkEscape = (
  file: string,
  target: string,
  linkIn: (file: string) => string | undefined,
): string | undefined => {
  const resolved: string[] = file.split('/').slice(0, -1);
  const queue = target.split('/');
  let hops = 0;
  if (target.startsWith('/')) return 'an absolute target';
  while (queue.length > 0) {
    const segment = queue.shift() as string;
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (resolved.length === 0) return 'it climbs out of the repository';
      resolved.pop();
      continue;
    }
    resolved.push(segment);
    if (segment.toLowerCase() === '.git') return 'it leads into .git';
    const next = linkIn(resolved.join('/'));
    if (next === undefined) continue;
    hops += 1;
    if (hops > MAX_HOPS) return 'a loop of links';
    if (next.startsWith('/'))
      return `it reaches ${resolved.join('/')} -> ${next}, an absolute target`;
    resolved.pop();
    queue.unshift(...next.split('/'));
  }
  return undefined;
};

/**
 * No symlink the change adds or rewrites ends outside the repository or in
 * `.git`, resolved through the changed tree itself (a chain such as `here ->
 * .` and `up -> here/..` climbs out as surely as `../..`): once merged, such
 * a link would have a maintainer's tools, or CI's, read or write outside the
 * tree.
 */
export const noEscapingLinks: Check = (ctx) => {
  const escaping = ctx.diff.files.flatMap((file) => {
    if (!file.modes.includes(SYMLINK) || file.status === 'deleted') return [];
    const target = ctx.linkIn(file.path) ?? file.added.join('');
    const why = linkEscape(file.path, target, ctx.linkIn);
    return why ? [`${file.path} -> ${target} (${why})`] : [];
  });
  return {
    name: 'no-escaping-links',
    ok: escaping.length === 0,
    detail:
      escaping.length === 0
        ? 'no symlink leads outside the repository or into .git'
        : `symlinks that lead outside the repository or into .git: ${escaping.join(', ')}`,
  };
};
