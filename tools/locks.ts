/**
 * Job-wide locks for tools that are not parallel-safe: one agent at a time
 * holds such a tool; the others wait their turn (or give up when cancelled).
 */
export class ToolLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(name: string, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => (release = resolve));
    this.tails.set(
      name,
      previous.then(() => mine),
    );
    try {
      await Promise.race([
        previous,
        new Promise<never>((_, reject) => {
          if (signal.aborted) reject(new Error('cancelled'));
          signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
        }),
      ]);
      return await work();
    } finally {
      release();
    }
  }
}
