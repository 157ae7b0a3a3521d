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
      '( ./gradlew :app:check --offline -x test )',
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

  it('commands that run none of these tools build nothing first', () => {
    expect(buildFirst(['npm test', 'pytest -q', 'go test ./...', 'make test'])).toBeUndefined();
  });
});
