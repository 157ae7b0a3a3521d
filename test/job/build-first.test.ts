import { describe, expect, it } from 'vitest';
import { buildFirst } from '../../src/job/stages/build-first.ts';

describe('buildFirst: the build a judged command makes, as a command of its own', () => {
  it('cargo test: --no-run after the subcommand, the test binaries’ own arguments dropped', () => {
    const build = buildFirst(['cargo test --workspace --all-features -- --ignored']);
    expect(build?.command).toBe('( cargo test --no-run --workspace --all-features )');
    expect([...(build?.kinds ?? [])]).toEqual(['cargo']);
  });

  it('cargo: a toolchain, global flags and variables kept; other subcommands build nothing here', () => {
    expect(buildFirst(['RUST_BACKTRACE=1 cargo +nightly --locked t -p calc'])?.command).toBe(
      '( RUST_BACKTRACE=1 cargo +nightly --locked t --no-run -p calc )',
    );
    expect(buildFirst(['cargo build && cargo clippy'])).toBeUndefined();
  });

  it('Maven and Gradle, wrappers too: the same arguments, their tests skipped', () => {
    expect(buildFirst(['./mvnw -B verify'])?.command).toBe('( ./mvnw -B verify -DskipTests )');
    expect(buildFirst(['./gradlew :app:check --offline'])?.command).toBe(
      '( ./gradlew :app:check --offline -x test testClasses )',
    );
  });

  it('lists: the cds kept, every other command dropped, each judged command from the top', () => {
    const build = buildFirst([
      'npm ci && cd backend && mvn -q test 2>&1 | tee log.txt',
      'cd core; cargo test',
    ]);
    expect(build?.command).toBe(
      '( cd backend && mvn -q test -DskipTests ) && ( cd core && cargo test --no-run )',
    );
    expect([...(build?.kinds ?? [])].sort()).toEqual(['cargo', 'maven']);
  });

  it('quotes are one word, and the same command twice is built once', () => {
    expect(
      buildFirst(['mvn "-Dtest=Calc Test" test', 'mvn "-Dtest=Calc Test" test'])?.command,
    ).toBe('( mvn "-Dtest=Calc Test" test -DskipTests )');
  });

  it('the judged commands go on without the cleans the build first began with, all else as written', () => {
    const build = buildFirst(['mvn -B clean  verify', './gradlew clean :app:clean test']);
    expect(build?.command).toBe(
      '( mvn -B clean verify -DskipTests ) && ( ./gradlew clean :app:clean test -x test testClasses )',
    );
    expect(build?.judged('mvn -B clean  verify')).toBe('mvn -B   verify');
    expect(build?.judged('./gradlew clean :app:clean test')).toBe('./gradlew   test');
    expect(build?.judged('cargo clean && RUST_LOG=1 cargo test -- --nocapture')).toBe(
      'true && RUST_LOG=1 cargo test -- --nocapture',
    );
    // A word that only looks like one is left alone: a test named clean, a quoted argument.
    expect(build?.judged('cargo test clean && mvn "clean" -Dtest=clean test')).toBe(
      'cargo test clean && mvn "clean" -Dtest=clean test',
    );
  });

  it('commands that run none of these tools build nothing first', () => {
    expect(buildFirst(['npm test', 'pytest -q', 'go test ./...', 'make test'])).toBeUndefined();
  });
});
