import { closeSync, createReadStream, readSync } from 'node:fs';
import { z } from 'zod';
import { looksBinary } from '../../src/util/text.ts';
import { openFileInside } from '../../src/workspace/repo/confined-fs.ts';
import { defineTool, fail, ok } from '../types.ts';
import { checkPath } from './file-io.ts';

const MAX_RANGE = 1000;
const MAX_LINE_CHARS = 2000;

/** Streams the file once: the lines of [from, to] and the total count, strict UTF-8. */
const readRange = async (
  fd: number,
  file: string,
  from: number,
  to: number,
): Promise<{ lines: string[]; total: number } | { error: string }> => {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const lines: string[] = [];
  let total = 0;
  let partial = '';
  const take = (line: string): void => {
    total += 1;
    if (total >= from && total <= to) lines.push(line);
  };
  try {
    for await (const chunk of createReadStream('', {
      fd,
      start: 0,
      autoClose: false,
      highWaterMark: 1 << 20,
    })) {
      const text = partial + decoder.decode(chunk as Buffer, { stream: true });
      const parts = text.split('\n');
      partial = parts.pop() ?? '';
      for (const part of parts) take(part);
    }
    partial += decoder.decode();
  } catch {
    return { error: `${file} is not valid UTF-8 text: it cannot be shown as text` };
  }
  if (partial.length > 0) take(partial);
  return { lines, total };
};

export const readTool = defineTool({
  name: 'read',
  level: 'read',
  description:
    'Read a text file as numbered lines. Give an absolute path inside the workspace and optionally a 1-based line range (`from`, `to`, default 1-200, at most 1000 lines at once). The result ends with the total number of lines, so you can read further ranges of long files.',
  schema: z.object({
    path: z.string().describe('absolute path of the file'),
    from: z.number().int().positive().default(1),
    to: z.number().int().positive().optional(),
  }),
  run: async (input, ctx) => {
    const checked = checkPath(ctx.workspace, input.path);
    if (!checked.ok) return fail(checked.error);
    const file = checked.value;
    const to = input.to ?? input.from + 199;
    if (to < input.from) return fail(`empty range: to (${to}) is before from (${input.from})`);
    if (to - input.from + 1 > MAX_RANGE) {
      return fail(
        `range too large: read at most ${MAX_RANGE} lines at once (e.g. from ${input.from} to ${input.from + MAX_RANGE - 1})`,
      );
    }
    // Opened once, every folder on the way by descriptor and no symlink followed: what is read is what was checked.
    let opened: ReturnType<typeof openFileInside>;
    try {
      opened = openFileInside(ctx.workspace, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EISDIR') return fail(`${input.path} is a directory: use list`);
      if (code === 'ENOENT')
        return fail(`file not found: ${input.path}. Use list or search to find the right path`);
      return fail(`cannot read ${input.path}: ${(error as Error).message}`);
    }
    const size = opened.stats.size;
    let result: Awaited<ReturnType<typeof readRange>>;
    try {
      const head = Buffer.alloc(Math.min(size, 8192));
      readSync(opened.fd, head, 0, head.length, 0);
      if (looksBinary(head))
        return fail(`${input.path} is a binary file (${size} bytes): it cannot be shown as text`);
      result = await readRange(opened.fd, file, input.from, to);
    } finally {
      closeSync(opened.fd);
    }
    if ('error' in result) return fail(result.error);
    await ctx.views?.recordRead(file);
    if (result.total > 0 && input.from > result.total) {
      return fail(`from (${input.from}) is past the end: the file has ${result.total} lines`);
    }
    const width = String(input.from + result.lines.length).length;
    const body = result.lines
      .map((line, index) => {
        const shown =
          line.length > MAX_LINE_CHARS
            ? `${line.slice(0, MAX_LINE_CHARS)} [… line cut at ${MAX_LINE_CHARS} chars]`
            : line;
        return `${String(input.from + index).padStart(width)}\t${shown}`;
      })
      .join('\n');
    return ok(`${body}${body ? '\n' : ''}[${result.total} lines in total]`);
  },
});
