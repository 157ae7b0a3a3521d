/**
 * The Java and .NET recognisers on the shapes their tools print (issue:
 * "Green on any fresh machine", triage per ecosystem). Lines from
 * real logs of the bench's tuning split (LogChunks, CiDiff: the project and
 * log are named) where the corpus has them; the .NET test runners' shapes
 * the corpus lacks are written as `dotnet test`, NUnit and xUnit print them.
 */
import { describe, expect, it } from 'vitest';
import { recogniseFailures, type RecognisedFailure } from '../../src/intake/formats/index.ts';
import { stripAnsi } from '../../src/util/text.ts';

const recognise = (text: string): RecognisedFailure[] =>
  recogniseFailures(text.split('\n').map((line, i) => ({ line: i + 1, text: line })));

describe('JVM', () => {
  it.each([
    {
      shape: "Surefire 2.19's summary (iluwatar/java-design-patterns, LogChunks 544453998)",
      log: [
        'Results :',
        '',
        'Failed tests: ',
        '  DirtyFlagTest.testIsDirty:45 expected: <false> but was: <true>',
        '',
        'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
      ],
      expect: {
        format: 'maven',
        file: 'DirtyFlagTest.java',
        line: 45,
        test: 'DirtyFlagTest.testIsDirty',
        message: 'expected: <false> but was: <true>',
        logLine: 4,
      },
    },
    {
      shape: "Surefire 2's summary with the test in error (square/retrofit, LogChunks 457858424)",
      log: [
        'Tests in error: ',
        "  pathParametersAndPathTraversal(retrofit2.RequestFactoryTest): @Path parameters shouldn't perform path traversal ('.' or '..'): ./a",
        '',
      ],
      expect: {
        format: 'maven',
        test: 'retrofit2.RequestFactoryTest.pathParametersAndPathTraversal',
        message: "@Path parameters shouldn't perform path traversal ('.' or '..'): ./a",
      },
    },
    {
      shape: "Surefire 3's summary of an error",
      log: [
        '[ERROR] Errors: ',
        '[ERROR]   CalculatorTest.divides:20 » Arithmetic / by zero',
        '[INFO] ',
      ],
      expect: {
        format: 'maven',
        line: 20,
        test: 'CalculatorTest.divides',
        message: 'Arithmetic / by zero',
      },
    },
    {
      shape:
        "the plugin that failed Maven's build (iluwatar/java-design-patterns, LogChunks 544453998)",
      log: [
        '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:2.19.1:test (default-test) on project dirty-flag: There are test failures.',
      ],
      expect: { format: 'maven', message: 'maven-surefire-plugin:test: There are test failures.' },
    },
    {
      shape: 'a checker as Maven prints it (Commons-codec, CiDiff commonscodec_2463)',
      log: [
        '[ERROR] /builds/workspace/Commons-codec/src/main/java/org/apache/commons/codec/binary/Hex.java:348: Undefined reference: java.nio.ByteBuffer java.nio.ByteBuffer.position(int)',
      ],
      expect: {
        format: 'javac',
        file: '/builds/workspace/Commons-codec/src/main/java/org/apache/commons/codec/binary/Hex.java',
        line: 348,
        message: 'Undefined reference: java.nio.ByteBuffer java.nio.ByteBuffer.position(int)',
      },
    },
    {
      shape: 'javac as Gradle prints it',
      log: [
        '/home/runner/work/app/app/src/main/java/org/acme/Cart.java:27: error: cannot find symbol',
        '        return total();',
      ],
      expect: {
        format: 'javac',
        file: 'src/main/java/org/acme/Cart.java',
        line: 27,
        message: 'cannot find symbol',
      },
    },
    {
      shape: 'kotlinc',
      log: [
        'e: file:///home/runner/work/app/app/src/main/kotlin/Cart.kt:12:5 Unresolved reference: total',
      ],
      expect: {
        format: 'javac',
        file: 'src/main/kotlin/Cart.kt',
        line: 12,
        message: 'Unresolved reference: total',
      },
    },
    {
      shape: 'a JVM that died of an exception (iluwatar/java-design-patterns, LogChunks 564609653)',
      log: [
        'Exception in thread "main" java.lang.ExceptionInInitializerError',
        '\tat org.jruby.Ruby.newInstance(Ruby.java:266)',
        '\tat s3.website.Ruby$.rubyRuntime$lzycompute(Ruby.scala:4)',
      ],
      expect: {
        format: 'jvm-exception',
        file: 'Ruby.java',
        line: 266,
        message: 'java.lang.ExceptionInInitializerError',
      },
    },
  ])('$shape', ({ log, expect: want }) => {
    expect(recognise(log.join('\n'))).toContainEqual(expect.objectContaining(want));
  });

  it('does not name a test twice when a <<< FAILURE! line already did (the summary repeats it)', () => {
    const failures = recognise(
      [
        '[ERROR] com.example.CalculatorTest.divides -- Time elapsed: 0.011 s <<< FAILURE!',
        'org.opentest4j.AssertionFailedError: expected: <2> but was: <3>',
        '[ERROR] Failures: ',
        '[ERROR]   CalculatorTest.divides:21 expected: <2> but was: <3>',
      ].join('\n'),
    );
    expect(failures.filter((f) => f.test?.endsWith('divides'))).toHaveLength(1);
  });
});

describe('.NET and PowerShell', () => {
  it.each([
    {
      shape: 'dotnet test (VSTest, .NET 5 and later)',
      log: [
        '  Failed Acme.Tests.CartTests.Total_adds_prices [12 ms]',
        '  Error Message:',
        '   Assert.Equal() Failure',
        '  Stack Trace:',
        '     at Acme.Tests.CartTests.Total_adds_prices() in /home/runner/work/acme/acme/tests/CartTests.cs:line 14',
      ],
      expect: {
        format: 'vstest',
        file: 'tests/CartTests.cs',
        line: 14,
        test: 'Acme.Tests.CartTests.Total_adds_prices',
        message: 'Assert.Equal() Failure',
      },
    },
    {
      shape: 'dotnet test (VSTest before .NET 5)',
      log: [
        'Failed   Acme.Tests.CartTests.Total_adds_prices',
        'Error Message:',
        ' Expected: 31',
        'Stack Trace:',
        '   at Acme.Tests.CartTests.Total_adds_prices() in D:\\a\\acme\\acme\\tests\\CartTests.cs:line 14',
      ],
      expect: { format: 'vstest', file: 'tests/CartTests.cs', line: 14, message: 'Expected: 31' },
    },
    {
      shape: "NUnit's console runner",
      log: [
        'Errors, Failures and Warnings',
        '',
        '1) Failed : Acme.Tests.CartTests.Total_adds_prices',
        '  Expected: 31',
        '  But was:  30',
        '   at Acme.Tests.CartTests.Total_adds_prices() in /home/runner/work/acme/acme/tests/CartTests.cs:line 14',
      ],
      expect: {
        format: 'nunit',
        file: 'tests/CartTests.cs',
        line: 14,
        test: 'Acme.Tests.CartTests.Total_adds_prices',
        message: 'Expected: 31',
      },
    },
    {
      shape: "xUnit's console runner, with its prefix",
      log: [
        '[xUnit.net 00:00:00.61]     Acme.Tests.CartTests.Total_adds_prices [FAIL]',
        '[xUnit.net 00:00:00.61]       Assert.Equal() Failure',
      ],
      expect: {
        format: 'xunit',
        test: 'Acme.Tests.CartTests.Total_adds_prices',
        message: 'Assert.Equal() Failure',
      },
    },
    {
      shape: 'an analyzer error from any tool (NETSDK, CA, IDE…), not only CS and MSB',
      log: [
        '/usr/share/dotnet/sdk/8.0.100/Sdks/Microsoft.NET.Sdk/targets/Microsoft.NET.TargetFrameworkInference.targets(166,5): error NETSDK1045: The current .NET SDK does not support targeting .NET 9.0. [/home/runner/work/acme/acme/src/Acme.csproj]',
      ],
      expect: {
        format: 'dotnet',
        line: 166,
        message: 'NETSDK1045: The current .NET SDK does not support targeting .NET 9.0.',
      },
    },
    {
      shape: "MSBuild's error without a file",
      log: ['MSBUILD : error MSB1009: Project file does not exist.'],
      expect: { format: 'dotnet', message: 'MSB1009: Project file does not exist.' },
    },
    {
      shape: 'a PowerShell error record (pester/Pester, LogChunks 555419060)',
      log: [
        "ERROR: - generating simple tests from foreach with external Id -> The property 'Blocks' cannot be found on this object. Verify that the property ",
        'exists.',
        'At /Users/travis/build/pester/Pester/new-runtimepoc/Pester.RSpec.ts.ps1:27 ',
        'char:13',
        '+             $result.Blocks[0].ErrorRecord | Verify-Null',
        '+             ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
        '    + CategoryInfo          : NotSpecified: (:) [], PropertyNotFoundException',
        '    + FullyQualifiedErrorId : PropertyNotFoundStrict',
      ],
      expect: {
        format: 'powershell',
        file: 'new-runtimepoc/Pester.RSpec.ts.ps1',
        line: 27,
        message:
          "ERROR: - generating simple tests from foreach with external Id -> The property 'Blocks' cannot be found on this object. Verify that the property exists.",
        logLine: 1,
      },
    },
    {
      shape:
        "a Pester failure behind PowerShell's keypad-mode escapes (pester/Pester, LogChunks 572257652)",
      log: [
        '\u001b[?1h\u001b=\u001b[?1h\u001b=\u001b[39;49m\u001b[31m    [-] Should validate test results against the nunit 2.5 schema\u001b[39;49m 191ms',
        '\u001b[39;49m\u001b[31m      Expected no exception to be thrown\u001b[39;49m',
      ],
      expect: {
        format: 'pester',
        test: 'Should validate test results against the nunit 2.5 schema',
      },
    },
  ])('$shape', ({ log, expect: want }) => {
    // The log reaches the recognisers cleaned of colour codes, as triage cleans it.
    const text = stripAnsi(log.join('\n'));
    expect(recognise(text)).toContainEqual(expect.objectContaining(want));
  });

  it('a line that only starts with "Failed" is not a failed test', () => {
    expect(recognise('Failed to restore /home/runner/work/acme/acme/src/Acme.csproj')).toEqual([]);
  });
});
