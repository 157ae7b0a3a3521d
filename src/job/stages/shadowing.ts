import type { FreshTree } from './fresh-tree.ts';

/**
 * The import names a change's new Python files take at the top level: the
 * first segment below an import root (the repository's root, or `src/` for a
 * src layout) that did not exist on the base — a new root module
 * (`pytest.py`), a new top-level package (`__pypy__/`). A module added inside
 * an existing package or folder takes no new top-level name. Name → the file
 * that takes it.
 */
export const newTopLevelModules = (
  added: readonly string[],
  baseFiles: readonly string[],
): Map<string, string> => {
  const existing = new Set(
    baseFiles.flatMap((file) =>
      file.split('/').map((_, index, parts) => parts.slice(0, index + 1).join('/')),
    ),
  );
  const names = new Map<string, string>();
  for (const file of added.filter((candidate) => /\.py$/.test(candidate))) {
    for (const root of ['', 'src/']) {
      if (!file.startsWith(root)) continue;
      const rest = file.slice(root.length).split('/');
      const first = rest[0] ?? '';
      if (existing.has(`${root}${first}`)) continue;
      const name = rest.length > 1 ? first : first.replace(/\.py$/, '');
      if (/^[A-Za-z_]\w*$/.test(name) && name !== '__init__') names.set(name, file);
    }
  }
  return names;
};

/**
 * Asks the tree's own Python which of these names the standard library, the
 * runner or an installed package already provides — found on `sys.path`
 * outside the repository (site-packages inside it, a project's venv, count
 * as installed). Run in the tree's sandbox, network off.
 */
const PROBE = `
import importlib.machinery, json, os, sys
root = os.path.realpath(os.getcwd())
def inside(p):
    real = os.path.realpath(p or '.')
    if 'site-packages' in real or 'dist-packages' in real:
        return False
    return real == root or real.startswith(root + os.sep)
paths = [p for p in sys.path if p and not inside(p)]
found = []
for name in json.loads(sys.argv[1]):
    if name in getattr(sys, 'stdlib_module_names', ()) or name in sys.builtin_module_names:
        found.append(name)
    elif importlib.machinery.PathFinder.find_spec(name, paths) is not None:
        found.append(name)
print('REGREEN-SHADOWS ' + json.dumps(found))
`;

/** The new names that shadow, or why that could not be told (the check fails closed). */
export const shadowedNames = async (
  tree: FreshTree,
  names: ReadonlyMap<string, string>,
  timeoutMs: number,
): Promise<readonly string[] | string> => {
  if (names.size === 0) return [];
  const quoted = (text: string): string => `'${text.replaceAll("'", `'\\''`)}'`;
  const argv = [quoted(PROBE), quoted(JSON.stringify([...names.keys()]))].join(' ');
  const run = await tree.run(
    `if command -v python3 >/dev/null; then python3 -I -c ${argv}; else python -I -c ${argv}; fi`,
    'off',
    timeoutMs,
  );
  const line = /^REGREEN-SHADOWS (\[.*\])$/m.exec(run.output)?.[1];
  if (run.exitCode !== 0 || line === undefined)
    return `the change adds top-level Python modules (${[...names.keys()].join(', ')}) and the tree's Python could not tell whether they shadow installed ones (exit ${run.exitCode ?? 'killed'}): unknown is refused`;
  const found = JSON.parse(line) as string[];
  return found.map((name) => `${names.get(name) ?? name} (takes the name \`${name}\`)`);
};

/** The top-level module names lines of Python import: `import a.b as c, d` → a, d; `from x.y import z` → x. */
export const importedNames = (lines: readonly string[]): Set<string> => {
  const names = new Set<string>();
  for (const line of lines) {
    const from = /^\s*from\s+([A-Za-z_]\w*)/.exec(line);
    if (from?.[1]) names.add(from[1]);
    const imported = /^\s*import\s([\w.,\s]*)(?:#.*)?$/.exec(line);
    for (const part of imported?.[1]?.split(',') ?? []) {
      const name = /^\s*([A-Za-z_]\w*)/.exec(part)?.[1];
      if (name) names.add(name);
    }
  }
  return names;
};

/**
 * New top-level modules nothing of the product change imports: a name only a
 * runner, a plugin or an installed package would load (an optional `try:
 * import __pypy__`), whoever provides it now. A module of the project's own is
 * imported by the project.
 */
export const unimportedModules = (
  names: ReadonlyMap<string, string>,
  productLines: readonly string[],
): string[] => {
  const imported = importedNames(productLines);
  return [...names]
    .filter(([name]) => !imported.has(name))
    .map(([name, file]) => `${file} (\`${name}\` is imported by nothing of the product change)`);
};
