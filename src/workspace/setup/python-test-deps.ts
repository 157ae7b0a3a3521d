import path from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { readTextInside } from '../repo/confined-fs.ts';
import { pattern } from '../../util/pattern.ts';

/** A file of the repository, read without following its links out of the workspace. */
const read = (workspace: string, file: string): string =>
  readTextInside(workspace, path.join(workspace, file)) ?? '';

/** The names under which projects keep their test tools, in the order they are preferred. */
const TEST_NAMES = ['test', 'tests', 'testing', 'dev'];

/** What a Python project declares for its tests, read from every standard place. */
export interface PythonTestDeps {
  /** The project declares a package (`[build-system]` or `[project]`, `setup.py`, a `setup.cfg` with metadata): it can be installed. */
  readonly installable: boolean;
  /** The extra that holds its test tools (`[project.optional-dependencies]`, `extras_require`, `setup.cfg`). */
  readonly extra: string | undefined;
  /** Requirement specifiers from a PEP 735 dependency group or tox's `deps` (not the project itself). */
  readonly packages: readonly string[];
  /** Requirement files those name (`-r requirements/test.txt` in tox's deps). */
  readonly files: readonly string[];
  /** Where each part was read, for the trace. */
  readonly sources: readonly string[];
  /** Whether anything the project declares installs pytest (not a `[tool.pytest]` table). */
  readonly declaresPytest: boolean;
}

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A PEP 735 group's requirements, `include-group` entries followed (each group once). */
export const groupRequirements = (
  groups: Record<string, unknown>,
  name: string,
  seen = new Set<string>(),
): string[] => {
  if (seen.has(name)) return [];
  seen.add(name);
  const entries = groups[name];
  if (!Array.isArray(entries)) return [];
  return entries.flatMap((entry) => {
    if (typeof entry === 'string') return [entry];
    const included = asRecord(entry)['include-group'];
    return typeof included === 'string' ? groupRequirements(groups, included, seen) : [];
  });
};

/** The keys of a Python dict literal (`extras_require={'test': [...]}`) in setup.py. */
const setupPyExtras = (text: string): string[] => {
  const body = /extras_require\s*=\s*(?:dict\s*\(([\s\S]*?)\)|\{([\s\S]*?)\})/.exec(text);
  const inner = body?.[1] ?? body?.[2] ?? '';
  return [
    ...[...inner.matchAll(/['"]([\w.-]+)['"]\s*:/g)].map((match) => match[1] ?? ''),
    ...[...inner.matchAll(/(?:^|[,(\s])([\w]+)\s*=/g)].map((match) => match[1] ?? ''),
  ];
};

/** The lines of an ini section's key, continuation lines included. */
const iniValue = (text: string, section: RegExp, key: string): string[] => {
  const lines = text.split('\n');
  const values: string[] = [];
  let inSection = false;
  let inKey = false;
  for (const line of lines) {
    if (/^\s*\[/.test(line)) {
      inSection = section.test(line.trim());
      inKey = false;
      continue;
    }
    if (!inSection) continue;
    const start = pattern()`^${key}\s*[=:]\s*(.*)$`.exec(line);
    if (start) {
      inKey = true;
      if (start[1]?.trim()) values.push(start[1].trim());
      continue;
    }
    if (inKey && /^\s+\S/.test(line)) values.push(line.trim());
    else if (line.trim() !== '') inKey = false;
  }
  return values.filter((value) => !value.startsWith('#'));
};

const requirementList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === 'string') : [];

/**
 * A table of `name = constraint` (Poetry's groups, Pipfile's `[dev-packages]`)
 * as pip requirements: a PEP 440 constraint is kept, Poetry's `^`/`~` and a
 * table (`{ version, extras, git }`) keep just the name; Python itself is not
 * a package.
 */
const tableRequirements = (table: unknown): string[] =>
  Object.entries(asRecord(table)).flatMap(([name, value]) => {
    if (!/^[A-Za-z0-9][\w.-]*$/.test(name) || name.toLowerCase() === 'python') return [];
    const constraint = typeof value === 'string' ? value.trim() : '';
    return [/^(==|>=|<=|~=|!=|<|>)/.test(constraint) ? `${name}${constraint}` : name];
  });

/** The test or dev group of Poetry, PDM and uv, as pip requirements, with where it came from. */
const toolGroups = (
  pyproject: Record<string, unknown>,
): { packages: string[]; source: string } | undefined => {
  const tool = asRecord(pyproject.tool);
  const poetry = asRecord(tool.poetry);
  const poetryGroups = asRecord(poetry.group);
  const poetryGroup = TEST_NAMES.find((name) => name in poetryGroups);
  if (poetryGroup)
    return {
      packages: tableRequirements(asRecord(poetryGroups[poetryGroup]).dependencies),
      source: `Poetry's group "${poetryGroup}"`,
    };
  if ('dev-dependencies' in poetry)
    return {
      packages: tableRequirements(poetry['dev-dependencies']),
      source: "Poetry's dev-dependencies",
    };
  const pdm = asRecord(asRecord(tool.pdm)['dev-dependencies']);
  const pdmGroup = TEST_NAMES.find((name) => name in pdm);
  if (pdmGroup)
    return {
      packages: requirementList(pdm[pdmGroup]).filter((spec) => !spec.startsWith('-')),
      source: `PDM's dev-dependencies "${pdmGroup}"`,
    };
  const uv = requirementList(asRecord(tool.uv)['dev-dependencies']);
  if (uv.length > 0) return { packages: uv, source: "uv's dev-dependencies" };
  return undefined;
};

/** Pipfile's `[packages]` and `[dev-packages]` (a Pipfile project is an application: both are needed). */
const pipfilePackages = (text: string): string[] => {
  try {
    const pipfile = asRecord(parseToml(text));
    return [...tableRequirements(pipfile.packages), ...tableRequirements(pipfile['dev-packages'])];
  } catch {
    return [];
  }
};

/**
 * A line of tox's `deps` as tox's plain environment takes it. A
 * factor-conditional line (`trio: trio`, `py38,py39: mock`,
 * `py311-trio: x`) is for the environments whose name carries those
 * factors, so it is left out; one whose every factor is negated
 * (`!pypy: cffi`) applies to a plain environment and is kept, condition
 * removed. Plain lines come back as they are.
 */
const toxDefaultEnvDep = (line: string): string | undefined => {
  const conditional = /^(!?[\w.]+(?:[-,]!?[\w.]+)*):\s+(\S.*)$/.exec(line);
  if (!conditional) return line;
  const [, condition = '', dep] = conditional;
  const applies = condition
    .split(',')
    .some((alternative) => alternative.split('-').every((factor) => factor.startsWith('!')));
  return applies ? dep : undefined;
};

/**
 * How a Python project's tests are installed, by what it declares: a PEP 735
 * dependency group (else Poetry's, PDM's or uv's test or dev group), an
 * extra (pyproject's, `setup.py`'s `extras_require`, `setup.cfg`'s),
 * Pipfile's `[dev-packages]`, tox's `deps`. Installing the project itself is offered only
 * when it declares a build.
 */
export const pythonTestDeps = (workspace: string): PythonTestDeps => {
  const sources: string[] = [];
  const pyprojectText = read(workspace, 'pyproject.toml');
  let pyproject: Record<string, unknown> = {};
  try {
    pyproject = pyprojectText ? asRecord(parseToml(pyprojectText)) : {};
  } catch {
    sources.push('pyproject.toml (not valid TOML: ignored)');
  }
  const setupPyText = readTextInside(workspace, path.join(workspace, 'setup.py'));
  const setupPy = setupPyText ?? '';
  const setupCfg = read(workspace, 'setup.cfg');
  const installable =
    'build-system' in pyproject ||
    'project' in pyproject ||
    setupPyText !== undefined ||
    /^[^\S\n\r\u2028\u2029]*\[(metadata|options)\]/m.test(setupCfg);
  const optional = asRecord(asRecord(pyproject.project)['optional-dependencies']);
  const cfgExtras = setupCfg
    ? TEST_NAMES.filter((name) => iniValue(setupCfg, /^\[options\.extras_require\]$/, name).length)
    : [];
  const pyExtras = setupPyExtras(setupPy);
  const extra = installable
    ? TEST_NAMES.find(
        (name) => name in optional || cfgExtras.includes(name) || pyExtras.includes(name),
      )
    : undefined;
  if (extra) sources.push(`the project's extra [${extra}]`);
  const groups = asRecord(pyproject['dependency-groups']);
  const group = TEST_NAMES.find((name) => name in groups);
  const packages: string[] = [];
  const files: string[] = [];
  if (group) {
    packages.push(...groupRequirements(groups, group));
    sources.push(`pyproject.toml's dependency group "${group}"`);
  }
  const fromTool = group ? undefined : toolGroups(pyproject);
  if (fromTool && fromTool.packages.length > 0) {
    packages.push(...fromTool.packages);
    sources.push(fromTool.source);
  }
  const pipfile = pipfilePackages(read(workspace, 'Pipfile'));
  if (pipfile.length > 0) {
    packages.push(...pipfile);
    sources.push("Pipfile's [packages] and [dev-packages]");
  }
  const tox = read(workspace, 'tox.ini');
  const toxDeps = tox ? iniValue(tox, /^\[testenv\]$/, 'deps') : [];
  if (toxDeps.length > 0) sources.push("tox.ini's [testenv] deps");
  for (const line of toxDeps) {
    const dep = toxDefaultEnvDep(line);
    if (dep === undefined) continue;
    const file = /^-r\s*(\S+)$/.exec(dep)?.[1];
    if (file) files.push(file);
    // A substitution or a path of tox's own is not a requirement pip can take here.
    else if (!/[{}]/.test(dep) && !dep.startsWith('-') && !dep.startsWith('.')) packages.push(dep);
  }
  const project = asRecord(pyproject.project);
  const requirementsOf = requirementList;
  const declared = [
    ...requirementsOf(project.dependencies),
    ...Object.values(optional).flatMap(requirementsOf),
    ...Object.keys(groups).flatMap((name) => groupRequirements(groups, name)),
    ...packages,
    ...files.map((file) => read(workspace, file)).flatMap((text) => text.split('\n')),
  ];
  const declaresPytest =
    declared.some((requirement) => /^\s*pytest\b/i.test(requirement)) ||
    /['"]pytest\b/.test(setupPy) ||
    /^[^\S\n\r\u2028\u2029]+pytest\b/m.test(setupCfg);
  return { installable, extra, packages: [...new Set(packages)], files, sources, declaresPytest };
};
