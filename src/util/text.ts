/** Keeps the last `maxBytes` bytes of a growing output, counting what was dropped. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  total = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.maxBytes && this.chunks.length > 0) {
      const first = this.chunks[0] as Buffer;
      const excess = this.size - this.maxBytes;
      if (first.length <= excess) {
        this.chunks.shift();
        this.size -= first.length;
      } else {
        this.chunks[0] = first.subarray(excess);
        this.size -= excess;
      }
    }
  }

  get dropped(): number {
    return this.total - this.size;
  }

  toString(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/**
 * The longest line of text from outside (a log, a command's output, a
 * repository's file) the host reads: a pattern whose match moves along a
 * line costs at most this squared, never a line's length squared.
 */
export const MAX_LINE_CHARS = 4096;

/** The most of one text from outside the host reads whole (a log's or an output's end is kept). */
export const MAX_TEXT_CHARS = 16 * 1024 * 1024;

/**
 * Text from outside bounded where it enters the host: at most `maxChars`
 * (its end kept, where a log's failure is), each line at most `maxLineChars`
 * (its start kept), and every cut said in the text (`[… N chars cut]`).
 * Linear in the text's length; text within the bounds comes back as it was.
 */
export const boundText = (
  text: string,
  { maxChars = MAX_TEXT_CHARS, maxLineChars = MAX_LINE_CHARS } = {},
): string => {
  const whole =
    text.length <= maxChars
      ? text
      : `[… ${text.length - maxChars} earlier chars cut]\n${text.slice(text.length - maxChars)}`;
  const pieces: string[] = [];
  let start = 0;
  let last = 0;
  for (let end = whole.indexOf('\n'); ; end = whole.indexOf('\n', start)) {
    const stop = end < 0 ? whole.length : end;
    if (stop - start > maxLineChars) {
      pieces.push(
        whole.slice(last, start + maxLineChars),
        ` [… ${stop - start - maxLineChars} chars cut]`,
      );
      last = stop;
    }
    if (end < 0) break;
    start = end + 1;
  }
  return last === 0 ? whole : pieces.join('') + whole.slice(last);
};

/** The last `maxLines` lines of a text, with a marker saying how many were cut. */
export const tailLines = (text: string, maxLines: number): string => {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return text;
  const cut = lines.length - maxLines;
  return [`[… ${cut} earlier lines cut]`, ...lines.slice(cut)].join('\n');
};

/** True when the bytes look binary (a NUL in the first 8 KiB, as git decides). */
export const looksBinary = (bytes: Uint8Array): boolean => {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i += 1) if (bytes[i] === 0) return true;
  return false;
};

/** Decodes UTF-8 strictly; returns undefined for invalid input. */
export const decodeUtf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
};

/** Removes ANSI escape sequences (colours, cursor moves) from terminal output. */
export const stripAnsi = (text: string): string =>
  // eslint-disable-next-line no-control-regex
  text.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007/g, '');

/**
 * Text from a command or a repository made safe to show on a person's
 * terminal: escape sequences removed, then every other control character
 * (a lone ESC, BEL, C1 controls such as a one-byte CSI or OSC) — so output
 * cannot set the title, write the clipboard or move the cursor.
 */
export const printable = (text: string): string =>
  stripAnsi(text)
    .replace(/\t/g, ' ')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '');

/** A string as one shell word, always single-quoted (`'` written as `'\\''`). */
export const quote = (value: string): string => `'${value.replaceAll("'", `'\\''`)}'`;

/** A string as one shell word: as it is when nothing in it is special, else single-quoted. */
export const shellWord = (text: string): string =>
  /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;

/**
 * The userinfo of every URL in a value (`https://TOKEN:@host`, `https://TOKEN@host`,
 * `https://user:pass@host`, a token in a GOPROXY list): a credential whatever
 * the variable is called. Removed, never trusted to a shape of name or value.
 */
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@?#]*@/gi;

/**
 * A path segment that is a token (Cloudsmith's and Gemfury's index URLs carry
 * one first): 16 characters or more of a token's alphabet, where letters and
 * digits alternate (a version or a name has them in runs).
 */
const tokenLike = (segment: string): boolean => {
  if (segment.length < 16 || !/^[\w-]+$/.test(segment)) return false;
  let turns = 0;
  for (let i = 1; i < segment.length; i += 1) {
    const [a, b] = [segment.charAt(i - 1), segment.charAt(i)];
    if ((/\d/.test(a) && /[a-z]/i.test(b)) || (/[a-z]/i.test(a) && /\d/.test(b))) turns += 1;
  }
  return turns >= 3;
};

/** Every URL of a value without its userinfo and without a path segment that is a token. */
export const withoutUserinfo = (value: string): string =>
  // Over the network only: a `file://` cache's path is the host's own (and a temporary
  // folder's random name could pass for a token).
  value.replace(URL_USERINFO, '$1').replace(/\bhttps?:\/\/[^\s'"]+/gi, (url) =>
    url
      .split('/')
      .map((segment, index) => (index >= 3 && tokenLike(segment) ? 'regreen-withheld' : segment))
      .join('/'),
  );

/**
 * At most about `max` characters of a text quoted into a message (an outcome's reason, an error):
 * its head and its tail, and between them how many characters were cut. The one way a text
 * from a repository (a step's `env`, a command) is shortened where it is quoted.
 */
export const bounded = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const tail = Math.floor(max / 4);
  const head = Math.max(0, max - tail);
  return `${text.slice(0, head)}[… ${text.length - head - tail} characters cut]${text.slice(text.length - tail)}`;
};
