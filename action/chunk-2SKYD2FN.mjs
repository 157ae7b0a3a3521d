import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);

// src/errors.ts
var RegreenError = class extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
  }
  code;
  name = "RegreenError";
};
var isRegreenError = (error) => error instanceof RegreenError;
var describeError = (error) => error instanceof Error ? error.message : String(error);

export {
  RegreenError,
  isRegreenError,
  describeError
};
