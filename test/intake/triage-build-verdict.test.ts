/**
 * Triage where a log marks no failing command (Jenkins, a plain log) and
 * errors printed earlier did not fail the build (issue #36, the Java and .NET
 * rows of bench:triage). The shapes are those of two real logs: CiDiff's
 * astor_400 (a script compiling examples with javac printed hundreds of
 * `[ERROR] … unmappable character` lines, then Maven's compile failed the
 * build) and LogChunks' PowerShell 536509309 (error records written while
 * Pester's tests passed, then the build's own list of the failed tests).
 */
import { describe, expect, it } from 'vitest';
import { triageLog } from '../../src/intake/actions-log.ts';
import { recogniseFailures } from '../../src/intake/formats/index.ts';

const excerptText = (log: string): string =>
  triageLog(log)
    .excerpt.map((l) => l.text)
    .join('\n');

describe("a build's failing part, where the log marks no failing command", () => {
  const early = Array.from({ length: 40 }, (_, example) => [
    `compiling examples/lang_${example}/`,
    'Picked up JAVA_TOOL_OPTIONS: -Dfile.encoding=UTF8',
    ...Array.from(
      { length: 8 },
      (_, k) =>
        `[ERROR] /builds/workspace/astor/examples/lang_${example}/src/main/java/org/apache/commons/lang/Entities.java:[${60 + k},29] unmappable character for encoding UTF-8`,
    ),
  ]).flat();
  const maven = [
    '[INFO] --- maven-resources-plugin:2.6:resources (default-resources) @ astor ---',
    '[INFO] Copying 2 resources',
    '[INFO] ',
    '[INFO] --- maven-compiler-plugin:3.0:compile (default-compile) @ astor ---',
    '[INFO] Compiling 395 source files to /builds/workspace/astor/target/classes',
    '[INFO] -------------------------------------------------------------',
    '[ERROR] COMPILATION ERROR : ',
    '[INFO] -------------------------------------------------------------',
    '[ERROR] /builds/workspace/astor/src/main/java/fr/inria/astor/LibParser.java:[23,29] cannot find symbol',
    '  symbol:   class ImportScanner',
    '  location: package spoon.reflect.visitor',
    '[INFO] 1 error ',
    '[INFO] -------------------------------------------------------------',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] BUILD FAILURE',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] Total time: 9.432 s',
    '[INFO] ------------------------------------------------------------------------',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.0:compile (default-compile) on project astor: Compilation failure',
    '[ERROR] /builds/workspace/astor/src/main/java/fr/inria/astor/LibParser.java:[23,29] cannot find symbol',
    '[ERROR] -> [Help 1]',
    '[ERROR] ',
    '[ERROR] For more information about the errors and possible solutions, please read the following articles:',
    '[ERROR] [Help 1] http://cwiki.apache.org/confluence/display/MAVEN/MojoFailureException',
    "Build step 'Execute shell' marked build as failure",
    '[WS-CLEANUP] Deleting project workspace...',
    'Finished: FAILURE',
  ];

  it("Maven's failing plugin execution, not the errors of what ran before it", () => {
    const shown = excerptText([...early, ...maven].join('\n'));
    expect(shown).toContain('[ERROR] COMPILATION ERROR');
    expect(shown).toContain(
      'LibParser.java:[23,29] cannot find symbol\n  symbol:   class ImportScanner',
    );
    expect(shown).toContain(
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin',
    );
  });

  it('a Maven build that did not fail marks nothing', () => {
    const passing = maven.map((line) => line.replace('BUILD FAILURE', 'BUILD SUCCESS'));
    const shown = excerptText([...early, ...passing.slice(0, 14)].join('\n'));
    expect(shown).toContain('examples/lang_0/');
  });
});

describe("PowerShell's list of the tests that failed, after Pester's summary", () => {
  const list = [
    'Tests completed in 452.02s',
    'Tests Passed: 5986, Failed: 2, Skipped: 631, Pending: 169, Inconclusive: 0 ',
    'TEST FAILURES',
    'Description: ThreadJob with ScriptBlock and Using variables',
    'Name:        Basic ThreadJob Tests.ThreadJob with ScriptBlock and Using variables',
    'message:',
    'Expected {1 2 3 4 5}, but got {GlobalVar}.',
    'stack-trace:',
    'at <ScriptBlock>, /home/travis/build/PowerShell/PowerShell/test/powershell/Modules/ThreadJob/ThreadJob.Tests.ps1: line 137',
    '137:         $results[4] | Should -Be $Var4',
  ];

  it('each failed test, by its name and message', () => {
    const failures = recogniseFailures(list.map((text, i) => ({ line: i + 1, text })));
    expect(failures).toContainEqual({
      format: 'pester',
      test: 'Basic ThreadJob Tests.ThreadJob with ScriptBlock and Using variables',
      message: 'Expected {1 2 3 4 5}, but got {GlobalVar}.',
      logLine: 4,
    });
  });

  it('is shown, though error records written while tests passed come first in the log', () => {
    const record = (n: number): string[] => [
      '    Context Powershell tests',
      `++++Remove-Module : No modules were removed (${n}).`,
      `At /home/travis/build/PowerShell/PowerShell/test/powershell/Language/Classes/C${n}.Tests.ps1:404 char:17`,
      '+                 Remove-Module -Name $moduleFile -Force',
      '+                 ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
      '+ CategoryInfo          : ResourceUnavailable: (:) [Remove-Module], InvalidOperationException',
      '+ FullyQualifiedErrorId : Modules_NoModulesRemoved,Microsoft.PowerShell.Commands.RemoveModuleCommand',
      ' ',
      '+',
      '',
    ];
    const log = [
      '$ pwsh -File tools/travis.ps1',
      ...Array.from({ length: 30 }, (_, n) => record(n)).flat(),
      ...Array.from({ length: 400 }, (_, n) => `  Describing passing ${n}\n+++`),
      ...list,
      '2 tests in test/powershell failed',
      'The command "pwsh -File tools/travis.ps1" exited with 1.',
      'Done. Your build exited with 1.',
    ].join('\n');
    const shown = excerptText(log);
    expect(shown).toContain(
      'Name:        Basic ThreadJob Tests.ThreadJob with ScriptBlock and Using variables\nmessage:\nExpected {1 2 3 4 5}, but got {GlobalVar}.',
    );
  });
});
