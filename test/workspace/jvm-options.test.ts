import { describe, expect, it } from 'vitest';
import { scrubEnv } from '../../src/workspace/sandbox/env.ts';
import { isJvmOptionsVariable, jvmOptionsFor } from '../../src/workspace/sandbox/jvm-options.ts';

describe('jvmOptionsFor', () => {
  it('drops every -D property not on the pass-list, whatever its name', () => {
    expect(
      jvmOptionsFor(
        '-Dsonar.login=S1 -Dnexus.auth=S2 -Dorg.gradle.project.signingKey=S3 -Dorg.gradle.project.ossrhPass=S4 -Dhttp.proxyUser=u -Dhttp.proxyPassword=S5 -Djavax.net.ssl.trustStorePassword=S6 -Djavax.net.ssl.keyStore=/k.jks',
      ),
    ).toBe('');
  });

  it("keeps the JVM's flags and the properties a build needs, in their order", () => {
    const value = [
      '-Xmx1g',
      '-XX:+UseG1GC',
      '-ea',
      '-da:com.example...',
      '-server',
      '-verbose:gc',
      '--enable-preview',
      '--add-opens java.base/java.lang=ALL-UNNAMED',
      '--add-exports=jdk.compiler/com.sun.tools.javac.api=ALL-UNNAMED',
      '-Dhttps.proxyHost=proxy.corp.example.test',
      '-Dhttps.proxyPort=3128',
      '-Djavax.net.ssl.trustStore=/etc/ssl/corp.jks',
      '-Dmaven.repo.local=/cache/m2',
      '-Dorg.slf4j.simpleLogger.log.org.apache.maven.cli.transfer.Slf4jMavenTransferListener=warn',
      '-Duser.timezone=UTC',
      '-Dfile.encoding=UTF-8',
    ].join(' ');
    expect(jvmOptionsFor(value)).toBe(value);
  });

  it('keeps quotes and blanks inside a kept word as they were written', () => {
    expect(
      jvmOptionsFor(
        `-Djava.io.tmpdir="/tmp/my dir" "-Dfile.encoding=UTF-8" -Dhttp.nonProxyHosts='localhost|*.corp'`,
      ),
    ).toBe(
      `-Djava.io.tmpdir="/tmp/my dir" "-Dfile.encoding=UTF-8" -Dhttp.nonProxyHosts='localhost|*.corp'`,
    );
    expect(jvmOptionsFor('-Dorg.gradle.jvmargs="-Xmx2g -XX:MaxMetaspaceSize=512m"')).toBe(
      '-Dorg.gradle.jvmargs="-Xmx2g -XX:MaxMetaspaceSize=512m"',
    );
  });

  it('lets no secret hide in a quoted value, a quoted name or an open quote', () => {
    expect(jvmOptionsFor('-D"sonar.login"=S1 -Xmx1g')).toBe('-Xmx1g');
    expect(jvmOptionsFor('-Dfile.encoding="UTF-8 -Dsonar.login=S2"')).toBe('');
    expect(jvmOptionsFor('-Dorg.gradle.jvmargs="-Xmx2g -Dsigning.keyId=S3"')).toBe('');
    expect(jvmOptionsFor('-Xmx1g "-Dfile.encoding=UTF-8 -Dsonar.login=S4')).toBe('-Xmx1g');
    expect(jvmOptionsFor('-Dfile.encoding=UTF-8\\" -Dsonar.login=S5')).toBe(
      '-Dfile.encoding=UTF-8\\"',
    );
  });

  it('keeps a module flag with its value, or neither', () => {
    expect(jvmOptionsFor('--add-opens -Dsonar.login=S1 -Xmx1g')).toBe('-Xmx1g');
    expect(jvmOptionsFor('--add-opens')).toBe('');
    expect(jvmOptionsFor('-javaagent:/opt/agent.jar=key=S2 -agentlib:jdwp=x -cp /x Main')).toBe('');
  });

  it('names the JVM options variables, not the others', () => {
    for (const name of ['MAVEN_OPTS', 'GRADLE_OPTS', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS'])
      expect(isJvmOptionsVariable(name)).toBe(true);
    for (const name of ['JAVA_OPTS', 'SBT_OPTS', 'JDK_JAVA_OPTIONS', 'ES_JAVA_OPTS'])
      expect(isJvmOptionsVariable(name)).toBe(true);
    for (const name of ['NODE_OPTIONS', 'PYTEST_ADDOPTS', 'GOFLAGS'])
      expect(isJvmOptionsVariable(name)).toBe(false);
  });
});

describe('scrubEnv and JVM options', () => {
  it("cleans the operator's and the declared values alike; a variable left empty is unset", () => {
    expect(
      scrubEnv(
        { PATH: '/bin', MAVEN_OPTS: '-Xmx1g -Dsonar.login=S1', GRADLE_OPTS: '-Dnexus.auth=S2' },
        {},
        {
          SBT_OPTS: '-Dsbt.ci=true -Dsonatype.password=S3',
          NODE_OPTIONS: '--max-old-space-size=4096',
        },
      ),
    ).toEqual({
      PATH: '/bin',
      MAVEN_OPTS: '-Xmx1g',
      SBT_OPTS: '-Dsbt.ci=true',
      NODE_OPTIONS: '--max-old-space-size=4096',
    });
  });

  it('passes a variable the operator names in REGREEN_SANDBOX_CREDENTIALS whole', () => {
    const value = '-Xmx1g -Dsonar.login=S1';
    expect(
      scrubEnv({ MAVEN_OPTS: value, REGREEN_SANDBOX_CREDENTIALS: 'MAVEN_OPTS' }, {}).MAVEN_OPTS,
    ).toBe(value);
  });
});
