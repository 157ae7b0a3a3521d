/**
 * The host never reads a repository path by name. A path inside a workspace
 * is opened only by the confined reader (`src/workspace/repo/confined-fs.ts`: the
 * workspace opened once, each segment below it opened from its parent's
 * descriptor without following links, regular files only, size-capped), and
 * tools that scan the tree run inside the sandbox. So only the modules below
 * may import a path-opening function of `node:fs` at all, each for a host
 * path that no repository names; a new module that opens files must use the
 * confined reader or be added here with its reason, in review.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.join(import.meta.dirname, '..', '..');

/** Functions of node:fs (and node:fs/promises) that open or list a path by name. */
const OPENERS = new Set([
  'readFileSync',
  'readFile',
  'readdirSync',
  'readdir',
  'opendirSync',
  'opendir',
  'createReadStream',
  'openSync',
  'open',
  'readlinkSync',
  'readlink',
  'promises',
]);

const HOST_READERS: Record<string, string> = {
  'src/workspace/repo/confined-fs.ts': 'the confined reader itself',
  'src/workspace/repo/confined-stat.ts':
    "the confined reader's questions (lstat, stat): each opened from its folder's descriptor, no link followed",
  'src/workspace/repo/confined-batch.ts':
    'the confined reader for many files at once: the same opening, each folder once per batch',
  'src/workspace/repo/git-view.ts':
    "reads the host's own system links (`/bin` -> `usr/bin`) to copy them into host git's view: no repository path",
  'src/workspace/repo/paths.ts':
    "resolves a tool's path as the confined reader opens one: by descriptors from the workspace root, no link followed, a link out refused by its text",
  'src/agent/prompt.ts': "regreen's own prompt template",
  'src/cli/jobs-command.ts': "the data dir's job folders, regreen's own",
  'src/cli/doctor-command.ts': 'the host’s /proc and /sys, for the report',
  'src/workspace/sandbox/job-volume.ts':
    "a job's volume image in its folder and a probe's temp folder, regreen's own",
  'src/cli/triage-command.ts': 'a log file the person names',
  'src/entrypoints/action.ts': "the runner's event payload",
  'src/entrypoints/app-setup.ts': 'the App’s own .env file',
  'src/config/dotenv.ts': "the operator's .env: its text, and its mode",
  'src/entrypoints/app-credentials.ts': "the package's app.yml and the operator's .env",
  'src/eval/report-html.ts': 'trace files regreen wrote',
  'src/eval/run.ts': 'reports and traces regreen wrote',
  'src/model/script.ts': 'a scripted model the person names',
  'src/observe/trace-read.ts': 'a trace regreen wrote',
  'src/observe/trace-glance.ts': 'the ends of a trace regreen wrote, for `jobs list`',
  'src/util/read-file.ts': 'a file the person names on the command line',
  'src/util/package-root.ts': "regreen's own package.json",
  'src/util/which.ts': "the folders of the operator's PATH",
  'src/workspace/sandbox/cgroups.ts': "the host's cgroup files",
  'src/workspace/setup/dependency-caches.ts': "the operator's client configs (pip.conf)",
  'src/workspace/setup/npm-tarballs.ts': "regreen's tarball store in the data dir",
  'src/workspace/setup/npm-tools.ts': "regreen's tools folder (its installs and their records)",
  'src/workspace/setup/package-managers.ts': "regreen's tools folder",
  'src/workspace/setup/provided-tools.ts':
    "the pins beside regreen's bundle, and the manifests of regreen's own node_modules",
  'src/workspace/setup/registries.ts': "the operator's client configs",
  'src/workspace/sandbox/bubblewrap-fds.ts': 'the seccomp program regreen wrote',
  'src/workspace/sandbox/launcher.ts': "a launcher's word, a file regreen wrote in its own folder",
  'src/workspace/sandbox/waiting-sandbox.ts':
    "a waiting sandbox's word, a file regreen wrote in its own folder, and the identity of the folders it binds",
  'src/workspace/sandbox/identity.ts': 'the user namespace of a process regreen started',
  'src/workspace/sandbox/mounts.ts': '/etc, to mask what an unprivileged user could not read',
  'src/workspace/sandbox/client-configs.ts':
    "the installs a toolchain root keeps by its layout (pyenv's versions, asdf's installs…), to mask their client configs",
  'src/workspace/setup/cache.ts': "the setup cache's own records",
  'src/workspace/setup/reads.ts':
    'its own probe file beside the workspace (does this file system record reads?)',
  'src/workspace/setup/toolchains.ts': 'where version managers keep toolchains',
  'src/workspace/sandbox/userns.ts': "the host's sysctl",
  'tools/files/read.ts': 'streams from a descriptor the confined reader opened',
  'src/job/stages/between-runs.ts':
    "the fresh tree, the sandbox's home and tmp listed between two judged runs without following a link, while nothing runs there, to remove what the first made",
  'src/job/stages/hold-build.ts':
    "a fresh tree's build outputs, found and each entry opened once without following a link while nothing runs there, to give it to nobody",
  'src/job/stages/hold-installed.ts':
    "a fresh tree's install trees, each entry opened once without following a link while nothing runs there, to give it to nobody",
};

const sources = (dir: string): string[] =>
  readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const rel = `${dir}/${name}`;
    if (statSync(path.join(ROOT, rel)).isDirectory()) return sources(rel);
    return /\.(ts|mts)$/.test(name) ? [rel] : [];
  });

/** The path-opening functions a module imports from node:fs; `*` for a namespace import. */
export const openersImported = (text: string): string[] => {
  const found: string[] = [];
  const named = /import\s*\{([^}]*)\}\s*from\s*['"](?:node:)?fs(?:\/promises)?['"]/g;
  for (const match of text.matchAll(named))
    for (const spec of (match[1] ?? '').split(',')) {
      const name =
        spec
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0] ?? '';
      if (OPENERS.has(name)) found.push(name);
    }
  if (/import\s+(?:\*\s+as\s+)?\w+\s+from\s*['"](?:node:)?fs(?:\/promises)?['"]/.test(text))
    found.push('*');
  if (/require\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)|import\(\s*['"](?:node:)?fs/.test(text))
    found.push('*');
  return found;
};

describe('host reads', () => {
  it('the detector sees named, renamed, namespace and dynamic imports', () => {
    expect(openersImported("import { existsSync, readFileSync } from 'node:fs';")).toEqual([
      'readFileSync',
    ]);
    expect(openersImported("import {\n  open as o,\n  stat,\n} from 'node:fs/promises';")).toEqual([
      'open',
    ]);
    expect(openersImported("import fs from 'fs';")).toEqual(['*']);
    expect(openersImported("const fs = await import('node:fs');")).toEqual(['*']);
    expect(openersImported("import { existsSync } from 'node:fs';")).toEqual([]);
  });

  it('only the listed modules open a path by name; everything else goes through the confined reader', () => {
    const files = ['src', 'tools', 'checks'].flatMap(sources);
    const unlisted = files
      .filter((file) => openersImported(readFileSync(path.join(ROOT, file), 'utf8')).length > 0)
      .filter((file) => !(file in HOST_READERS));
    expect(unlisted).toEqual([]);
    // The list stays true: a module that no longer opens paths leaves it.
    const stale = Object.keys(HOST_READERS).filter(
      (file) =>
        !files.includes(file) ||
        openersImported(readFileSync(path.join(ROOT, file), 'utf8')).length === 0,
    );
    expect(stale).toEqual([]);
  });
});
