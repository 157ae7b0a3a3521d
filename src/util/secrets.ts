/** Shapes of credentials, each with a name for messages. */
const SECRET_SHAPES: readonly [string, RegExp][] = [
  ['GitHub token', /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g],
  ['Anthropic key', /\bsk-ant-[A-Za-z0-9_-]{20,}/g],
  ['OpenAI-style key', /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g],
  ['AWS access key', /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g],
  ['Slack token', /\bxox[abposr]-[A-Za-z0-9-]{10,}/g],
  ['Google API key', /\bAIza[0-9A-Za-z_-]{35}\b/g],
  ['npm token', /\bnpm_[A-Za-z0-9]{36}\b/g],
  ['private key', /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY(?: BLOCK)?-----/g],
];

/** The kinds of secret found in a text. */
export const findSecrets = (text: string): string[] =>
  SECRET_SHAPES.filter(([, pattern]) => new RegExp(pattern.source).test(text)).map(
    ([kind]) => kind,
  );

/** The text with every secret-shaped string replaced by a marker. */
export const redactSecrets = (text: string): string =>
  SECRET_SHAPES.reduce((acc, [kind, pattern]) => acc.replace(pattern, `[redacted ${kind}]`), text);
