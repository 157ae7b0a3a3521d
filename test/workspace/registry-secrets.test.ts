/**
 * The secret pieces of an operator's registry URL and their spellings (issue 61, class 3):
 * computed from the URL, found in any of the forms a server writes them back in, wherever they
 * stand in a body, split across chunks or not.
 */
import { describe, expect, it } from 'vitest';
import {
  bodyScan,
  echoesOf,
  holdsSpelling,
  scanText,
  secretPieces,
  secretSpellings,
} from '../../src/workspace/sandbox/registry-secrets.ts';

const URL_OF =
  'https://ci-bot:PaSsWoRd9@hosttoken77.pkgs.example/pathtoken88/simple/?channel=querytoken99';
const spellings = secretSpellings([{ upstream: URL_OF, authorization: 'Bearer npmtoken0001' }]);
const holds = (text: string, echoes: readonly string[] = []): boolean =>
  holdsSpelling(scanText(text), spellings, echoes);

describe('secret pieces', () => {
  it('are the userinfo, each path segment, the host labels before the registrable domain, the query values, the npmrc credential', () => {
    const pieces = secretPieces(URL_OF, 'Bearer npmtoken0001');
    for (const piece of [
      'PaSsWoRd9',
      'ci-bot:PaSsWoRd9',
      'hosttoken77',
      'pathtoken88',
      'querytoken99',
      'npmtoken0001',
    ])
      expect(pieces).toContain(piece);
    // The registrable domain is public; a piece too short to be a credential is not scanned for.
    expect(pieces).not.toContain('pkgs');
    expect(pieces).not.toContain('example');
    expect(pieces).not.toContain('simple');
  });

  it.each([
    ['raw', 'x pathtoken88 y'],
    ['another case', 'HOSTTOKEN77.pkgs.example'],
    ['percent-encoded, upper hex', encodeURIComponent('ci-bot:PaSsWoRd9')],
    ['percent-encoded, lower hex', encodeURIComponent('ci-bot:PaSsWoRd9').toLowerCase()],
    [
      'every byte escaped',
      [...Buffer.from('querytoken99')].map((b) => `%${b.toString(16)}`).join(''),
    ],
    ['base64 at offset 0', Buffer.from('ci-bot:PaSsWoRd9').toString('base64')],
    ['base64 at offset 1', Buffer.from('xci-bot:PaSsWoRd9').toString('base64')],
    ['base64 at offset 2', Buffer.from('xxpathtoken88yy').toString('base64')],
    ['base64url', Buffer.from('a?>pathtoken88?>').toString('base64url')],
  ])('are found %s', (_how, text) => {
    expect(holds(text)).toBe(true);
  });

  it('are not found in text that holds none, nor inside a word the sandbox itself sent', () => {
    expect(holds('an ordinary page about pkgs.example and simple things')).toBe(false);
    expect(holds('links for mypathtoken88lib', echoesOf(['/~/~/mypathtoken88lib/']))).toBe(false);
    expect(
      holds('links for mypathtoken88lib and pathtoken88', echoesOf(['/~/~/mypathtoken88lib/'])),
    ).toBe(true);
  });

  it('are found split across chunks, and no byte of one passes', () => {
    const scan = bodyScan(spellings, []);
    const first = scan.push(Buffer.from(`${'a'.repeat(1000)}pathto`));
    expect(first?.toString()).not.toContain('pathto');
    expect(scan.push(Buffer.from('ken88 rest'))).toBeUndefined();
    expect(scan.end()).toBeUndefined();
  });

  it('let a clean stream through whole', () => {
    const scan = bodyScan(spellings, []);
    const parts = ['abc'.repeat(5000), 'pathtoken8', '7 and more'].map((part) =>
      scan.push(Buffer.from(part)),
    );
    const out = Buffer.concat([
      ...parts.map((part) => part ?? Buffer.alloc(0)),
      scan.end() ?? Buffer.alloc(0),
    ]);
    expect(out.toString()).toBe(`${'abc'.repeat(5000)}pathtoken87 and more`);
  });
});
