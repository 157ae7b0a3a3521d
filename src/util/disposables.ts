/**
 * Resources to release together, last acquired first. Every one is released
 * even when another fails: a failure is reported, never a reason to skip the
 * rest (a language server left running, a sandbox's files left behind).
 */
export class Disposables {
  private readonly items: (() => Promise<void>)[] = [];

  add(dispose: () => Promise<void> | void): void {
    this.items.push(async () => {
      await dispose();
    });
  }

  /** Releases everything added so far, last first; `onError` hears each failure. */
  async disposeAll(onError: (error: unknown) => void): Promise<void> {
    for (const dispose of this.items.splice(0).reverse()) {
      await dispose().catch(onError);
    }
  }
}
