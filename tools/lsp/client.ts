import { readFileInside } from '../../src/workspace/repo/confined-fs.ts';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import type { Logger } from '../../src/logger.ts';
import type { Sandbox, SandboxProcess } from '../../src/workspace/sandbox/sandbox.ts';
import type { ServerSpec } from './servers.ts';
import { framedGuard } from '../../src/util/protocol-limits.ts';

export const uriOf = (file: string): string => pathToFileURL(file).href;

/** A request the server did not answer in time. */
export class LspTimeoutError extends Error {
  override readonly name = 'LspTimeoutError';
}

/** How much of the start and of the end of a server's stderr is kept to say why it exited. */
const STDERR_KEPT_CHARS = 1000;

/** Diagnostics kept per document, capped: a server that floods is cut. */
const MAX_DIAGNOSTICS_PER_FILE = 200;

/**
 * One language server for one (language, root), running in the job's
 * sandbox, spoken to over JSON-RPC on its stdio.
 */
export class LanguageServer {
  private readonly diagnostics = new Map<string, { items: Diagnostic[]; seq: number }>();
  private readonly opened = new Map<string, { version: number; text: string }>();
  private seq = 0;
  private warm = false;
  /** A file was answered with diagnostics after its open: the project is loaded. */
  private loaded = false;
  /** Work the server reports in progress (project loading): queries wait for it to end. */
  private readonly busy = new Set<string>();
  private waiters: (() => void)[] = [];
  exited = false;
  /** The start and the end of what the server wrote on stderr, bounded: why it exited, when it does. */
  private stderrHead = '';
  private stderrTail = '';
  /** Settles (never resolves) when the server has exited: a request pending then fails at once. */
  private readonly gone: Promise<never>;

  /** The process group the server runs under (for operators and tests that need to signal it). */
  get pid(): number | undefined {
    return this.process.pid;
  }

  private constructor(
    readonly spec: ServerSpec,
    readonly root: string,
    private readonly process: SandboxProcess,
    private readonly connection: MessageConnection,
    private readonly timeoutMs: number,
    private readonly sandboxWorkspace: string,
  ) {
    const stderrDone = new Promise<void>((resolve) => {
      process.stderr
        .on('close', resolve)
        .on('end', resolve)
        .on('error', () => resolve());
    });
    process.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (this.stderrHead.length < STDERR_KEPT_CHARS)
        this.stderrHead = (this.stderrHead + text).slice(0, STDERR_KEPT_CHARS);
      this.stderrTail = (this.stderrTail + text).slice(-STDERR_KEPT_CHARS);
    });
    this.gone = process.exited.then(async (code) => {
      this.exited = true;
      this.notify();
      // What it wrote last may still be in the pipe (bounded: a child of its own may hold it open).
      await Promise.race([stderrDone, new Promise((resolve) => setTimeout(resolve, 500))]);
      throw new Error(this.exitReason(code));
    });
    this.gone.catch(() => undefined);
    connection.onNotification(
      'textDocument/publishDiagnostics',
      (params: PublishDiagnosticsParams) => {
        this.seq += 1;
        this.diagnostics.set(params.uri, {
          items: params.diagnostics.slice(0, MAX_DIAGNOSTICS_PER_FILE),
          seq: this.seq,
        });
        this.notify();
      },
    );
    connection.onNotification(
      '$/progress',
      (params: { token: string | number; value?: { kind?: string } }) => {
        if (params.value?.kind === 'begin') this.busy.add(String(params.token));
        if (params.value?.kind === 'end') this.busy.delete(String(params.token));
        this.notify();
      },
    );
    // Requests from the server: answer what a minimal client answers.
    connection.onRequest((method: string, params: unknown) => {
      if (method === 'workspace/configuration')
        return ((params as { items?: unknown[] }).items ?? []).map(() => null);
      if (method === 'workspace/workspaceFolders') return [{ uri: uriOf(root), name: 'workspace' }];
      return null;
    });
  }

  static async start(options: {
    spec: ServerSpec;
    root: string;
    argv: string[];
    sandbox: Sandbox;
    logger: Logger;
    timeoutMs: number;
  }): Promise<LanguageServer> {
    const child = await options.sandbox.spawn({ argv: options.argv, cwd: options.root });
    child.stderr.on('data', (chunk: Buffer) =>
      options.logger.debug(
        { server: options.spec.language, stderr: chunk.toString('utf8').slice(0, 500) },
        'language server stderr',
      ),
    );
    // A server of the repository's choosing (its own TypeScript, plugins) writes what it likes:
    // no message past the bound is held.
    const guarded = child.stdout.pipe(
      framedGuard((why) => {
        options.logger.warn({ server: options.spec.language, why }, 'language server stopped');
        child.kill();
      }),
    );
    const connection = createMessageConnection(
      new StreamMessageReader(guarded),
      new StreamMessageWriter(child.stdin),
    );
    connection.onError(() => undefined);
    connection.listen();
    const server = new LanguageServer(
      options.spec,
      options.root,
      child,
      connection,
      options.timeoutMs,
      options.sandbox.policy.workspace,
    );
    await server.initialize(options.root);
    void connection.sendNotification('initialized', {});
    return server;
  }

  /** The handshake; a server that does not answer it (hung, or gone) is stopped. */
  private async initialize(root: string): Promise<void> {
    try {
      await this.request('initialize', {
        processId: null,
        rootUri: uriOf(root),
        workspaceFolders: [{ uri: uriOf(root), name: 'workspace' }],
        initializationOptions: this.spec.initializationOptions?.(root),
        capabilities: {
          textDocument: {
            synchronization: { didSave: true, dynamicRegistration: false },
            publishDiagnostics: { relatedInformation: false, versionSupport: true },
            hover: { contentFormat: ['plaintext', 'markdown'] },
            definition: { linkSupport: false },
            typeDefinition: { linkSupport: false },
            implementation: { linkSupport: false },
            references: {},
            documentSymbol: { hierarchicalDocumentSymbolSupport: true },
            codeAction: {
              codeActionLiteralSupport: {
                codeActionKind: { valueSet: ['quickfix', 'refactor', 'source'] },
              },
              isPreferredSupport: true,
            },
            rename: { prepareSupport: false },
          },
          workspace: {
            symbol: {},
            workspaceFolders: true,
            configuration: true,
            applyEdit: false,
            workspaceEdit: { documentChanges: true },
          },
        },
      });
    } catch (error) {
      await this.dispose();
      throw error;
    }
  }

  /** Why the server is gone: its exit, and the first (error) line and the last it wrote on stderr. */
  private exitReason(code: number | null): string {
    const lines = (text: string): string[] =>
      text
        .split('\n')
        .map((line) => line.trim().slice(0, 200))
        .filter(Boolean);
    // Node's crash starts with where it threw; the line naming the error says why.
    const head = lines(this.stderrHead);
    const first = head.find((line) => /error/i.test(line)) ?? head[0];
    const last = lines(this.stderrTail).at(-1);
    const said = [first, last === first ? undefined : last].filter(Boolean).join(' … ');
    return `the ${this.spec.language} server exited (${code === null ? 'killed' : `exit ${code}`})${said ? `: ${said}` : ''}`;
  }

  async request<R>(method: string, params: unknown): Promise<R> {
    if (this.exited) throw new Error(`the ${this.spec.language} server has exited`);
    let timer: NodeJS.Timeout | undefined;
    try {
      // A server that exits (a launcher without its binary, a crash) answers nothing: its exit ends the wait.
      return await Promise.race([
        this.connection.sendRequest<R>(method, params),
        this.gone,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(new LspTimeoutError(`${method} got no answer in ${this.timeoutMs / 1000}s`)),
            this.timeoutMs,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Opens the file or sends its new content (full sync), then saves it. Returns the diagnostics sequence before the sync. */
  async sync(file: string): Promise<number> {
    const uri = uriOf(file);
    // Read through descriptors inside the workspace (the sandbox's): a symlink swapped in is refused.
    const text = readFileInside(this.sandboxWorkspace, file).toString('utf8');
    const before = this.seq;
    const known = this.opened.get(uri);
    if (!known) {
      this.opened.set(uri, { version: 1, text });
      await this.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: this.spec.languageId(file), version: 1, text },
      });
      // A server loads the file's project after didOpen: its first diagnostics, with no
      // progress reported as running, say the file is ready for queries.
      // (A cold TypeScript server takes seconds to read its libraries; a file it will not check is not waited for.)
      // Once a file has been answered so, the project is loaded: a later file's queries are
      // answered on demand (the server orders them after the open), and only a server that
      // reports progress is waited for, not its debounced diagnostics.
      const reports = this.spec.reportsDiagnostics?.(file, this.root) ?? true;
      const deadline = Date.now() + (reports ? 20_000 : 0);
      const loaded = this.loaded;
      const loading = (): boolean =>
        (!loaded && (this.diagnostics.get(uri)?.seq ?? 0) <= before) || this.busy.size > 0;
      while (loading() && !this.exited && Date.now() < deadline)
        await this.next(deadline - Date.now());
      if (reports && (this.diagnostics.get(uri)?.seq ?? 0) > before) this.loaded = true;
    } else if (known.text !== text) {
      const version = known.version + 1;
      this.opened.set(uri, { version, text });
      await this.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
      await this.connection.sendNotification('textDocument/didSave', {
        textDocument: { uri },
        text,
      });
    }
    return before;
  }

  /** The diagnostics last published for a file, without waiting. */
  current(file: string): Diagnostic[] {
    return this.diagnostics.get(uriOf(file))?.items ?? [];
  }

  /**
   * Project-wide queries (references, implementations, workspace symbols) on a
   * fresh server: the rest of the project is still being read in the
   * background, so wait once until the server has been quiet for a moment.
   */
  async warmUp(file: string): Promise<void> {
    if (this.warm) return;
    this.warm = true;
    await this.settledDiagnostics(file, this.seq - 1, { firstMs: 0, quietMs: 1500 });
  }

  /**
   * The file's diagnostics once they settle: after the first report newer
   * than `since`, until the server is quiet for a moment (bounded).
   */
  async settledDiagnostics(
    file: string,
    since: number,
    options = { firstMs: 5000, quietMs: 400 },
  ): Promise<Diagnostic[]> {
    const uri = uriOf(file);
    const deadline = Date.now() + options.firstMs;
    const newer = (): boolean => (this.diagnostics.get(uri)?.seq ?? 0) > since;
    while (!newer() && !this.exited && Date.now() < deadline)
      await this.next(deadline - Date.now());
    for (;;) {
      const seen = this.diagnostics.get(uri)?.seq ?? 0;
      await this.next(options.quietMs);
      if ((this.diagnostics.get(uri)?.seq ?? 0) === seen || this.exited) break;
    }
    return this.diagnostics.get(uri)?.items ?? [];
  }

  private next(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, ms));
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) waiter();
  }

  async dispose(): Promise<void> {
    if (!this.exited) {
      await Promise.race([
        this.request('shutdown', null).then(() => this.connection.sendNotification('exit')),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]).catch(() => undefined);
    }
    this.connection.dispose();
    this.process.kill();
    await Promise.race([this.process.exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
  }
}
