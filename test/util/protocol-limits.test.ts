import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { boundedLines, framedGuard } from '../../src/util/protocol-limits.ts';

describe('protocol pipes read within a bound', () => {
  it('lines: whole ones pass across chunks, one past the bound stops the reading', () => {
    const input = new PassThrough();
    const lines: string[] = [];
    const stopped: string[] = [];
    boundedLines(
      input,
      (line) => lines.push(line),
      (why) => stopped.push(why),
      16,
    );
    input.write('ab');
    input.write('c\r\nde\n');
    input.write('f'.repeat(10));
    input.write('g'.repeat(10));
    input.write('\nnot read\n');
    expect(lines).toEqual(['abc', 'de']);
    expect(stopped).toEqual(['it wrote a line of over 16 bytes']);
  });

  it('frames: messages pass through unchanged; a declared length or a header past the bound ends the stream', async () => {
    const frame = (body: string): string =>
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const read = async (chunks: string[], max: number): Promise<{ out: string; why: string[] }> => {
      const why: string[] = [];
      const guard = framedGuard((reason) => why.push(reason), max);
      let out = '';
      guard.on('data', (chunk: Buffer) => (out += chunk.toString('latin1')));
      for (const chunk of chunks) guard.write(chunk);
      guard.end();
      await new Promise((resolve) => guard.on('end', resolve));
      return { out, why };
    };
    const two = frame('{"a":1}') + frame('{"b":2}');
    expect(await read([two.slice(0, 5), two.slice(5, 30), two.slice(30)], 1024)).toEqual({
      out: two,
      why: [],
    });
    const huge = await read([`Content-Length: 5000\r\n\r\n${'x'.repeat(100)}`], 1024);
    expect(huge.why[0]).toMatch(/a message of 5000 bytes declared, over the 1024 bytes/);
    const endless = await read(['X'.repeat(70 * 1024)], 1024);
    expect(endless.why[0]).toMatch(/a header block over 64 KiB/);
  });
});
