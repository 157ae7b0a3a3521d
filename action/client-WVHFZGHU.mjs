import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  LanguageServer,
  LspTimeoutError,
  uriOf
} from "./chunk-4DHRO7OB.mjs";
import "./chunk-ODBWBH3D.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  LanguageServer,
  LspTimeoutError,
  uriOf
};
