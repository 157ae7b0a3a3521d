/**
 * A job's `strategy.matrix` expanded as GitHub expands it: the cartesian
 * product of its keys in declaration order (the first key varies slowest),
 * `exclude` removing every combination an entry matches (a partial match is
 * enough), then each `include` entry added to every product combination whose
 * original values it does not contradict (values an earlier `include` added
 * may be overwritten, the matrix's own never), or appended as a combination
 * of its own when it extends none. A matrix of `include` alone is its entries.
 * A matrix built by an expression (`${{ fromJSON(…) }}`) cannot be expanded
 * here: undefined, and the caller says so.
 */
export type MatrixValue = string | number | boolean | null | readonly unknown[] | object;
export type Combination = Readonly<Record<string, MatrixValue>>;

/** More combinations than any real matrix (GitHub's own limit is 256 jobs): a bound on hostile input. */
const MAX_COMBINATIONS = 256;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  // YAML reads `3.10` as a number and `'3.10'` as text: GitHub compares them as written values.
  if ((typeof a === 'number' || typeof a === 'string') && typeof b === typeof a) return false;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
};

/** Whether `entry`'s values for `keys` (those it names) equal the combination's. */
const agrees = (combination: Combination, entry: Combination, keys: readonly string[]): boolean =>
  keys.every((key) => !(key in entry) || same(combination[key], entry[key]));

const entries = (value: unknown): Combination[] =>
  Array.isArray(value) ? value.filter(isRecord).map((entry) => ({ ...entry }) as Combination) : [];

export const expandMatrix = (matrix: unknown): Combination[] | undefined => {
  if (matrix === undefined || matrix === null) return [];
  if (!isRecord(matrix)) return undefined;
  const keys = Object.keys(matrix).filter((key) => key !== 'include' && key !== 'exclude');
  let product: Combination[] = [{}];
  for (const key of keys) {
    const values = matrix[key];
    if (!Array.isArray(values) || values.length > MAX_COMBINATIONS) return undefined;
    product = product.flatMap((combination) =>
      values.map((value: unknown) => ({ ...combination, [key]: value as MatrixValue })),
    );
    if (product.length > MAX_COMBINATIONS) return undefined;
  }
  if (keys.length === 0) product = [];
  const excluded = entries(matrix.exclude);
  const kept = product.filter(
    (combination) =>
      !excluded.some((entry) =>
        Object.keys(entry).every((key) => same(combination[key], entry[key])),
      ),
  );
  const extended = kept.map((combination) => ({ ...combination }));
  const added: Combination[] = [];
  for (const entry of entries(matrix.include)) {
    const originals = Object.keys(entry).filter((key) => keys.includes(key));
    const matching =
      keys.length === 0
        ? []
        : extended.filter((combination) => agrees(combination, entry, originals));
    if (matching.length === 0) added.push(entry);
    for (const combination of matching) Object.assign(combination, entry);
  }
  const all = [...extended, ...added];
  return all.length > MAX_COMBINATIONS ? undefined : all;
};

/** A value as GitHub shows it in a job's name: text as it is, an object or a list as JSON. */
export const shownValue = (value: MatrixValue): string =>
  typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);

/** A combination's values in a job name's parentheses, in the order GitHub lists them. */
export const shownValues = (combination: Combination): string[] =>
  Object.values(combination).map(shownValue);

/** `matrix.a` or `matrix.a.b` of a combination, as text; undefined when it has none. */
export const matrixLookup = (combination: Combination, dotted: string): string | undefined => {
  let value: unknown = combination;
  for (const part of dotted.split('.')) {
    if (!isRecord(value) || !Object.hasOwn(value, part)) return undefined;
    value = value[part];
  }
  return value === undefined ? undefined : shownValue(value);
};

/** A combination in a few words, as a trace line says which one was replayed: `python-version=3.12, os=ubuntu-latest`. */
export const describeCombination = (combination: Combination): string =>
  Object.entries(combination)
    .map(([key, value]) => `${key}=${shownValue(value)}`)
    .join(', ');
