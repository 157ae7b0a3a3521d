import { createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../logger.ts';

/**
 * The App's door: what a webhook request must be before a byte of its body
 * is kept or parsed. Anyone can reach it, so it costs a stranger nothing to
 * try and costs regreen a bounded amount whatever they send:
 *
 * - a request without GitHub's headers (event, delivery, a `sha256=` signature)
 *   is refused before its body is read;
 * - a body over GitHub's own limit (25 MB) is refused by its Content-Length
 *   before reading, or as soon as it grows past it while streaming;
 * - a body that is not complete within the read timeout is dropped;
 * - the signature is checked over the raw bytes before any parsing;
 * - at most `maxInFlight` bodies are read at once and at most
 *   `maxBufferedBytes` are held across them; a full door never refuses a
 *   newcomer (a stranger could hold every slot with slow senders): it drops
 *   the reader that has been reading longest, and past the byte budget the
 *   one holding the most. GitHub's deliveries take milliseconds, so a flood
 *   evicts itself;
 * - logs name the delivery, its event, its size and why it was refused,
 *   never the payload.
 */
export interface WebhookEvent {
  readonly id: string;
  readonly name: string;
  readonly payload: unknown;
}

export interface WebhookGateOptions {
  readonly secret: string;
  readonly receive: (event: WebhookEvent) => Promise<void>;
  readonly logger: Logger;
  /** GitHub caps webhook payloads at 25 MB. */
  readonly maxBytes?: number;
  readonly bodyTimeoutMs?: number;
  readonly maxInFlight?: number;
  /** Bytes held across every body being read. */
  readonly maxBufferedBytes?: number;
}

interface Reader {
  readonly started: number;
  size: number;
  drop(why: string, status: number): void;
}

export const GITHUB_MAX_PAYLOAD_BYTES = 25 * 1024 * 1024;

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Answers and closes the connection: a refused sender does not get to keep streaming its body. */
const refuse = (
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
): void => {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', connection: 'close' });
  res.end(JSON.stringify({ error: message }), () => req.destroy());
};

/** The handler of POST /api/github/webhooks. */
export const webhookGate = (
  options: WebhookGateOptions,
): ((req: IncomingMessage, res: ServerResponse) => void) => {
  const maxBytes = options.maxBytes ?? GITHUB_MAX_PAYLOAD_BYTES;
  const bodyTimeoutMs = options.bodyTimeoutMs ?? 15_000;
  const maxInFlight = options.maxInFlight ?? 32;
  const maxBuffered = Math.max(options.maxBufferedBytes ?? 64 * 1024 * 1024, maxBytes);
  const readers = new Set<Reader>();
  let buffered = 0;
  let arrivals = 0;
  const oldest = (): Reader | undefined =>
    [...readers].reduce<Reader | undefined>(
      (a, b) => (a && a.started <= b.started ? a : b),
      undefined,
    );
  const largest = (except: Reader): Reader | undefined =>
    [...readers]
      .filter((r) => r !== except)
      .reduce<Reader | undefined>((a, b) => (a && a.size >= b.size ? a : b), undefined);
  return (req, res) => {
    const delivery = header(req, 'x-github-delivery') ?? '';
    const name = header(req, 'x-github-event') ?? '';
    const signature = header(req, 'x-hub-signature-256') ?? '';
    const declared = Number(header(req, 'content-length') ?? Number.NaN);
    const noted = (why: string, status: number): void => {
      options.logger.warn(
        { delivery: delivery.slice(0, 64), event: name.slice(0, 64), status },
        `webhook refused: ${why}`,
      );
      refuse(req, res, status, why);
    };
    if (req.method !== 'POST') return noted('only POST is accepted', 405);
    if (!/^[\w.-]{1,64}$/.test(name) || !/^[\w-]{1,64}$/.test(delivery))
      return noted('not a GitHub delivery (no event or delivery id)', 400);
    if (!/^sha256=[0-9a-f]{64}$/.test(signature))
      return noted('no sha256 signature: unsigned deliveries are not read', 401);
    if (Number.isFinite(declared) && declared > maxBytes)
      return noted(`the body (${declared} bytes) is over ${maxBytes} bytes`, 413);
    // A full door makes room: the reader that has been reading longest goes.
    while (readers.size >= maxInFlight) oldest()?.drop('a newer delivery needed the slot', 503);
    let chunks: Buffer[] = [];
    let done = false;
    const hmac = createHmac('sha256', options.secret);
    const finish = (): void => {
      if (done) return;
      done = true;
      readers.delete(reader);
      buffered -= reader.size;
      chunks = [];
      clearTimeout(timer);
    };
    const reader: Reader = {
      started: (arrivals += 1),
      size: 0,
      drop: (why, status) => {
        finish();
        noted(why, status);
      },
    };
    readers.add(reader);
    const timer = setTimeout(
      () => reader.drop(`the body did not arrive within ${bodyTimeoutMs} ms`, 408),
      bodyTimeoutMs,
    );
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      if (reader.size + chunk.length > maxBytes)
        return reader.drop(`the body grew past ${maxBytes} bytes`, 413);
      reader.size += chunk.length;
      buffered += chunk.length;
      // Past the budget, the reader holding the most goes (this one, when it is the largest).
      while (buffered > maxBuffered && !done) {
        const heaviest = largest(reader);
        if (heaviest && heaviest.size > reader.size)
          heaviest.drop('the door holds too many bytes: the largest body goes', 503);
        else reader.drop('the door holds too many bytes: the largest body goes', 503);
      }
      if (done) return;
      hmac.update(chunk);
      chunks.push(chunk);
    });
    req.on('error', () => finish());
    req.on('end', () => {
      if (done) return;
      const body = chunks;
      finish();
      const expected = Buffer.from(`sha256=${hmac.digest('hex')}`);
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given))
        return noted('the signature does not match the body', 401);
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.concat(body).toString('utf8'));
      } catch {
        return noted('the body is not JSON', 400);
      }
      options.receive({ id: delivery, name, payload }).then(
        () => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end('ok\n');
        },
        (error: unknown) => {
          options.logger.error(
            { delivery, event: name, err: error instanceof Error ? error.message : String(error) },
            'the webhook handler failed',
          );
          refuse(req, res, 500, 'the handler failed');
        },
      );
    });
  };
};
