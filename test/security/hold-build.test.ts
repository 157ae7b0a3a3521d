/**
 * Holding a build's outputs chowns and chmods files on the host, in a tree
 * where a build of the change's just ran: what it holds, what it leaves the
 * sandbox (cargo's lock, Maven's resources), the folders on the way, no link
 * followed, and everything given back after the runs.
 */
import { lstatSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdBuild } from '../../src/job/stages/hold-build.ts';
import { NOBODY } from '../../src/workspace/sandbox/identity.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-hold-build-');
afterAll(() => temp.cleanup());

const files = (root: string, entries: Record<string, string>): void => {
  for (const [file, text] of Object.entries(entries)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text, { mode: 0o644 });
  }
};

const owner = (file: string): number => lstatSync(file).uid;
const mode = (file: string): number => lstatSync(file).mode & 0o7777;

describe('holdBuild: what the build made first, held still through the judged runs', () => {
  it('cargo’s target and a Maven module’s class files: nobody’s and read-only, the rest left writable, all given back', () => {
    const tree = path.join(temp.dir, 'tree');
    const outside = path.join(temp.dir, 'outside');
    files(tree, {
      'Cargo.toml': '[package]\n',
      // What cargo writes at the top of its target folder, which is how it is known.
      'target/CACHEDIR.TAG': 'Signature: 8a477f597d28d172789f06886806bc55\n',
      'target/.rustc_info.json': '{}',
      'target/debug/deps/add-0123': 'binary',
      // A target folder of its own (`cargo test --target-dir out/cargo`), of an older cargo that
      // writes no rustc cache: known by its tag and its profile's folder.
      'out/cargo/CACHEDIR.TAG': 'Signature: 8a477f597d28d172789f06886806bc55\n',
      'out/cargo/debug/deps/add-4567': 'binary',
      'target/debug/.cargo-lock': '',
      'target/tmp/.keep': '',
      'java/pom.xml': '<project/>',
      'java/target/classes/calc/Calc.class': 'class',
      'java/target/classes/app.properties': 'a=1',
      'java/target/test-classes/calc/CalcTest.class': 'class',
      'java/target/surefire-reports/old.txt': 'report',
    });
    files(outside, { victim: 'host' });
    symlinkSync(path.join(outside, 'victim'), path.join(tree, 'target/debug/deps/link'));
    const before = mode(path.join(tree, 'target/debug/deps/add-0123'));

    const held = holdBuild(tree, new Set(['cargo', 'maven']), true);

    expect([...held.folders].sort()).toEqual([
      'java/target/classes',
      'java/target/test-classes',
      'out/cargo',
      'target',
    ]);
    expect(owner(path.join(tree, 'out/cargo/debug/deps/add-4567'))).toBe(NOBODY);
    expect(owner(path.join(tree, 'out'))).toBe(NOBODY);
    expect([...held.mounts].sort()).toEqual(
      ['java', 'out', 'target'].map((top) => path.join(tree, top)),
    );
    // cargo: every file and folder nobody's, files read-only, folders sticky; the lock left alone.
    expect(owner(path.join(tree, 'target/debug/deps/add-0123'))).toBe(NOBODY);
    expect(mode(path.join(tree, 'target/debug/deps/add-0123')) & 0o222).toBe(0);
    // Closed (a new library on the test binaries' library path would be loaded), but for tmp/.
    expect(mode(path.join(tree, 'target/debug'))).toBe(0o755);
    expect(mode(path.join(tree, 'target/tmp'))).toBe(0o1777);
    expect(owner(path.join(tree, 'target/debug/.cargo-lock'))).toBe(0);
    // The link is the held one, what it names is untouched.
    expect(owner(path.join(tree, 'target/debug/deps/link'))).toBe(NOBODY);
    expect(statSync(path.join(outside, 'victim')).uid).toBe(0);
    expect(mode(path.join(outside, 'victim'))).toBe(0o644);
    // Maven: class files held; a folder of class files alone closed, one with a resource sticky.
    expect(owner(path.join(tree, 'java/target/classes/calc/Calc.class'))).toBe(NOBODY);
    expect(mode(path.join(tree, 'java/target/classes/calc'))).toBe(0o755);
    expect(mode(path.join(tree, 'java/target/classes'))).toBe(0o1777);
    expect(owner(path.join(tree, 'java/target/classes/app.properties'))).toBe(0);
    // The folder on the way is sticky and nobody's: a held folder cannot be renamed away.
    expect(owner(path.join(tree, 'java/target'))).toBe(NOBODY);
    expect(mode(path.join(tree, 'java/target'))).toBe(0o1777);
    expect(owner(path.join(tree, 'java/target/surefire-reports/old.txt'))).toBe(0);

    held.release();
    for (const file of [
      'target/debug/deps/add-0123',
      'target/debug',
      'target/debug/deps/link',
      'java/target',
      'java/target/classes/calc/Calc.class',
    ])
      expect(owner(path.join(tree, file)), file).toBe(0);
    expect(mode(path.join(tree, 'target/debug/deps/add-0123'))).toBe(before);
  });

  it('holds only the tools the build ran, and nothing where regreen is not root', () => {
    const tree = path.join(temp.dir, 'gradle');
    files(tree, {
      'build.gradle': '',
      'build/classes/java/test/calc/CalcTest.class': 'class',
      'build/resources/test/data.json': '{}',
      'build/tmp/compileJava/state': 'x',
      'Cargo.toml': '',
      'target/CACHEDIR.TAG': '',
      'target/.rustc_info.json': '{}',
      'target/debug/deps/add-0123': 'binary',
    });
    expect(holdBuild(tree, new Set(['gradle']), false).entries).toBe(0);
    const held = holdBuild(tree, new Set(['gradle']), true);
    expect([...held.folders].sort()).toEqual(['build/classes', 'build/resources']);
    expect(owner(path.join(tree, 'build/resources/test/data.json'))).toBe(NOBODY);
    expect(mode(path.join(tree, 'build/classes/java/test'))).toBe(0o755);
    expect(owner(path.join(tree, 'build/tmp/compileJava/state'))).toBe(0);
    expect(owner(path.join(tree, 'target/debug/deps/add-0123'))).toBe(0);
    held.release();
  });
});
