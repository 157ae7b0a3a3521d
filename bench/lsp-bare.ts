/**
 * The baseline of `bench:lsp`: the same language server regreen starts, run
 * bare — spawned on the host with no sandbox, spoken to by this minimal
 * client with no tool around it (no confined reads, no symbol lookup, no
 * diagnostics waited for, no answer formatting). It opens a file the first
 * time it is asked about it, sends an edit as the whole new text, and asks
 * at the position of the symbol on the line.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';

export interface BareServer {
  /** Milliseconds from the request to its answer. */
  ask(
    action: 'hover' | 'definition' | 'references',
    place: { file: string; line: number; symbol: string },
  ): Promise<number>;
  /** The file's new text, as an editor sends it: didChange with the whole text, then didSave. */
  changed(file: string): Promise<void>;
  dispose(): Promise<void>;
}

const METHODS = {
  hover: 'textDocument/hover',
  definition: 'textDocument/definition',
  references: 'textDocument/references',
} as const;

export const startBareServer = async (options: {
  argv: readonly string[];
  root: string;
  initializationOptions: unknown;
}): Promise<BareServer> => {
  const [file, ...args] = options.argv;
  if (!file) throw new Error('no server command');
  const uri = (path: string): string => pathToFileURL(path).href;
  const child = spawn(file, args, { cwd: options.root, stdio: ['pipe', 'pipe', 'ignore'] });
  const connection: MessageConnection = createMessageConnection(
    new StreamMessageReader(child.stdout),
    new StreamMessageWriter(child.stdin),
  );
  connection.onError(() => undefined);
  // What the server asks of its client: no settings, the one folder.
  connection.onRequest((method: string, params: unknown) =>
    method === 'workspace/configuration'
      ? ((params as { items?: unknown[] }).items ?? []).map(() => null)
      : method === 'workspace/workspaceFolders'
        ? [{ uri: uri(options.root), name: 'workspace' }]
        : null,
  );
  connection.listen();
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: uri(options.root),
    workspaceFolders: [{ uri: uri(options.root), name: 'workspace' }],
    initializationOptions: options.initializationOptions,
    capabilities: {
      textDocument: {
        synchronization: { didSave: true },
        hover: { contentFormat: ['plaintext', 'markdown'] },
        definition: { linkSupport: false },
        references: {},
      },
      workspace: { workspaceFolders: true, configuration: true },
    },
  });
  await connection.sendNotification('initialized', {});
  const versions = new Map<string, number>();
  const open = async (path: string): Promise<void> => {
    if (versions.has(path)) return;
    versions.set(path, 1);
    await connection.sendNotification('textDocument/didOpen', {
      textDocument: {
        uri: uri(path),
        languageId: 'typescript',
        version: 1,
        text: readFileSync(path, 'utf8'),
      },
    });
  };
  return {
    ask: async (action, place) => {
      await open(place.file);
      const text = readFileSync(place.file, 'utf8').split('\n')[place.line - 1] ?? '';
      const character = Math.max(0, text.indexOf(place.symbol));
      const started = process.hrtime.bigint();
      await connection.sendRequest(METHODS[action], {
        textDocument: { uri: uri(place.file) },
        position: { line: place.line - 1, character },
        ...(action === 'references' ? { context: { includeDeclaration: true } } : {}),
      });
      return Number(process.hrtime.bigint() - started) / 1e6;
    },
    changed: async (path) => {
      await open(path);
      const version = (versions.get(path) ?? 1) + 1;
      versions.set(path, version);
      const text = readFileSync(path, 'utf8');
      await connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(path), version },
        contentChanges: [{ text }],
      });
      await connection.sendNotification('textDocument/didSave', {
        textDocument: { uri: uri(path) },
        text,
      });
    },
    dispose: async () => {
      await Promise.race([
        connection.sendRequest('shutdown').then(() => connection.sendNotification('exit')),
        new Promise((resolve) => setTimeout(resolve, 2000)),
      ]).catch(() => undefined);
      connection.dispose();
      child.kill();
    },
  };
};
