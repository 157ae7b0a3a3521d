/**
 * Shapes of credentials, each with a name for messages. `diff: false` shapes
 * are redacted from everything that leaves regreen but do not fail the
 * no-secrets check (a test's `postgres://user:pass@localhost` is common and
 * harmless in a diff, not in a comment quoting a runner's environment).
 */
const SECRET_SHAPES: readonly { kind: string; pattern: RegExp; diff: boolean }[] = [
  {
    kind: 'GitHub token',
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{40,})\b/g,
    diff: true,
  },
  { kind: 'Anthropic key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g, diff: true },
  { kind: 'OpenAI-style key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{32,}/g, diff: true },
  { kind: 'AWS access key', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, diff: true },
  { kind: 'Slack token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g, diff: true },
  { kind: 'Google API key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g, diff: true },
  { kind: 'npm token', pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, diff: true },
  {
    kind: 'private key',
    // The whole block, body included; a BEGIN line alone (a cut-off block) too.
    pattern:
      /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|[A-Za-z0-9+/=\s\\n]*)/g,
    diff: true,
  },
  {
    kind: 'JSON Web Token',
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
    diff: true,
  },
  {
    kind: 'HTTP credentials',
    pattern:
      /\b(Basic|Bearer)\s+([A-Za-z0-9+/_.~=-]{16,})|(Authorization:\s*token)\s+([A-Za-z0-9_.-]{16,})/g,
    diff: false,
  },
  {
    kind: 'URL credentials',
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@'"]+):([^/\s@'"]+)@/gi,
    diff: false,
  },
];

/** The kinds of secret a diff must not add. */
export const findSecrets = (text: string): string[] =>
  SECRET_SHAPES.filter(
    ({ pattern, diff }) =>
      // `search` starts at 0 whatever a global pattern's `lastIndex` says.
      diff && text.search(pattern) >= 0,
  ).map(({ kind }) => kind);

/**
 * The one redaction of everything that leaves regreen (PR text, diagnoses,
 * comments, the trace, the job page): every credential shape replaced by a
 * marker; a URL keeps its scheme and user, an auth header its scheme.
 */
export const redactSecrets = (text: string): string =>
  SECRET_SHAPES.reduce((acc, { kind, pattern }) => {
    if (kind === 'URL credentials') return acc.replace(pattern, '$1$2:[redacted]@');
    if (kind === 'HTTP credentials')
      return acc.replace(
        pattern,
        (_m, scheme?: string, _v?: string, header?: string) =>
          `${scheme ?? header ?? ''} [redacted ${kind}]`,
      );
    return acc.replace(pattern, `[redacted ${kind}]`);
  }, text);
