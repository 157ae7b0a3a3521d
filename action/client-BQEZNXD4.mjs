import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  LanguageServer,
  LspTimeoutError,
  uriOf
} from "./chunk-WXOPQFFL.mjs";
import "./chunk-DME75M6N.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  LanguageServer,
  LspTimeoutError,
  uriOf
};
