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
import { isJvmOptionsVariable, jvmOptionsFor } from './jvm-options.ts';
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
  'YARN_UNSAFE_HTTP_WHITELIST',
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

/**
 * The locale's categories and the Python installers' settings a build needs, by their exact
 * names: a prefix would let in whatever else shares it (`LC_SECRET_THING`, a `PIP_` or `UV_`
 * variable a tool does not even read). An installer setting missing here reaches the sandbox when
 * the operator names it in `REGREEN_SANDBOX_CREDENTIALS`.
 */
const PASSED_FAMILIES = new Set([
  ...['ALL', 'CTYPE', 'NUMERIC', 'TIME', 'COLLATE', 'MONETARY', 'MESSAGES', 'PAPER', 'NAME'].map(
    (category) => `LC_${category}`,
  ),
  ...['ADDRESS', 'TELEPHONE', 'MEASUREMENT', 'IDENTIFICATION'].map((category) => `LC_${category}`),
  ...[
    'INDEX_URL',
    'EXTRA_INDEX_URL',
    'FIND_LINKS',
    'NO_INDEX',
    'TRUSTED_HOST',
    'CERT',
    'DEFAULT_TIMEOUT',
    'TIMEOUT',
    'RETRIES',
    'DISABLE_PIP_VERSION_CHECK',
    'NO_INPUT',
    'PROGRESS_BAR',
    'PREFER_BINARY',
    'ONLY_BINARY',
    'NO_BINARY',
    'NO_CACHE_DIR',
    'PRE',
    'BREAK_SYSTEM_PACKAGES',
    'ROOT_USER_ACTION',
  ].map((setting) => `PIP_${setting}`),
  ...[
    'INDEX_URL',
    'EXTRA_INDEX_URL',
    'INDEX',
    'DEFAULT_INDEX',
    'FIND_LINKS',
    'NO_INDEX',
    'INDEX_STRATEGY',
    'INSECURE_HOST',
    'NATIVE_TLS',
    'OFFLINE',
    'HTTP_TIMEOUT',
    'CONCURRENT_DOWNLOADS',
    'CONCURRENT_BUILDS',
    'PYTHON',
    'PYTHON_PREFERENCE',
    'PYTHON_DOWNLOADS',
    'LINK_MODE',
    'NO_PROGRESS',
    'PRERELEASE',
    'RESOLUTION',
  ].map((setting) => `UV_${setting}`),
  'TOX_PARALLEL_NO_SPINNER',
  'TOX_SKIP_MISSING_INTERPRETERS',
  'TOX_TESTENV_PASSENV',
]);

export const isBuildVariable = (name: string): boolean =>
  PASSED_NAMES.has(name) || PASSED_FAMILIES.has(name);

/** A name that says it holds a secret, wherever the word sits (`signingPassword`, `private_token`). */
const SECRET_WORD =
  /password|passwd|passphrase|^pass$|secret|token|api[-_.]?key|credential|^auth$|auth[-_.]?(token|key)|signature|^sig$|^key$/i;

/**
 * One `?…` or `&…` run of a value with its parameter's value taken out when the key names a
 * secret: the first `?` of it followed by a key and `=` is where the parameter starts, as
 * `([?&])([^=&#\s]+)=[^&#\s]*` found it, read with fixed strings (that pattern tried every `?`
 * of a run of them to its end).
 */
const withoutSecretParameter = (run: string): string => {
  for (let at = 0; at >= 0; at = run.indexOf('?', at + 1)) {
    const equals = run.indexOf('=', at + 1);
    if (equals < 0) return run;
    if (equals > at + 1)
      return SECRET_WORD.test(run.slice(at + 1, equals)) ? run.slice(0, equals + 1) : run;
  }
  return run;
};

/**
 * A value as it may enter: no URL's userinfo (`https://TOKEN@host`), no query parameter that
 * names a secret (`?private_token=…`), no JVM property that does (`-Drepo.password=…`, in
 * `MAVEN_OPTS`, `GRADLE_OPTS`, `JAVA_TOOL_OPTIONS`).
 */
export const withoutCredentials = (value: string): string =>
  withoutUserinfo(value)
    .replace(/[?&][^&#\s]*/g, withoutSecretParameter)
    .replace(/(^|\s)-D([^=\s]+)=(\S*)/g, (whole, lead: string, property: string) =>
      SECRET_WORD.test(property) ? lead : whole,
    );

/**
 * A variable's value as it may enter, whoever set it: of a JVM options variable only the flags and
 * properties a build needs (`jvm-options.ts`), and in every value no credential `withoutCredentials`
 * finds. Undefined when nothing of a JVM options value is left.
 */
export const cleanValue = (name: string, value: string): string | undefined => {
  if (!isJvmOptionsVariable(name)) return withoutCredentials(value);
  const kept = withoutCredentials(jvmOptionsFor(value));
  return kept === '' ? undefined : kept;
};

const keep = (name: string, value: string | undefined): value is string =>
  value !== undefined && !isCredentialName(name);

/**
 * The environment a sandboxed command sees: of the operator's environment only
 * the variables a build needs, plus what the caller declares for this command
 * (a workflow step's `env:`), never a credential by name, every value
 * cleaned (`cleanValue`: no URL's userinfo, of a JVM options variable only
 * what a build needs) — unless the operator names the variable in
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
  // Every value enters cleaned, unless the operator names the variable (a private index the setup needs).
  const put = (name: string, value: string): void => {
    const clean = listed.has(name) ? value : cleanValue(name, value);
    if (clean === undefined) delete out[name];
    else out[name] = clean;
  };
  for (const [name, value] of Object.entries(env)) {
    if (listed.has(name) && value !== undefined) out[name] = value;
    else if (isBuildVariable(name) && keep(name, value)) put(name, value);
  }
  for (const [name, value] of Object.entries(declared)) {
    if (keep(name, value) && !/^(npm_|INPUT_)/i.test(name)) put(name, value);
  }
  return { ...out, ...overrides };
};
