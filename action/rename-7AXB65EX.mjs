import { createRequire as __regreenRequire } from 'node:module';
const require = __regreenRequire(import.meta.url);
import {
  applyTextEdits,
  editsByFile,
  lspRenameTool
} from "./chunk-BQRX2BXM.mjs";
import "./chunk-Z47US34S.mjs";
import "./chunk-EABGHHZK.mjs";
import "./chunk-KFTQKZEH.mjs";
import "./chunk-KWM7AYEU.mjs";
import "./chunk-LINFLWR3.mjs";
export {
  applyTextEdits,
  editsByFile,
  lspRenameTool
};
