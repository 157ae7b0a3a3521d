/**
 * One door of `bench:serve`, in its own process so that its memory is its
 * own: `regreen` (the App's webhook gate in front of Probot, as `regreen
 * serve` runs it) or `probot` (Probot's own middleware, what `serve` used
 * before: the baseline). Prints its port, then on stdin's end its peak RSS.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createNodeMiddleware, Probot } from 'probot';
import { silentLogger } from '../../src/logger.ts';
import { webhookGate } from '../../src/github/webhook-gate.ts';

const door = process.argv[2] ?? 'regreen';
const secret = 'bench-secret';
const { privateKey } = generateKeyPairSync('rsa', {
  modulusLength: 2048,
  privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
});
const logger = silentLogger();
const probot = new Probot({ appId: 1, privateKey, secret, log: logger });
let handled = 0;
const app = (bot: Probot): void => {
  bot.onAny(() => {
    handled += 1;
  });
};
let handler: Parameters<typeof createServer>[1];
if (door === 'probot') {
  const middleware = await createNodeMiddleware(app, {
    probot,
    webhooksPath: '/api/github/webhooks',
  });
  handler = (req, res) => void middleware(req, res);
} else {
  await probot.load(app);
  const gate = webhookGate({
    secret,
    logger,
    receive: (event) => probot.receive(event as Parameters<Probot['receive']>[0]),
  });
  handler = (req, res) => gate(req, res);
}
const server = createServer(handler);
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${(server.address() as AddressInfo).port}\n`);
});
process.stdin.resume();
process.stdin.on('end', () => {
  process.stdout.write(
    `${JSON.stringify({ maxRssMb: process.resourceUsage().maxRSS / 1024, handled })}\n`,
  );
  process.exit(0);
});
