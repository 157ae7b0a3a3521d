import { describe, expect, it } from 'vitest';
import { withoutUserinfo } from '../../src/util/text.ts';

describe('withoutUserinfo', () => {
  it('withholds a token carried as a path segment (Cloudsmith, Gemfury)', () => {
    expect(
      withoutUserinfo('https://dl.cloudsmith.io/Ab3dE5gH7jK9mN1p/acme/private/python/simple/'),
    ).toBe('https://dl.cloudsmith.io/regreen-withheld/acme/private/python/simple/');
    expect(withoutUserinfo('registry=https://npm-proxy.fury.io/1xYz2AbC3dEf4GhI5/acme/')).toBe(
      'registry=https://npm-proxy.fury.io/regreen-withheld/acme/',
    );
  });

  it('keeps the paths of mirrors, versions and file names', () => {
    for (const url of [
      'https://artifactory.example.com/artifactory/api/pypi/pypi-remote/simple',
      'https://nexus.example.com/repository/pypi-proxy-2024/simple/',
      'https://example.com/files/tool-1.2.3-linux-x64.tar.gz',
      'https://proxy.golang.org,direct',
      'https://registry.npmjs.org/@scope%2fname/-/name-10.20.30.tgz',
      // A host cache in a temporary folder (its random name mixes letters and digits).
      'file:///tmp/regreen-test-7lTG2x3b/go/pkg/mod/cache/download,off',
    ])
      expect(withoutUserinfo(url)).toBe(url);
  });

  it('still drops userinfo', () => {
    expect(withoutUserinfo('https://TOKEN:@host/simple')).toBe('https://host/simple');
  });
});
