import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted assistant turn, Anthropic-shaped; `$WORKSPACE` is replaced from the system prompt. */
export interface ScriptedTurn {
  readonly content: readonly (
    { type: 'text'; text: string } | { type: 'tool_use'; id: string; name: string; input: unknown }
  )[];
}

/** A fault injected instead of (or in the middle of) the answer to one request. */
export type Fault =
  | { kind: 'status'; status: number; retryAfterSeconds?: number; body?: unknown }
  | { kind: 'drop-mid-stream' }
  | { kind: 'malformed-event' };

export interface RecordedRequest {
  readonly body: Record<string, unknown>;
  readonly headers: IncomingMessage['headers'];
  readonly usage?: EmulatedUsage;
}

export interface EmulatedUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

/** Token count as the emulator bills it: about four characters a token, never zero. */
export const countTokens = (text: string): number => Math.max(1, Math.ceil(text.length / 4));

type Json = Record<string, unknown>;

/**
 * The request as an ordered list of segments (tools, system, messages), each
 * with its text and whether it carries a `cache_control` breakpoint: the order
 * in which the real API builds its cache prefix.
 */
const segmentsOf = (body: Json): { text: string; breakpoint: boolean }[] => {
  const segments: { text: string; breakpoint: boolean }[] = [];
  const push = (value: unknown): void => {
    const block = value as Json;
    const { cache_control: cacheControl, ...rest } = block;
    segments.push({ text: JSON.stringify(rest), breakpoint: cacheControl !== undefined });
  };
  for (const tool of (body.tools as unknown[] | undefined) ?? []) push(tool);
  const system = body.system;
  if (typeof system === 'string') segments.push({ text: system, breakpoint: false });
  else for (const block of (system as unknown[] | undefined) ?? []) push(block);
  for (const message of (body.messages as Json[] | undefined) ?? []) {
    const content = message.content;
    if (typeof content === 'string')
      segments.push({ text: `${String(message.role)}:${content}`, breakpoint: false });
    else
      for (const block of (content as unknown[]) ?? [])
        push({ role: message.role, ...(block as Json) });
  }
  return segments;
};

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');

/**
 * A loopback server speaking the Anthropic Messages API (JSON and SSE
 * streaming), replaying scripted turns. Usage is computed from the request:
 * a prefix up to a `cache_control` breakpoint seen in an earlier request is
 * billed as a cache read; a new breakpoint prefix as a cache write.
 */
export class EmulatedAnthropic {
  readonly requests: RecordedRequest[] = [];
  private server: Server | undefined;
  private readonly cached = new Map<string, number>();
  private turn = 0;

  constructor(
    private readonly turns: readonly ScriptedTurn[],
    private readonly faults: ReadonlyMap<number, Fault> = new Map(),
  ) {}

  /** The base URL for the SDK (`baseURL`). */
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(
          JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(error) } }),
        );
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** Requests that reached the model (not those answered with a fault). */
  get answered(): RecordedRequest[] {
    return this.requests.filter((request) => request.usage !== undefined);
  }

  /**
   * As the API does: at each breakpoint, look back up to 20 block boundaries
   * for the longest prefix cached by an earlier request (a read), and cache
   * the prefix up to the breakpoint (a write for what was not read).
   */
  private usageFor(body: Json): EmulatedUsage {
    const segments = segmentsOf(body);
    const prefixes: string[] = [];
    let prefix = '';
    for (const segment of segments) {
      prefix += segment.text;
      prefixes.push(prefix);
    }
    const total = countTokens(prefix);
    let read = 0;
    let cachedUpTo = 0;
    const writes: string[] = [];
    segments.forEach((segment, index) => {
      if (!segment.breakpoint) return;
      for (let back = index; back >= Math.max(0, index - 20); back -= 1) {
        const candidate = prefixes[back] ?? '';
        if (this.cached.has(hashOf(candidate))) {
          read = Math.max(read, countTokens(candidate));
          break;
        }
      }
      const here = prefixes[index] ?? '';
      writes.push(here);
      cachedUpTo = Math.max(cachedUpTo, countTokens(here));
    });
    // Entries become readable for later requests, not for this one.
    for (const written of writes) this.cached.set(hashOf(written), countTokens(written));
    const write = Math.max(0, cachedUpTo - read);
    return {
      input_tokens: total - read - write,
      output_tokens: 0,
      cache_creation_input_tokens: write,
      cache_read_input_tokens: read,
    };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: 'not found' } }),
      );
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
    if (!req.headers['x-api-key'] && !req.headers.authorization) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          type: 'error',
          error: { type: 'authentication_error', message: 'no API key' },
        }),
      );
      return;
    }
    const index = this.requests.length;
    const fault = this.faults.get(index);
    if (fault?.kind === 'status') {
      this.requests.push({ body, headers: req.headers });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (fault.retryAfterSeconds !== undefined)
        headers['retry-after'] = String(fault.retryAfterSeconds);
      res.writeHead(fault.status, headers);
      const type =
        fault.status === 529
          ? 'overloaded_error'
          : fault.status === 429
            ? 'rate_limit_error'
            : fault.status === 401
              ? 'authentication_error'
              : 'api_error';
      res.end(
        JSON.stringify(
          fault.body ?? { type: 'error', error: { type, message: `injected ${fault.status}` } },
        ),
      );
      return;
    }
    const usage = this.usageFor(body);
    const scripted = this.turns[this.turn];
    const workspace = /checked out at (\S+?)\.? /.exec(JSON.stringify(body.system))?.[1] ?? '';
    const content = (scripted?.content ?? [{ type: 'text', text: 'Done.' }]).map((block) =>
      block.type === 'tool_use'
        ? {
            ...block,
            input: JSON.parse(
              JSON.stringify(block.input).replaceAll('$WORKSPACE', workspace),
            ) as unknown,
          }
        : block,
    );
    usage.output_tokens = countTokens(JSON.stringify(content));
    const stopReason = content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn';
    const message = {
      id: `msg_${index}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content,
      stop_reason: stopReason,
      stop_sequence: null,
      usage,
    };
    if (!body.stream) {
      this.requests.push({ body, headers: req.headers, usage });
      this.turn += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(message));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: unknown): void => {
      res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    send('message_start', {
      type: 'message_start',
      message: {
        ...message,
        content: [],
        stop_reason: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    if (fault?.kind === 'drop-mid-stream') {
      this.requests.push({ body, headers: req.headers });
      res.socket?.destroy();
      return;
    }
    if (fault?.kind === 'malformed-event') {
      this.requests.push({ body, headers: req.headers });
      res.write(
        'event: content_block_start\ndata: {"type":"content_block_start", "index": 0, "content_block": {\n\n',
      );
      res.end();
      return;
    }
    content.forEach((block, blockIndex) => {
      if (block.type === 'text') {
        send('content_block_start', {
          type: 'content_block_start',
          index: blockIndex,
          content_block: { type: 'text', text: '' },
        });
        send('content_block_delta', {
          type: 'content_block_delta',
          index: blockIndex,
          delta: { type: 'text_delta', text: block.text },
        });
      } else {
        send('content_block_start', {
          type: 'content_block_start',
          index: blockIndex,
          content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
        });
        const json = JSON.stringify(block.input);
        const half = Math.floor(json.length / 2);
        send('content_block_delta', {
          type: 'content_block_delta',
          index: blockIndex,
          delta: { type: 'input_json_delta', partial_json: json.slice(0, half) },
        });
        send('content_block_delta', {
          type: 'content_block_delta',
          index: blockIndex,
          delta: { type: 'input_json_delta', partial_json: json.slice(half) },
        });
      }
      send('content_block_stop', { type: 'content_block_stop', index: blockIndex });
    });
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    });
    send('message_stop', { type: 'message_stop' });
    res.end();
    this.requests.push({ body, headers: req.headers, usage });
    this.turn += 1;
  }
}
