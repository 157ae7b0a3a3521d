import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyTextEdits,
  editsByFile,
  lspRenameTool
} from "./chunk-ZFU65C2O.mjs";
import "./chunk-GM75WCQG.mjs";
import "./chunk-WXOPQFFL.mjs";
import "./chunk-DME75M6N.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
