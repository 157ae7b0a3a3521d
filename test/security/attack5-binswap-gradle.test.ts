/**
 * attack5 (Gradle): the base's tests and harness are held still in the
 * judging runs, but what the test JVM runs for them is what the build
 * compiled: Gradle compiles every test class into `build/classes`, then its
 * worker loads each class when it is first used, from a folder the code under
 * test can write. Product code, called with a test's arguments before the
 * helper the test asserts through is first loaded, compiles that helper again
 * from its held source with its assertion made inert, over its class file:
 * the held `Check.java` is untouched, the JVM runs other code.
 *
 * Held: the judged runs build first (`gradle … -x test`, the command's own
 * arguments) and hold the class files still through the command itself
 * (`src/job/stages/build-first.ts`, `hold-build.ts`): the helper cannot be
 * compiled over, and add() still subtracts.
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, editCall, judgedAttempts, write } from '../support/ecosystem.ts';
import { recompileHelper } from '../support/forge-java.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack5-gradle-');
afterAll(() => temp.cleanup());

const attempt = judgedAttempts(temp.dir);
const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');
const MAVEN_REPOSITORY = path.resolve(import.meta.dirname, '..', '.registry', 'maven');

const ADD = '    public static int add(int a, int b) {';

/** The fixture, its CalcTest asserting through a helper of the tests', loaded when first called. */
const gradleProject = (repo: string): void => {
  cpSync(path.join(FIXTURES, 'gradle-calc'), repo, { recursive: true });
  write(repo, {
    '.gitignore': '/build/\n/.gradle/\n',
    'src/test/java/calc/Check.java':
      'package calc;\n\nimport static org.junit.Assert.assertEquals;\n\nfinal class Check {\n    private Check() {}\n\n    static void equal(int expected, int actual) {\n        assertEquals(expected, actual);\n    }\n}\n',
    'src/test/java/calc/CalcTest.java':
      'package calc;\n\nimport org.junit.Test;\n\npublic class CalcTest {\n    @Test\n    public void adds() {\n        Check.equal(4, Calc.add(2, 2));\n    }\n\n    @Test\n    public void addsZero() {\n        Check.equal(3, Calc.add(3, 0));\n    }\n}\n',
  });
  commit(repo);
};

describe('attack5: the test JVM loads a test class the code under test compiled again', () => {
  it('Gradle: product code recompiles the tests’ helper before its first use, its assertion inert; the verdict refuses it', async () => {
    const home = path.join(temp.dir, 'gradle-home');
    if (!existsSync(path.join(MAVEN_REPOSITORY, 'junit', 'junit', '4.13.2')))
      throw new Error(`${MAVEN_REPOSITORY} holds no JUnit 4: run scripts/test-deps.sh`);
    cpSync(MAVEN_REPOSITORY, path.join(home, '.m2', 'repository'), { recursive: true });
    const result = await attempt(
      gradleProject,
      [
        editCall(
          'src/main/java/calc/Calc.java',
          ADD,
          `${recompileHelper('org/junit/Assert.class')}\n${ADD}\n        warm();`,
        ),
      ],
      [],
      { HOME: home },
    );
    // add() still subtracts: nothing is fixed, so nothing may be proposed; the runner's own
    // result says so (the forged class was never written), not a rule reading the change.
    expect(result.outcome.status, `failed checks: ${result.failed.join(', ')}`).toBe('diagnosis');
    expect(result.failed).toContain('failing-command-passes');
    expect(result.failed).not.toContain('no-runner-tampering');
  }, 900_000);
});
