/**
 * Test results by name from a runner's report: TAP (`ok N - name`, `not ok N -
 * name`, nested subtests indented) or JUnit XML (`<testcase>` with a
 * `<failure>`, `<error>` or `<skipped>` child). A name is found as written,
 * or as `classname.name` for JUnit.
 */
import { pattern } from '../src/util/pattern.ts';
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
  const match = pattern()`\b${name}\s*=\s*"([^"]*)"`.exec(tag);
  return match?.[1]
    ?.replaceAll('&quot;', '"')
    .replaceAll('&apos;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');
};

/**
 * The tag and body of each `<testcase>` of a JUnit report, in one pass: a
 * report is written by the code under test, so no search may start over for
 * each opening (a report of unclosed `<testcase>` tags would hold the host).
 * Once no `</testcase>` is left, no later opening can close: only
 * self-closing ones still count.
 */
const testcaseTags = (xml: string): { tag: string; body: string }[] => {
  const found: { tag: string; body: string }[] = [];
  let closable = true;
  for (let at = xml.indexOf('<testcase'); at !== -1; at = xml.indexOf('<testcase', at + 1)) {
    const after = xml[at + 9] ?? '';
    if (!/[\s/>]/.test(after)) continue;
    const end = xml.indexOf('>', at);
    if (end === -1) break;
    const tag = xml.slice(at + 9, end);
    if (tag.endsWith('/')) {
      found.push({ tag: tag.slice(0, -1), body: '' });
      at = end;
      continue;
    }
    const close = closable ? xml.indexOf('</testcase>', end) : -1;
    if (close === -1) {
      // No body: the next opening is searched for past this tag's `>`, never before it
      // (each unclosed opening would otherwise seek the same far `>` again).
      closable = false;
      at = end;
      continue;
    }
    found.push({ tag, body: xml.slice(end + 1, close) });
    at = close;
  }
  return found;
};

/** An element's opening tags (`<error …>`), each read up to its `>` once. */
const openingTags = (xml: string, element: string): string[] => {
  const tags: string[] = [];
  const open = `<${element}`;
  for (let at = xml.indexOf(open); at !== -1; at = xml.indexOf(open, at + 1)) {
    if (!/[\s/>]/.test(xml[at + open.length] ?? '')) continue;
    const end = xml.indexOf('>', at);
    if (end === -1) break;
    tags.push(xml.slice(at + open.length, end));
    at = end;
  }
  return tags;
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
  testcaseTags(xml).map(({ tag, body }) => ({
    name: attribute(tag, 'name'),
    classname: attribute(tag, 'classname'),
    status: /<(failure|error)\b/.test(body) ? 'fail' : /<skipped\b/.test(body) ? 'skip' : 'pass',
    collection: openingTags(body, 'error').some((error) =>
      error.includes('message="collection failure"'),
    ),
  }));

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
  for (const suite of openingTags(xml, 'testsuite')) {
    const errors = Number(attribute(suite, 'errors') ?? 0);
    const tests = Number(attribute(suite, 'tests') ?? 0);
    if (tests === 0 && errors > 0) counted.errors += errors;
  }
  return counted;
};
