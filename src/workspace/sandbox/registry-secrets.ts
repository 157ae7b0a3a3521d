/**
 * What of an operator's registry URL the sandbox must never read, computed from the URL rather
 * than guessed from its shape: the userinfo's parts, every segment of its path, every label of
 * its host name before the registrable domain (`<TOKEN>.pkgs.example`: the token), every query
 * value, and the npmrc credential the host adds — each in every spelling a server is likely to
 * write it back in: as configured and decoded, percent-encoded in upper and lower hex,
 * JSON-escaped and base64 (at each of the three byte alignments, standard and URL-safe).
 *
 * Matched case-insensitively (a host name comes back in any case; base64 matched so is a superset).
 * A piece shorter than `MIN_PIECE` is no credential (it would be guessed) and would match ordinary
 * text: it is not scanned for.
 */
export const MIN_PIECE = 8;

/** The most spellings of a registry's pieces kept (bounds the scan's cost per byte). */
const MAX_FORMS = 512;

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/** The labels of a host name before its registrable domain (a name's last two labels, three under `co.uk`-like suffixes). */
const privateLabels = (hostname: string): string[] => {
  if (/^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return [];
  const labels = hostname.split('.').filter(Boolean);
  const last = labels.at(-1) ?? '';
  const second = labels.at(-2) ?? '';
  const registrable = last.length === 2 && second.length <= 3 ? 3 : 2;
  return labels.slice(0, Math.max(0, labels.length - registrable));
};

/** The secret pieces of one operator URL (and its npmrc `Authorization`, when the host adds one). */
export const secretPieces = (upstream: string, authorization?: string): string[] => {
  const url = new URL(upstream);
  const pieces: string[] = [url.username, url.password, ...privateLabels(url.hostname)];
  if (url.username || url.password) pieces.push(`${url.username}:${url.password}`);
  pieces.push(...url.pathname.split('/'));
  for (const [, value] of url.searchParams) pieces.push(value);
  // The query as written too: a value's own encoding (`+`, `%2B`) is one more spelling.
  for (const pair of url.search.slice(1).split('&')) pieces.push(pair.slice(pair.indexOf('=') + 1));
  if (authorization) {
    const space = authorization.indexOf(' ');
    const credential = space < 0 ? authorization : authorization.slice(space + 1);
    pieces.push(credential);
    if (authorization.toLowerCase().startsWith('basic ')) {
      const pair = Buffer.from(credential, 'base64').toString('utf8');
      pieces.push(pair, ...pair.split(':'));
    }
  }
  const all = pieces.flatMap((piece) => [piece, decoded(piece)]);
  return [...new Set(all)].filter((piece) => piece.length >= MIN_PIECE);
};

/** A piece's base64, at byte alignment `shift` inside a longer text: only the characters it alone decides. */
const base64At = (bytes: Buffer, shift: number): string => {
  const padded = Buffer.concat([Buffer.alloc(shift), bytes]);
  const whole = Math.floor(padded.length / 3) * 4;
  const skip = shift === 0 ? 0 : shift === 1 ? 2 : 3;
  return padded.toString('base64').slice(skip, whole);
};

/** Every spelling of a piece that is scanned for, lower-cased. */
export const spellingsOf = (piece: string): string[] => {
  const bytes = Buffer.from(piece, 'utf8');
  const encoded = encodeURIComponent(piece);
  const forms = [
    piece,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
    // Every byte escaped (a server that encodes the unreserved too).
    [...bytes].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join(''),
    JSON.stringify(piece).slice(1, -1),
    JSON.stringify(piece).slice(1, -1).replaceAll('/', '\\/'),
  ];
  for (const shift of [0, 1, 2]) {
    const form = base64At(bytes, shift);
    forms.push(form, form.replaceAll('+', '-').replaceAll('/', '_'));
  }
  return forms.map((form) => form.toLowerCase()).filter((form) => form.length >= 4);
};

/** Every spelling of every secret piece of the registries, as byte strings (latin1), lower-cased. */
export const secretSpellings = (
  registries: readonly { readonly upstream: string; readonly authorization?: string }[],
): string[] => {
  const forms = new Set<string>();
  for (const registry of registries)
    for (const piece of secretPieces(registry.upstream, registry.authorization))
      for (const form of spellingsOf(piece))
        forms.add(Buffer.from(form, 'utf8').toString('latin1'));
  return [...forms].slice(0, MAX_FORMS);
};

/** Byte strings as the scan compares them: latin1, lower-cased (one character per byte). */
export const scanText = (bytes: Buffer | string): string =>
  (typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes).toString('latin1').toLowerCase();

/**
 * Whether `text` (as `scanText` gives it) holds a spelling, except where the occurrence lies
 * inside one of `echoes` (what the sandbox itself sent: it cannot learn what it wrote).
 */
export const holdsSpelling = (
  text: string,
  spellings: readonly string[],
  echoes: readonly string[] = [],
  /** Only occurrences that end after this index (what was scanned before is not again). */
  after = 0,
): boolean => {
  for (const form of spellings) {
    const from = Math.max(0, after - form.length + 1);
    for (let at = text.indexOf(form, from); at >= 0; at = text.indexOf(form, at + 1)) {
      if (!insideEcho(text, at, form, echoes)) return true;
    }
  }
  return false;
};

const insideEcho = (text: string, at: number, form: string, echoes: readonly string[]): boolean =>
  echoes.some((echo) => {
    for (let offset = echo.indexOf(form); offset >= 0; offset = echo.indexOf(form, offset + 1)) {
      const start = at - offset;
      if (start >= 0 && text.startsWith(echo, start)) return true;
    }
    return false;
  });

/** The words of what the sandbox sent (its path below the alias, query, `Accept`), as the scan compares them. */
export const echoesOf = (texts: readonly string[]): string[] => {
  const words = texts.flatMap((text) => scanText(text).split(/[\s,;&?=/]+/));
  return [...new Set(words)].filter((word) => word.length >= MIN_PIECE).slice(0, 64);
};

/**
 * A body passed on as it streams, never a byte of a secret spelling among what is passed: each
 * chunk is scanned together with the bytes before it (so a spelling split across chunks is
 * found whole), and the last bytes, which could begin one, are held back until the next chunk or
 * the end shows they do not.
 */
export interface BodyScan {
  /** What may be passed on of this chunk (`undefined`: a spelling was found, pass nothing more). */
  push(chunk: Buffer): Buffer | undefined;
  /** What is left at the end (`undefined`: a spelling was found). */
  end(): Buffer | undefined;
}

export const bodyScan = (spellings: readonly string[], echoes: readonly string[]): BodyScan => {
  const longest = Math.max(1, ...spellings.map((form) => form.length));
  const hold = longest - 1;
  const context = longest + Math.max(0, ...echoes.map((echo) => echo.length));
  let before = '';
  let held = Buffer.alloc(0);
  let found = false;
  /** Scans what is pending after what passed before; its text, as the scan compares it. */
  const scan = (pending: Buffer): string | undefined => {
    const text = scanText(pending);
    found ||= holdsSpelling(before + text, spellings, echoes, before.length);
    return found ? undefined : text;
  };
  return {
    push: (chunk) => {
      if (found) return undefined;
      const pending = held.length === 0 ? chunk : Buffer.concat([held, chunk]);
      const text = scan(pending);
      if (text === undefined) return undefined;
      const cut = Math.max(0, pending.length - hold);
      held = Buffer.from(pending.subarray(cut));
      before = (before + text.slice(Math.max(0, cut - context), cut)).slice(-context);
      return pending.subarray(0, cut);
    },
    end: () => (found || scan(held) === undefined ? undefined : held),
  };
};
