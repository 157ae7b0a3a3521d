import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobsPageHandler } from '../../src/observe/jobs-page.ts';
import { createMetrics, metricsHandler } from '../../src/observe/metrics.ts';
import { openJobStore } from '../../src/store/sqlite.ts';
import { makeTempDir } from '../support/tmp.ts';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};

describe('/metrics and /jobs behind their secrets (#59)', () => {
  const temp = makeTempDir();
  const store = openJobStore(path.join(temp.dir, 'regreen.db'));
  const metrics = createMetrics(() => undefined);
  const servers: Server[] = [];
  const serverWith = (metricsSecret: string | undefined): Promise<string> => {
    const page = jobsPageHandler({ store, secret: 'dash-secret' });
    const scrape = metricsHandler({ metrics, secret: metricsSecret, setting: 'REGREEN_X' });
    const server = createServer((req, res) => {
      if (!scrape(req, res) && !page(req, res)) res.writeHead(404).end();
    });
    servers.push(server);
    return listen(server);
  };
  let closed: string;
  let open: string;
  beforeAll(async () => {
    closed = await serverWith('scrape-secret');
    open = await serverWith(undefined);
  });
  afterAll(async () => {
    for (const server of servers) await new Promise((resolve) => server.close(resolve));
    store.close();
    temp.cleanup();
  });

  it('answers /metrics only to a request presenting its secret, and its 401 says how to pass it', async () => {
    const refused = await fetch(`${closed}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer /);
    const text = await refused.text();
    expect(text).toContain('REGREEN_X');
    expect(text).toContain('Authorization: Bearer SECRET');
    expect(text).not.toContain('regreen_');
    const wrong = await fetch(`${closed}/metrics`, {
      headers: { authorization: 'Bearer dash-secret' },
    });
    expect(wrong.status).toBe(401);
    const bearer = await fetch(`${closed}/metrics`, {
      headers: { authorization: 'Bearer scrape-secret' },
    });
    expect(bearer.status).toBe(200);
    expect(await bearer.text()).toMatch(/^regreen_process_cpu_seconds_total /m);
    const query = await fetch(`${closed}/metrics?key=scrape-secret`);
    expect(query.status).toBe(200);
  });

  it('without a secret /metrics is open, as before', async () => {
    const response = await fetch(`${open}/metrics`);
    expect(response.status).toBe(200);
    expect(await response.text()).toMatch(/^regreen_process_cpu_seconds_total /m);
  });

  it("the jobs page's 401 names the setting and both ways to pass the secret", async () => {
    const refused = await fetch(`${closed}/jobs`);
    expect(refused.status).toBe(401);
    const html = await refused.text();
    expect(html).toContain('REGREEN_DASHBOARD_SECRET');
    expect(html).toContain('/jobs?key=SECRET');
    expect(html).toContain('Authorization: Bearer SECRET');
    expect((await fetch(`${closed}/jobs?key=dash-secret`, { redirect: 'manual' })).status).toBe(
      303,
    );
  });
});
