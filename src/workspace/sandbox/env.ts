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
  /[_-](TOKEN|KEY|APIKEY|SECRET|PASSWORD|PASSWD|PASS|PAT|DSN|CREDENTIALS?|AUTH|CONNECTION_STRING)$|^(TOKEN|SECRET|PASSWORD|PRIVATE_KEY)$|^PG(PASSWORD|PASSFILE)$|(^|_)DATABASE_URL$/i;

export const isCredentialName = (name: string): boolean =>
  CREDENTIAL_NAMES.has(name.toUpperCase()) || CREDENTIAL_SHAPE.test(name);

/** Variables the operator lets into the sandbox with their credentials (`REGREEN_SANDBOX_CREDENTIALS`, comma-separated). */
const operatorListed = (env: Env): Set<string> =>
  new Set(
    (settingsOf(env).sandboxCredentials ?? '')
      .split(',')
      .map((name) => name.trim())
      .filter(Boolean),
  );

/**
 * The variables of the operator's environment a build needs: the locale and
 * terminal, where toolchains live and which version to use, CA bundles, the
 * user's registry settings, and CI's own markers. Everything else — database
 * URLs, service keys, a token under any name — stays out: an allow-list, not
 * a deny-list that the next credential's name walks around.
 */
import { settingsOf, type Env } from '../../config/env.ts';
import { withoutUserinfo } from '../../util/text.ts';
const PASSED_NAMES = new Set([
  'PATH',
  'LANG',
  'LANGUAGE',
  'TZ',
  'TERM',
  'COLORTERM',
  'NO_COLOR',
  'FORCE_COLOR',
  'COLUMNS',
  'LINES',
  'SHELL',
  'DEBIAN_FRONTEND',
  'PYENV_ROOT',
  'PYENV_VERSION',
  'NVM_DIR',
  'NVM_BIN',
  'NVM_INC',
  'RUSTUP_HOME',
  'RUSTUP_TOOLCHAIN',
  'RUSTUP_AUTO_INSTALL',
  'RUST_BACKTRACE',
  'JAVA_HOME',
  'GOROOT',
  'GOFLAGS',
  'GOTOOLCHAIN',
  'GOPROXY',
  'GONOSUMDB',
  'GOPRIVATE',
  'GOSUMDB',
  'SDKMAN_DIR',
  'ASDF_DIR',
  'ASDF_DATA_DIR',
  'VOLTA_HOME',
  'PNPM_HOME',
  'BUN_INSTALL',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'PYTHONIOENCODING',
  'NODE_OPTIONS',
  'NODE_EXTRA_CA_CERTS',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
  'REQUESTS_CA_BUNDLE',
  'CURL_CA_BUNDLE',
  'GIT_SSL_CAINFO',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'JAVA_TOOL_OPTIONS',
  'npm_config_registry',
  'NPM_CONFIG_REGISTRY',
  'YARN_NPM_REGISTRY_SERVER',
  'GITHUB_ACTIONS',
  'GITHUB_WORKFLOW',
  'GITHUB_JOB',
  'GITHUB_REF',
  'GITHUB_SHA',
  'GITHUB_REPOSITORY',
  'GITHUB_EVENT_NAME',
  'RUNNER_OS',
  'RUNNER_ARCH',
]);

const PASSED_PREFIXES = ['LC_', 'PIP_', 'UV_', 'TOX_'];

export const isBuildVariable = (name: string): boolean =>
  PASSED_NAMES.has(name) || PASSED_PREFIXES.some((prefix) => name.startsWith(prefix));

const keep = (name: string, value: string | undefined): value is string =>
  value !== undefined && !isCredentialName(name);

/**
 * The environment a sandboxed command sees: of the operator's environment only
 * the variables a build needs, plus what the caller declares for this command
 * (a workflow step's `env:`), never a credential by name, and no URL's
 * userinfo in any value — unless the operator names the variable in
 * `REGREEN_SANDBOX_CREDENTIALS`; then the overrides (HOME and TMPDIR pointed
 * at the job's private folders).
 */
export const scrubEnv = (
  env: Env,
  overrides: Readonly<Record<string, string>>,
  declared: Env = {},
): Record<string, string> => {
  const out: Record<string, string> = {};
  const listed = operatorListed(env);
  // A URL's userinfo never enters unless the operator names the variable (a private index the setup needs).
  const clean = (name: string, value: string): string =>
    listed.has(name) ? value : withoutUserinfo(value);
  for (const [name, value] of Object.entries(env)) {
    if (listed.has(name) && value !== undefined) out[name] = value;
    else if (isBuildVariable(name) && keep(name, value)) out[name] = clean(name, value);
  }
  for (const [name, value] of Object.entries(declared)) {
    if (keep(name, value) && !/^(npm_|INPUT_)/i.test(name)) out[name] = clean(name, value);
  }
  return { ...out, ...overrides };
};
