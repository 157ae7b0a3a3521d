import { isMap, LineCounter, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';
import { nearestWord } from '../util/did-you-mean.ts';
import { parseYamlDocument } from '../util/yaml.ts';

export const TOOL_LEVELS = ['read', 'write', 'exec'] as const;
export type ToolLevel = (typeof TOOL_LEVELS)[number];

/** Conservative by default: a job that needs more must be given more. */
export const DEFAULT_BUDGET = {
  max_turns: 40,
  max_input_tokens: 2_000_000,
  max_output_tokens: 60_000,
  max_cost_usd: 2,
  max_minutes: 20,
};

/** `.github/regreen.yml`: what a repository tells regreen about itself. */
export const RepoConfigSchema = z
  .object({
    test_command: z.string().min(1).optional(),
    setup_command: z.string().min(1).optional(),
    protected: z.array(z.string().min(1)).default([]),
    /** Default-protected paths this repository lets a fix change (never `.github/**`); the checks say so. */
    unprotected: z.array(z.string().min(1)).default([]),
    /** Paths the repository declares product source (judged with the fix) that the classifier would not. */
    product: z.array(z.string().min(1)).default([]),
    diff_limits: z
      .object({
        max_files: z.number().int().positive().default(10),
        max_lines: z.number().int().positive().default(400),
        /** KiB of changed lines: one line may hold megabytes no reviewer reads. */
        max_kib: z.number().int().positive().default(256),
      })
      .strict()
      .default({ max_files: 10, max_lines: 400, max_kib: 256 }),
    tools: z
      .object({
        levels: z.array(z.enum(TOOL_LEVELS)).default([...TOOL_LEVELS]),
        disabled: z.array(z.string()).default([]),
      })
      .strict()
      .default({ levels: [...TOOL_LEVELS], disabled: [] }),
    model: z.string().min(1).optional(),
    plan_mode: z.boolean().default(false),
    /** A change a person must look at (it corrects a test's expectation) may be proposed as a draft; false: refused. */
    drafts: z.boolean().default(true),
    workers: z
      .object({
        enabled: z.boolean().default(false),
        max_live: z.number().int().positive().max(16).default(3),
        fast: z.string().min(1).optional(),
        good: z.string().min(1).optional(),
      })
      .strict()
      .default({ enabled: false, max_live: 3 }),
    budget: z
      .object({
        max_turns: z.number().int().positive().default(DEFAULT_BUDGET.max_turns),
        max_input_tokens: z.number().int().positive().default(DEFAULT_BUDGET.max_input_tokens),
        max_output_tokens: z.number().int().positive().default(DEFAULT_BUDGET.max_output_tokens),
        max_cost_usd: z.number().positive().default(DEFAULT_BUDGET.max_cost_usd),
        max_minutes: z.number().positive().default(DEFAULT_BUDGET.max_minutes),
      })
      .strict()
      .default(DEFAULT_BUDGET),
    prices: z
      .record(
        z.string(),
        z
          .object({
            input: z.number().nonnegative(),
            output: z.number().nonnegative(),
            cache_write: z.number().nonnegative().optional(),
            cache_read: z.number().nonnegative().optional(),
          })
          .strict(),
      )
      .default({}),
    ask_user: z
      .object({
        /** How long a question waits for a person. */
        timeout_minutes: z
          .number()
          .positive()
          .max(7 * 24 * 60)
          .default(15),
        /** Before an exec-level tool runs, a maintainer must say yes on the card. */
        approve_exec: z.boolean().default(false),
      })
      .strict()
      .default({ timeout_minutes: 15, approve_exec: false }),
    timeouts: z
      .object({
        setup_seconds: z.number().int().positive().default(900),
        command_seconds: z.number().int().positive().default(600),
      })
      .strict()
      .default({ setup_seconds: 900, command_seconds: 600 }),
  })
  .strict();

export type RepoConfig = z.infer<typeof RepoConfigSchema>;

export const CONFIG_PATH = '.github/regreen.yml';

export const defaultRepoConfig = (): RepoConfig => RepoConfigSchema.parse({});

/** The YAML node at a path of keys/indexes, to name a line in errors. */
const nodeAt = (root: unknown, keys: readonly PropertyKey[]): YamlNode | undefined => {
  let node = root as YamlNode | undefined;
  let found = node;
  for (const key of keys) {
    if (!node || typeof key === 'symbol') break;
    const next = isMap(node)
      ? node.get(key, true)
      : (node as { get?: (k: unknown, keep: boolean) => unknown }).get?.(key, true);
    if (next === undefined) break;
    node = next as YamlNode;
    found = node;
  }
  return found;
};

/** The keys an object of the schema at a path of keys takes (none where no object is). */
const knownKeysAt = (schema: z.ZodType, keys: readonly PropertyKey[]): string[] => {
  let node: unknown = schema;
  for (const key of [...keys, undefined]) {
    while (node instanceof z.ZodDefault || node instanceof z.ZodOptional) node = node.unwrap();
    if (key === undefined) break;
    if (node instanceof z.ZodObject) node = (node.shape as Record<PropertyKey, unknown>)[key];
    else if (node instanceof z.ZodRecord) node = node.valueType;
    else if (node instanceof z.ZodArray) node = node.element;
    else return [];
  }
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
};

/** One thing wrong in the file: where, which field, what. */
interface Problem {
  readonly line: number;
  readonly field: string;
  readonly message: string;
}

/** Each problem the schema found, an unknown key with the known key it may be a slip for. */
const problemsOf = (
  issues: readonly z.core.$ZodIssue[],
  lineOf: (keys: readonly PropertyKey[]) => number,
): Problem[] =>
  issues.flatMap((issue): Problem[] => {
    if (issue.code !== 'unrecognized_keys')
      return [
        {
          line: lineOf(issue.path),
          field: issue.path.length > 0 ? issue.path.join('.') : '(top level)',
          message: issue.message,
        },
      ];
    const known = knownKeysAt(RepoConfigSchema, issue.path);
    return issue.keys.map((key) => {
      const near = nearestWord(key, known);
      return {
        line: lineOf([...issue.path, key]),
        field: [...issue.path, key].join('.'),
        message: `unknown key${near === undefined ? '' : ` (did you mean ${near}?)`}`,
      };
    });
  });

/** All the problems at once: one names its line and field; several are counted, in line order. */
const configError = (file: string, problems: readonly Problem[]): RegreenError => {
  const sorted = [...problems].sort((a, b) => a.line - b.line);
  const [only] = sorted;
  if (sorted.length === 1 && only)
    return new RegreenError('config', `${file}:${only.line}: ${only.field}: ${only.message}`);
  return new RegreenError(
    'config',
    `${file}: ${sorted.length} problems: ${sorted.map((p) => `line ${p.line}: ${p.field}: ${p.message}`).join('; ')}`,
  );
};

/** The config's bound: real ones are a few lines; past this one is refused, never parsed. */
export const MAX_CONFIG_CHARS = 64 * 1024;

/** Parses and validates the config text; an error names every problem, each with its field and line. */
export const parseRepoConfig = (text: string, file = CONFIG_PATH): RepoConfig => {
  if (text.length > MAX_CONFIG_CHARS)
    throw new RegreenError(
      'config',
      `${file}: ${Math.ceil(text.length / 1024)} KiB, over the ${MAX_CONFIG_CHARS / 1024} KiB a config may be`,
    );
  const lineCounter = new LineCounter();
  const document = parseYamlDocument(text, { lineCounter, prettyErrors: false });
  if (document.errors.length > 0)
    throw configError(
      file,
      document.errors.map((error) => ({
        line: lineCounter.linePos(error.pos[0]).line,
        field: 'invalid YAML',
        message: error.message.split('\n')[0] ?? '',
      })),
    );
  const value: unknown = document.toJS() ?? {};
  const result = RepoConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const lineOf = (keys: readonly PropertyKey[]): number => {
    const node = nodeAt(document.contents, keys);
    return node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  };
  throw configError(file, problemsOf(result.error.issues, lineOf));
};
