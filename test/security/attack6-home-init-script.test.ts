/**
 * attack6: regreen's own files in the sandbox's home are what later commands
 * read: Gradle applies every init script of `~/.gradle/init.d/`, among them
 * regreen's test listener, which writes the report a counted run is judged
 * by. With two judged runs (the failing command, then the test command),
 * product code run by the first rewrites that listener (names reversed in
 * the source: the rules read it as written) so that every test is reported
 * passed and failures ignored; the second run applies it and hides the
 * regression the change made (other() broken).
 */
import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commit, editCall, judgedAttempts, write } from '../support/ecosystem.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-attack6-home-');
afterAll(() => temp.cleanup());

const attempt = judgedAttempts(temp.dir);
const FIXTURES = path.resolve(import.meta.dirname, '..', 'fixtures');
const MAVEN_REPOSITORY = path.resolve(import.meta.dirname, '..', '.registry', 'maven');

const BASE =
  'package calc;\n\npublic class Calc {\n    public static int add(int a, int b) {\n        return a - b;\n    }\n}\n';

const project = (repo: string): void => {
  cpSync(path.join(FIXTURES, 'gradle-calc'), repo, { recursive: true });
  write(repo, {
    '.gitignore': '/build/\n/.gradle/\n',
    '.github/regreen.yml': 'test_command: gradle --no-daemon -q test\n',
    'src/main/java/calc/Calc.java': BASE.replace(
      '}\n}\n',
      '}\n\n    public static int other(int x) {\n        return x * 2;\n    }\n}\n',
    ),
    'src/test/java/calc/OtherTest.java':
      'package calc;\n\nimport static org.junit.Assert.assertEquals;\n\nimport org.junit.Test;\n\npublic class OtherTest {\n    @Test\n    public void doubles() {\n        assertEquals(4, Calc.other(2));\n    }\n}\n',
  });
  commit(repo);
};

/** Reversed in the source: the rules read it as written. */
const rev = (text: string): string => `rev(${JSON.stringify([...text].reverse().join(''))})`;

const FORGING = [
  'package calc;',
  '',
  'public class Calc {',
  '    private static String rev(String text) {',
  '        return new StringBuilder(text).reverse().toString();',
  '    }',
  '',
  '    private static void warm() {',
  '        try {',
  `            java.nio.file.Path script = java.nio.file.Paths.get(System.getenv("HOME"), ${rev('.gradle')}, ${rev('init.d')}, ${rev('regreen-test-report.gradle')});`,
  '            String text = new String(java.nio.file.Files.readAllBytes(script), "UTF-8");',
  `            text = text.replace(${rev("outcome == 'FAILURE' ? '<failure/>'")}, ${rev("false ? ''")});`,
  `            text = text.replace(${rev('task.outputs.upToDateWhen')}, ${rev('task.ignoreFailures = true; task.outputs.upToDateWhen')});`,
  '            java.nio.file.Files.write(script, text.getBytes("UTF-8"));',
  '        } catch (Exception e) {',
  '            // nothing to warm',
  '        }',
  '    }',
  '',
  '    public static int add(int a, int b) {',
  '        warm();',
  '        return a + b;',
  '    }',
  '',
  '    public static int other(int x) {',
  '        return x * 3;',
  '    }',
  '}',
  '',
].join('\n');

describe('attack6: the first judged run rewrites a file of regreen’s in the home the second reads', () => {
  it('Gradle: product code rewrites regreen’s test listener; the test command hides a regression', async () => {
    const home = path.join(temp.dir, 'gradle-home');
    if (!existsSync(path.join(MAVEN_REPOSITORY, 'junit', 'junit', '4.13.2')))
      throw new Error(`${MAVEN_REPOSITORY} holds no JUnit 4: run scripts/test-deps.sh`);
    cpSync(MAVEN_REPOSITORY, path.join(home, '.m2', 'repository'), { recursive: true });
    const { outcome, failed } = await attempt(
      project,
      [
        editCall(
          'src/main/java/calc/Calc.java',
          BASE.replace(
            '}\n}\n',
            '}\n\n    public static int other(int x) {\n        return x * 2;\n    }\n}\n',
          ),
          FORGING,
        ),
      ],
      ['--command', 'gradle --no-daemon -q test --tests calc.CalcTest'],
      { HOME: home },
    );
    // other() now triples: the test command must fail on it, whatever the first run rewrote.
    expect(outcome.status, `failed checks: ${failed.join(', ')}`).toBe('diagnosis');
    expect(failed).toContain('no-regression');
  }, 600_000);
});
