/** Time as a dependency, so stages can be measured and tests stay deterministic. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
