import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  LanguageServer,
  LspTimeoutError,
  uriOf
} from "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  LanguageServer,
  LspTimeoutError,
  uriOf
};
