/**
 * The JVM's options variables (`JAVA_TOOL_OPTIONS`, `MAVEN_OPTS`, `GRADLE_OPTS`, …) as they may
 * enter the sandbox: an allow-list of words, not a list of secret names. An operator keeps a
 * build's secrets there as `-D` properties under whatever name a plugin reads (`-Dsonar.login=`,
 * `-Dnexus.auth=`, `-Dorg.gradle.project.signingKey=`): no filter by name knows them all. So of
 * such a value only the JVM's own flags (`-X…`, `-XX:…`, assertions, `--add-opens`…) and the
 * `-D` properties below (proxy hosts and ports, encodings, locale, time zone, temp folder, the
 * trust store's path, a build tool's own switches) stay; every other word is dropped. The
 * operator who needs one whole names the variable in `REGREEN_SANDBOX_CREDENTIALS`.
 */

/** Variables the JVM, its launchers and its build tools read as JVM options. */
const JVM_OPTION_VARIABLES = new Set([
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_OPTS',
  'JAVA_OPTIONS',
  'JVM_OPTS',
  'MAVEN_OPTS',
  'MVN_OPTS',
  'GRADLE_OPTS',
  'SBT_OPTS',
  'ANT_OPTS',
  'KOTLIN_OPTS',
  'SCALA_OPTS',
  'CATALINA_OPTS',
]);

export const isJvmOptionsVariable = (name: string): boolean =>
  JVM_OPTION_VARIABLES.has(name.toUpperCase()) || /_(JAVA|JVM)_OPT(ION)?S$/i.test(name);

/** `-D` properties a build needs that hold no secret, by their exact names. */
const PROPERTIES = new Set([
  // The proxy: hosts and ports, never `http.proxyUser` or `http.proxyPassword`.
  ...['http', 'https', 'ftp'].flatMap((scheme) => [
    `${scheme}.proxyHost`,
    `${scheme}.proxyPort`,
    `${scheme}.nonProxyHosts`,
  ]),
  'socksProxyHost',
  'socksProxyPort',
  'socksProxyVersion',
  'java.net.useSystemProxies',
  'java.net.preferIPv4Stack',
  'java.net.preferIPv6Addresses',
  'http.keepAlive',
  'http.maxConnections',
  'sun.net.client.defaultConnectTimeout',
  'sun.net.client.defaultReadTimeout',
  'https.protocols',
  'jdk.tls.client.protocols',
  // TLS trust: the store's path and type, never a password, never a key store (a client's key).
  'javax.net.ssl.trustStore',
  'javax.net.ssl.trustStoreType',
  'javax.net.ssl.trustStoreProvider',
  // Encodings, locale, time zone, folders, headless.
  'file.encoding',
  'sun.jnu.encoding',
  'sun.stdout.encoding',
  'sun.stderr.encoding',
  'stdout.encoding',
  'stderr.encoding',
  'line.separator',
  'user.language',
  'user.country',
  'user.region',
  'user.variant',
  'user.script',
  'user.timezone',
  'java.io.tmpdir',
  'java.awt.headless',
  'java.security.egd',
  // Maven and its resolver: the local repository, connection pool and retries, colour.
  'maven.repo.local',
  'maven.artifact.threads',
  'maven.wagon.rto',
  'maven.wagon.http.pool',
  'maven.wagon.http.retryHandler.count',
  'maven.wagon.http.retryHandler.requestSentEnabled',
  'maven.wagon.httpconnectionManager.ttlSeconds',
  'aether.connector.connectTimeout',
  'aether.connector.requestTimeout',
  'style.color',
  // Gradle's own switches (a project's properties, `org.gradle.project.*`, are where secrets go).
  'org.gradle.jvmargs',
  'org.gradle.daemon',
  'org.gradle.daemon.idletimeout',
  'org.gradle.parallel',
  'org.gradle.caching',
  'org.gradle.configureondemand',
  'org.gradle.configuration-cache',
  'org.gradle.console',
  'org.gradle.logging.level',
  'org.gradle.logging.stacktrace',
  'org.gradle.warning.mode',
  'org.gradle.workers.max',
  'org.gradle.priority',
  'org.gradle.vfs.watch',
  'org.gradle.welcome',
  'org.gradle.internal.http.connectionTimeout',
  'org.gradle.internal.http.socketTimeout',
  'org.gradle.internal.repository.max.retries',
  'org.gradle.java.installations.auto-detect',
  'org.gradle.java.installations.auto-download',
  'kotlin.compiler.execution.strategy',
  'kotlin.incremental',
  // sbt's.
  'sbt.ci',
  'sbt.color',
  'sbt.log.noformat',
  'sbt.supershell',
  'sbt.server.forcestart',
  'sbt.boot.directory',
  'sbt.ivy.home',
  'sbt.global.base',
]);

/** Families of properties that hold no secret: a logger's levels. */
const PROPERTY_PREFIXES = ['org.slf4j.simpleLogger.'];

/** The JVM's flags that take their value as the next word (or after `=`): module names. */
const WITH_VALUE = new Set([
  '--add-opens',
  '--add-exports',
  '--add-reads',
  '--add-modules',
  '--limit-modules',
  '--enable-native-access',
]);
const MODULE_SPEC = /^[\w.$][\w.$/=,-]*$/;

/** The JVM's own flags: heap, GC and the other `-X`/`-XX` settings, assertions, VM, modules. */
const FLAG =
  /^(-X.+|-(ea|da|esa|dsa|enableassertions|disableassertions)(:[\w.$]*(\.\.\.)?)?|-(enable|disable)systemassertions|-(server|client|d32|d64|showversion|verbose)|-verbose:(class|gc|jni|module)|--enable-preview|--illegal-access=\w+)$/;

const isProperty = (word: string): boolean => {
  const m = /^-D([^=]+)(=.*)?$/s.exec(word);
  const name = m?.[1];
  return (
    name !== undefined &&
    (PROPERTIES.has(name) || PROPERTY_PREFIXES.some((prefix) => name.startsWith(prefix)))
  );
};

const isModuleFlag = (word: string): boolean => {
  const [flag, value] = word.split(/=(.*)/s);
  return WITH_VALUE.has(flag ?? '') && (value === undefined || MODULE_SPEC.test(value));
};

/** One word of the value: as written (quotes and all) and as a program gets it. */
interface Word {
  readonly raw: string;
  readonly text: string;
  readonly closed: boolean;
}

/** The words of an options value, split on blanks outside quotes, as a shell or the JVM does. */
const wordsOf = (value: string): Word[] => {
  const words: Word[] = [];
  let raw = '';
  let text = '';
  let quote: string | undefined;
  const end = (): void => {
    if (raw) words.push({ raw, text, closed: quote === undefined });
    raw = '';
    text = '';
  };
  for (let i = 0; i < value.length; i += 1) {
    const ch = value.charAt(i);
    if (quote === undefined && /\s/.test(ch)) {
      end();
      continue;
    }
    raw += ch;
    if (ch === '\\' && quote !== "'" && i + 1 < value.length) {
      i += 1;
      raw += value.charAt(i);
      text += value.charAt(i);
    } else if (quote === undefined && (ch === '"' || ch === "'")) quote = ch;
    else if (ch === quote) quote = undefined;
    else text += ch;
  }
  end();
  return words;
};

/**
 * Whether one word (as a program gets it) is a flag or a property of the lists above. A value
 * with blanks in it (`-Dorg.gradle.jvmargs="-Xmx2g -Dsigning.password=…"`) is kept only when each
 * option-shaped piece of it would be kept too: a secret hides in no quoted value.
 */
const allowed = (text: string): boolean => {
  const [first, ...rest] = text.split(/\s+/);
  if (!first || !(FLAG.test(first) || isProperty(first) || isModuleFlag(first))) return false;
  return rest.every((piece) => !piece.startsWith('-') || allowed(piece));
};

/**
 * Of a JVM options value, the words the lists above allow, each as it was written (its quotes
 * kept); a flag that takes the next word as its value keeps that word when it names modules.
 * Everything else goes: an unknown word, a property not listed, a word with an open quote.
 */
export const jvmOptionsFor = (value: string): string => {
  const kept: string[] = [];
  const words = wordsOf(value);
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i] as Word;
    if (!word.closed || !allowed(word.text)) continue;
    if (!WITH_VALUE.has(word.text)) {
      kept.push(word.raw);
      continue;
    }
    // `--add-opens java.base/java.lang=ALL-UNNAMED`: the flag and its value, or neither.
    const next = words[i + 1];
    if (next?.closed && MODULE_SPEC.test(next.text)) {
      kept.push(word.raw, next.raw);
      i += 1;
    }
  }
  return kept.join(' ');
};
