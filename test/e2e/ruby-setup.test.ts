/**
 * A Ruby project reproduces as its CI did: Bundler installs the Gemfile's
 * gems from the project's source (a RubyGems source on loopback, which the
 * operator's own gemrc names, so the set-up's proxy may reach it), the tests
 * run under `bundle exec`, the failure is minitest's assertion, and the fix
 * is proposed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commit, editScript, expectProposed, fix, write } from '../support/ecosystem.ts';
import { gemrcOf, installedGem, startGemSource, type GemSource } from '../support/gem-source.ts';
import { makeTempDir } from '../support/tmp.ts';

const temp = makeTempDir('regreen-ruby-');
afterAll(() => temp.cleanup());

let source: GemSource;
beforeAll(async () => {
  source = await startGemSource(path.join(temp.dir, 'gems'), [
    installedGem('minitest'),
    {
      name: 'calc_helpers',
      version: '1.0.0',
      files: { 'lib/calc_helpers.rb': 'module CalcHelpers\n  def self.twice(x) = x * 2\nend\n' },
    },
  ]);
});
afterAll(() => source.close());

describe('a Ruby project with a Gemfile', () => {
  it('is installed by Bundler from its own source, fails as CI did, and its fix is proposed', async () => {
    const repo = path.join(temp.dir, 'calc');
    write(repo, {
      Gemfile: `source ${JSON.stringify(source.url)}\n\ngem "calc_helpers"\ngem "minitest"\n`,
      'lib/calc.rb':
        'require "calc_helpers"\n\nmodule Calc\n  def self.double_sum(a, b) = CalcHelpers.twice(a - b)\nend\n',
      'test/calc_test.rb':
        'require "minitest/autorun"\nrequire "calc"\n\nclass CalcTest < Minitest::Test\n  def test_double_sum\n    assert_equal 8, Calc.double_sum(2, 2)\n  end\nend\n',
      '.gitignore': '/vendor/\n/.bundle/\n',
    });
    commit(repo);
    const script = editScript(temp.dir, 'ruby', 'lib/calc.rb', 'twice(a - b)', 'twice(a + b)');
    const result = await fix(repo, script, { GEMRC: gemrcOf(temp.dir, source) }, [
      '--command',
      'bundle exec ruby -Ilib -Itest test/calc_test.rb',
    ]);
    expect(result.stderr).toMatch(
      /prepare .*setup: bundle config set --local path vendor\/bundle && bundle install → exit 0/,
    );
    expect(result.stderr).toMatch(/reproduce .*failed \(exit 1\)/);
    expect(source.asked).toContain('gems/calc_helpers-1.0.0.gem');
    expect(source.asked).toContain('gems/minitest-5.15.0.gem');
    expectProposed(result, repo, 'lib/calc.rb', 'twice(a + b)');
    // The bundle went into the job's workspace, never into the repository.
    expect(existsSync(path.join(repo, 'vendor'))).toBe(false);
  }, 300_000);
});
