import { EventEmitter } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import type { DebugProtocol } from '@vscode/debugprotocol';

/** A request the adapter did not answer in time: the session is no longer trustworthy. */
export class DapTimeoutError extends Error {
  override readonly name = 'DapTimeoutError';
}

/** The adapter answered a request with `success: false`. */
export class DapRequestError extends Error {
  override readonly name = 'DapRequestError';
}

const HEADER_END = Buffer.from('\r\n\r\n');

/** A failed response's text: its message and the detail of its error body, variables filled in. */
const describeFailure = (command: string, response: DebugProtocol.Response): string => {
  const error = (response as DebugProtocol.ErrorResponse).body?.error;
  const detail = error?.format.replace(
    /\{(\w+)\}/g,
    (m, key: string) => error.variables?.[key] ?? m,
  );
  const message = response.message ?? `${command} failed`;
  return detail && detail !== message ? `${message}: ${detail}` : message;
};

/**
 * A Debug Adapter Protocol client over a byte stream (the adapter's stdio, or
 * a relay to the socket it listens on): Content-Length framing, requests with
 * timeouts, events, and refusals of the reverse requests regreen does not
 * support (a terminal to run in).
 */
export class DapClient {
  private seq = 1;
  private buffer = Buffer.alloc(0);
  private readonly pending = new Map<
    number,
    {
      resolve: (r: DebugProtocol.Response) => void;
      reject: (e: Error) => void;
      timer: NodeJS.Timeout;
    }
  >();
  private closedWhy: string | undefined;
  readonly events = new EventEmitter();

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly requestTimeoutMs: number,
  ) {
    input.on('data', (chunk: Buffer) => this.receive(chunk));
    input.on('close', () => this.close('the adapter closed its output'));
    this.events.setMaxListeners(50);
  }

  private receive(chunk: Buffer): void {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (;;) {
      const end = this.buffer.indexOf(HEADER_END);
      if (end < 0) return;
      const header = this.buffer.subarray(0, end).toString('ascii');
      const length = Number(/Content-Length:\s*(\d+)/i.exec(header)?.[1] ?? NaN);
      if (!Number.isFinite(length)) {
        // Not DAP (an adapter printing to stdout): drop up to the header end.
        this.buffer = this.buffer.subarray(end + HEADER_END.length);
        continue;
      }
      const start = end + HEADER_END.length;
      if (this.buffer.length < start + length) return;
      const body = this.buffer.subarray(start, start + length).toString('utf8');
      this.buffer = this.buffer.subarray(start + length);
      try {
        this.dispatch(JSON.parse(body) as DebugProtocol.ProtocolMessage);
      } catch {
        // a malformed message is skipped
      }
    }
  }

  private dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === 'response') {
      const response = message as DebugProtocol.Response;
      const waiter = this.pending.get(response.request_seq);
      if (!waiter) return;
      this.pending.delete(response.request_seq);
      clearTimeout(waiter.timer);
      waiter.resolve(response);
    } else if (message.type === 'event') {
      const event = message as DebugProtocol.Event;
      this.events.emit('event', event);
      this.events.emit(event.event, event);
    } else if (message.type === 'request') {
      const request = message as DebugProtocol.Request;
      this.send({
        type: 'response',
        request_seq: request.seq,
        success: false,
        command: request.command,
        message: `regreen does not support the reverse request ${request.command}`,
      });
    }
  }

  private send(message: Record<string, unknown>): void {
    const body = Buffer.from(JSON.stringify({ seq: this.seq++, ...message }), 'utf8');
    this.output.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
  }

  get closed(): string | undefined {
    return this.closedWhy;
  }

  /** Sends a request; resolves with the response, rejects on failure, timeout or close. */
  request<R extends DebugProtocol.Response = DebugProtocol.Response>(
    command: string,
    args?: unknown,
    timeoutMs = this.requestTimeoutMs,
  ): Promise<R> {
    if (this.closedWhy) return Promise.reject(new Error(this.closedWhy));
    const seq = this.seq;
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(seq);
        reject(
          new DapTimeoutError(
            `the debug adapter did not answer ${command} within ${Math.round(timeoutMs / 1000)} s`,
          ),
        );
      }, timeoutMs);
      this.pending.set(seq, {
        resolve: (response) =>
          response.success
            ? resolve(response as R)
            : reject(new DapRequestError(describeFailure(command, response))),
        reject,
        timer,
      });
      this.send({ type: 'request', command, ...(args === undefined ? {} : { arguments: args }) });
    });
  }

  close(why: string): void {
    if (this.closedWhy) return;
    this.closedWhy = why;
    for (const waiter of this.pending.values()) {
      clearTimeout(waiter.timer);
      waiter.reject(new Error(why));
    }
    this.pending.clear();
    this.events.emit('closed', why);
  }
}
