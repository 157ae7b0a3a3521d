/**
 * A promise whose work starts only when someone awaits it (or calls `then`):
 * answers a job may never need (the registries a setup step may reach) cost
 * nothing until a step needs them. Started once; every caller shares it.
 */
export const lazily = <T>(start: () => PromiseLike<T>): Promise<T> => {
  let started: Promise<T> | undefined;
  const run = (): Promise<T> => (started ??= Promise.resolve().then(start));
  const lazy: Promise<T> = {
    then: (onFulfilled, onRejected) => run().then(onFulfilled, onRejected),
    catch: (onRejected) => run().catch(onRejected),
    finally: (onFinally) => run().finally(onFinally),
    [Symbol.toStringTag]: 'Promise',
  };
  return lazy;
};
