/**
 * issue 61, class 1: a tool call's input is text strangers steer, bounded
 * where it enters the host: a call over the bound is refused with a message
 * the model can act on, before its tool parses any of it.
 */
import { describe, expect, it } from 'vitest';
import { MAX_TOOL_INPUT_CHARS, ToolRegistry } from '../../src/agent/tool-registry.ts';
import type { ToolContext } from '../../tools/types.ts';
import { coreTools } from '../../tools/index.ts';

describe('a tool call over the input bound', () => {
  it('is refused before its tool reads it, saying what to do', async () => {
    const registry = new ToolRegistry(coreTools());
    const patch = `diff --git a/x b/x\n${'+'.repeat(MAX_TOOL_INPUT_CHARS)}\n`;
    // The context is never reached: the call is refused first.
    const result = await registry.call(
      'apply_patch',
      { patch },
      {} as ToolContext,
      new AbortController().signal,
      { levels: ['read', 'write', 'exec'] },
    );
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('split the change into smaller calls');
  });
});
