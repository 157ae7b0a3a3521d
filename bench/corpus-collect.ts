/**
 * `npx tsx bench/corpus-collect.ts OUT MINED...`: the corpus task file from
 * the task files `regreen eval mine` wrote for clones named `<owner>+<name>`
 * (as the library's fetch names its mirrors): each task's `repo` becomes the
 * project's public git URL, so the corpus names no local path.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TaskSchema } from '../src/eval/tasks.ts';

const [out, ...mined] = process.argv.slice(2);
if (!out || mined.length === 0) {
  process.stderr.write('usage: corpus-collect.ts OUT MINED.jsonl...\n');
  process.exit(2);
}
const lines: string[] = [];
for (const file of mined) {
  for (const raw of readFileSync(file, 'utf8').split('\n')) {
    if (!raw.trim()) continue;
    const task = TaskSchema.parse(JSON.parse(raw));
    const name = path.basename(task.repo);
    const m = /^([\w.-]+)\+([\w.-]+)$/.exec(name);
    if (!m) throw new Error(`${file}: ${task.repo} is not a clone named <owner>+<name>`);
    lines.push(JSON.stringify({ ...task, repo: `https://github.com/${m[1]}/${m[2]}` }));
  }
}
writeFileSync(out, `${lines.join('\n')}\n`);
process.stderr.write(`${lines.length} task(s) written to ${out}\n`);
