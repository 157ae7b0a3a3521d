import { isMap, LineCounter, parseDocument, type Node as YamlNode } from 'yaml';
import { z } from 'zod';
import { RegreenError } from '../errors.ts';

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

/** Parses and validates the config text; errors name the field and the line. */
export const parseRepoConfig = (text: string, file = CONFIG_PATH): RepoConfig => {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false });
  const yamlError = document.errors[0];
  if (yamlError) {
    const line = lineCounter.linePos(yamlError.pos[0]).line;
    throw new RegreenError(
      'config',
      `${file}:${line}: invalid YAML: ${yamlError.message.split('\n')[0]}`,
    );
  }
  const value: unknown = document.toJS() ?? {};
  const result = RepoConfigSchema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const keys = issue?.path ?? [];
  const unknownKey = issue?.code === 'unrecognized_keys' ? issue.keys[0] : undefined;
  const node = nodeAt(document.contents, unknownKey === undefined ? keys : [...keys, unknownKey]);
  const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
  const field = keys.length > 0 ? keys.join('.') : '(top level)';
  const extra =
    issue?.code === 'unrecognized_keys'
      ? `: unknown key ${issue.keys.map((k) => `"${k}"`).join(', ')}`
      : '';
  throw new RegreenError(
    'config',
    `${file}:${line}: ${field}: ${issue?.message ?? 'invalid'}${extra}`,
  );
};
