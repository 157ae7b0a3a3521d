import { readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The toolchains installed on this machine, where developers and runners keep
 * them, found by version: what a workflow's `actions/setup-node|python|go|java`
 * step asked for becomes a folder put first on the PATH of the replayed
 * steps, or a clear "not available here" (never a silent other version).
 */
export type ToolchainKind = 'node' | 'python' | 'go' | 'java';

export interface ToolchainRequest {
  readonly kind: ToolchainKind;
  /** As the workflow wrote it: `18`, `18.x`, `3.11`, `^1.21`, `lts/*`, `17`. */
  readonly version: string;
  /** The step that asked for it, as CI names it. */
  readonly step: string;
}

export interface InstalledToolchain {
  readonly kind: ToolchainKind;
  readonly version: string;
  /** The folder of its programs. */
  readonly bin: string;
}

export type ToolchainMatch =
  | {
      readonly found: true;
      readonly toolchain: InstalledToolchain;
      readonly request: ToolchainRequest;
    }
  | {
      readonly found: false;
      readonly request: ToolchainRequest;
      /** The versions this machine has, for the diagnosis. */
      readonly available: readonly string[];
    };

const list = (dir: string): string[] => {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
};

/** `v18.19.0`, `go1.21.5`, `java-17-openjdk-amd64`, `temurin-21-jdk`, `3.11.7` → `18.19.0`, … */
const versionIn = (name: string): string | undefined =>
  /(?:^|[^\d])(\d+(?:\.\d+)*)/.exec(name.replace(/^v/, ''))?.[1];

/** The roots each manager keeps versions under (name → bin folder inside it). */
const layouts = (
  home: string,
  toolCache: string | undefined,
): Record<ToolchainKind, { root: string; bin: (name: string) => string }[]> => {
  const cache = (tool: string): { root: string; bin: (name: string) => string }[] =>
    toolCache
      ? [{ root: path.join(toolCache, tool), bin: (name) => path.join(name, 'x64', 'bin') }]
      : [];
  return {
    node: [
      { root: path.join(home, '.nvm', 'versions', 'node'), bin: (name) => path.join(name, 'bin') },
      {
        root: path.join(home, '.volta', 'tools', 'image', 'node'),
        bin: (name) => path.join(name, 'bin'),
      },
      {
        root: path.join(home, '.asdf', 'installs', 'nodejs'),
        bin: (name) => path.join(name, 'bin'),
      },
      {
        root: path.join(home, '.local', 'share', 'mise', 'installs', 'node'),
        bin: (name) => path.join(name, 'bin'),
      },
      ...cache('node'),
    ],
    python: [
      { root: path.join(home, '.pyenv', 'versions'), bin: (name) => path.join(name, 'bin') },
      {
        root: path.join(home, '.asdf', 'installs', 'python'),
        bin: (name) => path.join(name, 'bin'),
      },
      {
        root: path.join(home, '.local', 'share', 'mise', 'installs', 'python'),
        bin: (name) => path.join(name, 'bin'),
      },
      ...(toolCache
        ? [
            {
              root: path.join(toolCache, 'Python'),
              bin: (name: string) => path.join(name, 'x64', 'bin'),
            },
          ]
        : []),
    ],
    go: [
      { root: path.join(home, 'sdk'), bin: (name) => path.join(name, 'bin') },
      { root: '/usr/lib', bin: (name) => path.join(name, 'bin') },
      { root: '/usr/local', bin: (name) => path.join(name, 'bin') },
      {
        root: path.join(home, '.asdf', 'installs', 'golang'),
        bin: (name) => path.join(name, 'go', 'bin'),
      },
      ...cache('go'),
    ],
    java: [
      { root: '/usr/lib/jvm', bin: (name) => path.join(name, 'bin') },
      {
        root: path.join(home, '.sdkman', 'candidates', 'java'),
        bin: (name) => path.join(name, 'bin'),
      },
      { root: path.join(home, '.asdf', 'installs', 'java'), bin: (name) => path.join(name, 'bin') },
      ...(toolCache
        ? [
            {
              root: path.join(toolCache, 'Java_Temurin-Hotspot_jdk'),
              bin: (name: string) => path.join(name, 'x64', 'bin'),
            },
          ]
        : []),
    ],
  };
};

/** The program whose presence says a folder holds the toolchain. */
const PROGRAM: Record<ToolchainKind, string> = {
  node: 'node',
  python: 'python3',
  go: 'go',
  java: 'java',
};

/** Names that are a toolchain of this kind in a shared root (`/usr/lib` holds more than Go). */
const NAMED: Record<ToolchainKind, RegExp> = {
  node: /^v?\d/,
  python: /^\d/,
  go: /^go[-\d]|^\d/,
  java: /\d/,
};

export type Exists = (file: string) => boolean;

/** Every installed toolchain of a kind under the known roots, newest first. */
export const installedToolchains = (
  kind: ToolchainKind,
  options: { readonly home: string; readonly toolCache?: string; readonly exists: Exists },
): InstalledToolchain[] => {
  const found: InstalledToolchain[] = [];
  for (const layout of layouts(options.home, options.toolCache)[kind]) {
    for (const name of list(layout.root)) {
      if (!NAMED[kind].test(name)) continue;
      const version = versionIn(name);
      const bin = path.join(layout.root, layout.bin(name));
      if (version && options.exists(path.join(bin, PROGRAM[kind])))
        found.push({ kind, version, bin });
    }
  }
  return found.sort((a, b) => compareVersions(b.version, a.version));
};

const compareVersions = (a: string, b: string): number => {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i += 1) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
};

/**
 * Whether an installed version satisfies what the workflow asked: a plain or
 * `.x` version is a prefix (`18` and `18.x` take any 18); a range or an alias
 * (`lts/*`, `>=3.9`, `stable`) is not pinned, and any version satisfies it.
 */
export const satisfies = (asked: string, installed: string): boolean => {
  const plain = asked
    .trim()
    .replace(/^v/, '')
    .replace(/(?<!\.x)(?:\.x)+$/i, '')
    .replace(/^[~^]/, '');
  if (!/^\d+(\.\d+)*$/.test(plain)) return true;
  const want = plain.split('.');
  const have = installed.split('.');
  return want.every((part, i) => Number(part) === Number(have[i] ?? NaN));
};

/** An unpinned request (a range or an alias) needs no particular installation. */
export const isPinned = (asked: string): boolean =>
  /^\d+(\.\d+)*$/.test(
    asked
      .trim()
      .replace(/^v/, '')
      .replace(/(?<!\.x)(?:\.x)+$/i, '')
      .replace(/^[~^]/, ''),
  );

export const matchToolchain = (
  request: ToolchainRequest,
  installed: readonly InstalledToolchain[],
): ToolchainMatch => {
  const toolchain = installed.find((candidate) => satisfies(request.version, candidate.version));
  return toolchain
    ? { found: true, toolchain, request }
    : { found: false, request, available: [...new Set(installed.map((t) => t.version))] };
};
