/**
 * The JVM's options variables (`MAVEN_OPTS`, `GRADLE_OPTS`, `JAVA_TOOL_OPTIONS`) are where an
 * operator keeps a build's secrets as `-D` properties, under any name a plugin reads
 * (`-Dsonar.login=`, `-Dnexus.auth=`, `-Dorg.gradle.project.signingKey=`). An outside attacker's
 * findings: a name filter knew none of those, so each reached every command whole; and the setup
 * step's `JAVA_TOOL_OPTIONS` was built from the operator's raw value, so even a property the
 * filter knew (`-Dsigning.password=`) reached the repository's setup command.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { makeTempDir } from '../support/tmp.ts';
import { attackSandbox, CANARY, CASE, inSandbox, readAttack } from './support.ts';

describe("the JVM's options variables in the sandbox", () => {
  const temp = makeTempDir('regreen-jvm-options-');
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await attackSandbox({
      root: temp.dir,
      workspace: path.join(temp.dir, 'ws'),
      registryHosts: ['registry.example.test:443'],
      env: {
        MAVEN_OPTS: `-Xmx1g -Dsonar.login=${CANARY}-sonar -Dnexus.auth=${CANARY}-nexus -Dfile.encoding=UTF-8`,
        GRADLE_OPTS: [
          `-Dorg.gradle.project.signingKey=${CANARY}-signingKey`,
          `-Dorg.gradle.project.ossrhPass=${CANARY}-ossrhPass`,
          '--add-opens java.base/java.lang=ALL-UNNAMED',
          '-Dhttp.nonProxyHosts="localhost|*.corp.example.test"',
          `-Dorg.gradle.jvmargs="-Xmx2g -Dsigning.keyId=${CANARY}-jvmargs"`,
          '-Duser.timezone=UTC',
        ].join(' '),
        JAVA_TOOL_OPTIONS: `-Dsigning.password=${CANARY}-jto-password -XX:+UseG1GC`,
      },
    });
  });
  afterAll(async () => {
    await sandbox.dispose();
    temp.cleanup();
  });

  it('a -D property not on the pass-list, whatever its name, reaches no command', async () => {
    const output = await readAttack(sandbox, () => 'env', 'environment', {
      env: { CONTROL: CANARY },
    });
    // What a build needs of the same values is still there, quoted as it was.
    expect(output).toContain('MAVEN_OPTS=-Xmx1g -Dfile.encoding=UTF-8\n');
    expect(output).toContain(
      'GRADLE_OPTS=--add-opens java.base/java.lang=ALL-UNNAMED -Dhttp.nonProxyHosts="localhost|*.corp.example.test" -Duser.timezone=UTC\n',
    );
    expect(output).toContain('JAVA_TOOL_OPTIONS=-XX:+UseG1GC\n');
  });

  it("the setup step's JAVA_TOOL_OPTIONS is the cleaned value and the proxy's properties", async () => {
    const output = await readAttack(sandbox, () => 'env', 'environment', {
      network: 'setup',
      env: { CONTROL: CANARY },
    });
    expect(output).toMatch(
      /^JAVA_TOOL_OPTIONS=-XX:\+UseG1GC -Dhttp\.proxyHost=127\.0\.0\.1 -Dhttp\.proxyPort=\d+ /m,
    );
  });

  it(`a JVM in the setup step gets the cleaned options ${CASE}`, async () => {
    const run = await inSandbox(sandbox, 'java -XshowSettings:properties -version 2>&1', {
      network: 'setup',
    });
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('Picked up JAVA_TOOL_OPTIONS: -XX:+UseG1GC -Dhttp.proxyHost=');
    expect(run.output).toMatch(/https\.proxyHost = 127\.0\.0\.1/);
    expect(run.output).not.toContain(CANARY);
  });
});
