import path from 'node:path';

/**
 * The Python modules pytest loads as plugins, which decide every test's
 * outcome through their hooks: each module a base `conftest.py` names in
 * `pytest_plugins` (a string, a list or a tuple of them), each module a
 * `pytest11` entry point names (pyproject.toml, setup.cfg, setup.py), what a
 * conftest or plugin star-imports or imports a `pytest_*` hook from (pytest
 * registers the hooks its namespace holds), and, recursively, what each of
 * those names in turn. A dotted name is a file `a/b.py` or `a/b/__init__.py`,
 * looked for where Python would import it from: the naming file's folder and
 * each above it, the root, `src/`.
 */

/** The quoted strings of a `pytest_plugins = …` assignment (to its closing bracket). */
const pluginList = (text: string): string[] =>
  [...text.matchAll(/^pytest_plugins\s*(?::[^=\n]*)?\+?=\s*/gm)].flatMap((match) => {
    const rest = text.slice((match.index ?? 0) + match[0].length);
    const open = /^[[(]/.test(rest);
    const value = open ? rest.slice(0, Math.max(rest.search(/[\])]/), 0) + 1) : rest.split('\n')[0];
    return [...(value ?? '').matchAll(/(['"])([\w.]+)\1/g)].map((m) => m[2] ?? '');
  });

/** Modules a conftest or plugin takes hooks from: `from x import *`, `from x import pytest_…`. */
const hookSources = (text: string): string[] =>
  text.split('\n').flatMap((line) => {
    const m = /^\s*from\s([\w. ]+)\simport\b(.*)$/.exec(line);
    if (!m) return [];
    const names = (m[2] ?? '').split('#')[0]?.trim().replace(/^\(/, '').trim() ?? '';
    return names.startsWith('*') || /\bpytest_\w/.test(names) ? [(m[1] ?? '').trim()] : [];
  });

/** The modules a `pytest11` entry point names, in a manifest of the base. */
const entryPoints = (file: string, text: string): string[] => {
  const modules: string[] = [];
  const spec = (value: string): void => {
    const at = value.indexOf('=');
    if (at === -1) return;
    const module = /^[\w.]+/.exec(
      value
        .slice(at + 1)
        .trim()
        .replace(/^['"]/, ''),
    )?.[0];
    if (module) modules.push(module);
  };
  if (/(^|\/)pyproject\.toml$/.test(file)) {
    let inside = false;
    for (const line of text.split('\n')) {
      if (/^\s*\[/.test(line)) inside = /\.\s*['"]?pytest11['"]?\s*\]\s*$/.test(line);
      else if (inside) spec(line);
    }
  } else if (/(^|\/)setup\.cfg$/.test(file)) {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => /^pytest11\s*=\s*$/.test(line));
    if (start !== -1)
      for (const line of lines.slice(start + 1)) {
        if (!/^[ \t]+\S/.test(line)) break;
        spec(line);
      }
  } else if (/(^|\/)setup\.py$/.test(file)) {
    const list = /['"]pytest11['"]\s*:\s*\[([^\]]*)\]/.exec(text)?.[1] ?? '';
    for (const item of list.matchAll(/(['"])([^'"]+)\1/g)) spec(item[2] ?? '');
  }
  return modules;
};

/** The base files pytest loads as plugins, from its conftests, manifests and `seeds` (see above). */
export const pythonPlugins = (
  baseFiles: readonly string[],
  baseContent: (file: string) => string | undefined,
  /** Python files already known to be plugins (a `-p` of the runner's configuration). */
  seeds: readonly string[] = [],
): string[] => {
  const known = new Set(baseFiles);
  const plugins = new Set<string>();
  const queue = [...baseFiles.filter((file) => /(^|\/)conftest\.py$/.test(file)), ...seeds];
  const resolve = (from: string, dotted: string): void => {
    const dots = /^\.*/.exec(dotted)?.[0].length ?? 0;
    const stem = dotted.slice(dots).replaceAll('.', '/');
    const folder = path.posix.dirname(from);
    const roots =
      dots > 0
        ? [path.posix.join(folder, ...Array<string>(dots - 1).fill('..'))]
        : [...folder.split('/').map((_, at, all) => all.slice(0, at + 1).join('/')), '.', 'src'];
    for (const root of roots)
      for (const candidate of stem === ''
        ? ['__init__.py']
        : [`${stem}.py`, `${stem}/__init__.py`]) {
        const file = path.posix.normalize(path.posix.join(root, candidate));
        if (known.has(file) && !plugins.has(file)) {
          plugins.add(file);
          queue.push(file);
        }
      }
  };
  for (const file of baseFiles.filter((f) =>
    /(^|\/)(pyproject\.toml|setup\.cfg|setup\.py)$/.test(f),
  ))
    for (const module of entryPoints(file, baseContent(file) ?? '')) resolve(file, module);
  const seen = new Set<string>();
  while (queue.length > 0 && seen.size < 2000) {
    const file = queue.shift() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = baseContent(file)?.slice(0, 256 * 1024) ?? '';
    for (const module of [...pluginList(text), ...hookSources(text)]) resolve(file, module);
  }
  return [...plugins];
};
