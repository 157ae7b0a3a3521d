/** Polls `check` until it holds; fails naming what it waited for. */
export const waitFor = async (
  what: string,
  check: () => boolean,
  timeoutMs = 30_000,
): Promise<void> => {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
