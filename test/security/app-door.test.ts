/**
 * The App's door (#34 class 8): an unsigned body is refused before it is
 * read, a body over GitHub's limit before or while it streams, a slow sender
 * is dropped, deliveries read at once are bounded, the signature is checked
 * over the raw bytes before parsing, and no payload reaches the log. Driven
 * by real HTTP clients against a real server.
 */
import { createHmac } from 'node:crypto';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { webhookGate, type WebhookEvent } from '../../src/github/webhook-gate.ts';

const SECRET = 'door-secret';
const CANARY = 'PAYLOAD-CANARY-91c2';
const sign = (body: Buffer | string): string =>
  `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

let server: Server | undefined;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server?.close(() => resolve()));
  }
  server = undefined;
});

const start = async (
  options: {
    maxBufferedBytes?: number;
    maxBytes?: number;
    bodyTimeoutMs?: number;
    maxInFlight?: number;
    hold?: Promise<void>;
  } = {},
) => {
  const logs: string[] = [];
  const received: WebhookEvent[] = [];
  const logger = pino(
    { level: 'debug' },
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  const gate = webhookGate({
    secret: SECRET,
    logger,
    receive: async (event) => {
      received.push(event);
      await options.hold;
    },
    ...(options.maxBytes !== undefined ? { maxBytes: options.maxBytes } : {}),
    ...(options.bodyTimeoutMs !== undefined ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    ...(options.maxInFlight !== undefined ? { maxInFlight: options.maxInFlight } : {}),
    ...(options.maxBufferedBytes !== undefined
      ? { maxBufferedBytes: options.maxBufferedBytes }
      : {}),
  });
  server = createServer(gate);
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { port, logs, received };
};

interface Sent {
  status: number;
  /** Bytes the client had written when the answer came. */
  sentWhenAnswered: number;
}

/** Streams `total` bytes (a JSON string padded with the canary) in 1 MiB chunks, as fast as the server reads. */
const stream = (
  port: number,
  headers: Record<string, string>,
  total: number,
  options: { stallAfter?: number } = {},
): Promise<Sent> =>
  new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, method: 'POST', path: '/api/github/webhooks', headers },
      (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, sentWhenAnswered: sent });
      },
    );
    // A connection the door cut before its answer arrived reads as status 0.
    req.on('error', () => {
      if (!answered) resolve({ status: 0, sentWhenAnswered: sent });
      answered = true;
    });
    const chunk = Buffer.alloc(1024 * 1024, CANARY);
    const pump = (): void => {
      while (!answered && sent < total) {
        if (options.stallAfter !== undefined && sent >= options.stallAfter) return;
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!answered && sent >= total) req.end();
    };
    pump();
  });

const post = async (port: number, body: string, headers: Record<string, string>) => {
  const response = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  await response.text();
  return response.status;
};

const github = (extra: Record<string, string> = {}): Record<string, string> => ({
  'x-github-event': 'workflow_run',
  'x-github-delivery': 'd-1',
  ...extra,
});

describe("the App's door", () => {
  it('a signed, well-formed delivery is parsed and handed on', async () => {
    const door = await start();
    const body = JSON.stringify({ action: 'completed', marker: CANARY });
    expect(await post(door.port, body, github({ 'x-hub-signature-256': sign(body) }))).toBe(200);
    expect(door.received).toEqual([
      { id: 'd-1', name: 'workflow_run', payload: { action: 'completed', marker: CANARY } },
    ]);
  });

  it('an unsigned 256 MiB body is refused before it is read', async () => {
    const door = await start();
    const sent = await stream(door.port, github(), 256 * 1024 * 1024);
    expect(sent.status).toBe(401);
    expect(sent.sentWhenAnswered).toBeLessThan(64 * 1024 * 1024);
    expect(door.received).toEqual([]);
  }, 60_000);

  it('a body declared over the limit is refused before reading; one that grows past it while streaming too', async () => {
    const door = await start({ maxBytes: 4 * 1024 * 1024 });
    const declared = await stream(
      door.port,
      github({ 'x-hub-signature-256': sign('x'), 'content-length': String(64 * 1024 * 1024) }),
      64 * 1024 * 1024,
    );
    expect(declared.status).toBe(413);
    expect(declared.sentWhenAnswered).toBeLessThan(32 * 1024 * 1024);
    // Chunked: no length to judge by, so it is cut where it passes the limit.
    const chunked = await stream(
      door.port,
      github({ 'x-hub-signature-256': sign('x'), 'transfer-encoding': 'chunked' }),
      64 * 1024 * 1024,
    );
    expect(chunked.status).toBe(413);
    expect(chunked.sentWhenAnswered).toBeLessThan(32 * 1024 * 1024);
    expect(door.received).toEqual([]);
  }, 60_000);

  it('a wrong signature is refused before parsing, and the log names the delivery, never the payload', async () => {
    const door = await start();
    const body = JSON.stringify({ marker: CANARY });
    const status = await post(
      door.port,
      body,
      github({ 'x-hub-signature-256': sign('another body') }),
    );
    expect(status).toBe(401);
    expect(door.received).toEqual([]);
    const log = door.logs.join('');
    expect(log).toContain('d-1');
    expect(log).toContain('signature does not match');
    expect(log).not.toContain(CANARY);
    // Signed but not JSON: refused, nothing handed on.
    expect(
      await post(door.port, 'not json', github({ 'x-hub-signature-256': sign('not json') })),
    ).toBe(400);
  });

  it('a sender that stalls is dropped after the read timeout', async () => {
    const door = await start({ bodyTimeoutMs: 300 });
    const stalled = await stream(
      door.port,
      github({ 'x-hub-signature-256': sign('x'), 'content-length': String(8 * 1024 * 1024) }),
      8 * 1024 * 1024,
      { stallAfter: 1024 * 1024 },
    );
    expect(stalled.status).toBe(408);
  }, 30_000);

  it('slow senders holding every slot cannot lock GitHub out: the longest reader makes room', async () => {
    const door = await start({ bodyTimeoutMs: 20_000, maxInFlight: 4 });
    const stalled = [1, 2, 3, 4].map(() =>
      stream(
        door.port,
        github({ 'x-hub-signature-256': sign('x'), 'content-length': String(8 * 1024 * 1024) }),
        8 * 1024 * 1024,
        { stallAfter: 1024 * 1024 },
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const body = JSON.stringify({ action: 'completed' });
    expect(await post(door.port, body, github({ 'x-hub-signature-256': sign(body) }))).toBe(200);
    expect(door.received).toHaveLength(1);
    // The slow sender that had read longest made room (503, or cut before its answer arrived).
    const evicted = await Promise.race(stalled);
    expect([0, 503]).toContain(evicted.status);
    expect(door.logs.join('')).toMatch(/a newer delivery needed the slot/);
  }, 30_000);

  it('bytes held across bodies are bounded: past the budget the largest body goes', async () => {
    const door = await start({ maxBytes: 6 * 1024 * 1024, maxBufferedBytes: 8 * 1024 * 1024 });
    const headers = github({ 'x-hub-signature-256': sign('x'), 'transfer-encoding': 'chunked' });
    // Two senders that each stay under the per-body limit but together pass the budget.
    const first = stream(door.port, headers, 6 * 1024 * 1024, { stallAfter: 5 * 1024 * 1024 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const second = stream(door.port, headers, 6 * 1024 * 1024, { stallAfter: 5 * 1024 * 1024 });
    const answered = await Promise.race([first, second]);
    expect([0, 503]).toContain(answered.status);
    expect(door.logs.join('')).toMatch(/too many bytes/);
  }, 30_000);
});
