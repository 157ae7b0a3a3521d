/**
 * `npx tsx bench/corpus-collect.ts OUT MINED...`: the corpus task file from
 * the task files `regreen eval mine` wrote for clones named `<owner>+<name>`
 * (as the library's fetch names its mirrors): each task's `repo` becomes the
 * project's public git URL, so the corpus names no local path. A task whose
 * `repo` already is a public git URL is kept as it is, so the corpus itself
 * may be one of the inputs (`OUT OUT MINED...` adds to it); a task id seen
 * twice is kept once.
 *
 * Why each other candidate was rejected (`MINED.rejected.jsonl`, beside each
 * task file, named `<owner>+<name>.jsonl`) goes to `rejected.jsonl` beside
 * OUT: the repository, the commit, the command, the reason and the last lines
 * of the output — the record of what was tried and why it was left out. A
 * candidate mined again (a fix in regreen, an older clone) takes its new
 * reason in place of the one recorded before.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TaskSchema } from '../src/eval/tasks.ts';

const [out, ...mined] = process.argv.slice(2);
if (!out || mined.length === 0) {
  process.stderr.write('usage: corpus-collect.ts OUT MINED.jsonl...\n');
  process.exit(2);
}

/** `owner+name` (a clone's or a mined file's name) → the public git URL. */
const publicUrl = (name: string): string | undefined => {
  const m = /^([\w.-]+)\+([\w.-]+?)(?:\.jsonl)?$/.exec(name);
  return m ? `https://github.com/${m[1]}/${m[2]}` : undefined;
};

const lines: string[] = [];
const seen = new Set<string>();
// By commit, in first-seen order: a candidate mined again keeps its place and takes its new reason.
const rejected = new Map<string, string>();
const rejectedFile = path.join(path.dirname(out), 'rejected.jsonl');
if (existsSync(rejectedFile))
  for (const raw of readFileSync(rejectedFile, 'utf8').split('\n'))
    if (raw.trim()) rejected.set((JSON.parse(raw) as { commit: string }).commit, raw);
const minedNow = new Set<string>();

for (const file of mined) {
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (!raw.trim()) continue;
    const task = TaskSchema.parse(JSON.parse(raw));
    const repo = /^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/.test(task.repo)
      ? task.repo
      : publicUrl(path.basename(task.repo));
    if (!repo) throw new Error(`${file}: ${task.repo} is not a clone named <owner>+<name>`);
    if (seen.has(task.id)) continue;
    seen.add(task.id);
    lines.push(JSON.stringify({ ...task, repo }));
  }
  const rejections = `${file}.rejected.jsonl`;
  const repo = publicUrl(path.basename(file));
  if (!repo || !existsSync(rejections)) continue;
  for (const raw of readFileSync(rejections, 'utf8').split('\n')) {
    if (!raw.trim()) continue;
    const r = JSON.parse(raw) as { commit: string; command: string; reason: string; tail?: string };
    if (minedNow.has(r.commit)) continue;
    minedNow.add(r.commit);
    // No host is named in the corpus: a registry's or proxy's name in an output becomes `<host>`.
    const lastLines = (text: string, n: number): string =>
      text
        .trimEnd()
        .split('\n')
        .slice(-n)
        .join('\n')
        .replace(/\b(?:[a-z0-9-]+\.)+(?:com|org|io|net|dev|cloud)(?::\d+)?\b/gi, '<host>')
        .slice(-600);
    rejected.set(
      r.commit,
      JSON.stringify({
        repo,
        commit: r.commit,
        command: r.command,
        // The reason's first line says what failed (and its command); its last, the error.
        reason: [
          ...new Set([
            lastLines(r.reason.split('\n')[0] ?? '', 1).slice(0, 300),
            lastLines(r.reason, 2),
          ]),
        ].join(' … '),
        ...(r.tail ? { tail: lastLines(r.tail, 4) } : {}),
      }),
    );
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
if (rejected.size > 0) writeFileSync(rejectedFile, `${[...rejected.values()].join('\n')}\n`);
process.stderr.write(
  `${lines.length} task(s) written to ${out}; ${rejected.size} rejected candidate(s) in ${rejectedFile}\n`,
);
