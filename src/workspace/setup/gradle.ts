/**
 * Gradle's init scripts in the sandbox's home (`~/.gradle/init.d/`): Gradle
 * applies them to every build, so nothing of the project's command or build
 * files is rewritten.
 *
 * - The test report: a counted run names a file (`TEST_REPORT_VARIABLE`), and
 *   Gradle's own test listener, in the build's process (the tests run in a
 *   forked JVM, the product code with them), appends one JUnit `<testcase>`
 *   per finished test there. Test tasks are never up to date while a report is
 *   asked for (CI's checkout has no earlier run either), and the forked JVM
 *   does not get the variable.
 * - The host's Maven repository, read-only, as the first repository of every
 *   project (the sandbox's `settings.xml` does the same for Maven).
 */
import path from 'node:path';

/** The variable a counted run sets to the report's path. */
export const TEST_REPORT_VARIABLE = 'REGREEN_TEST_REPORT';

/** A Groovy string literal. */
const groovyString = (text: string): string =>
  `'${text.replaceAll('\\', '\\\\').replaceAll("'", "\\'").replaceAll('\n', '\\n')}'`;

const REPORT_SCRIPT = `// written by regreen: Gradle's test events as a JUnit report, to the file a counted run names
def reportPath = System.getenv(${groovyString(TEST_REPORT_VARIABLE)})
if (reportPath) {
  def report = new File(reportPath)
  def xml = { String text -> (text ?: '').replace('&', '&amp;').replace('"', '&quot;').replace('<', '&lt;').replace('>', '&gt;') }
  allprojects {
    tasks.withType(Test) { task ->
      task.environment.remove(${groovyString(TEST_REPORT_VARIABLE)})
      task.outputs.upToDateWhen { false }
      task.afterTest { descriptor, result ->
        def outcome = result.resultType.toString()
        def inner = outcome == 'FAILURE' ? '<failure/>' : (outcome == 'SKIPPED' ? '<skipped/>' : '')
        synchronized (report) {
          report.append("<testcase classname=\\"\${xml(descriptor.className)}\\" name=\\"\${xml(descriptor.name)}\\">\${inner}</testcase>\\n", 'UTF-8')
        }
      }
    }
  }
}
`;

/** The host's Maven repository before each project's own. */
const hostRepositoryScript = (repository: string): string =>
  `// written by regreen: the host's Maven repository, read-only, as a local registry
allprojects {
  repositories {
    maven { url ${groovyString(`file://${repository}`)} }
  }
}
`;

/** The test report's init script, by its path under the sandbox's home. */
export const gradleReportFiles = (): Record<string, string> => ({
  [path.join('.gradle', 'init.d', 'regreen-test-report.gradle')]: REPORT_SCRIPT,
});

/** The host repository's init script, by its path under the sandbox's home. */
export const gradleRepositoryFiles = (hostRepository: string): Record<string, string> => ({
  [path.join('.gradle', 'init.d', 'regreen-host-repository.gradle')]:
    hostRepositoryScript(hostRepository),
});
