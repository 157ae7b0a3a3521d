import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { countTokens, type ScriptedTurn } from './emulated-anthropic.ts';

type Json = Record<string, unknown>;

/**
 * A loopback server speaking OpenAI chat completions with tool calls,
 * replaying the same Anthropic-shaped scripted turns. Prompt tokens are
 * counted from the request; a prefix shared with an earlier request (in
 * 128-token steps, from 1024 tokens on, as OpenAI caches) is reported as
 * cached tokens.
 */
export class EmulatedOpenAI {
  readonly requests: { body: Json; headers: IncomingMessage['headers'] }[] = [];
  private readonly previous: string[] = [];
  private server: Server | undefined;
  private turn = 0;
  url = '';

  constructor(private readonly turns: readonly ScriptedTurn[]) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private cachedTokens(prompt: string): number {
    let best = 0;
    for (const earlier of this.previous) {
      let shared = 0;
      while (
        shared < earlier.length &&
        shared < prompt.length &&
        earlier[shared] === prompt[shared]
      )
        shared += 1;
      best = Math.max(best, shared);
    }
    const tokens = Math.floor(best / 4);
    return tokens < 1024 ? 0 : tokens - (tokens % 128);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
      res.writeHead(404).end();
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
    this.requests.push({ body, headers: req.headers });
    const prompt = JSON.stringify({ tools: body.tools, messages: body.messages });
    const cached = this.cachedTokens(prompt);
    this.previous.push(prompt);
    const system = ((body.messages as Json[])[0]?.content as string | undefined) ?? '';
    const workspace = /checked out at (\S+?)\.? /.exec(system)?.[1] ?? '';
    const scripted = this.turns[this.turn] ?? { content: [{ type: 'text', text: 'Done.' }] };
    this.turn += 1;
    const text = scripted.content
      .flatMap((block) => (block.type === 'text' ? [block.text] : []))
      .join('\n');
    const calls = scripted.content.flatMap((block) =>
      block.type === 'tool_use'
        ? [
            {
              id: block.id,
              type: 'function',
              // A string input is sent as raw arguments (so a test can send invalid JSON).
              function: {
                name: block.name,
                arguments: (typeof block.input === 'string'
                  ? block.input
                  : JSON.stringify(block.input)
                ).replaceAll('$WORKSPACE', workspace),
              },
            },
          ]
        : [],
    );
    const completion = {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: text || null,
            ...(calls.length > 0 ? { tool_calls: calls } : {}),
          },
          finish_reason: calls.length > 0 ? 'tool_calls' : 'stop',
        },
      ],
      usage: {
        prompt_tokens: countTokens(prompt),
        completion_tokens: countTokens(JSON.stringify(scripted.content)),
        total_tokens: 0,
        prompt_tokens_details: { cached_tokens: cached },
      },
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(completion));
  }
}
