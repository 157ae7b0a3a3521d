/**
 * The real-log corpus of `bench:triage`: CI build logs from two public
 * datasets, each converted to one shape — the raw failing log, the labelled
 * lines a person pointed at, and (where the dataset has one) the log of the
 * last passing run of the same job.
 *
 * - LogChunks (Brandt, Proksch, Zaidman, Beller: "LogChunks: A Data Set for
 *   Build Log Analysis", MSR 2020; zenodo.org/record/3632351, CC BY 4.0):
 *   about 800 Travis CI logs of 80 popular repositories in 29 languages, each
 *   with the substring that explains why the build failed. Read from the
 *   authors' replication repository (github.com/lacinoire/master-thesis,
 *   `tool/samples` and `tool/example-sets/BuildFailureReason`).
 * - CiDiff (Hubner, Falleri, Uricaru, Degueule, Durieux: "What Happened in
 *   This Pipeline? Diffing Build Logs with CiDiff", ISSTA 2025;
 *   github.com/labri-progress/cidiff, Apache-2.0): pass/fail pairs of Jenkins
 *   (Maven) and GitHub Actions (Go) logs with the error lines labelled as
 *   line ranges.
 *
 * Both are read straight out of a bare git directory (what `fetch` brings),
 * so the benchmark needs no network and no unpacking step.
 */
import { createHash } from 'node:crypto';
import { hostGitSync } from '../src/workspace/repo/git.ts';
import { stripAnsi } from '../src/util/text.ts';

export type Ecosystem =
  'java' | 'javascript' | 'python' | 'go' | 'rust' | 'c-cpp' | 'dotnet' | 'other';

export const ECOSYSTEMS: readonly Ecosystem[] = [
  'java',
  'javascript',
  'python',
  'go',
  'rust',
  'c-cpp',
  'dotnet',
  'other',
];

export interface CorpusLog {
  readonly id: string;
  readonly source: 'logchunks' | 'cidiff';
  readonly ecosystem: Ecosystem;
  /** The project the log is from; the split is by project, never by log. */
  readonly project: string;
  readonly split: 'tune' | 'held-out';
  readonly failed: string;
  readonly passed?: string;
  /** Labelled 1-based raw-log line numbers. */
  readonly labelled: ReadonlySet<number>;
}

export interface Corpus {
  readonly logs: readonly CorpusLog[];
  /** Examples whose label could not be found in their log (left out, counted). */
  readonly unlocated: readonly string[];
}

const LANGUAGE_ECOSYSTEM: Readonly<Record<string, Ecosystem>> = {
  Java: 'java',
  JavaScript: 'javascript',
  TypeScript: 'javascript',
  CoffeeScript: 'javascript',
  Python: 'python',
  Go: 'go',
  Rust: 'rust',
  C: 'c-cpp',
  'C++': 'c-cpp',
  'C#': 'dotnet',
  PowerShell: 'dotnet',
};

const rank = (project: string): string => createHash('sha256').update(project).digest('hex');

/**
 * Three projects in ten of each ecosystem (at least one where there are two)
 * are held aside: the recognisers are never tuned on their logs. The split is
 * by project, so no log of a held-aside project was seen while tuning.
 */
export const assignSplits = (logs: readonly CorpusLog[]): CorpusLog[] => {
  const heldOut = new Set<string>();
  for (const ecosystem of ECOSYSTEMS) {
    const projects = [
      ...new Set(logs.filter((l) => l.ecosystem === ecosystem).map((l) => l.project)),
    ].sort((a, b) => rank(a).localeCompare(rank(b)));
    const count = projects.length < 2 ? 0 : Math.max(1, Math.round(projects.length * 0.3));
    for (const project of projects.slice(0, count)) heldOut.add(`${ecosystem}/${project}`);
  }
  return logs.map((l) => ({
    ...l,
    split: heldOut.has(`${l.ecosystem}/${l.project}`) ? 'held-out' : 'tune',
  }));
};

/** Both datasets, from the bare git directories `fetch` brought. */
export const loadCorpus = (dirs: { logchunks?: string; cidiff?: string }): Corpus => {
  const parts = [
    dirs.logchunks ? loadLogChunks(dirs.logchunks) : undefined,
    dirs.cidiff ? loadCiDiff(dirs.cidiff) : undefined,
  ].filter((c): c is Corpus => c !== undefined);
  return {
    logs: assignSplits(parts.flatMap((c) => c.logs)),
    unlocated: parts.flatMap((c) => c.unlocated),
  };
};

/** Reads many blobs of a bare repository in one `git cat-file --batch`. */
const readBlobs = (gitDir: string, paths: readonly string[]): Map<string, Buffer> => {
  const out = new Map<string, Buffer>();
  if (paths.length === 0) return out;
  const raw = hostGitSync(['--git-dir', gitDir, 'cat-file', '--batch'], {
    cwd: gitDir,
    input: `${paths.map((p) => `HEAD:${p}`).join('\n')}\n`,
    maxBuffer: 1024 * 1024 * 1024,
  });
  let at = 0;
  for (const p of paths) {
    const newline = raw.indexOf(10, at);
    const header = raw.subarray(at, newline).toString('utf8');
    at = newline + 1;
    const size = /^[0-9a-f]+ blob (\d+)$/.exec(header)?.[1];
    if (size === undefined) continue; // "missing"
    out.set(p, raw.subarray(at, at + Number(size)));
    at += Number(size) + 1;
  }
  return out;
};

const listFiles = (gitDir: string, under: string): string[] =>
  hostGitSync(['--git-dir', gitDir, 'ls-tree', '-r', '-z', '--name-only', 'HEAD', under], {
    cwd: gitDir,
  })
    .toString('utf8')
    .split('\0')
    .filter(Boolean);

const decodeXml = (text: string): string =>
  text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) =>
      String.fromCodePoint(Number.parseInt(hex, 16)),
    )
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&amp;', '&');

/** A piece of a line as a person reads it: colours and blanks around it gone. */
const readable = (piece: string): string => stripAnsi(piece).trim();

/**
 * The raw-log lines (1-based) that hold a labelled substring: the chunk's
 * non-blank lines matched in order against the log's pieces of lines (a
 * carriage return splits a line, as the labellers read it), the first and
 * last allowed to be parts of a piece.
 */
export const locateChunk = (log: string, chunk: string): Set<number> | undefined => {
  const pieces: { text: string; line: number }[] = [];
  log.split('\n').forEach((line, index) => {
    for (const piece of line.split('\r')) {
      const text = readable(piece);
      if (text) pieces.push({ text, line: index + 1 });
    }
  });
  const want = chunk
    .split(/\r?\n|\r/)
    .map(readable)
    .filter((l) => l.length > 0);
  if (want.length === 0) return undefined;
  const matches = (piece: string, part: string, index: number): boolean =>
    index === 0 || index === want.length - 1 ? piece.includes(part) : piece === part;
  for (let start = 0; start < pieces.length; start += 1) {
    const found = new Set<number>();
    let ok = true;
    for (let k = 0; k < want.length && ok; k += 1) {
      const piece = pieces[start + k];
      if (piece && matches(piece.text, want[k] ?? '', k)) found.add(piece.line);
      else ok = false;
    }
    if (ok) return found;
  }
  return undefined;
};

const text = (blob: Buffer | undefined): string =>
  (blob ?? Buffer.alloc(0)).toString('utf8').replaceAll('\u0000', '');

/** LogChunks: `tool/example-sets/BuildFailureReason/<Language>/<owner>@<repo>.xml` and its samples. */
export const loadLogChunks = (gitDir: string): Corpus => {
  const sets = listFiles(gitDir, 'tool/example-sets/BuildFailureReason').filter((f) =>
    f.endsWith('.xml'),
  );
  const xml = readBlobs(gitDir, sets);
  const examples: { language: string; project: string; path: string; chunk: string }[] = [];
  for (const file of sets) {
    const [, , , language = '', name = ''] = file.split('/');
    const body = text(xml.get(file));
    for (const match of body.matchAll(/<ExampleDataOfString>([\s\S]*?)<\/ExampleDataOfString>/g)) {
      const inputPath = /<InputPath>([\s\S]*?)<\/InputPath>/.exec(match[1] ?? '')?.[1];
      const output = /<Output>([\s\S]*?)<\/Output>/.exec(match[1] ?? '')?.[1];
      if (!inputPath || output === undefined) continue;
      examples.push({
        language,
        project: name.replace(/\.xml$/, ''),
        path: `tool/samples/${decodeXml(inputPath)}`,
        chunk: decodeXml(output),
      });
    }
  }
  const logs = readBlobs(
    gitDir,
    examples.map((e) => e.path),
  );
  const out: CorpusLog[] = [];
  const unlocated: string[] = [];
  for (const example of examples) {
    const failed = text(logs.get(example.path));
    const labelled = failed ? locateChunk(failed, example.chunk) : undefined;
    const id = `logchunks/${example.path.replace(/^tool\/samples\//, '')}`;
    if (!labelled) {
      unlocated.push(id);
      continue;
    }
    out.push({
      id,
      source: 'logchunks',
      ecosystem: LANGUAGE_ECOSYSTEM[example.language] ?? 'other',
      project: example.project,
      split: 'tune',
      failed,
      labelled,
    });
  }
  return { logs: out, unlocated };
};

/**
 * CiDiff numbers lines as Java's `readLine` splits them (at `\r\n`, `\r` and
 * `\n`), from 1; the raw log's line of each such piece.
 */
export const readLineNumbers = (log: string): number[] => {
  const raw: number[] = [];
  log.split('\n').forEach((line, index) => {
    const pieces = line.replace(/\r$/, '').split('\r');
    for (let k = 0; k < pieces.length; k += 1) raw.push(index + 1);
  });
  return raw;
};

/** `E 34-45` / `E 56` lines of a CiDiff groundtruth file (`C` lines are context, not labels). */
export const parseGroundTruth = (body: string): Set<number> => {
  const lines = new Set<number>();
  for (const row of body.split('\n')) {
    const match = /^E\s+(\d+)(?:-(\d+))?\s*$/.exec(row.trim());
    if (!match?.[1]) continue;
    const from = Number(match[1]);
    const to = Number(match[2] ?? match[1]);
    for (let n = from; n <= to; n += 1) lines.add(n);
  }
  return lines;
};

/** CiDiff: `data/*\/<breakage>/{fail.log,pass.log,groundtruth}`. */
export const loadCiDiff = (gitDir: string): Corpus => {
  const files = listFiles(gitDir, 'data');
  const dirs = files
    .filter((f) => f.endsWith('/groundtruth'))
    .map((f) => f.slice(0, -'/groundtruth'.length));
  const blobs = readBlobs(
    gitDir,
    dirs.flatMap((d) => [`${d}/groundtruth`, `${d}/fail.log`, `${d}/pass.log`]),
  );
  const out: CorpusLog[] = [];
  const unlocated: string[] = [];
  for (const dir of dirs) {
    const failed = text(blobs.get(`${dir}/fail.log`));
    const pieces = readLineNumbers(failed);
    const labelled = new Set(
      [...parseGroundTruth(text(blobs.get(`${dir}/groundtruth`)))]
        .map((n) => pieces[n - 1])
        .filter((n): n is number => n !== undefined),
    );
    const passed = blobs.has(`${dir}/pass.log`) ? text(blobs.get(`${dir}/pass.log`)) : undefined;
    const id = `cidiff/${dir.replace(/^data\//, '')}`;
    if (labelled.size === 0 || !failed) {
      unlocated.push(id);
      continue;
    }
    const githubActions = /^\uFEFF?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/.test(failed);
    // The Jenkins breakages are Maven builds of Java projects; the Actions ones are Terraform's Go checks.
    const project = githubActions
      ? 'hashicorp/terraform'
      : (dir.split('/')[2] ?? dir).replace(/_\d+$/, '');
    out.push({
      id,
      source: 'cidiff',
      ecosystem: githubActions ? 'go' : 'java',
      project,
      split: 'tune',
      failed,
      ...(passed ? { passed } : {}),
      labelled,
    });
  }
  return { logs: out, unlocated };
};
