import { describe, expect, it } from 'vitest';
import { lazily } from '../../src/util/lazy.ts';

describe('lazily', () => {
  it('starts its work only when awaited, once for every caller', async () => {
    let started = 0;
    const answer = lazily(() => {
      started += 1;
      return Promise.resolve(42);
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(started).toBe(0);
    expect(await answer).toBe(42);
    expect(await Promise.all([answer, answer.then((n) => n + 1)])).toEqual([42, 43]);
    expect(started).toBe(1);
  });

  it('hands a failure to each caller', async () => {
    const failing = lazily(() => Promise.reject(new Error('no registry answered')));
    await expect(failing).rejects.toThrow('no registry answered');
    await expect(failing.catch((error: Error) => error.message)).resolves.toBe(
      'no registry answered',
    );
  });
});
