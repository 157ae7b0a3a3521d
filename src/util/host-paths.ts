import { realpathSync } from 'node:fs';
import path from 'node:path';

/** A folder of this host and the neutral name it goes by in text that leaves the host. */
export interface HostRoot {
  readonly path: string;
  readonly name: string;
}

/**
 * The host's folders a job's text can name: the data dir's job folders
 * (`<job>`: whichever job it was), the rest of the data dir, the tools dir,
 * and the home. Each as given and as its real path.
 */
export const hostRootsOf = (dirs: {
  dataDir: string;
  toolsDir?: string;
  home?: string;
}): HostRoot[] => {
  const roots: HostRoot[] = [];
  const add = (dir: string | undefined, name: string): void => {
    if (!dir || !path.isAbsolute(dir) || dir === '/') return;
    const given = path.resolve(dir);
    roots.push({ path: given, name });
    try {
      const real = realpathSync(given);
      if (real !== given) roots.push({ path: real, name });
    } catch {
      // Not there (yet): the name as given is the one text can carry.
    }
  };
  add(path.join(dirs.dataDir, 'jobs'), '<jobs>');
  add(dirs.dataDir, '<regreen-data>');
  add(dirs.toolsDir, '<regreen-tools>');
  add(dirs.home, '~');
  return roots;
};

/** Characters that continue a path segment: a root followed by one of them is a longer name. */
const SEGMENT = /[\w.@+-]/;

/**
 * `text` with every host folder in `roots` replaced by its neutral name, the
 * longest first; under `<jobs>`, the job's own folder goes too (`<job>`), so
 * neither the data dir nor a job id is said. Only whole path segments match;
 * the text is scanned, never compiled into a pattern.
 */
export const neutralizeHostPaths = (text: string, roots: readonly HostRoot[]): string => {
  const ordered = [...roots].sort((a, b) => b.path.length - a.path.length);
  let out = text;
  for (const root of ordered) {
    if (!out.includes(root.path)) continue;
    let result = '';
    let from = 0;
    for (;;) {
      const at = out.indexOf(root.path, from);
      if (at === -1) break;
      let end = at + root.path.length;
      if (SEGMENT.test(out.charAt(end))) {
        result += out.slice(from, end);
        from = end;
        continue;
      }
      let name = root.name;
      if (root.name === '<jobs>' && out.charAt(end) === '/') {
        // The job's own folder (its id) goes with it.
        let stop = end + 1;
        while (stop < out.length && SEGMENT.test(out.charAt(stop))) stop += 1;
        if (stop > end + 1) {
          name = '<job>';
          end = stop;
        }
      }
      result += out.slice(from, at) + name;
      from = end;
    }
    out = result + out.slice(from);
  }
  return out;
};
