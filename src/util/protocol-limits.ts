/**
 * The host reads the pipes of processes in the sandbox (a kernel's driver, a
 * language server, a debug adapter): code of the repository's can write
 * anything there. No message is held past a bound: a line or a framed
 * message longer than it ends the conversation (the caller stops the
 * process), instead of growing one string or buffer in the host until it
 * dies.
 */
import { Transform, type Readable, type TransformCallback } from 'node:stream';

/** The most one protocol message may weigh (a cell's result, a tool call, an LSP answer). */
export const MAX_PROTOCOL_MESSAGE_BYTES = 64 * 1024 * 1024;

/** A size as a person reads it. */
const sized = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;

/** The most a framed message's header block may weigh. */
const MAX_HEADER_BYTES = 64 * 1024;

/**
 * Calls `onLine` for each line of `input` (without its newline); a line over
 * `max` bytes calls `onTooLong` once and nothing more is read.
 */
export const boundedLines = (
  input: Readable,
  onLine: (line: string) => void,
  onTooLong: (why: string) => void,
  max = MAX_PROTOCOL_MESSAGE_BYTES,
): void => {
  let pieces: Buffer[] = [];
  let held = 0;
  let stopped = false;
  const onData = (chunk: Buffer): void => {
    let start = 0;
    for (;;) {
      const end = chunk.indexOf(0x0a, start);
      if (end < 0) break;
      const piece = chunk.subarray(start, end);
      if (held + piece.length > max) return stop();
      const line = Buffer.concat([...pieces, piece]).toString('utf8');
      pieces = [];
      held = 0;
      onLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      if (stopped) return;
      start = end + 1;
    }
    const rest = chunk.subarray(start);
    if (held + rest.length > max) return stop();
    if (rest.length > 0) {
      pieces.push(Buffer.from(rest));
      held += rest.length;
    }
  };
  const stop = (): void => {
    stopped = true;
    pieces = [];
    input.off('data', onData);
    input.resume(); // drained, never held
    onTooLong(`it wrote a line of over ${sized(max)}`);
  };
  input.on('data', onData);
};

/**
 * Passes a `Content-Length`-framed stream (LSP, DAP) through, watching its
 * frames: a header block over 64 KiB, or a message declared or grown over
 * `max` bytes, calls `onTooLong` once and ends the stream.
 */
export const framedGuard = (
  onTooLong: (why: string) => void,
  max = MAX_PROTOCOL_MESSAGE_BYTES,
): Transform => {
  let header = '';
  let body = 0; // bytes of the current message's body still to come
  let stopped = false;
  const fail = (why: string, done: TransformCallback): void => {
    stopped = true;
    onTooLong(`it sent ${why}, over the ${sized(max)} a message may weigh`);
    done();
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (stopped) return done();
      let offset = 0;
      while (offset < chunk.length) {
        if (body > 0) {
          const take = Math.min(body, chunk.length - offset);
          body -= take;
          offset += take;
          continue;
        }
        const end = chunk.indexOf('\r\n\r\n', offset);
        const part = chunk.subarray(offset, end < 0 ? chunk.length : end + 4).toString('latin1');
        header += part;
        offset += part.length;
        if (header.length > MAX_HEADER_BYTES) return fail('a header block over 64 KiB', done);
        if (end < 0) break;
        const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1] ?? 0);
        header = '';
        if (length > max) return fail(`a message of ${sized(length)} declared`, done);
        body = length;
      }
      done(null, chunk);
    },
  });
};
