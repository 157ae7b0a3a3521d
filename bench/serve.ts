/**
 * `npm run bench:serve`: the App's door under a flood. Each door runs in its
 * own process (bench/serve/door.ts): regreen's webhook gate, and as the
 * baseline measured in the same run Probot's own middleware (what `regreen
 * serve` used before). The flood: 4 unsigned deliveries of 128 MiB at once,
 * then 4 wrongly signed ones, while signed small deliveries keep arriving.
 * Prints each door's peak RSS, the bytes it let the flood send, the latency
 * (p50/p95) of at least 40 signed deliveries sent during the flood (and
 * after it, when the door ends the flood sooner), and the ratios
 * gate/baseline. Left out: TLS (a proxy's job), the job queue behind the
 * handler (the bench's handler only counts), and GitHub's own retries.
 * Writes what it printed to `bench/results/serve.txt`, which docs/github.md
 * and docs/benchmarks.md quote (`--no-record`: print only).
 */
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { request } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { recordResult } from './results.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const SECRET = 'bench-secret';
const FLOOD_BYTES = 128 * 1024 * 1024;

const startDoor = async (door: string) => {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(HERE, 'serve', 'door.ts'), door],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const lines: string[] = [];
  let wake: (() => void) | undefined;
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
    wake?.();
  });
  const next = async (): Promise<string> => {
    while (lines.length === 0) await new Promise<void>((resolve) => (wake = resolve));
    return lines.shift() ?? '';
  };
  const port = Number(await next());
  return {
    port,
    stop: async (): Promise<{ maxRssMb: number; handled: number }> => {
      child.stdin.end();
      return JSON.parse(await next()) as { maxRssMb: number; handled: number };
    },
  };
};

/** One flooding delivery: streams up to FLOOD_BYTES; resolves with the bytes the door let it send. */
const flood = (port: number, signature: string | undefined): Promise<number> =>
  new Promise((resolve) => {
    let sent = 0;
    let over = false;
    const done = (): void => {
      if (!over) resolve(sent);
      over = true;
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/api/github/webhooks',
        headers: {
          'x-github-event': 'workflow_run',
          'x-github-delivery': `flood-${Math.random()}`,
          'content-type': 'application/json',
          ...(signature ? { 'x-hub-signature-256': signature } : {}),
        },
      },
      (res) => {
        res.resume();
        res.on('end', done);
      },
    );
    req.on('error', done);
    const chunk = Buffer.alloc(1024 * 1024, 'x');
    const pump = (): void => {
      while (!over && sent < FLOOD_BYTES) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      if (!over) req.end();
    };
    pump();
  });

const signedDelivery = async (port: number, n: number): Promise<number> => {
  const body = JSON.stringify({ action: 'completed', n });
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/api/github/webhooks`, {
    method: 'POST',
    headers: {
      'x-github-event': 'workflow_run',
      'x-github-delivery': `ok-${n}`,
      'content-type': 'application/json',
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
    body,
  });
  await response.text();
  return performance.now() - started;
};

const quantile = (values: number[], q: number): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
};

const measure = async (door: string) => {
  const server = await startDoor(door);
  const latencies: number[] = [];
  let flooding = true;
  const steady = (async () => {
    for (let n = 0; flooding || latencies.length < 40; n += 1) {
      latencies.push(await signedDelivery(server.port, n));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const unsigned = await Promise.all([1, 2, 3, 4].map(() => flood(server.port, undefined)));
  const wrong = await Promise.all(
    [1, 2, 3, 4].map(() => flood(server.port, `sha256=${'0'.repeat(64)}`)),
  );
  flooding = false;
  await steady;
  const { maxRssMb, handled } = await server.stop();
  const floodSent = [...unsigned, ...wrong].reduce((a, b) => a + b, 0) / 1024 / 1024;
  return {
    door,
    maxRssMb,
    floodSentMb: floodSent,
    p50: quantile(latencies, 0.5),
    p95: quantile(latencies, 0.95),
    signed: latencies.length,
    handled,
  };
};

const baseline = await measure('probot');
const gate = await measure('regreen');
const row = (r: typeof gate): string =>
  `${r.door.padEnd(8)} peak RSS ${r.maxRssMb.toFixed(0).padStart(5)} MB   flood bytes sent ${r.floodSentMb.toFixed(0).padStart(5)} MB   signed deliveries ${String(r.signed).padStart(4)} (handled ${r.handled})   p50 ${r.p50.toFixed(1)} ms   p95 ${r.p95.toFixed(1)} ms`;
/** Two significant digits below 0.1, so that a small ratio does not print as 0.00×. */
const ratio = (value: number): string =>
  `${value >= 0.1 ? value.toFixed(2) : value.toPrecision(2)}×`;
const lines = [
  'bench:serve, one door per process: 4 unsigned + 4 wrongly signed 128 MiB deliveries (synthetic), signed small ones meanwhile, one after another 20 ms apart (at least 40)',
  "baseline, same run: Probot's own middleware (`probot`), what `regreen serve` used before; regreen's webhook gate in front of Probot (`regreen`)",
  "(left out: TLS, a proxy's job; the job queue behind the handler, which only counts; GitHub's own retries; the network, all on loopback)",
  row(baseline),
  row(gate),
  `ratios regreen/probot: peak RSS ${ratio(gate.maxRssMb / baseline.maxRssMb)}, flood bytes read ${ratio(gate.floodSentMb / baseline.floodSentMb)}, p50 ${ratio(gate.p50 / baseline.p50)}, p95 ${ratio(gate.p95 / baseline.p95)}`,
];
for (const line of lines) console.log(line);
if (!process.argv.includes('--no-record'))
  console.log(`written to ${path.relative(process.cwd(), recordResult('serve', lines))}`);
