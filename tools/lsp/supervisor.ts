import { listInside } from '../../src/workspace/repo/confined-fs.ts';
import path from 'node:path';
import type { Logger } from '../../src/logger.ts';
import type { Sandbox } from '../../src/workspace/sandbox/sandbox.ts';
import { LanguageServer } from './client.ts';
import type { ServerSpec } from './servers.ts';
import { findRoot, routeToolchain } from '../toolchain.ts';

export type Route =
  { ok: true; spec: ServerSpec; root: string; argv: string[] } | { ok: false; reason: string };

/**
 * The job's language servers: one per (language, root), started lazily in the
 * job's sandbox, reused, restarted once after a crash or a hang, and shut down
 * with the job.
 */
export class LspSupervisor {
  private readonly servers = new Map<string, LanguageServer>();
  private readonly restarts = new Map<string, number>();
  /** Servers that could not start (a launcher without its binary exits at once): not tried again until a reload. */
  private readonly unstartable = new Map<string, string>();
  private readonly notes: string[] = [];

  constructor(
    private readonly options: {
      workspace: string;
      sandbox: Sandbox;
      specs: readonly ServerSpec[];
      logger: Logger;
      requestTimeoutMs: number;
    },
  ) {}

  specFor(file: string): ServerSpec | undefined {
    const extension = path.extname(file).slice(1).toLowerCase();
    return this.options.specs.find((spec) => spec.extensions.includes(extension));
  }

  /** The intersection rule: a root marker and the server binary, both, or a reason naming what is missing. */
  route(file: string): Route {
    const spec = this.specFor(file);
    if (!spec)
      return {
        ok: false,
        reason: `no language server handles ${path.extname(file) || 'files without an extension'}`,
      };
    const root = findRoot(this.options.workspace, file, spec.rootMarkers);
    const route = routeToolchain({
      who: spec.language,
      workspace: this.options.workspace,
      target: file,
      root,
      markers: spec.rootMarkers,
      command: spec.command(root ?? this.options.workspace),
    });
    return route.ok ? { ...route, spec } : route;
  }

  /** The running server for a file, starting (or restarting once) as needed. */
  async serverFor(
    file: string,
  ): Promise<{ server: LanguageServer; note?: string } | { reason: string }> {
    const route = this.route(file);
    if (!route.ok) return { reason: route.reason };
    const key = `${route.spec.language}\u0000${route.root}`;
    const running = this.servers.get(key);
    if (running && !running.exited) return { server: running };
    const failed = this.unstartable.get(key);
    if (failed) return { reason: failed };
    let note: string | undefined;
    if (running?.exited) {
      const restarts = this.restarts.get(key) ?? 0;
      if (restarts >= 1)
        return {
          reason: `the ${route.spec.language} server crashed again after a restart; it stays down for this job`,
        };
      this.restarts.set(key, restarts + 1);
      note = `the ${route.spec.language} server had crashed and was restarted`;
      this.notes.push(note);
    }
    // A server regreen provides is fetched the first time it is needed.
    const unprovided = await route.spec.provide?.(route.root);
    if (unprovided) return { reason: unprovided };
    try {
      const server = await LanguageServer.start({
        spec: route.spec,
        root: route.root,
        argv: route.argv,
        sandbox: this.options.sandbox,
        logger: this.options.logger,
        timeoutMs: this.options.requestTimeoutMs,
      });
      this.servers.set(key, server);
      return note ? { server, note } : { server };
    } catch (error) {
      const reason = `the ${route.spec.language} server failed to start: ${error instanceof Error ? error.message : String(error)}`;
      this.unstartable.set(key, reason);
      return { reason };
    }
  }

  /** Stops the server (after a hang, or on `reload`); the next call starts a fresh one. */
  async restart(server: LanguageServer): Promise<void> {
    const key = `${server.spec.language}\u0000${server.root}`;
    this.servers.delete(key);
    await server.dispose();
  }

  async reloadAll(): Promise<string[]> {
    const running = [...this.servers.values()];
    this.servers.clear();
    this.restarts.clear();
    this.unstartable.clear();
    await Promise.all(running.map((server) => server.dispose()));
    return running.map(
      (server) =>
        `${server.spec.language} (${path.relative(this.options.workspace, server.root) || '.'})`,
    );
  }

  specsWithCheckers(): ServerSpec[] {
    return this.options.specs.filter((spec) => spec.checker !== undefined);
  }

  /** One real source file per language that a server can serve (workspace-wide queries need a project loaded). */
  servableFiles(workspace: string): string[] {
    const found = new Map<string, string>();
    const walk = (dir: string, depth: number): void => {
      let entries;
      try {
        entries = listInside(workspace, dir).sort((a, b) => a.name.localeCompare(b.name));
      } catch {
        return;
      }
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        const spec = entry.isFile() ? this.specFor(full) : undefined;
        if (spec && !found.has(spec.language) && this.route(full).ok)
          found.set(spec.language, full);
      }
      if (depth >= 4) return;
      for (const entry of entries) {
        if (entry.isDirectory() && !entry.name.startsWith('.') && entry.name !== 'node_modules')
          walk(path.join(dir, entry.name), depth + 1);
      }
    };
    walk(workspace, 0);
    return [...found.values()];
  }

  status(): string {
    const lines = [...this.servers.values()].map(
      (server) =>
        `${server.spec.language}: running for ${path.relative(this.options.workspace, server.root) || '.'}${server.exited ? ' (exited)' : ''}`,
    );
    for (const spec of this.options.specs) {
      if ([...this.servers.values()].some((server) => server.spec === spec && !server.exited))
        continue;
      const probe = this.route(
        path.join(this.options.workspace, `__probe__.${spec.extensions[0] ?? ''}`),
      );
      lines.push(
        probe.ok
          ? `${spec.language}: available for ${path.relative(this.options.workspace, probe.root) || '.'} (starts on first use)`
          : `${spec.language}: unavailable — ${probe.reason}`,
      );
    }
    return [...lines, ...this.notes].join('\n');
  }

  async dispose(): Promise<void> {
    await this.reloadAll();
  }
}
