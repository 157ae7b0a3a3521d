/**
 * Test results by name from a runner's report: TAP (`ok N - name`, `not ok N -
 * name`, nested subtests indented) or JUnit XML (`<testcase>` with a
 * `<failure>`, `<error>` or `<skipped>` child). A name is found as written,
 * or as `classname.name` for JUnit.
 */
export type TestStatus = 'pass' | 'fail' | 'skip';

export const parseTap = (text: string): Map<string, TestStatus> => {
  const results = new Map<string, TestStatus>();
  for (const line of text.split('\n')) {
    // `ok 3 - name # SKIP why`: the name is what comes before a directive's `#`.
    const match = /^\s*(not ok|ok) +\d+(\D.*)?$/i.exec(line);
    if (!match) continue;
    const rest = match[2] ?? '';
    const hash = rest.indexOf('#');
    const name = (hash === -1 ? rest : rest.slice(0, hash)).replace(/^ *-? */, '').trim();
    if (!name) continue;
    const skipped = hash !== -1 && /^#\s*(?:SKIP|TODO)\b/i.test(rest.slice(hash));
    const status: TestStatus = skipped
      ? 'skip'
      : match[1]?.toLowerCase() === 'ok'
        ? 'pass'
        : 'fail';
    // A failing subtest wins over a passing one of the same name.
    if (results.get(name) !== 'fail') results.set(name, status);
  }
  return results;
};

const attribute = (tag: string, name: string): string | undefined => {
  const match = new RegExp(`\\b${name}\\s*=\\s*"([^"]*)"`).exec(tag);
  return match?.[1]
    ?.replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
};

/** Each `<testcase>` of a JUnit report: its names and status (`collection`: a file pytest could not collect). */
const junitCases = (
  xml: string,
): {
  name: string | undefined;
  classname: string | undefined;
  status: TestStatus;
  collection: boolean;
}[] =>
  [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((match) => {
    const tag = match[1] ?? '';
    const body = match[3] ?? '';
    return {
      name: attribute(tag, 'name'),
      classname: attribute(tag, 'classname'),
      status: /<(failure|error)\b/.test(body) ? 'fail' : /<skipped\b/.test(body) ? 'skip' : 'pass',
      collection: /<error\b[^>]*message="collection failure"/.test(body),
    };
  });

export const parseJunit = (xml: string): Map<string, TestStatus> => {
  const results = new Map<string, TestStatus>();
  for (const { name, classname, status } of junitCases(xml)) {
    if (!name) continue;
    results.set(name, status);
    if (classname) results.set(`${classname}.${name}`, status);
  }
  return results;
};

/** What a JUnit report says ran: every `<testcase>` counted once, and the names of those that failed. */
export const junitCounts = (
  xml: string,
): {
  passed: number;
  failed: number;
  skipped: number;
  errors: number;
  failing: Set<string>;
  outcomes: Map<string, TestStatus>;
} => {
  const counted = {
    passed: 0,
    failed: 0,
    skipped: 0,
    errors: 0,
    failing: new Set<string>(),
    outcomes: new Map<string, TestStatus>(),
  };
  for (const testcase of junitCases(xml)) {
    const name = `${testcase.classname ?? ''}::${testcase.name ?? ''}`;
    if (testcase.collection) {
      // A file that could not be collected: no test of it ran (named by the file, not a test).
      counted.errors += 1;
    } else if (testcase.status === 'fail') {
      counted.failed += 1;
      counted.failing.add(name);
      counted.outcomes.set(name, 'fail');
    } else if (testcase.status === 'skip') {
      counted.skipped += 1;
      if (counted.outcomes.get(name) !== 'fail') counted.outcomes.set(name, 'skip');
    } else {
      counted.passed += 1;
      if (!counted.outcomes.has(name)) counted.outcomes.set(name, 'pass');
    }
  }
  // A file that could not be collected is a `<testcase>` whose `<error>` says so, counted above
  // as a file error; a suite-level error (`errors="N"` with no case) is counted here.
  for (const suite of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
    const errors = Number(attribute(suite[1] ?? '', 'errors') ?? 0);
    const tests = Number(attribute(suite[1] ?? '', 'tests') ?? 0);
    if (tests === 0 && errors > 0) counted.errors += errors;
  }
  return counted;
};
