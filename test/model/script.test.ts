import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createScriptModel } from '../../src/model/script.ts';
import { makeTempDir } from '../support/tmp.ts';

describe('the script model', () => {
  const temp = makeTempDir();
  afterAll(temp.cleanup);

  const request = (signal: AbortSignal) => ({
    system: 'system',
    messages: [{ role: 'user' as const, content: [{ type: 'text' as const, text: 'task' }] }],
    tools: [],
    maxOutputTokens: 1000,
    signal,
  });

  it("replays a turn's recorded latency as a wait that the job's signal stops", async () => {
    const file = path.join(temp.dir, 'slow.json');
    writeFileSync(
      file,
      JSON.stringify({ turns: [{ content: [{ type: 'text', text: 'done' }], thinkMs: 600_000 }] }),
    );
    const model = createScriptModel({ file, workspace: () => temp.dir });
    const stop = new AbortController();
    const answer = model.next(request(stop.signal));
    stop.abort();
    await expect(answer).rejects.toThrow(/abort/i);
  });

  it('answers a turn without a recorded latency at once, and refuses a latency that is no duration', async () => {
    const file = path.join(temp.dir, 'fast.json');
    writeFileSync(file, JSON.stringify({ turns: [{ content: [{ type: 'text', text: 'done' }] }] }));
    const turn = await createScriptModel({ file, workspace: () => temp.dir }).next(
      request(new AbortController().signal),
    );
    expect(turn.content).toEqual([{ type: 'text', text: 'done' }]);
    const bad = path.join(temp.dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ turns: [{ content: [], thinkMs: -1 }] }));
    expect(() => createScriptModel({ file: bad, workspace: () => temp.dir })).toThrow(
      /invalid model script .*thinkMs/,
    );
  });
});
