/** Names that always carry credentials. */
const CREDENTIAL_NAMES = new Set([
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'SSH_AUTH_SOCK',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'REDIS_URL',
]);

/** Anything shaped like a credential by its name. */
const CREDENTIAL_SHAPE =
  /[_-](TOKEN|KEY|SECRET|PASSWORD|PASSWD|CREDENTIALS?|AUTH)$|^(TOKEN|SECRET|PASSWORD|PRIVATE_KEY)$/i;

export const isCredentialName = (name: string): boolean =>
  CREDENTIAL_NAMES.has(name.toUpperCase()) || CREDENTIAL_SHAPE.test(name);

/**
 * Variables that describe regreen's own invocation (set by npm/npx when
 * regreen runs as a script), not the repository's: `npm_config_local_prefix`
 * would point the repository's npm at regreen's folder.
 */
const isInvocationName = (name: string): boolean =>
  (/^npm_/i.test(name) && name.toLowerCase() !== 'npm_config_registry') ||
  name === 'INIT_CWD' ||
  // An Action's inputs are regreen's, never the repository's (they carry its keys).
  /^INPUT_/i.test(name);

/**
 * The environment a sandboxed command sees: the caller's minus every credential,
 * with HOME and TMPDIR pointed at the job's private folders.
 */
export const scrubEnv = (
  env: Readonly<Record<string, string | undefined>>,
  overrides: Readonly<Record<string, string>>,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || isCredentialName(name) || isInvocationName(name)) continue;
    out[name] = value;
  }
  return { ...out, ...overrides };
};
