import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  answerText,
  questionId
} from "./chunk-MX3TKKOS.mjs";
import {
  describeError
} from "./chunk-2SKYD2FN.mjs";
import {
  defineTool,
  fail,
  ok
} from "./chunk-Z47US34S.mjs";
import {
  external_exports
} from "./chunk-EABGHHZK.mjs";

// src/questions/pending.ts
var SuspendJob = class extends Error {
  constructor(pending) {
    super(`waiting for an answer to question ${pending.id}`);
    this.pending = pending;
  }
  pending;
  name = "SuspendJob";
};

// src/agent/tool-registry.ts
var MAX_TOOL_INPUT_CHARS = 24 * 1024 * 1024;
var jsonSchemas = /* @__PURE__ */ new WeakMap();
var inputSchemaOf = (tool) => {
  let made = jsonSchemas.get(tool.schema);
  if (!made) {
    made = tool.schema.toJSONSchema({ io: "input" });
    jsonSchemas.set(tool.schema, made);
  }
  return structuredClone(made);
};
var formatIssues = (issues) => issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`).join("; ");
var ToolRegistry = class {
  tools = /* @__PURE__ */ new Map();
  constructor(tools = []) {
    for (const tool of tools) this.register(tool);
  }
  register(tool) {
    if (this.tools.has(tool.name)) throw new Error(`tool registered twice: ${tool.name}`);
    this.tools.set(tool.name, tool);
    return () => this.tools.delete(tool.name);
  }
  visible(filter) {
    return [...this.tools.values()].filter(
      (tool) => filter.levels.includes(tool.level) && !(filter.disabled ?? []).includes(tool.name)
    );
  }
  definitions(filter) {
    return this.visible(filter).map((tool) => ({
      name: tool.name,
      description: tool.description,
      level: tool.level,
      inputSchema: inputSchemaOf(tool)
    }));
  }
  /** Validates and runs one call. Never throws: every failure is an isError result. */
  async call(name, input, ctx, signal, filter) {
    const tool = this.visible(filter).find((candidate) => candidate.name === name);
    if (!tool) {
      const names = this.visible(filter).map((candidate) => candidate.name).join(", ");
      return fail(`unknown tool "${name}": the tools available are ${names}`);
    }
    const size = JSON.stringify(input ?? null).length;
    if (size > MAX_TOOL_INPUT_CHARS)
      return fail(
        `the input of ${name} is ${size} characters, over the ${MAX_TOOL_INPUT_CHARS} a call may carry: split the change into smaller calls`
      );
    const parsed = tool.schema.safeParse(input);
    if (!parsed.success)
      return fail(`invalid input for ${name}: ${formatIssues(parsed.error.issues)}`);
    try {
      if (filter.gate && tool.level === "exec") {
        const refused = await filter.gate(name, parsed.data, signal);
        if (refused) return refused;
      }
      if (tool.exclusive && ctx.locks)
        return await ctx.locks.run(tool.name, signal, () => tool.run(parsed.data, ctx, signal));
      return await tool.run(parsed.data, ctx, signal);
    } catch (error) {
      if (error instanceof SuspendJob) throw error;
      ctx.logger.warn({ tool: name, err: error }, "tool threw");
      if (signal.aborted) return fail(`${name} was cancelled`);
      return fail(
        `${name} failed unexpectedly: ${error instanceof Error ? error.message : String(error)}`
      );
    }
  }
};

// tools/ask/index.ts
var OptionSchema = external_exports.object({
  label: external_exports.string().min(1).max(200),
  description: external_exports.string().max(500).optional()
}).strict();
var AskSchema = external_exports.object({
  question: external_exports.string().min(1).max(2e3).describe("What to ask, in one or two sentences"),
  context: external_exports.string().max(4e3).optional().describe("Why you ask and what depends on the answer"),
  options: external_exports.array(OptionSchema).max(10).default([]).describe("Choices, numbered on the card"),
  allow_free_text: external_exports.boolean().default(true).describe("Whether a written answer is accepted"),
  multi_select: external_exports.boolean().default(false).describe("Whether several options may be chosen"),
  timeout_minutes: external_exports.number().positive().max(24 * 60).optional().describe("How long to wait (default: the repository's setting)")
}).strict().refine((q) => q.options.length > 0 || q.allow_free_text, {
  message: "a question with no options must allow free text",
  path: ["allow_free_text"]
});
var normalise = (text) => text.toLowerCase().replace(/\W+/g, " ").trim();
var askFamily = (deps) => {
  const asked = [...deps.asked ?? []];
  const allowedForJob = /* @__PURE__ */ new Set();
  const ask = async (question, timeoutMinutes, signal) => {
    const id = questionId(`${deps.jobKey} ${asked.length}`, question);
    const askedAt = deps.clock.now();
    deps.pause();
    try {
      const { where, pullNumber } = await deps.channel.open(id, question, timeoutMinutes);
      deps.trace.emit({
        type: "note",
        message: "question",
        data: { id, kind: question.kind, question: question.question, where, timeoutMinutes }
      });
      if (deps.suspend && question.kind === "question")
        throw new SuspendJob({
          id,
          question,
          where,
          ...pullNumber ? { pullNumber } : {},
          askedAt,
          deadline: askedAt + timeoutMinutes * 6e4
        });
      const answer = await deps.channel.wait(
        id,
        question,
        askedAt + timeoutMinutes * 6e4,
        signal
      );
      await deps.channel.close(id, question, answer).catch(
        (error) => deps.trace.emit({ type: "note", message: "card not closed", data: describeError(error) })
      );
      const entry = {
        id,
        kind: question.kind,
        question: question.question,
        where,
        askedAt,
        answer
      };
      asked.push(entry);
      deps.trace.emit({ type: "note", message: "answer", data: entry });
      return entry;
    } finally {
      deps.resume();
    }
  };
  const askUser = defineTool({
    name: "ask_user",
    level: "read",
    description: "Ask a person (a maintainer of the repository) a question and wait for the answer. Use it only when the fix depends on something you cannot find out from the code, the tests or the logs \u2014 an intended behaviour, a choice between designs. Give numbered options when you can. The answer may be a choice, text, `skip` or no answer in time: on a skip or a timeout go on under a stated assumption. Ask each question once; never write a question as a plain message (that ends your turn).",
    schema: AskSchema,
    run: async (input, _ctx, signal) => {
      const same = asked.find(
        (a) => a.kind === "question" && normalise(a.question) === normalise(input.question)
      );
      if (same)
        return fail(`already asked; go on with the answer you have: ${answerText(same.answer)}`);
      const question = {
        question: input.question,
        ...input.context ? { context: input.context } : {},
        options: input.options,
        allowFreeText: input.allow_free_text,
        multiSelect: input.multi_select,
        kind: "question"
      };
      try {
        const entry = await ask(question, input.timeout_minutes ?? deps.timeoutMinutes, signal);
        const text = answerText(entry.answer);
        return entry.answer.kind === "timeout" ? fail(text) : ok(text);
      } catch (error) {
        if (error instanceof SuspendJob) throw error;
        return fail(
          `the question could not be asked (${describeError(error)}). Go on under a stated assumption.`
        );
      }
    }
  });
  const permission = async (tool, input, signal) => {
    if (allowedForJob.has(tool)) return void 0;
    const shown = JSON.stringify(input, null, 2);
    const question = {
      question: `May regreen run the \`${tool}\` tool?`,
      context: `With this input:
${shown.length > 1500 ? `${shown.slice(0, 1500)}\u2026` : shown}`,
      options: [
        { label: "Yes, this time" },
        { label: `Yes, every ${tool} call of this job` },
        { label: "No" }
      ],
      allowFreeText: false,
      multiSelect: false,
      kind: "permission"
    };
    let entry;
    try {
      entry = await ask(question, deps.timeoutMinutes, signal);
    } catch (error) {
      return fail(
        `${tool} needs a maintainer's permission, which could not be asked (${describeError(error)}). Go on without it.`
      );
    }
    const { answer } = entry;
    if (answer.kind === "answer" && answer.labels[0]?.startsWith("Yes")) {
      if (answer.labels[0].startsWith("Yes, every")) allowedForJob.add(tool);
      return void 0;
    }
    const why = answer.kind === "answer" ? `@${answer.by} said no` : answer.kind === "skip" ? `@${answer.by} skipped the request` : "no maintainer answered in time";
    return fail(
      `Not allowed to run ${tool}: ${why}. Go on without it and do not ask again for this call.`
    );
  };
  return { tools: [askUser], asked, permission };
};

export {
  SuspendJob,
  inputSchemaOf,
  ToolRegistry,
  askFamily
};
