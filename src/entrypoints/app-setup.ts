/**
 * The App's first run (GitHub's manifest flow, as probot does it): with no
 * credentials, `regreen serve` serves one page that registers the App on
 * GitHub from `app.yml` with one click; GitHub sends the browser back with a
 * code, which is exchanged for the App's id, private key and webhook secret;
 * those are written to a `.env` readable by its owner only, and the App starts.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { listenOn } from '../util/listen.ts';
import { closeSync, openSync, writeSync, constants } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { settingsOf, type Env } from '../config/env.ts';
import { RegreenError } from '../errors.ts';
import type { Logger } from '../logger.ts';
import { escapeHtml, htmlPage } from '../observe/html.ts';

const Manifest = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  public: z.boolean().optional(),
  default_events: z.array(z.string()),
  default_permissions: z.record(z.string(), z.string()),
});

const Conversion = z.looseObject({
  id: z.number(),
  slug: z.string().optional(),
  pem: z.string(),
  webhook_secret: z.string(),
  html_url: z.string().optional(),
});

export interface AppRegistration {
  readonly appId: string;
  readonly privateKey: string;
  readonly webhookSecret: string;
  readonly htmlUrl?: string;
}

/** The manifest GitHub registers: app.yml's settings, with this server's URLs. */
export const manifestFor = (appYml: string, publicUrl: string): Record<string, unknown> => {
  const parsed = Manifest.safeParse(parseYaml(appYml));
  if (!parsed.success)
    throw new RegreenError('usage', `app.yml is not an App manifest: ${parsed.error.message}`);
  const base = publicUrl.replace(/(?<!\/)\/+$/, '');
  return {
    ...parsed.data,
    url: base,
    hook_attributes: { url: `${base}/api/github/webhooks`, active: true },
    redirect_url: `${base}/setup/callback`,
  };
};

/** `KEY="value"` lines of a `.env`, the key's newlines escaped as probot reads them. */
export const envFileText = (registration: AppRegistration): string =>
  [
    `APP_ID=${registration.appId}`,
    `WEBHOOK_SECRET=${registration.webhookSecret}`,
    `PRIVATE_KEY="${registration.privateKey.trim().replaceAll('\n', '\\n')}"`,
    '',
  ].join('\n');

/** Writes the `.env` once, mode 0600; an existing file is never overwritten. */
export const writeEnvFile = (file: string, text: string): void => {
  let fd: number;
  try {
    fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  } catch (error) {
    throw new RegreenError(
      'usage',
      `cannot create ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'}): it holds the App's credentials and is never overwritten`,
    );
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
};

/**
 * Serves the registration page until GitHub sends the browser back with a
 * code, exchanges it, writes the `.env`, and resolves with the credentials.
 */
export const registerApp = async (options: {
  env: Env;
  logger: Logger;
  port: number;
  host?: string;
  appYml: string;
  envFile: string;
  /** Where GitHub reaches this server (webhooks, the redirect); default http://HOST:PORT. */
  publicUrl?: string;
  /** Register under an organization instead of the signed-in user. */
  org?: string;
  onListening?: (url: string) => void;
}): Promise<AppRegistration> => {
  const settings = settingsOf(options.env);
  const web = (settings.githubServerUrl ?? 'https://github.com').replace(/(?<!\/)\/+$/, '');
  const api = (settings.githubApiUrl ?? 'https://api.github.com').replace(/(?<!\/)\/+$/, '');
  const state = randomBytes(16).toString('hex');
  let server: Server | undefined;
  const done = new Promise<AppRegistration>((resolve, reject) => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const address = server?.address();
      const local = `http://${options.host ?? '127.0.0.1'}:${typeof address === 'object' && address ? address.port : options.port}`;
      const publicUrl = options.publicUrl ?? local;
      const send = (status: number, body: string): void => {
        res.writeHead(status, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'content-security-policy':
            "default-src 'none'; style-src 'unsafe-inline'; form-action " + web,
        });
        res.end(body);
      };
      if (url.pathname === '/' || url.pathname === '/setup') {
        const target = options.org
          ? `${web}/organizations/${encodeURIComponent(options.org)}/settings/apps/new`
          : `${web}/settings/apps/new`;
        const manifest = JSON.stringify(manifestFor(options.appYml, publicUrl));
        send(
          200,
          htmlPage(
            'regreen — register the GitHub App',
            `<h1>Register regreen as a GitHub App</h1>
<p>This registers an App with the settings of <code>app.yml</code> (least permissions, never workflows); GitHub then sends you back here, and its credentials are written to <code>${escapeHtml(options.envFile)}</code> (readable by you only).</p>
<form id="register" action="${escapeHtml(target)}?state=${state}" method="post">
<input type="hidden" name="manifest" value="${escapeHtml(manifest)}">
<button type="submit">Register on GitHub</button></form>`,
          ),
        );
        return;
      }
      if (url.pathname === '/setup/callback') {
        const code = url.searchParams.get('code') ?? '';
        const given = Buffer.from(url.searchParams.get('state') ?? '');
        if (!code || given.length !== state.length || !timingSafeEqual(given, Buffer.from(state))) {
          send(
            400,
            htmlPage('regreen', '<p>This is not the answer to this server’s registration.</p>'),
          );
          return;
        }
        void (async () => {
          try {
            const response = await fetch(
              `${api}/app-manifests/${encodeURIComponent(code)}/conversions`,
              {
                method: 'POST',
                headers: { accept: 'application/vnd.github+json' },
              },
            );
            if (!response.ok)
              throw new Error(`GitHub answered ${response.status} to the manifest conversion`);
            const app = Conversion.parse(await response.json());
            const registration: AppRegistration = {
              appId: String(app.id),
              privateKey: app.pem,
              webhookSecret: app.webhook_secret,
              ...(app.html_url ? { htmlUrl: app.html_url } : {}),
            };
            writeEnvFile(options.envFile, envFileText(registration));
            send(
              200,
              htmlPage(
                'regreen — registered',
                `<h1>regreen is registered</h1><p>App ${escapeHtml(registration.appId)}; its credentials are in <code>${escapeHtml(options.envFile)}</code>. Install it on your repositories${registration.htmlUrl ? `: <a href="${escapeHtml(registration.htmlUrl)}/installations/new">${escapeHtml(registration.htmlUrl)}/installations/new</a>` : ''}. The App is starting.</p>`,
              ),
            );
            resolve(registration);
          } catch (error) {
            send(
              502,
              htmlPage(
                'regreen',
                `<p>Registration failed: ${escapeHtml((error as Error).message)}</p>`,
              ),
            );
            reject(
              error instanceof RegreenError
                ? error
                : new RegreenError('internal', (error as Error).message),
            );
          }
        })();
        return;
      }
      send(404, htmlPage('regreen', '<p>Not found.</p>'));
    });
    listenOn(server, options.port, options.host ?? '127.0.0.1').then(() => {
      const address = server?.address();
      const port = typeof address === 'object' && address ? address.port : options.port;
      const url = `http://${options.host ?? '127.0.0.1'}:${port}`;
      // The caller that says where to go says it once; else the log does.
      if (options.onListening) options.onListening(url);
      else options.logger.warn(`no App credentials: open ${url} to register regreen on GitHub`);
    }, reject);
  });
  try {
    return await done;
  } finally {
    await new Promise<void>((resolve) => {
      server?.close(() => resolve());
      server?.closeAllConnections();
    });
  }
};
