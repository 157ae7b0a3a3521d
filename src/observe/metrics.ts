import type { IncomingMessage, ServerResponse } from 'node:http';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { JobEvent, JobQueue } from '../queue/types.ts';
import { presentsSecret, secretNeeded } from './secret-gate.ts';

/**
 * Prometheus metrics of one App process: jobs by outcome, durations, spend,
 * and the queue's depth read from the queue when scraped (so with BullMQ it
 * is the depth across every worker).
 */
export const createMetrics = (queue: () => JobQueue | undefined) => {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'regreen_' });
  const jobs = new Counter({
    name: 'regreen_jobs_total',
    help: 'Jobs finished, by kind and outcome',
    labelNames: ['kind', 'outcome'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'regreen_job_duration_seconds',
    help: 'From start to end of a job attempt',
    labelNames: ['kind'],
    buckets: [1, 5, 15, 60, 180, 600, 1800, 3600],
    registers: [registry],
  });
  const spend = new Counter({
    name: 'regreen_spend_usd_total',
    help: 'Model spend of finished jobs, in US dollars',
    registers: [registry],
  });
  new Gauge({
    name: 'regreen_queue_jobs',
    help: 'Jobs in the queue, by state',
    labelNames: ['state'],
    registers: [registry],
    async collect() {
      const current = queue();
      if (!current) return;
      const counts = await current.counts();
      for (const [state, n] of Object.entries(counts) as [string, number][]) this.set({ state }, n);
    },
  });
  const starts = new Map<string, { at: number; kind: string }>();
  const kinds = new Map<string, string>();
  return {
    contentType: registry.contentType,
    text: () => registry.metrics(),
    observe: (event: JobEvent): void => {
      switch (event.type) {
        case 'queued':
          kinds.set(event.id, event.spec.payload.kind);
          return;
        case 'started':
          starts.set(event.id, { at: event.at, kind: kinds.get(event.id) ?? 'unknown' });
          return;
        case 'completed':
        case 'failed': {
          if (event.type === 'failed' && !event.final) return;
          const start = starts.get(event.id);
          const kind = start?.kind ?? kinds.get(event.id) ?? 'unknown';
          jobs.inc({ kind, outcome: event.type === 'completed' ? event.result.status : 'failed' });
          if (start) durations.observe({ kind }, (event.at - start.at) / 1000);
          if (event.type === 'completed' && event.result.costUsd) spend.inc(event.result.costUsd);
          starts.delete(event.id);
          kinds.delete(event.id);
          return;
        }
      }
    },
  };
};

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * `/metrics`: with a secret configured (REGREEN_METRICS_SECRET, else the
 * dashboard's), only a request presenting it is answered; without one it is
 * open, as a Prometheus endpoint on a private network usually is. Returns
 * false for other paths.
 */
export const metricsHandler =
  (options: { metrics: Metrics; secret: string | undefined; setting: string }) =>
  (req: IncomingMessage, res: ServerResponse): boolean => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/metrics') return false;
    if (options.secret && !presentsSecret(req, url, options.secret)) {
      res.writeHead(401, {
        'content-type': 'text/plain; charset=utf-8',
        'www-authenticate': 'Bearer realm="regreen metrics"',
      });
      res.end(
        `${secretNeeded({
          page: '/metrics',
          secret: 'metrics secret',
          setting: options.setting,
          ways: [
            'as a header, Authorization: Bearer SECRET (Prometheus: authorization: { credentials: SECRET } in the scrape config)',
            'as /metrics?key=SECRET',
          ],
        })}\n`,
      );
      return true;
    }
    void options.metrics.text().then(
      (text) => {
        res.writeHead(200, { 'content-type': options.metrics.contentType });
        res.end(text);
      },
      (error: unknown) => {
        res.writeHead(500);
        res.end(error instanceof Error ? error.message : String(error));
      },
    );
    return true;
  };
