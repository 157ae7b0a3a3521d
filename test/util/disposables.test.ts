import { describe, expect, it } from 'vitest';
import { Disposables } from '../../src/util/disposables.ts';

describe('Disposables', () => {
  it('releases everything, last first, even when one release fails', async () => {
    const order: string[] = [];
    const errors: unknown[] = [];
    const scope = new Disposables();
    scope.add(() => {
      order.push('sandbox');
    });
    scope.add(() => Promise.reject(new Error('language server would not stop')));
    scope.add(async () => {
      order.push('kernels');
      await Promise.resolve();
    });
    await scope.disposeAll((error) => errors.push(error));
    expect(order).toEqual(['kernels', 'sandbox']);
    expect(errors).toHaveLength(1);
    // Released once: a second call has nothing left to release.
    await scope.disposeAll((error) => errors.push(error));
    expect(order).toEqual(['kernels', 'sandbox']);
  });
});
